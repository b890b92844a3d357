/* rowsumsq.c - C reference for heldout/kernels/rowsumsq.mlir:
 *   out[i] = sum_j A[i][j] * A[i][j],  A 4096x1536, in the kernel's order.
 * Buffers: A = 0, result out = 1. */
#include "common.h"

#define M 4096
#define N 1536

static float *A, *OUT;

__attribute__((noinline)) static void rowsumsq(const float (*restrict a)[N],
                                               float *restrict out) {
  for (int i = 0; i < M; ++i)
    out[i] = 0.0f;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      out[i] += a[i][j] * a[i][j];
}

static void call(void *context) {
  (void)context;
  rowsumsq((const float(*)[N])A, OUT);
}

int main(int argc, char **argv) {
  A = bench_buffer((size_t)M * N, 0);
  OUT = bench_buffer((size_t)M, 1);
  struct bench_output outputs[] = {{OUT, (size_t)M}};
  return bench_main(argc, argv, "rowsumsq", call, NULL, outputs, 1);
}
