/* Times one cblas_sgemm C = alpha A B + beta C (row major, no transpose)
 * of M x K times K x N, or with "2mm" the two calls and the copy of
 * benchmarks/reference/2mm.c's OpenBLAS driver (NI=384 NK=448 NJ=416
 * NL=480): median and minimum of 9 repetitions of at least 20 ms each,
 * after a warm-up (the protocol of tuner-measure).
 * Usage: sgemm M N K | sgemm 2mm (OPENBLAS_NUM_THREADS sets the threads). */
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}
static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}
static int mm2(void) {
  enum { NI = 384, NK = 448, NJ = 416, NL = 480 };
  float *a = malloc(sizeof(float) * NI * NK), *b = malloc(sizeof(float) * NK * NJ),
        *c = malloc(sizeof(float) * NJ * NL), *d = malloc(sizeof(float) * NI * NL),
        *tmp = malloc(sizeof(float) * NI * NJ),
        *out = malloc(sizeof(float) * NI * NL);
  for (long i = 0; i < (long)NI * NK; ++i) a[i] = (i % 7) - 3;
  for (long i = 0; i < (long)NK * NJ; ++i) b[i] = (i % 5) - 2;
  for (long i = 0; i < (long)NJ * NL; ++i) c[i] = (i % 3) - 1;
  for (long i = 0; i < (long)NI * NL; ++i) d[i] = (i % 11) - 5;
  double t[9];
  for (int r = -1; r < 9; ++r) {
    long calls = 0;
    double start = now(), elapsed;
    do {
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, NI, NJ, NK, 1.5f,
                  a, NK, b, NJ, 0.0f, tmp, NJ);
      memcpy(out, d, sizeof(float) * NI * NL);
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, NI, NL, NJ, 1.0f,
                  tmp, NJ, c, NL, 1.2f, out, NL);
      ++calls;
      elapsed = now() - start;
    } while (elapsed < 0.02);
    if (r >= 0)
      t[r] = elapsed / calls;
  }
  qsort(t, 9, sizeof(double), cmp);
  printf("2mm (two sgemm calls): median %.3f ms min %.3f ms\n", 1e3 * t[4],
         1e3 * t[0]);
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 2 && !strcmp(argv[1], "2mm"))
    return mm2();
  if (argc != 4) {
    fprintf(stderr, "usage: sgemm M N K\n");
    return 1;
  }
  int m = atoi(argv[1]), n = atoi(argv[2]), k = atoi(argv[3]);
  float *a = malloc(sizeof(float) * m * k), *b = malloc(sizeof(float) * k * n),
        *c = malloc(sizeof(float) * m * n);
  for (long i = 0; i < (long)m * k; ++i) a[i] = (i % 7) - 3;
  for (long i = 0; i < (long)k * n; ++i) b[i] = (i % 5) - 2;
  for (long i = 0; i < (long)m * n; ++i) c[i] = 0;
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, k,
              b, n, 0.0f, c, n);
  double t[9];
  for (int r = 0; r < 9; ++r) {
    long calls = 0;
    double start = now(), elapsed;
    do {
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a,
                  k, b, n, 0.0f, c, n);
      ++calls;
      elapsed = now() - start;
    } while (elapsed < 0.02);
    t[r] = elapsed / calls;
  }
  qsort(t, 9, sizeof(double), cmp);
  printf("sgemm %dx%dx%d: median %.3f ms min %.3f ms (%.1f GFLOP/s at the "
         "median)\n", m, n, k, 1e3 * t[4], 1e3 * t[0],
         2.0 * m * n * k / t[4] * 1e-9);
  return 0;
}
