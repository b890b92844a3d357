/* jacobi2d.c - C reference for kernels/jacobi2d.mlir (PolyBench jacobi-2d):
 * T = 10 time steps on N = 2048 grids, in place,
 *   B[i][j] = 0.2 * ((((A[i][j] + A[i][j-1]) + A[i][j+1]) + A[i+1][j]) +
 * A[i-1][j]) A[i][j] = the same on B for 1 <= i, j < N-1. Both grids are
 * outputs. Buffers: A = 0, B = 1. */
#include "common.h"

#define N 2048
#define T 10

static float *A, *B;

__attribute__((noinline)) static void jacobi2d(float (*restrict a)[N],
                                               float (*restrict b)[N]) {
  for (int t = 0; t < T; ++t) {
    for (int i = 1; i < N - 1; ++i)
      for (int j = 1; j < N - 1; ++j)
        b[i][j] =
            0.2f * ((((a[i][j] + a[i][j - 1]) + a[i][j + 1]) + a[i + 1][j]) +
                    a[i - 1][j]);
    for (int i = 1; i < N - 1; ++i)
      for (int j = 1; j < N - 1; ++j)
        a[i][j] =
            0.2f * ((((b[i][j] + b[i][j - 1]) + b[i][j + 1]) + b[i + 1][j]) +
                    b[i - 1][j]);
  }
}

static void call(void *context) {
  (void)context;
  jacobi2d((float(*)[N])A, (float(*)[N])B);
}

int main(int argc, char **argv) {
  A = bench_buffer((size_t)N * N, 0);
  B = bench_buffer((size_t)N * N, 1);
  struct bench_output outputs[] = {{A, (size_t)N * N}, {B, (size_t)N * N}};
  return bench_main(argc, argv, "jacobi2d", call, NULL, outputs, 2);
}
