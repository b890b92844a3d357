/* 2mm.c - C reference for kernels/2mm.mlir (PolyBench 2mm):
 *   tmp = alpha * (A * B);  out = beta * D + tmp * C,  alpha 1.5, beta 1.2
 * in the MLIR kernel's order: tmp = A * B (i, j, k), tmp *= alpha,
 * out = beta * D, out += tmp * C (i, l, j). Built with -DUSE_BLAS the two
 * products are cblas_sgemm calls (link -lopenblas).
 * Buffers: A = 0, B = 1, C = 2, D = 3, result = 4. */
#include "common.h"
#ifdef USE_BLAS
#include <cblas.h>
#endif

#define NI 384
#define NK 448
#define NJ 416
#define NL 480

static float *A, *B, *C, *D, *OUT, *TMP;

#ifdef USE_BLAS
static void call(void *context) {
  (void)context;
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, NI, NJ, NK, 1.5f, A,
              NK, B, NJ, 0.0f, TMP, NJ);
  memcpy(OUT, D, sizeof(float) * NI * NL);
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, NI, NL, NJ, 1.0f, TMP,
              NJ, C, NL, 1.2f, OUT, NL);
}
#else
__attribute__((noinline)) static void
mm2(const float (*restrict a)[NK], const float (*restrict b)[NJ],
    const float (*restrict c)[NL], const float (*restrict d)[NL],
    float (*restrict out)[NL], float (*restrict tmp)[NJ]) {
  for (int i = 0; i < NI; ++i)
    for (int j = 0; j < NJ; ++j)
      tmp[i][j] = 0.0f;
  for (int i = 0; i < NI; ++i)
    for (int j = 0; j < NJ; ++j)
      for (int k = 0; k < NK; ++k)
        tmp[i][j] += a[i][k] * b[k][j];
  for (int i = 0; i < NI; ++i)
    for (int j = 0; j < NJ; ++j)
      tmp[i][j] = 1.5f * tmp[i][j];
  for (int i = 0; i < NI; ++i)
    for (int l = 0; l < NL; ++l)
      out[i][l] = 1.2f * d[i][l];
  for (int i = 0; i < NI; ++i)
    for (int l = 0; l < NL; ++l)
      for (int j = 0; j < NJ; ++j)
        out[i][l] += tmp[i][j] * c[j][l];
}

static void call(void *context) {
  (void)context;
  mm2((const float(*)[NK])A, (const float(*)[NJ])B, (const float(*)[NL])C,
      (const float(*)[NL])D, (float(*)[NL])OUT, (float(*)[NJ])TMP);
}
#endif

int main(int argc, char **argv) {
  A = bench_buffer((size_t)NI * NK, 0);
  B = bench_buffer((size_t)NK * NJ, 1);
  C = bench_buffer((size_t)NJ * NL, 2);
  D = bench_buffer((size_t)NI * NL, 3);
  OUT = bench_buffer((size_t)NI * NL, 4);
  TMP = bench_buffer((size_t)NI * NJ, 5);
  struct bench_output outputs[] = {{OUT, (size_t)NI * NL}};
  return bench_main(argc, argv, "2mm", call, NULL, outputs, 1);
}
