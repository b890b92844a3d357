// conv_relu.cpp - Halide generator for kernels/conv_relu.mlir: the
// convolution of convolution.cpp followed by a ReLU.
#define CONV_RELU 1
#include "convolution.cpp"
