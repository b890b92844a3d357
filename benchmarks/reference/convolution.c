/* convolution.c - C reference for kernels/convolution.mlir: a direct NCHW
 * convolution with bias, stride 1, no padding,
 *   out[n][f][y][x] = bias[f]
 *       + sum_{c, ky, kx} in[n][c][y + ky][x + kx] * w[f][c][ky][kx]
 * N = 8, C = 3, F = 2, H = W = 1024, K = 3, in the MLIR kernel's order:
 * broadcast the bias, then linalg.conv_2d_nchw_fchw's loops
 * (n, f, y, x, c, ky, kx). conv_relu.c includes this file with CONV_RELU
 * defined to add the ReLU pass of kernels/conv_relu.mlir.
 * Buffers: in = 0, w = 1, bias = 2, result = 3. */
#include "common.h"

#define BN 8
#define BC 3
#define BF 2
#define BH 1024
#define BW 1024
#define BK 3

#ifdef CONV_RELU
#define KERNEL_NAME "conv_relu"
#else
#define KERNEL_NAME "convolution"
#endif

static float *IN, *W, *BIAS, *OUT;

__attribute__((noinline)) static void
convolution(const float (*restrict in)[BC][BH + BK - 1][BW + BK - 1],
            const float (*restrict w)[BC][BK][BK], const float *restrict bias,
            float (*restrict out)[BF][BH][BW]) {
  for (int n = 0; n < BN; ++n)
    for (int f = 0; f < BF; ++f)
      for (int y = 0; y < BH; ++y)
        for (int x = 0; x < BW; ++x)
          out[n][f][y][x] = bias[f];
  for (int n = 0; n < BN; ++n)
    for (int f = 0; f < BF; ++f)
      for (int y = 0; y < BH; ++y)
        for (int x = 0; x < BW; ++x)
          for (int c = 0; c < BC; ++c)
            for (int ky = 0; ky < BK; ++ky)
              for (int kx = 0; kx < BK; ++kx)
                out[n][f][y][x] += in[n][c][y + ky][x + kx] * w[f][c][ky][kx];
#ifdef CONV_RELU
  for (int n = 0; n < BN; ++n)
    for (int f = 0; f < BF; ++f)
      for (int y = 0; y < BH; ++y)
        for (int x = 0; x < BW; ++x)
          out[n][f][y][x] = fmaxf(out[n][f][y][x], 0.0f);
#endif
}

static void call(void *context) {
  (void)context;
  convolution((const float(*)[BC][BH + BK - 1][BW + BK - 1]) IN,
              (const float(*)[BC][BK][BK])W, BIAS, (float(*)[BF][BH][BW])OUT);
}

int main(int argc, char **argv) {
  IN = bench_buffer((size_t)BN * BC * (BH + BK - 1) * (BW + BK - 1), 0);
  W = bench_buffer((size_t)BF * BC * BK * BK, 1);
  BIAS = bench_buffer(BF, 2);
  OUT = bench_buffer((size_t)BN * BF * BH * BW, 3);
  struct bench_output outputs[] = {{OUT, (size_t)BN * BF * BH * BW}};
  return bench_main(argc, argv, KERNEL_NAME, call, NULL, outputs, 1);
}
