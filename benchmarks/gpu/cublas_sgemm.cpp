//===- cublas_sgemm.cpp - cuBLAS SGEMM timing for the GPU benchmark -------===//
//
// Times C = A * B in f32 with cuBLAS (cublasSgemm, column-major, no
// transposes) on one device: CUDA events around each call on one stream, a
// warm-up, then --repetitions timed calls (at least 5); prints the median,
// min and max and the GFLOP/s of the median, and with --json FILE writes them
// as JSON. Tensor cores are kept out: the handle's math mode is
// CUBLAS_PEDANTIC_MATH (no TF32, no reduced precision), whatever
// NVIDIA_TF32_OVERRIDE says. A few entries of C are checked against a
// double-precision dot product on the host.
//
// Exit codes: 0 done, 2 bad command line, 3 a CUDA or cuBLAS call failed,
// 4 no driver or no device.
//
// Build: clang++ -O2 cublas_sgemm.cpp -I<cuda>/include -L<cuda>/lib64
//        -lcublas -lcudart -Wl,-rpath,<cuda>/lib64
//
//===----------------------------------------------------------------------===//

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

[[noreturn]] void failCuda(const char *call, cudaError_t err) {
  std::fprintf(stderr, "cublas_sgemm: %s failed: %s (%s)\n", call,
               cudaGetErrorName(err), cudaGetErrorString(err));
  std::exit(3);
}

[[noreturn]] void failBlas(const char *call, cublasStatus_t status) {
  std::fprintf(stderr, "cublas_sgemm: %s failed: %s (%s)\n", call,
               cublasGetStatusName(status), cublasGetStatusString(status));
  std::exit(3);
}

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess)                                                   \
      failCuda(#call, err_);                                                   \
  } while (0)

#define BLAS_CHECK(call)                                                       \
  do {                                                                         \
    cublasStatus_t status_ = (call);                                           \
    if (status_ != CUBLAS_STATUS_SUCCESS)                                      \
      failBlas(#call, status_);                                                \
  } while (0)

void usage() {
  std::fprintf(stderr,
               "usage: cublas_sgemm [--m M] [--n N] [--k K] [--repetitions R "
               "(>= 5, default 7)] [--warmup W (default 3)] [--device D] "
               "[--json FILE]\n");
}

bool parseInt(const char *text, long &value) {
  char *end = nullptr;
  value = std::strtol(text, &end, 10);
  return end != text && *end == '\0';
}

} // namespace

int main(int argc, char **argv) {
  long m = 4096, n = 4096, k = 4096, repetitions = 7, warmup = 3, device = 0;
  std::string jsonPath;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      usage();
      return 0;
    }
    if (i + 1 >= argc) {
      std::fprintf(stderr, "cublas_sgemm: %s needs a value\n", arg.c_str());
      usage();
      return 2;
    }
    const char *value = argv[++i];
    long *target = arg == "--m"             ? &m
                   : arg == "--n"           ? &n
                   : arg == "--k"           ? &k
                   : arg == "--repetitions" ? &repetitions
                   : arg == "--warmup"      ? &warmup
                   : arg == "--device"      ? &device
                                            : nullptr;
    if (arg == "--json") {
      jsonPath = value;
      continue;
    }
    if (!target) {
      std::fprintf(stderr, "cublas_sgemm: unknown option '%s'\n", arg.c_str());
      usage();
      return 2;
    }
    if (!parseInt(value, *target)) {
      std::fprintf(stderr, "cublas_sgemm: %s takes an integer, not '%s'\n",
                   arg.c_str(), value);
      return 2;
    }
  }
  if (m <= 0 || n <= 0 || k <= 0 || m > 65536 || n > 65536 || k > 65536) {
    std::fprintf(stderr, "cublas_sgemm: sizes must be in 1..65536 (got "
                         "M=%ld N=%ld K=%ld)\n", m, n, k);
    return 2;
  }
  if (repetitions < 5 || warmup < 1 || device < 0) {
    std::fprintf(stderr, "cublas_sgemm: --repetitions must be >= 5, --warmup "
                         ">= 1 and --device >= 0\n");
    return 2;
  }

  // No driver (cudaErrorInsufficientDriver, cudaErrorNoDevice, ...) or no
  // device: exit code 4, before anything else touches CUDA.
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    std::fprintf(stderr,
                 "cublas_sgemm: no CUDA device: %s (%s); this program needs "
                 "an NVIDIA GPU and its driver (nvidia-smi -L lists them)\n",
                 err != cudaSuccess ? cudaGetErrorName(err) : "0 devices",
                 err != cudaSuccess ? cudaGetErrorString(err)
                                    : "cudaGetDeviceCount found none");
    return 4;
  }
  if (device >= count) {
    std::fprintf(stderr, "cublas_sgemm: no device %ld (%d found)\n", device,
                 count);
    return 4;
  }
  CUDA_CHECK(cudaSetDevice(static_cast<int>(device)));
  cudaDeviceProp props;
  CUDA_CHECK(cudaGetDeviceProperties(&props, static_cast<int>(device)));

  std::vector<float> hostA(static_cast<size_t>(m) * k),
      hostB(static_cast<size_t>(k) * n), hostC(static_cast<size_t>(m) * n);
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (float &x : hostA)
    x = dist(rng);
  for (float &x : hostB)
    x = dist(rng);

  float *a = nullptr, *b = nullptr, *c = nullptr;
  CUDA_CHECK(cudaMalloc(&a, hostA.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&b, hostB.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&c, hostC.size() * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(a, hostA.data(), hostA.size() * sizeof(float),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(b, hostB.data(), hostB.size() * sizeof(float),
                        cudaMemcpyHostToDevice));

  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));
  cublasHandle_t handle;
  BLAS_CHECK(cublasCreate(&handle));
  BLAS_CHECK(cublasSetStream(handle, stream));
  BLAS_CHECK(cublasSetMathMode(handle, CUBLAS_PEDANTIC_MATH));

  const float alpha = 1.0f, beta = 0.0f;
  auto sgemm = [&] {
    BLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N,
                           static_cast<int>(m), static_cast<int>(n),
                           static_cast<int>(k), &alpha, a,
                           static_cast<int>(m), b, static_cast<int>(k), &beta,
                           c, static_cast<int>(m)));
  };
  for (long i = 0; i < warmup; ++i)
    sgemm();
  CUDA_CHECK(cudaStreamSynchronize(stream));

  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  std::vector<double> seconds;
  for (long i = 0; i < repetitions; ++i) {
    CUDA_CHECK(cudaEventRecord(start, stream));
    sgemm();
    CUDA_CHECK(cudaEventRecord(stop, stream));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    seconds.push_back(ms * 1e-3);
  }
  CUDA_CHECK(cudaMemcpy(hostC.data(), c, hostC.size() * sizeof(float),
                        cudaMemcpyDeviceToHost));

  // Spot check (column-major): C(i, j) = sum_p A(i, p) * B(p, j).
  double worst = 0;
  const long rows[] = {0, m / 3, m - 1}, cols[] = {0, n / 2, n - 1};
  for (long i : rows)
    for (long j : cols) {
      double expected = 0, magnitude = 0;
      for (long p = 0; p < k; ++p) {
        double term = double(hostA[p * m + i]) * double(hostB[j * k + p]);
        expected += term;
        magnitude += std::fabs(term);
      }
      double error = std::fabs(double(hostC[j * m + i]) - expected) /
                     std::max(magnitude, 1e-30);
      worst = std::max(worst, error);
    }
  bool ok = worst < 1e-4;

  std::vector<double> sorted = seconds;
  std::sort(sorted.begin(), sorted.end());
  double median = sorted.size() % 2
                      ? sorted[sorted.size() / 2]
                      : 0.5 * (sorted[sorted.size() / 2 - 1] +
                               sorted[sorted.size() / 2]);
  double gflops = 2.0 * m * n * k / median * 1e-9;
  std::printf("cublas_sgemm: %s, M=%ld N=%ld K=%ld, CUBLAS_PEDANTIC_MATH: "
              "median %.4f ms (min %.4f, max %.4f) over %ld repetitions, "
              "%.1f GFLOP/s; spot check %s (max relative error %.2g)\n",
              props.name, m, n, k, median * 1e3, sorted.front() * 1e3,
              sorted.back() * 1e3, repetitions, gflops, ok ? "ok" : "FAILED",
              worst);
  if (!jsonPath.empty()) {
    FILE *out = std::fopen(jsonPath.c_str(), "w");
    if (!out) {
      std::fprintf(stderr, "cublas_sgemm: cannot write %s: %s\n",
                   jsonPath.c_str(), std::strerror(errno));
      return 3;
    }
    std::fprintf(out,
                 "{\"device\": \"%s\", \"m\": %ld, \"n\": %ld, \"k\": %ld, "
                 "\"math_mode\": \"CUBLAS_PEDANTIC_MATH\", \"repetitions\": "
                 "%ld, \"median_s\": %.9g, \"min_s\": %.9g, \"max_s\": %.9g, "
                 "\"gflops\": %.3f, \"check_ok\": %s, "
                 "\"check_max_rel_error\": %.3g}\n",
                 props.name, m, n, k, repetitions, median, sorted.front(),
                 sorted.back(), gflops, ok ? "true" : "false", worst);
    std::fclose(out);
  }

  cublasDestroy(handle);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaStreamDestroy(stream);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  return ok ? 0 : 3;
}
