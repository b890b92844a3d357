/* seidel2d.c - C reference for kernels/seidel2d.mlir (PolyBench seidel-2d):
 * T = 20 time steps of a 9-point Gauss-Seidel stencil in place, N = 1024,
 *   A[i][j] = (A[i-1][j-1] + A[i-1][j] + A[i-1][j+1] + A[i][j-1] + A[i][j]
 *            + A[i][j+1] + A[i+1][j-1] + A[i+1][j] + A[i+1][j+1]) / 9
 * summed left to right, for 1 <= i, j < N-1.
 * Buffers: A = 0. */
#include "common.h"

#define N 1024
#define T 20

static float *A;

__attribute__((noinline)) static void seidel2d(float (*restrict a)[N]) {
  for (int t = 0; t < T; ++t)
    for (int i = 1; i < N - 1; ++i)
      for (int j = 1; j < N - 1; ++j)
        a[i][j] = (a[i - 1][j - 1] + a[i - 1][j] + a[i - 1][j + 1] +
                   a[i][j - 1] + a[i][j] + a[i][j + 1] + a[i + 1][j - 1] +
                   a[i + 1][j] + a[i + 1][j + 1]) /
                  9.0f;
}

static void call(void *context) {
  (void)context;
  seidel2d((float(*)[N])A);
}

int main(int argc, char **argv) {
  A = bench_buffer((size_t)N * N, 0);
  struct bench_output outputs[] = {{A, (size_t)N * N}};
  return bench_main(argc, argv, "seidel2d", call, NULL, outputs, 1);
}
