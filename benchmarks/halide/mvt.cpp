// mvt.cpp - Halide generator for kernels/mvt.mlir (PolyBench mvt):
//   x1'(i) = x1(i) + sum_j A[i][j] y1(j);  x2'(j) = x2(j) + sum_i y2(i) A[i][j]
// two outputs of one pipeline. Buffers: A (N x N), y1, y2, x1, x2 (N) ->
// x1', x2' (N).
#include "generator.h"

using namespace Halide;

class Mvt : public Generator<Mvt> {
public:
  GeneratorParam<std::string> shapes{
      "shapes", "4096x4096,4096,4096,4096,4096,4096,4096"};
  Input<Buffer<float, 2>> A{"A"};
  Input<Buffer<float, 1>> y1{"y1"};
  Input<Buffer<float, 1>> y2{"y2"};
  Input<Buffer<float, 1>> x1{"x1"};
  Input<Buffer<float, 1>> x2{"x2"};
  Output<Buffer<float, 1>> r1{"r1"};
  Output<Buffer<float, 1>> r2{"r2"};

  void generate() {
    auto s = bench::parse_shapes(shapes, 7, {2, 1, 1, 1, 1, 1, 1});
    Var i("i"), j("j");
    RDom rj(0, s[0][1], "rj"), ri(0, s[0][0], "ri");
    Func s1("s1"), s2("s2");
    s1(i) = x1(i);
    s1(i) += A(rj, i) * y1(rj);
    s2(j) = x2(j);
    s2(j) += y2(ri) * A(j, ri);
    r1(i) = s1(i);
    r2(j) = s2(j);
    bench::fix(A, s[0]);
    bench::fix(y1, s[1]);
    bench::fix(y2, s[2]);
    bench::fix(x1, s[3]);
    bench::fix(x2, s[4]);
    bench::fix(r1, s[5]);
    bench::fix(r2, s[6]);
  }
};

HALIDE_REGISTER_GENERATOR(Mvt, benchmark)
