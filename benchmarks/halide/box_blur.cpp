// box_blur.cpp - Halide generator for kernels/box_blur.mlir, Halide's blur:
//   bx(x, y, c)  = (in(x, y, c) + in(x + 1, y, c) + in(x + 2, y, c)) / 3
//   out(x, y, c) = (bx(x, y, c) + bx(x, y + 1, c) + bx(x, y + 2, c)) / 3
// (the input carries the 2-pixel halo). Buffers: in (C x H+2 x W+2) ->
// out (C x H x W).
#include "generator.h"

using namespace Halide;

class BoxBlur : public Generator<BoxBlur> {
public:
  GeneratorParam<std::string> shapes{"shapes", "3x2050x2050,3x2048x2048"};
  Input<Buffer<float, 3>> in{"in"};
  Output<Buffer<float, 3>> out{"out"};

  void generate() {
    auto s = bench::parse_shapes(shapes, 2, {3, 3});
    Var x("x"), y("y"), c("c");
    Func bx("bx");
    bx(x, y, c) = (in(x, y, c) + in(x + 1, y, c) + in(x + 2, y, c)) / 3.0f;
    out(x, y, c) = (bx(x, y, c) + bx(x, y + 1, c) + bx(x, y + 2, c)) / 3.0f;
    bench::fix(in, s[0]);
    bench::fix(out, s[1]);
  }
};

HALIDE_REGISTER_GENERATOR(BoxBlur, benchmark)
