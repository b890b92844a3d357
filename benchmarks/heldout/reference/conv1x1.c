/* conv1x1.c - C reference for heldout/kernels/conv1x1.mlir:
 *   out[n][f][h][w] = sum_c in[n][c][h][w] * wt[f][c],  N=2 C=64 F=48 H=W=96
 * in linalg.conv_2d_nchw_fchw's order (n, f, h, w, c). Buffers: in = 0,
 * w = 1, result out = 2. */
#include "common.h"

#define NN 2
#define C 64
#define F 48
#define H 96
#define W 96

static float *IN, *WT, *OUT;

__attribute__((noinline)) static void
conv1x1(const float (*restrict in)[C][H][W], const float (*restrict wt)[C],
        float (*restrict out)[F][H][W]) {
  for (int n = 0; n < NN; ++n)
    for (int f = 0; f < F; ++f)
      for (int h = 0; h < H; ++h)
        for (int w = 0; w < W; ++w)
          out[n][f][h][w] = 0.0f;
  for (int n = 0; n < NN; ++n)
    for (int f = 0; f < F; ++f)
      for (int h = 0; h < H; ++h)
        for (int w = 0; w < W; ++w)
          for (int c = 0; c < C; ++c)
            out[n][f][h][w] += in[n][c][h][w] * wt[f][c];
}

static void call(void *context) {
  (void)context;
  conv1x1((const float(*)[C][H][W])IN, (const float(*)[C])WT,
          (float(*)[F][H][W])OUT);
}

int main(int argc, char **argv) {
  IN = bench_buffer((size_t)NN * C * H * W, 0);
  WT = bench_buffer((size_t)F * C, 1);
  OUT = bench_buffer((size_t)NN * F * H * W, 2);
  struct bench_output outputs[] = {{OUT, (size_t)NN * F * H * W}};
  return bench_main(argc, argv, "conv1x1", call, NULL, outputs, 1);
}
