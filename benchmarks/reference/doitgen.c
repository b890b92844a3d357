/* doitgen.c - C reference for kernels/doitgen.mlir (PolyBench doitgen):
 *   out[r][q][p] = sum_s A[r][q][s] * C4[s][p],  R = Q = 64, P = S = 128
 * in the MLIR kernel's order (r, q, p, s), out zero-filled first.
 * Buffers: A = 0, C4 = 1, result = 2. */
#include "common.h"

#define R 64
#define Q 64
#define P 128

static float *A, *C4, *OUT;

__attribute__((noinline)) static void doitgen(const float (*restrict a)[Q][P],
                                              const float (*restrict c4)[P],
                                              float (*restrict out)[Q][P]) {
  for (int r = 0; r < R; ++r)
    for (int q = 0; q < Q; ++q)
      for (int p = 0; p < P; ++p)
        out[r][q][p] = 0.0f;
  for (int r = 0; r < R; ++r)
    for (int q = 0; q < Q; ++q)
      for (int p = 0; p < P; ++p)
        for (int s = 0; s < P; ++s)
          out[r][q][p] += a[r][q][s] * c4[s][p];
}

static void call(void *context) {
  (void)context;
  doitgen((const float(*)[Q][P])A, (const float(*)[P])C4, (float(*)[Q][P])OUT);
}

int main(int argc, char **argv) {
  A = bench_buffer((size_t)R * Q * P, 0);
  C4 = bench_buffer((size_t)P * P, 1);
  OUT = bench_buffer((size_t)R * Q * P, 2);
  struct bench_output outputs[] = {{OUT, (size_t)R * Q * P}};
  return bench_main(argc, argv, "doitgen", call, NULL, outputs, 1);
}
