// doitgen.cpp - Halide generator for kernels/doitgen.mlir (PolyBench
// doitgen): out(p, q, r) = sum_s A(s, q, r) * C4(p, s).
// Buffers: A (R x Q x P), C4 (P x P) -> out (R x Q x P).
#include "generator.h"

using namespace Halide;

class Doitgen : public Generator<Doitgen> {
public:
  GeneratorParam<std::string> shapes{"shapes",
                                     "64x64x128,128x128,64x64x128"};
  Input<Buffer<float, 3>> A{"A"};
  Input<Buffer<float, 2>> C4{"C4"};
  Output<Buffer<float, 3>> out{"out"};

  void generate() {
    auto s = bench::parse_shapes(shapes, 3, {3, 2, 3});
    const int S = s[1][0];
    Var p("p"), q("q"), r("r");
    RDom k(0, S, "s");
    Func sum("sum");
    sum(p, q, r) = 0.0f;
    sum(p, q, r) += A(k, q, r) * C4(p, k);
    out(p, q, r) = sum(p, q, r);
    bench::fix(A, s[0]);
    bench::fix(C4, s[1]);
    bench::fix(out, s[2]);
  }
};

HALIDE_REGISTER_GENERATOR(Doitgen, benchmark)
