/* small_conv.c - the convolution benchmark's C reference (and, built with
 * -DUSE_DNNL, its oneDNN variant: the marker run.py looks for) at the sizes
 * of kernels/small_conv.mlir. */
#define BN 1
#define BC 3
#define BF 2
#define BH 16
#define BW 32
#define BK 3
#define KERNEL_NAME "small_conv"
#include "convolution.c"
