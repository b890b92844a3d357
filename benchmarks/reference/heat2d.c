/* heat2d.c - C reference for kernels/heat2d.mlir: one time step of the 2-D
 * heat equation, 5-point stencil, H = W = 6144, the input with a 1-point halo:
 *   out[i][j] = 0.6 * in[i+1][j+1]
 *             + 0.1 * (((in[i][j+1] + in[i+2][j+1]) + in[i+1][j]) +
 * in[i+1][j+2]) Buffers: in = 0, result = 1. */
#include "common.h"

#define H 6144
#define W 6144

static float *IN, *OUT;

__attribute__((noinline)) static void heat2d(const float (*restrict in)[W + 2],
                                             float (*restrict out)[W]) {
  for (int i = 0; i < H; ++i)
    for (int j = 0; j < W; ++j) {
      float sum =
          ((in[i][j + 1] + in[i + 2][j + 1]) + in[i + 1][j]) + in[i + 1][j + 2];
      float a = 0.6f * in[i + 1][j + 1];
      float b = 0.1f * sum;
      out[i][j] = a + b;
    }
}

static void call(void *context) {
  (void)context;
  heat2d((const float(*)[W + 2]) IN, (float(*)[W])OUT);
}

int main(int argc, char **argv) {
  IN = bench_buffer((size_t)(H + 2) * (W + 2), 0);
  OUT = bench_buffer((size_t)H * W, 1);
  struct bench_output outputs[] = {{OUT, (size_t)H * W}};
  return bench_main(argc, argv, "heat2d", call, NULL, outputs, 1);
}
