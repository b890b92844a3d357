// Every sampled config of the GPU spaces of a matmul, a conv+relu and a 2-D
// stencil applies (bufferized, mapped onto blocks and threads, finalized).
// RUN: tuner-opt %S/../Space/Inputs/gpu-matmul.mlir --tuner-check-space="target=%src_root/examples/targets/h100.json samples=12 seed=3" -o /dev/null | FileCheck %s --check-prefix=MM
// RUN: tuner-opt %S/../Space/Inputs/gpu-conv-relu.mlir --tuner-check-space="target=%src_root/examples/targets/h100.json samples=8 seed=3" -o /dev/null | FileCheck %s --check-prefix=CR
// RUN: tuner-opt %S/../Space/Inputs/gpu-stencil.mlir --tuner-check-space="target=%src_root/examples/targets/h100.json samples=8 seed=3" -o /dev/null | FileCheck %s --check-prefix=ST
// MM: check-space @matmul: size 162336, 12 samples ({{[0-9]+}} distinct), 0 failed
// CR: check-space @conv_relu: size 23672631618594, 8 samples (8 distinct), 0 failed
// ST: check-space @stencil: size 697, 8 samples ({{[0-9]+}} distinct), 0 failed
