/* matmul.c - C reference for kernels/matmul.mlir: C = A * B on 1024x1024
 * f32 matrices, C starting from zero. The loops run in linalg.matmul's
 * iteration order (i, j, k), as the untuned MLIR kernel does. Built with
 * -DUSE_BLAS it calls OpenBLAS's cblas_sgemm instead (link -lopenblas).
 * Buffers: A = 0, B = 1, result C = 2 (the MLIR function's order). */
#include "common.h"
#ifdef USE_BLAS
#include <cblas.h>
#endif

/* Sizes (MATMUL_SIZE) and the kernel's name may be set by a file that
 * includes this one, as the held-out matmul_1000 and matmul_1021 do (not as
 * M, N, K: cblas.h names its parameters so). */
#ifndef MATMUL_SIZE
#define MATMUL_SIZE 1024
#endif
#define M MATMUL_SIZE
#define N MATMUL_SIZE
#define K MATMUL_SIZE
#ifndef KERNEL_NAME
#define KERNEL_NAME "matmul"
#endif

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
  return bench_main(argc, argv, KERNEL_NAME, call, NULL, outputs, 1);
}
