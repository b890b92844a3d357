// matmul.cpp - Halide generator for kernels/matmul.mlir: C = A * B,
// C starting from zero, the reduction over k innermost as in the reference.
// Buffers: A (M x K), B (K x N) -> C (M x N).
#include "generator.h"

using namespace Halide;

class Matmul : public Generator<Matmul> {
public:
  GeneratorParam<std::string> shapes{"shapes",
                                     "1024x1024,1024x1024,1024x1024"};
  Input<Buffer<float, 2>> A{"A"};
  Input<Buffer<float, 2>> B{"B"};
  Output<Buffer<float, 2>> C{"C"};

  void generate() {
    auto s = bench::parse_shapes(shapes, 3, {2, 2, 2});
    const int K = s[0][1];
    Var i("i"), j("j");
    RDom k(0, K, "k");
    Func product("product");
    product(j, i) = 0.0f;
    product(j, i) += A(k, i) * B(j, k);
    C(j, i) = product(j, i);
    bench::fix(A, s[0]);
    bench::fix(B, s[1]);
    bench::fix(C, s[2]);
  }
};

HALIDE_REGISTER_GENERATOR(Matmul, benchmark)
