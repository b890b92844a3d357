/* mvt.c - C reference for kernels/mvt.mlir (PolyBench mvt):
 *   x1' = x1 + A * y1;   x2' = x2 + transpose(A) * y2,   N = 4096
 * in the MLIR kernel's order: linalg.matvec (i, j) then linalg.vecmat
 * (j outer over the result, i inner: x2'[j] += y2[i] * A[i][j]).
 * Buffers: A = 0, y1 = 1, y2 = 2, x1 = 3, x2 = 4, results x1' = 5, x2' = 6. */
#include "common.h"

#define N 4096

static float *A, *Y1, *Y2, *X1, *X2, *R1, *R2;

__attribute__((noinline)) static void
mvt(const float (*restrict a)[N], const float *restrict y1,
    const float *restrict y2, const float *restrict x1,
    const float *restrict x2, float *restrict r1, float *restrict r2) {
  for (int i = 0; i < N; ++i)
    r1[i] = x1[i];
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      r1[i] += a[i][j] * y1[j];
  for (int j = 0; j < N; ++j)
    r2[j] = x2[j];
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < N; ++i)
      r2[j] += y2[i] * a[i][j];
}

static void call(void *context) {
  (void)context;
  mvt((const float(*)[N])A, Y1, Y2, X1, X2, R1, R2);
}

int main(int argc, char **argv) {
  A = bench_buffer((size_t)N * N, 0);
  Y1 = bench_buffer(N, 1);
  Y2 = bench_buffer(N, 2);
  X1 = bench_buffer(N, 3);
  X2 = bench_buffer(N, 4);
  R1 = bench_buffer(N, 5);
  R2 = bench_buffer(N, 6);
  struct bench_output outputs[] = {{R1, N}, {R2, N}};
  return bench_main(argc, argv, "mvt", call, NULL, outputs, 2);
}
