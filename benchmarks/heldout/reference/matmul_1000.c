/* matmul_1000.c - C reference for heldout/kernels/matmul_1000.mlir: C = A * B on
 * 1000x1000 f32 matrices in linalg.matmul's order (i, j, k); with -DUSE_BLAS,
 * OpenBLAS's cblas_sgemm. Buffers: A = 0, B = 1, result C = 2. */
#include "common.h"
#ifdef USE_BLAS
#include <cblas.h>
#endif

#define M 1000
#define N 1000
#define K 1000

static float *A, *B, *C;

#ifdef USE_BLAS
static void call(void *context) {
  (void)context;
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1.0f, A, K, B,
              N, 0.0f, C, N);
}
#else
__attribute__((noinline)) static void matmul(const float (*restrict a)[K],
                                             const float (*restrict b)[N],
                                             float (*restrict c)[N]) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      c[i][j] = 0.0f;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        c[i][j] += a[i][k] * b[k][j];
}

static void call(void *context) {
  (void)context;
  matmul((const float(*)[K])A, (const float(*)[N])B, (float(*)[N])C);
}
#endif

int main(int argc, char **argv) {
  A = bench_buffer((size_t)M * K, 0);
  B = bench_buffer((size_t)K * N, 1);
  C = bench_buffer((size_t)M * N, 2);
  struct bench_output outputs[] = {{C, (size_t)M * N}};
  return bench_main(argc, argv, "matmul_1000", call, NULL, outputs, 1);
}
