// heat2d.cpp - Halide generator for kernels/heat2d.mlir: one time step of
// the 2-D heat equation, 5-point stencil, the input with a 1-point halo,
//   out(j, i) = 0.6 in(j+1, i+1)
//             + 0.1 (((in(j+1, i) + in(j+1, i+2)) + in(j, i+1)) + in(j+2, i+1))
// Buffers: in (H+2 x W+2) -> out (H x W).
#include "generator.h"

using namespace Halide;

class Heat2D : public Generator<Heat2D> {
public:
  GeneratorParam<std::string> shapes{"shapes", "6146x6146,6144x6144"};
  Input<Buffer<float, 2>> in{"in"};
  Output<Buffer<float, 2>> out{"out"};

  void generate() {
    auto s = bench::parse_shapes(shapes, 2, {2, 2});
    Var i("i"), j("j");
    Expr sum = ((in(j + 1, i) + in(j + 1, i + 2)) + in(j, i + 1)) +
               in(j + 2, i + 1);
    out(j, i) = 0.6f * in(j + 1, i + 1) + 0.1f * sum;
    bench::fix(in, s[0]);
    bench::fix(out, s[1]);
  }
};

HALIDE_REGISTER_GENERATOR(Heat2D, benchmark)
