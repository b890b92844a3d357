/* conv_relu.c - C reference for kernels/conv_relu.mlir: the convolution of
 * convolution.c followed by out = max(out, 0) in a separate pass, as the
 * MLIR kernel's element-wise linalg.generic does. Built with -DUSE_DNNL: the
 * oneDNN convolution primitive of convolution.c with ReLU as a post-op.
 * Buffers: in = 0, w = 1, bias = 2, result = 3. */
#define CONV_RELU 1
#include "convolution.c"
