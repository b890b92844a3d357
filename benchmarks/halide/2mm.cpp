// 2mm.cpp - Halide generator for kernels/2mm.mlir (PolyBench 2mm):
//   tmp = 1.5 * (A * B);   out = 1.2 * D + tmp * C
// in the reference's order: tmp = A * B, scaled by alpha, then out starts
// from beta * D and accumulates tmp * C.
// Buffers: A (NI x NK), B (NK x NJ), C (NJ x NL), D (NI x NL) -> out (NI x NL).
#include "generator.h"

using namespace Halide;

class TwoMM : public Generator<TwoMM> {
public:
  GeneratorParam<std::string> shapes{
      "shapes", "384x448,448x416,416x480,384x480,384x480"};
  Input<Buffer<float, 2>> A{"A"};
  Input<Buffer<float, 2>> B{"B"};
  Input<Buffer<float, 2>> C{"C"};
  Input<Buffer<float, 2>> D{"D"};
  Output<Buffer<float, 2>> out{"out"};

  void generate() {
    auto s = bench::parse_shapes(shapes, 5, {2, 2, 2, 2, 2});
    const int NK = s[0][1], NJ = s[1][1];
    Var i("i"), j("j"), l("l");
    RDom k(0, NK, "k"), r(0, NJ, "r");
    Func ab("ab"), tmp("tmp"), acc("acc");
    ab(j, i) = 0.0f;
    ab(j, i) += A(k, i) * B(j, k);
    tmp(j, i) = 1.5f * ab(j, i);
    acc(l, i) = 1.2f * D(l, i);
    acc(l, i) += tmp(r, i) * C(l, r);
    out(l, i) = acc(l, i);
    bench::fix(A, s[0]);
    bench::fix(B, s[1]);
    bench::fix(C, s[2]);
    bench::fix(D, s[3]);
    bench::fix(out, s[4]);
  }
};

HALIDE_REGISTER_GENERATOR(TwoMM, benchmark)
