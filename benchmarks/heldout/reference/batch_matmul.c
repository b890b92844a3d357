/* batch_matmul.c - C reference for heldout/kernels/batch_matmul.mlir:
 *   C[b][i][j] = sum_k A[b][i][k] * B[b][k][j],  16 x 192x224 * 224x160
 * in the kernel's order (b, i, j, k); with -DUSE_BLAS, one cblas_sgemm per
 * batch. Buffers: A = 0, B = 1, result C = 2. */
#include "common.h"
#ifdef USE_BLAS
#include <cblas.h>
#endif

#define NB 16
#define M 192
#define K 224
#define N 160

static float *A, *B, *C;

#ifdef USE_BLAS
static void call(void *context) {
  (void)context;
  for (int b = 0; b < NB; ++b)
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1.0f,
                A + (size_t)b * M * K, K, B + (size_t)b * K * N, N, 0.0f,
                C + (size_t)b * M * N, N);
}
#else
__attribute__((noinline)) static void
batch_matmul(const float (*restrict a)[M][K], const float (*restrict b)[K][N],
             float (*restrict c)[M][N]) {
  for (int n = 0; n < NB; ++n)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        c[n][i][j] = 0.0f;
  for (int n = 0; n < NB; ++n)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        for (int k = 0; k < K; ++k)
          c[n][i][j] += a[n][i][k] * b[n][k][j];
}

static void call(void *context) {
  (void)context;
  batch_matmul((const float(*)[M][K])A, (const float(*)[K][N])B,
               (float(*)[M][N])C);
}
#endif

int main(int argc, char **argv) {
  A = bench_buffer((size_t)NB * M * K, 0);
  B = bench_buffer((size_t)NB * K * N, 1);
  C = bench_buffer((size_t)NB * M * N, 2);
  struct bench_output outputs[] = {{C, (size_t)NB * M * N}};
  return bench_main(argc, argv, "batch_matmul", call, NULL, outputs, 1);
}
