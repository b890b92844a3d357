// GPU schedules (Transform scripts replayed with stock mlir-opt) lowered by
// --tuner-lower-gpu: the launch the schedule made keeps its grid and block,
// and promoted tiles become shared memory.
// RUN: mlir-opt %s --transform-preload-library="transform-library-paths=%S/Inputs/gpu-matmul-schedule.mlir" \
// RUN:   --transform-interpreter | tuner-opt --tuner-lower-gpu=format=isa \
// RUN:   | FileCheck %s --check-prefixes=CHECK,TILED
// RUN: mlir-opt %s --transform-preload-library="transform-library-paths=%S/Inputs/gpu-matmul-promote-schedule.mlir" \
// RUN:   --transform-interpreter | tuner-opt --tuner-lower-gpu=format=isa \
// RUN:   | FileCheck %s --check-prefixes=CHECK,PROMOTED
// The same inside stock mlir-opt, with the tuner's plugin.
// RUN: mlir-opt %s --transform-preload-library="transform-library-paths=%S/Inputs/gpu-matmul-promote-schedule.mlir" \
// RUN:   --transform-interpreter \
// RUN:   | %mlir_opt --load-pass-plugin=%tuner_plugin --load-dialect-plugin=%tuner_plugin \
// RUN:     --pass-pipeline="builtin.module(tuner-lower-gpu{format=isa})" \
// RUN:   | FileCheck %s --check-prefixes=CHECK,PROMOTED

// The schedule's kernel: 4x4 blocks of 8x8 threads.
// CHECK-LABEL: llvm.func @matmul(
// CHECK-DAG: %[[FOUR:.*]] = llvm.mlir.constant(4 : index) : i64
// CHECK-DAG: %[[EIGHT:.*]] = llvm.mlir.constant(8 : index) : i64
// CHECK: %[[STREAM:.*]] = llvm.call @mgpuStreamCreate()
// PROMOTED: gpu.launch_func <%[[STREAM]] : !llvm.ptr> @matmul_kernel::@matmul_kernel
// PROMOTED: gpu.launch_func <%[[STREAM]] : !llvm.ptr> @matmul_kernel_0::@matmul_kernel blocks in (%[[FOUR]], %[[FOUR]], %{{.*}}) threads in (%[[EIGHT]], %[[EIGHT]], %{{.*}})
// TILED: gpu.launch_func <%[[STREAM]] : !llvm.ptr> @matmul_kernel::@matmul_kernel blocks in (%[[FOUR]], %[[FOUR]], %{{.*}}) threads in (%[[EIGHT]], %[[EIGHT]], %{{.*}})
// CHECK: llvm.call @mgpuStreamSynchronize(%[[STREAM]])
// CHECK-LABEL: llvm.func @_mlir_ciface_matmul(

// Block and thread ids, a barrier between reduction steps.
// TILED: gpu.binary @matmul_kernel [{{.*}}assembly = "{{.*}}.visible .entry matmul_kernel({{.*}}.maxntid 8, 8, 1{{.*}}%ctaid.x{{.*}}%ctaid.y{{.*}}%tid.x{{.*}}%tid.y{{.*}}bar.sync{{.*}}ld.global{{.*}}mul.rn.f32{{.*}}bar.sync
// TILED-NOT: .shared

// Promoted: two shared 2 KiB tiles (32x16 and 16x32 floats), stored and read
// between barriers.
// PROMOTED: gpu.binary @matmul_kernel_0 [{{.*}}assembly = "{{.*}}.visible .entry matmul_kernel({{.*}}.maxntid 8, 8, 1{{.*}}.shared .align {{[0-9]+}} .b8 __wg_matmul_kernel_0[2048];{{.*}}.shared .align {{[0-9]+}} .b8 __wg_matmul_kernel_1[2048];{{.*}}%ctaid.x{{.*}}%tid.x{{.*}}bar.sync{{.*}}st.shared{{.*}}bar.sync{{.*}}ld.shared{{.*}}mul.rn.f32{{.*}}bar.sync

func.func @matmul(%A: tensor<128x64xf32>, %B: tensor<64x128xf32>) -> tensor<128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<128x128xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<128x128xf32>) -> tensor<128x128xf32>
  %C = linalg.matmul ins(%A, %B : tensor<128x64xf32>, tensor<64x128xf32>)
                     outs(%init : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %C : tensor<128x128xf32>
}
