// REQUIRES: cuda
// The GPU lowering to cubin (format=bin) through the CUDA toolkit's ptxas,
// embedded in host LLVM IR that compiles into a shared object exporting the
// harness's entry point and importing MLIR's mgpu* runtime functions.
// RUN: tuner-opt --tuner-lower-gpu="format=bin target=%src_root/examples/targets/h100.json" %s \
// RUN:   | FileCheck %s
// RUN: tuner-opt --tuner-lower-gpu=format=bin %s -o %t.mlir
// RUN: mlir-translate --mlir-to-llvmir %t.mlir -o %t.ll
// RUN: FileCheck %s --check-prefix=LLVMIR < %t.ll
// RUN: clang -O3 -shared -fPIC -Wno-override-module %t.ll -o %t.so
// RUN: llvm-nm -D %t.so | FileCheck %s --check-prefix=SO
// ptxas errors (here: more static shared memory than a block may have) fail
// the lowering with ptxas's message.
// RUN: not tuner-opt --tuner-lower-gpu=format=bin %S/Inputs/gpu-too-much-shared.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PTXAS

// CHECK: gpu.binary @scale_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">, properties = {{.*}}, bin = "\7FELF
// LLVMIR: @scale_kernel_binary = internal constant [{{[0-9]+}} x i8] c"\7FELF
// LLVMIR: call ptr @mgpuModuleLoad(ptr @scale_kernel_binary
// SO-DAG: {{[0-9a-f]+}} T _mlir_ciface_scale
// SO-DAG: U mgpuLaunchKernel
// SO-DAG: U mgpuModuleLoad
// SO-DAG: U mgpuModuleGetFunction
// SO-DAG: U mgpuStreamCreate
// SO-DAG: U mgpuStreamSynchronize
// PTXAS: gpu-too-much-shared.mlir:{{[0-9]+}}:{{[0-9]+}}: error: {{.*}}ptxas{{.*}}
// PTXAS: too much shared data

func.func @scale(%a: tensor<4096xf32>) -> tensor<4096xf32> {
  %two = arith.constant 2.0 : f32
  %empty = tensor.empty() : tensor<4096xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%a : tensor<4096xf32>) outs(%empty : tensor<4096xf32>) {
  ^bb0(%x: f32, %out: f32):
    %y = arith.mulf %x, %two : f32
    linalg.yield %y : f32
  } -> tensor<4096xf32>
  return %r : tensor<4096xf32>
}
