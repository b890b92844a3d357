// heat3d.cpp - Halide generator for kernels/heat3d.mlir: one time step of
// PolyBench heat-3d's update, 7-point stencil, the input with a 1-point halo;
// with c = in(k+1, j+1, i+1), as the reference computes it:
//   out = ((0.125 ((in(k+1, j+1, i+2) - 2c) + in(k+1, j+1, i))
//         + 0.125 ((in(k+1, j+2, i+1) - 2c) + in(k+1, j, i+1)))
//         + 0.125 ((in(k+2, j+1, i+1) - 2c) + in(k, j+1, i+1))) + c
// Buffers: in (N+2 x N+2 x N+2) -> out (N x N x N).
#include "generator.h"

using namespace Halide;

class Heat3D : public Generator<Heat3D> {
public:
  GeneratorParam<std::string> shapes{"shapes", "322x322x322,320x320x320"};
  Input<Buffer<float, 3>> in{"in"};
  Output<Buffer<float, 3>> out{"out"};

  void generate() {
    auto s = bench::parse_shapes(shapes, 2, {3, 3});
    Var i("i"), j("j"), k("k");
    Expr c = in(k + 1, j + 1, i + 1);
    Expr c2 = 2.0f * c;
    Expr di = 0.125f * ((in(k + 1, j + 1, i + 2) - c2) + in(k + 1, j + 1, i));
    Expr dj = 0.125f * ((in(k + 1, j + 2, i + 1) - c2) + in(k + 1, j, i + 1));
    Expr dk = 0.125f * ((in(k + 2, j + 1, i + 1) - c2) + in(k, j + 1, i + 1));
    out(k, j, i) = ((di + dj) + dk) + c;
    bench::fix(in, s[0]);
    bench::fix(out, s[1]);
  }
};

HALIDE_REGISTER_GENERATOR(Heat3D, benchmark)
