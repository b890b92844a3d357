/* cvtcolor.c - C reference for kernels/cvtcolor.mlir: planar RGB to gray,
 *   gray[y][x] = 0.299 * r + 0.587 * g + 0.114 * b,   H = W = 4096.
 * Buffers: rgb = 0, result gray = 1. */
#include "common.h"

#define H 4096
#define W 4096

static float *RGB, *GRAY;

__attribute__((noinline)) static void
cvtcolor(const float (*restrict rgb)[H][W], float (*restrict gray)[W]) {
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      float r = 0.299f * rgb[0][y][x];
      float g = 0.587f * rgb[1][y][x];
      float b = 0.114f * rgb[2][y][x];
      gray[y][x] = (r + g) + b;
    }
}

static void call(void *context) {
  (void)context;
  cvtcolor((const float(*)[H][W])RGB, (float(*)[W])GRAY);
}

int main(int argc, char **argv) {
  RGB = bench_buffer((size_t)3 * H * W, 0);
  GRAY = bench_buffer((size_t)H * W, 1);
  struct bench_output outputs[] = {{GRAY, (size_t)H * W}};
  return bench_main(argc, argv, "cvtcolor", call, NULL, outputs, 1);
}
