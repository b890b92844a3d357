// The GPU space (target of kind gpu: examples/targets/h100.json) of a
// matmul, a convolution with its ReLU, and a 2-D stencil: block, thread and
// reduction tiles, shared-memory promotion, vector width, unroll, and the
// H100's limits as known constraints; sizes are exact (Chain-of-Trees).
// RUN: tuner-opt %S/Inputs/gpu-matmul.mlir --tuner-extract-space="target=%src_root/examples/targets/h100.json output=%t.mm.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=MM < %t.mm.json
// RUN: tuner-opt %S/Inputs/gpu-conv-relu.mlir --tuner-extract-space="target=%src_root/examples/targets/h100.json output=%t.cr.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=CR < %t.cr.json
// RUN: tuner-opt %S/Inputs/gpu-stencil.mlir --tuner-extract-space="target=%src_root/examples/targets/h100.json output=%t.st.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=ST < %t.st.json

// MM:      "size": "162336",
// MM-NEXT: "target": "gpu:sm_90:NVIDIA H100 80GB HBM3:132sm",
// MM-NEXT: "target-kind": "gpu"
// MM:      "constraints": [
// MM-NEXT:   "matmul_0.block.l1 % matmul_0.thread.l1 == 0",
// MM-NEXT:   "matmul_0.block.l0 % matmul_0.thread.l0 == 0",
// MM-NEXT:   "(matmul_0.block.l1 / matmul_0.thread.l1) * (matmul_0.block.l0 / matmul_0.thread.l0) <= 1024 && (matmul_0.block.l1 / matmul_0.thread.l1) * (matmul_0.block.l0 / matmul_0.thread.l0) % 32 == 0",
// MM-NEXT:   "matmul_0.reduce.l2 % matmul_0.unroll == 0",
// MM-NEXT:   "matmul_0.promote.o0 * matmul_0.block.l0 * matmul_0.reduce.l2 * 4 + matmul_0.promote.o1 * matmul_0.reduce.l2 * matmul_0.block.l1 * 4 <= 49152",
// MM-NEXT:   "matmul_0.vector == 1 || matmul_0.promote.o0 || matmul_0.promote.o1",
// MM-NEXT:   "!matmul_0.promote.o0 || matmul_0.reduce.l2 % matmul_0.vector == 0",
// MM-NEXT:   "!matmul_0.promote.o1 || matmul_0.block.l1 % matmul_0.vector == 0",
// MM-NEXT:   "(matmul_0.thread.l0 * matmul_0.thread.l1 + matmul_0.unroll * (matmul_0.thread.l0 + matmul_0.thread.l1) + 32) <= 255 && {{.*}} <= 65536"
// MM:      "name": "matmul_0.block.l1",
// MM:      "name": "matmul_0.promote.o0"
// MM:      "name": "matmul_0.vector",

// Three kernels; the convolution's input is read through windows
// (oh + kh, ow + kw), so its shared tile has a halo and no vector copies.
// CR:      "size": "23672631618594",
// CR:      "conv_2d_nchw_fchw_1.promote.o0 * 1 * conv_2d_nchw_fchw_1.reduce.l4 * (1 + (conv_2d_nchw_fchw_1.block.l2 - 1) + (conv_2d_nchw_fchw_1.reduce.l5 - 1)) * (1 + (conv_2d_nchw_fchw_1.block.l3 - 1) + (conv_2d_nchw_fchw_1.reduce.l6 - 1)) * 4 + conv_2d_nchw_fchw_1.promote.o1 * conv_2d_nchw_fchw_1.block.l1 * conv_2d_nchw_fchw_1.reduce.l4 * conv_2d_nchw_fchw_1.reduce.l5 * conv_2d_nchw_fchw_1.reduce.l6 * 4 <= 49152",
// CR-NEXT: "conv_2d_nchw_fchw_1.vector == 1 || conv_2d_nchw_fchw_1.promote.o0 || conv_2d_nchw_fchw_1.promote.o1",
// CR-NEXT: "!conv_2d_nchw_fchw_1.promote.o0 || conv_2d_nchw_fchw_1.vector == 1",
// CR:      "(generic_2.block.l1 / generic_2.thread.l1) <= 64",
// CR:      "name": "fill_0.block.l3",
// CR:      "name": "conv_2d_nchw_fchw_1.reduce.l6",
// CR:      "name": "generic_2.promote.o0"

// The stencil's shifted reads are not promoted: tiles only.
// ST:      "size": "697",
// ST:      "(generic_0.block.l1 / generic_0.thread.l1) * (generic_0.block.l0 / generic_0.thread.l0) <= 1024 && {{.*}} % 32 == 0",
// ST-NOT:  promote
