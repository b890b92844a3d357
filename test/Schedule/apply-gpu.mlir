// A GPU config applied (target of kind gpu): 64x64 block tiles of 16x16
// threads, 4x4 outputs per thread, the reduction staged 16 at a time with
// both inputs in shared memory (4-wide copies), the per-thread reduction
// unrolled by 2. The script replays with stock mlir-opt (and the tuner's
// plugin for transform.tuner.gpu_finalize), and the applied IR lowers to PTX
// with stock mlir-opt passes.
// RUN: tuner-opt %s --tuner-apply="target=%src_root/examples/targets/h100.json config=%S/Inputs/gpu-matmul.json schedule-output=%t.schedule.mlir" > %t.tuned.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.tuned.mlir
// RUN: FileCheck %s --check-prefix=SCRIPT < %t.schedule.mlir
// RUN: %mlir_opt %s --load-dialect-plugin=%tuner_plugin --transform-preload-library=transform-library-paths=%t.schedule.mlir --transform-interpreter > %t.replayed.mlir
// RUN: diff %t.tuned.mlir %t.replayed.mlir
// RUN: %mlir_opt %t.tuned.mlir --pass-pipeline='builtin.module(gpu-launch-sink-index-computations,gpu-kernel-outlining,nvvm-attach-target{chip=sm_90 features=+ptx80},gpu.module(convert-linalg-to-loops,lower-affine,expand-strided-metadata,lower-affine,convert-scf-to-cf,convert-gpu-to-nvvm,canonicalize,cse,reconcile-unrealized-casts),gpu-module-to-binary{format=isa})' \
// RUN:   | FileCheck %s --check-prefix=PTX

// SCRIPT: // matmul_0: block [64, 64, 0], thread [4, 4, 0], threads [16, 16, 1], reduce [0, 0, 16], shared memory [0, 1] (vector 4), unroll 2
// SCRIPT: transform.structured.tile_using_forall %n0_matmul_0 tile_sizes [64, 64, 0] (mapping = [#gpu.block<y>, #gpu.block<x>])
// SCRIPT: transform.structured.tile_using_for %n0_matmul_0_b tile_sizes [0, 0, 16]
// SCRIPT: transform.structured.promote_tensor to #gpu.address_space<workgroup> %n0_matmul_0_in0
// SCRIPT: transform.structured.promote_tensor to #gpu.address_space<workgroup> %n0_matmul_0_in1
// SCRIPT: transform.structured.tile_using_forall %n0_matmul_0_r tile_sizes [4, 4, 0] (mapping = [#gpu.thread<y>, #gpu.thread<x>])
// SCRIPT: transform.loop.unroll %n0_matmul_0_kloop {factor = 2}
// SCRIPT: transform.bufferization.one_shot_bufferize %root {bufferize_function_boundaries = true
// SCRIPT: transform.structured.vectorize %n0_matmul_0_copy0_t
// SCRIPT: transform.gpu.map_forall_to_blocks %n0_matmul_0_grid generate_gpu_launch
// SCRIPT: transform.gpu.map_nested_forall_to_threads %n0_matmul_0_launch block_dims = [16, 16, 1]
// SCRIPT: transform.tuner.gpu_finalize %buffers

// The result is an out-param; the product is computed in place in %arg2
// and copied into it by a copy kernel.
// IR:      func.func @matmul(%arg0: memref<256x128xf32>, %arg1: memref<128x512xf32>, %arg2: memref<256x512xf32>, %arg3: memref<256x512xf32>) {
// IR:      gpu.launch blocks({{.*}}) in ({{.*}} = %c8, {{.*}} = %c4, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c16, {{.*}} = %c16, {{.*}} = %c1) workgroup(%{{.*}} : memref<64x16xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<16x64xf32, #gpu.address_space<workgroup>>)
// IR:        scf.for
// IR:          vector.load {{.*}} : memref<{{.*}}>, vector<4xf32>
// IR:          vector.store {{.*}} #gpu.address_space<workgroup>>, vector<4xf32>
// IR:          gpu.barrier
// IR:          linalg.matmul ins({{.*}}#gpu.address_space<workgroup>>{{.*}}#gpu.address_space<workgroup>>)
// IR:          gpu.barrier
// IR:      gpu.launch blocks({{.*}}) in ({{.*}} = %c512, {{.*}}) threads({{.*}}) in ({{.*}} = %c256,
// IR:        memref.load %arg2
// IR:        memref.store {{.*}}, %arg3
// IR:      return
// IR-NOT:  memref.alloc

// PTX: .entry matmul_kernel(
// PTX: ld.shared
// PTX: bar.sync
// PTX: .entry matmul_kernel(

func.func @matmul(%A: tensor<256x128xf32>, %B: tensor<128x512xf32>, %C: tensor<256x512xf32>) -> tensor<256x512xf32> {
  %r = linalg.matmul ins(%A, %B : tensor<256x128xf32>, tensor<128x512xf32>) outs(%C : tensor<256x512xf32>) -> tensor<256x512xf32>
  return %r : tensor<256x512xf32>
}
