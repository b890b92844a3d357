/* small_mm.c - C reference for the smoke test's small_mm.mlir: C = A * B on
 * 64x64 f32 matrices, in linalg.matmul's order; -DUSE_BLAS calls OpenBLAS.
 * Buffers: A = 0, B = 1, result C = 2. */
#include "common.h"
#ifdef USE_BLAS
#include <cblas.h>
#endif

#define N 64

static float *A, *B, *C;

#ifdef USE_BLAS
static void call(void *context) {
  (void)context;
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, N, N, N, 1.0f, A, N,
              B, N, 0.0f, C, N);
}
#else
__attribute__((noinline)) static void mm(const float (*restrict a)[N],
                                         const float (*restrict b)[N],
                                         float (*restrict c)[N]) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      c[i][j] = 0.0f;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < N; ++k)
        c[i][j] += a[i][k] * b[k][j];
}

static void call(void *context) {
  (void)context;
  mm((const float(*)[N])A, (const float(*)[N])B, (float(*)[N])C);
}
#endif

int main(int argc, char **argv) {
  A = bench_buffer((size_t)N * N, 0);
  B = bench_buffer((size_t)N * N, 1);
  C = bench_buffer((size_t)N * N, 2);
  struct bench_output outputs[] = {{C, (size_t)N * N}};
  return bench_main(argc, argv, "small_mm", call, NULL, outputs, 1);
}
