/* vecmat.c - C reference for heldout/kernels/vecmat.mlir:
 *   y[j] = sum_i x[i] * A[i][j],  A 3000x2000
 * in linalg.vecmat's order (j outer, i inner). Buffers: x = 0, A = 1,
 * result y = 2. */
#include "common.h"

#define M 3000
#define N 2000

static float *X, *A, *Y;

__attribute__((noinline)) static void vecmat(const float *restrict x,
                                             const float (*restrict a)[N],
                                             float *restrict y) {
  for (int j = 0; j < N; ++j)
    y[j] = 0.0f;
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < M; ++i)
      y[j] += x[i] * a[i][j];
}

static void call(void *context) {
  (void)context;
  vecmat(X, (const float(*)[N])A, Y);
}

int main(int argc, char **argv) {
  X = bench_buffer((size_t)M, 0);
  A = bench_buffer((size_t)M * N, 1);
  Y = bench_buffer((size_t)N, 2);
  struct bench_output outputs[] = {{Y, (size_t)N}};
  return bench_main(argc, argv, "vecmat", call, NULL, outputs, 1);
}
