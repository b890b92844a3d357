/* heat3d.c - C reference for kernels/heat3d.mlir: one time step of PolyBench
 * heat-3d's update, 7-point stencil, N = 320, the input with a 1-point halo;
 * with c = in[i+1][j+1][k+1]:
 *   out = 0.125 * (in[i+2][j+1][k+1] - 2c + in[i][j+1][k+1])
 *       + 0.125 * (in[i+1][j+2][k+1] - 2c + in[i+1][j][k+1])
 *       + 0.125 * (in[i+1][j+1][k+2] - 2c + in[i+1][j+1][k]) + c
 * Buffers: in = 0, result = 1. */
#include "common.h"

#define N 320

static float *IN, *OUT;

__attribute__((noinline)) static void
heat3d(const float (*restrict in)[N + 2][N + 2], float (*restrict out)[N][N]) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < N; ++k) {
        float c = in[i + 1][j + 1][k + 1];
        float c2 = 2.0f * c;
        float di =
            0.125f * ((in[i + 2][j + 1][k + 1] - c2) + in[i][j + 1][k + 1]);
        float dj =
            0.125f * ((in[i + 1][j + 2][k + 1] - c2) + in[i + 1][j][k + 1]);
        float dk =
            0.125f * ((in[i + 1][j + 1][k + 2] - c2) + in[i + 1][j + 1][k]);
        out[i][j][k] = ((di + dj) + dk) + c;
      }
}

static void call(void *context) {
  (void)context;
  heat3d((const float(*)[N + 2][N + 2]) IN, (float(*)[N][N])OUT);
}

int main(int argc, char **argv) {
  IN = bench_buffer((size_t)(N + 2) * (N + 2) * (N + 2), 0);
  OUT = bench_buffer((size_t)N * N * N, 1);
  struct bench_output outputs[] = {{OUT, (size_t)N * N * N}};
  return bench_main(argc, argv, "heat3d", call, NULL, outputs, 1);
}
