// halide_bench.cpp - The benchmark kernels written in Halide 14 and scheduled
// by one of its autoschedulers (Adams2019: a learned cost model with beam
// search; Mullapudi2016: a cost heuristic), JIT-compiled, then timed with the
// protocol of ../reference/common.h on the same deterministic inputs, so that
// benchmarks/run.py can put them in the table beside the tuner.
//
//   halide_bench KERNEL AUTOSCHEDULER THREADS [--dump FILE] [--reps N] [--min-time S]
//
// prints one JSON line like the C references, plus "autoschedule_s" (seconds
// the autoscheduler took). Kernels: matmul, convolution, conv_relu, doitgen,
// heat2d, heat3d, cvtcolor, box_blur, mvt. The others of the suite are left
// out: jacobi2d and seidel2d update their grids in place across time steps,
// which a Halide pipeline cannot express; 2mm is two matrix products plus
// scalings, which the suite compares with BLAS.
#include "Halide.h"

extern "C" {
#include "common.h"
}

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

using namespace Halide;

namespace {

/// A kernel: its inputs (filled like the MLIR function's buffers 0..n-1),
/// its output buffer, and the pipeline computing it.
struct Kernel {
  std::vector<Buffer<float>> inputs;
  Buffer<float> output;
  Func result;
};

Buffer<float> buffer(std::vector<int> extents, unsigned index) {
  // Halide's first dimension is the innermost: reverse the C shape.
  std::vector<int> sizes(extents.rbegin(), extents.rend());
  Buffer<float> b(sizes);
  size_t n = b.number_of_elements();
  float *data = b.data();
  for (size_t i = 0; i < n; ++i)
    data[i] = bench_value(index, i);
  return b;
}

/// An input as an ImageParam bound to `b`, with `b`'s extents as the
/// autoscheduler's estimates (Adams2019 plans from them).
ImageParam input(const Buffer<float> &b) {
  ImageParam param(Float(32), b.dimensions());
  for (int d = 0; d < b.dimensions(); ++d)
    param.dim(d).set_estimate(0, b.dim(d).extent());
  param.set(b);
  return param;
}

Kernel matmul() {
  const int N = 1024;
  Kernel k;
  k.inputs = {buffer({N, N}, 0), buffer({N, N}, 1)};
  ImageParam A = input(k.inputs[0]), B = input(k.inputs[1]);
  Var i("i"), j("j");
  RDom r(0, N);
  Func C("C");
  C(j, i) = 0.0f;
  C(j, i) += A(r, i) * B(j, r);
  k.result = C;
  k.output = Buffer<float>(N, N);
  C.set_estimates({{0, N}, {0, N}});
  return k;
}

Kernel convolution(bool relu) {
  const int BN = 8, BC = 3, BF = 2, H = 1024, W = 1024, K = 3;
  Kernel k;
  k.inputs = {buffer({BN, BC, H + K - 1, W + K - 1}, 0),
              buffer({BF, BC, K, K}, 1), buffer({BF}, 2)};
  ImageParam in = input(k.inputs[0]), w = input(k.inputs[1]),
             bias = input(k.inputs[2]);
  Var x("x"), y("y"), f("f"), n("n");
  RDom r(0, K, 0, K, 0, BC);
  Func conv("conv");
  conv(x, y, f, n) = bias(f);
  conv(x, y, f, n) += in(x + r.x, y + r.y, r.z, n) * w(r.x, r.y, r.z, f);
  Func out("out");
  if (relu)
    out(x, y, f, n) = max(conv(x, y, f, n), 0.0f);
  else
    out(x, y, f, n) = conv(x, y, f, n);
  k.result = out;
  k.output = Buffer<float>(W, H, BF, BN);
  out.set_estimates({{0, W}, {0, H}, {0, BF}, {0, BN}});
  return k;
}

Kernel doitgen() {
  const int R = 64, Q = 64, P = 128;
  Kernel k;
  k.inputs = {buffer({R, Q, P}, 0), buffer({P, P}, 1)};
  ImageParam A = input(k.inputs[0]), C4 = input(k.inputs[1]);
  Var p("p"), q("q"), rr("rr");
  RDom s(0, P);
  Func out("out");
  out(p, q, rr) = 0.0f;
  out(p, q, rr) += A(s, q, rr) * C4(p, s);
  k.result = out;
  k.output = Buffer<float>(P, Q, R);
  out.set_estimates({{0, P}, {0, Q}, {0, R}});
  return k;
}

Kernel heat2d() {
  const int N = 6144;
  Kernel k;
  k.inputs = {buffer({N + 2, N + 2}, 0)};
  ImageParam in = input(k.inputs[0]);
  Var x("x"), y("y");
  Func out("out");
  out(x, y) = 0.6f * in(x + 1, y + 1) +
              0.1f * (((in(x + 1, y) + in(x + 1, y + 2)) + in(x, y + 1)) +
                      in(x + 2, y + 1));
  k.result = out;
  k.output = Buffer<float>(N, N);
  out.set_estimates({{0, N}, {0, N}});
  return k;
}

Kernel heat3d() {
  const int N = 320;
  Kernel k;
  k.inputs = {buffer({N + 2, N + 2, N + 2}, 0)};
  ImageParam in = input(k.inputs[0]);
  Var x("x"), y("y"), z("z");
  Func out("out");
  Expr c = in(x + 1, y + 1, z + 1);
  out(x, y, z) = c + 0.125f * (in(x + 1, y + 1, z + 2) - 2.0f * c +
                               in(x + 1, y + 1, z)) +
                 0.125f * (in(x + 1, y + 2, z + 1) - 2.0f * c +
                           in(x + 1, y, z + 1)) +
                 0.125f * (in(x + 2, y + 1, z + 1) - 2.0f * c +
                           in(x, y + 1, z + 1));
  k.result = out;
  k.output = Buffer<float>(N, N, N);
  out.set_estimates({{0, N}, {0, N}, {0, N}});
  return k;
}

Kernel cvtcolor() {
  const int N = 4096;
  Kernel k;
  k.inputs = {buffer({3, N, N}, 0)};
  ImageParam rgb = input(k.inputs[0]);
  Var x("x"), y("y");
  Func gray("gray");
  gray(x, y) = (0.299f * rgb(x, y, 0) + 0.587f * rgb(x, y, 1)) +
               0.114f * rgb(x, y, 2);
  k.result = gray;
  k.output = Buffer<float>(N, N);
  gray.set_estimates({{0, N}, {0, N}});
  return k;
}

Kernel boxBlur() {
  const int C = 3, N = 2048;
  Kernel k;
  k.inputs = {buffer({C, N + 2, N + 2}, 0)};
  ImageParam in = input(k.inputs[0]);
  Var x("x"), y("y"), c("c");
  Func bx("bx"), out("out");
  bx(x, y, c) = ((in(x, y, c) + in(x + 1, y, c)) + in(x + 2, y, c)) / 3.0f;
  out(x, y, c) = ((bx(x, y, c) + bx(x, y + 1, c)) + bx(x, y + 2, c)) / 3.0f;
  k.result = out;
  k.output = Buffer<float>(N, N, C);
  out.set_estimates({{0, N}, {0, N}, {0, C}});
  return k;
}

Kernel mvt() {
  const int N = 4096;
  Kernel k;
  k.inputs = {buffer({N, N}, 0), buffer({N}, 1), buffer({N}, 2),
              buffer({N}, 3), buffer({N}, 4)};
  ImageParam A = input(k.inputs[0]), y1 = input(k.inputs[1]),
             y2 = input(k.inputs[2]), x1 = input(k.inputs[3]),
             x2 = input(k.inputs[4]);
  Var i("i"), t("t");
  RDom j(0, N);
  Func r1("r1"), r2("r2"), out("out");
  r1(i) = x1(i);
  r1(i) += A(j, i) * y1(j);
  r2(i) = x2(i);
  r2(i) += y2(j) * A(i, j);
  // Both results in one output: row 0 is x1', row 1 is x2'.
  out(i, t) = select(t == 0, r1(i), r2(i));
  k.result = out;
  k.output = Buffer<float>(N, 2);
  out.set_estimates({{0, N}, {0, 2}});
  return k;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s KERNEL Adams2019|Mullapudi2016 THREADS "
                    "[--reps N] [--min-time S] [--dump FILE]\n", argv[0]);
    return 2;
  }
  std::string name = argv[1], scheduler = argv[2];
  int threads = atoi(argv[3]);
  std::map<std::string, Kernel (*)()> kernels = {
      {"matmul", matmul},      {"doitgen", doitgen},   {"heat2d", heat2d},
      {"heat3d", heat3d},      {"cvtcolor", cvtcolor}, {"box_blur", boxBlur},
      {"mvt", mvt},
      {"convolution", [] { return convolution(false); }},
      {"conv_relu", [] { return convolution(true); }}};
  auto found = kernels.find(name);
  if (found == kernels.end() || threads < 1 ||
      (scheduler != "Adams2019" && scheduler != "Mullapudi2016")) {
    fprintf(stderr, "unknown kernel or autoscheduler, or bad thread count\n");
    return 2;
  }
  struct bench_options options = {5, 0.02, NULL};
  for (int i = 4; i < argc; ++i)
    if (!bench_parse_option(argc, argv, &i, &options))
      bench_usage(argv[0]);

  Kernel kernel = found->second();
  Target target = get_host_target();
  load_plugin(scheduler == "Adams2019" ? "libautoschedule_adams2019.so"
                                       : "libautoschedule_mullapudi2016.so");
  Pipeline pipeline(kernel.result);
  auto start = std::chrono::steady_clock::now();
  pipeline.auto_schedule(scheduler, target,
                         MachineParams(threads, 32 * 1024 * 1024, 40));
  double scheduling = std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - start)
                          .count();
  pipeline.compile_jit(target);
  Buffer<float> output = kernel.output;
  struct Context {
    Pipeline *pipeline;
    Buffer<float> *output;
  } context{&pipeline, &output};
  auto call = [](void *c) {
    auto *ctx = static_cast<Context *>(c);
    ctx->pipeline->realize(*ctx->output);
  };
  struct bench_output outputs[] = {
      {output.data(), (size_t)output.number_of_elements()}};
  fprintf(stderr, "autoschedule_s %.3f\n", scheduling);
  return bench_execute(name.c_str(), &options, call, &context, outputs, 1);
}
