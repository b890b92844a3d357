/* small_conv.c - C reference for the smoke test's small_conv.mlir: the
 * shipped conv_relu reference (benchmarks/reference/convolution.c, found
 * through run.py's -I) on N = 2, C = 3, F = 4, H = W = 32, K = 3; built with
 * -DUSE_DNNL it is the oneDNN convolution primitive with a ReLU post-op.
 * Buffers: in = 0, w = 1, bias = 2, result = 3. */
#define BN 2
#define BC 3
#define BF 4
#define BH 32
#define BW 32
#define BK 3
#define KERNEL_NAME "small_conv"
#define CONV_RELU 1
#include "convolution.c"
