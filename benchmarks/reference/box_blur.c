/* box_blur.c - C reference for kernels/box_blur.mlir: separable 3x3 box
 * filter, two stages, C = 3, H = W = 2048, the input with a 2-pixel halo:
 *   bx[c][y][x]  = (in[c][y][x] + in[c][y][x+1] + in[c][y][x+2]) / 3
 *   out[c][y][x] = (bx[c][y][x] + bx[c][y+1][x] + bx[c][y+2][x]) / 3
 * Buffers: in = 0, result = 1. */
#include "common.h"

#define C 3
#define H 2048
#define W 2048

static float *IN, *OUT, *BX;

__attribute__((noinline)) static void
box_blur(const float (*restrict in)[H + 2][W + 2], float (*restrict out)[H][W],
         float (*restrict bx)[H + 2][W]) {
  for (int c = 0; c < C; ++c)
    for (int y = 0; y < H + 2; ++y)
      for (int x = 0; x < W; ++x)
        bx[c][y][x] = (in[c][y][x] + in[c][y][x + 1] + in[c][y][x + 2]) / 3.0f;
  for (int c = 0; c < C; ++c)
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x)
        out[c][y][x] = (bx[c][y][x] + bx[c][y + 1][x] + bx[c][y + 2][x]) / 3.0f;
}

static void call(void *context) {
  (void)context;
  box_blur((const float(*)[H + 2][W + 2]) IN, (float(*)[H][W])OUT,
           (float(*)[H + 2][W]) BX);
}

int main(int argc, char **argv) {
  IN = bench_buffer((size_t)C * (H + 2) * (W + 2), 0);
  OUT = bench_buffer((size_t)C * H * W, 1);
  BX = bench_buffer((size_t)C * (H + 2) * W, 2);
  struct bench_output outputs[] = {{OUT, (size_t)C * H * W}};
  return bench_main(argc, argv, "box_blur", call, NULL, outputs, 1);
}
