// convolution.cpp - Halide generator for kernels/convolution.mlir: a direct
// NCHW convolution with bias, stride 1, no padding,
//   out(x, y, f, n) = bias(f) + sum_{c, ky, kx} in(x + kx, y + ky, c, n)
//                                              * w(kx, ky, c, f)
// the reduction in the reference's order (c outermost, kx innermost).
// conv_relu.cpp includes this file with CONV_RELU defined to follow it with
// out = max(conv, 0), as kernels/conv_relu.mlir does.
// Buffers: in (N x C x H+K-1 x W+K-1), w (F x C x K x K), bias (F) ->
// out (N x F x H x W).
#include "generator.h"

using namespace Halide;

class Convolution : public Generator<Convolution> {
public:
  GeneratorParam<std::string> shapes{
      "shapes", "8x3x1026x1026,2x3x3x3,2,8x2x1024x1024"};
  Input<Buffer<float, 4>> in{"in"};
  Input<Buffer<float, 4>> w{"w"};
  Input<Buffer<float, 1>> bias{"bias"};
  Output<Buffer<float, 4>> out{"out"};

  void generate() {
    auto s = bench::parse_shapes(shapes, 4, {4, 4, 1, 4});
    const int C = s[1][1], K = s[1][2];
    Var x("x"), y("y"), f("f"), n("n");
    RDom r(0, K, 0, K, 0, C, "r");
    Func conv("conv");
    conv(x, y, f, n) = bias(f);
    conv(x, y, f, n) += in(x + r.x, y + r.y, r.z, n) * w(r.x, r.y, r.z, f);
#ifdef CONV_RELU
    out(x, y, f, n) = max(conv(x, y, f, n), 0.0f);
#else
    out(x, y, f, n) = conv(x, y, f, n);
#endif
    bench::fix(in, s[0]);
    bench::fix(w, s[1]);
    bench::fix(bias, s[2]);
    bench::fix(out, s[3]);
  }
};

HALIDE_REGISTER_GENERATOR(Convolution, benchmark)
