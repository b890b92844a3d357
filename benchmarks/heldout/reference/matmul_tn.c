/* matmul_tn.c - C reference for heldout/kernels/matmul_tn.mlir:
 *   C[i][j] = sum_k A[k][i] * B[k][j],  M = 768, N = 512, K = 640
 * in the kernel's order (i, j, k); with -DUSE_BLAS, cblas_sgemm with A
 * transposed. Buffers: A = 0, B = 1, result C = 2. */
#include "common.h"
#ifdef USE_BLAS
#include <cblas.h>
#endif

#define M 768
#define N 512
#define K 640

static float *A, *B, *C;

#ifdef USE_BLAS
static void call(void *context) {
  (void)context;
  cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, M, N, K, 1.0f, A, M, B,
              N, 0.0f, C, N);
}
#else
__attribute__((noinline)) static void matmul_tn(const float (*restrict a)[M],
                                                const float (*restrict b)[N],
                                                float (*restrict c)[N]) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      c[i][j] = 0.0f;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        c[i][j] += a[k][i] * b[k][j];
}

static void call(void *context) {
  (void)context;
  matmul_tn((const float(*)[M])A, (const float(*)[N])B, (float(*)[N])C);
}
#endif

int main(int argc, char **argv) {
  A = bench_buffer((size_t)K * M, 0);
  B = bench_buffer((size_t)K * N, 1);
  C = bench_buffer((size_t)M * N, 2);
  struct bench_output outputs[] = {{C, (size_t)M * N}};
  return bench_main(argc, argv, "matmul_tn", call, NULL, outputs, 1);
}
