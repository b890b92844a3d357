// The GPU lowering of untransformed linalg (the naive GPU baseline): every
// op becomes a kernel with one thread per point of its parallel iteration
// space (blocks of 32x8 threads for 2-D, 256 for 1-D), temporaries become
// device allocations, and the host function launches the embedded PTX
// (format=isa) through MLIR's mgpu* runtime calls, results as out-params.
// RUN: tuner-opt --tuner-lower-gpu=format=isa -split-input-file %s | FileCheck %s
// The chip and features come from a target description of kind gpu.
// RUN: tuner-opt --tuner-lower-gpu="format=isa target=%src_root/examples/targets/h100.json" \
// RUN:   -split-input-file %s | FileCheck %s
// No dialect but llvm and gpu is left, and the result translates to LLVM IR.
// RUN: tuner-opt --tuner-lower-gpu=format=isa -split-input-file %s \
// RUN:   | FileCheck %s --check-prefix=CLEAN
// RUN: tuner-opt --tuner-lower-gpu=format=isa %s -split-input-file \
// RUN:   --mlir-print-op-on-diagnostic=false -o %t.split.mlir
// RUN: mlir-translate --mlir-to-llvmir -split-input-file %t.split.mlir \
// RUN:   | FileCheck %s --check-prefix=LLVMIR

// CLEAN-NOT: {{[ ](linalg|scf|affine|memref|vector|arith|tensor|bufferization|cf|math|func)\.}}

// Matmul: a fill kernel and a matmul kernel, each 2-D over the 64x48
// result in blocks of 32x8 threads; the reduction is serial per thread.
// CHECK-LABEL: llvm.func @matmul(
// CHECK-SAME: %{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: i64
// CHECK-DAG: %[[TWO:.*]] = llvm.mlir.constant(2 : index) : i64
// CHECK-DAG: %[[EIGHT:.*]] = llvm.mlir.constant(8 : index) : i64
// CHECK-DAG: %[[WARP:.*]] = llvm.mlir.constant(32 : index) : i64
// CHECK: %[[STREAM:.*]] = llvm.call @mgpuStreamCreate()
// CHECK: gpu.launch_func <%[[STREAM]] : !llvm.ptr> @matmul_kernel::@matmul_kernel blocks in (%[[TWO]], %[[EIGHT]], %{{.*}}) threads in (%[[WARP]], %[[EIGHT]], %{{.*}})
// CHECK: gpu.launch_func <%[[STREAM]] : !llvm.ptr> @matmul_kernel_0::@matmul_kernel
// CHECK: llvm.call @mgpuStreamSynchronize(%[[STREAM]])
// CHECK: llvm.call @mgpuStreamDestroy(%[[STREAM]])
// CHECK-LABEL: llvm.func @_mlir_ciface_matmul(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// CHECK: gpu.binary @matmul_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">, {{.*}}assembly = "{{.*}}.target sm_90{{.*}}.visible .entry matmul_kernel({{.*}}.maxntid 32, 8, 1{{.*}}%ctaid.x{{.*}}%tid.x{{.*}}%ctaid.y{{.*}}%tid.y{{.*}}st.global.b32
// CHECK: gpu.binary @matmul_kernel_0 [{{.*}}assembly = "{{.*}}.visible .entry matmul_kernel({{.*}}.maxntid 32, 8, 1{{.*}}%ctaid.x{{.*}}%tid.x{{.*}}mul.rn.f32{{.*}}add.rn.f32
// LLVMIR-LABEL: define void @matmul(
// LLVMIR: call ptr @mgpuModuleGetFunction(
// LLVMIR: call void @mgpuLaunchKernel(ptr %{{.*}}, i64 2, i64 8, i64 1, i64 32, i64 8, i64 1, i32 0,
// LLVMIR-LABEL: define void @_mlir_ciface_matmul(
// LLVMIR: call ptr @mgpuModuleLoadJIT(ptr @matmul_kernel_binary
func.func @matmul(%A: tensor<64x32xf32>, %B: tensor<32x48xf32>) -> tensor<64x48xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64x48xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<64x48xf32>) -> tensor<64x48xf32>
  %C = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x48xf32>)
                     outs(%init : tensor<64x48xf32>) -> tensor<64x48xf32>
  return %C : tensor<64x48xf32>
}

// -----

// Elementwise ops: 1-D kernels of 256 threads, ceil(1000 / 256) = 4 blocks
// (the last one guarded); the two temporaries are device buffers, freed on
// the stream before it is synchronized.
// CHECK-LABEL: llvm.func @add_relu_mul(
// CHECK-DAG: %[[FOUR:.*]] = llvm.mlir.constant(4 : index) : i64
// CHECK-DAG: %[[THREADS:.*]] = llvm.mlir.constant(256 : index) : i64
// CHECK: %[[STREAM:.*]] = llvm.call @mgpuStreamCreate()
// CHECK: %[[SUM:.*]] = llvm.call @mgpuMemAlloc(%{{.*}}, %[[STREAM]], %{{.*}})
// CHECK: gpu.launch_func <%[[STREAM]] : !llvm.ptr> @add_relu_mul_kernel::@add_relu_mul_kernel blocks in (%[[FOUR]], %{{.*}}, %{{.*}}) threads in (%[[THREADS]],
// CHECK: %[[RELU:.*]] = llvm.call @mgpuMemAlloc(%{{.*}}, %[[STREAM]], %{{.*}})
// CHECK: gpu.launch_func <%[[STREAM]] : !llvm.ptr> @add_relu_mul_kernel_0::@add_relu_mul_kernel
// CHECK: gpu.launch_func <%[[STREAM]] : !llvm.ptr> @add_relu_mul_kernel_1::@add_relu_mul_kernel
// CHECK-DAG: llvm.call @mgpuMemFree(%[[SUM]], %[[STREAM]])
// CHECK-DAG: llvm.call @mgpuMemFree(%[[RELU]], %[[STREAM]])
// CHECK: llvm.call @mgpuStreamSynchronize(%[[STREAM]])
// CHECK: gpu.binary @add_relu_mul_kernel [{{.*}}assembly = "{{.*}}.maxntid 256, 1, 1{{.*}}%ctaid.x{{.*}}%tid.x{{.*}}setp.{{[a-z]+}}.{{[su]}}32{{.*}}add.rn.f32
// CHECK: gpu.binary @add_relu_mul_kernel_0 [{{.*}}assembly = "{{.*}}setp.le.f32{{.*}}selp.f32
// CHECK: gpu.binary @add_relu_mul_kernel_1 [{{.*}}assembly = "{{.*}}mul.rn.f32
// LLVMIR-LABEL: define void @add_relu_mul(
// LLVMIR: call ptr @mgpuMemAlloc(
// LLVMIR: call void @mgpuLaunchKernel(ptr %{{.*}}, i64 4, i64 1, i64 1, i64 256, i64 1, i64 1, i32 0,
// LLVMIR: call void @mgpuMemFree(
func.func @add_relu_mul(%a: tensor<1000xf32>, %b: tensor<1000xf32>) -> tensor<1000xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<1000xf32>
  %sum = linalg.add ins(%a, %b : tensor<1000xf32>, tensor<1000xf32>)
                    outs(%e0 : tensor<1000xf32>) -> tensor<1000xf32>
  %e1 = tensor.empty() : tensor<1000xf32>
  %relu = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                          iterator_types = ["parallel"]}
      ins(%sum : tensor<1000xf32>) outs(%e1 : tensor<1000xf32>) {
  ^bb0(%x: f32, %out: f32):
    %max = arith.maximumf %x, %zero : f32
    linalg.yield %max : f32
  } -> tensor<1000xf32>
  %e2 = tensor.empty() : tensor<1000xf32>
  %product = linalg.mul ins(%sum, %relu : tensor<1000xf32>, tensor<1000xf32>)
                        outs(%e2 : tensor<1000xf32>) -> tensor<1000xf32>
  return %product : tensor<1000xf32>
}

// -----

// A reduction to a scalar has no parallel loop: it runs in a kernel of one
// thread.
// CHECK-LABEL: llvm.func @sum(
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : index) : i64
// CHECK: gpu.launch_func {{.*}} blocks in (%[[ONE]], %[[ONE]], %[[ONE]]) threads in (%[[ONE]], %[[ONE]], %[[ONE]])
// CHECK: gpu.launch_func {{.*}} blocks in (%[[ONE]], %[[ONE]], %[[ONE]]) threads in (%[[ONE]], %[[ONE]], %[[ONE]])
// CHECK: gpu.binary @sum_kernel_0 [{{.*}}assembly = "{{.*}}.maxntid 1, 1, 1{{.*}}add.rn.f32
func.func @sum(%a: tensor<1000xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<f32>) -> tensor<f32>
  %sum = linalg.reduce ins(%a : tensor<1000xf32>) outs(%init : tensor<f32>) dimensions = [0]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %sum : tensor<f32>
}
