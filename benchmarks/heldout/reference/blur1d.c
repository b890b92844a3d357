/* blur1d.c - C reference for heldout/kernels/blur1d.mlir:
 *   out[i][j] = (in[i][j] + in[i][j+1] + in[i][j+2]) * (1/3),  512x8192
 * (the same float operations in the same order as the kernel).
 * Buffers: in = 0, result out = 1. */
#include "common.h"

#define H 512
#define W 8192

static float *IN, *OUT;

__attribute__((noinline)) static void blur1d(const float (*restrict in)[W + 2],
                                             float (*restrict out)[W]) {
  const float third = 0.333333343f;
  for (int i = 0; i < H; ++i)
    for (int j = 0; j < W; ++j)
      out[i][j] = ((in[i][j] + in[i][j + 1]) + in[i][j + 2]) * third;
}

static void call(void *context) {
  (void)context;
  blur1d((const float(*)[W + 2])IN, (float(*)[W])OUT);
}

int main(int argc, char **argv) {
  IN = bench_buffer((size_t)H * (W + 2), 0);
  OUT = bench_buffer((size_t)H * W, 1);
  struct bench_output outputs[] = {{OUT, (size_t)H * W}};
  return bench_main(argc, argv, "blur1d", call, NULL, outputs, 1);
}
