// cvtcolor.cpp - Halide generator for kernels/cvtcolor.mlir: planar RGB to
// gray, gray(x, y) = (0.299 r + 0.587 g) + 0.114 b.
// Buffers: rgb (3 x H x W) -> gray (H x W).
#include "generator.h"

using namespace Halide;

class CvtColor : public Generator<CvtColor> {
public:
  GeneratorParam<std::string> shapes{"shapes", "3x4096x4096,4096x4096"};
  Input<Buffer<float, 3>> rgb{"rgb"};
  Output<Buffer<float, 2>> gray{"gray"};

  void generate() {
    auto s = bench::parse_shapes(shapes, 2, {3, 2});
    Var x("x"), y("y");
    gray(x, y) = (0.299f * rgb(x, y, 0) + 0.587f * rgb(x, y, 1)) +
                 0.114f * rgb(x, y, 2);
    bench::fix(rgb, s[0]);
    bench::fix(gray, s[1]);
  }
};

HALIDE_REGISTER_GENERATOR(CvtColor, benchmark)
