// The space's property test in CI: uniform samples of each function's space
// apply (a handful of functions, 20 samples each; scripts/check-space.sh
// runs it over every test input and generated programs).
// RUN: tuner-opt %s --tuner-check-space="samples=20 seed=3" -o /dev/null | FileCheck %s
// RUN: tuner-opt %S/../../examples/matmul.mlir --tuner-check-space="samples=20" -o /dev/null | FileCheck %s --check-prefix=MATMUL
// RUN: tuner-opt %s --tuner-check-space="function=stencil samples=5 output=%t.txt" -o /dev/null
// RUN: FileCheck %s --check-prefix=ONE < %t.txt
// RUN: not tuner-opt %s --tuner-check-space="function=missing" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSING

// CHECK:      check-space @stencil: size {{[0-9]+}}, 20 samples ({{[0-9]+}} distinct), 0 failed
// CHECK-NEXT: check-space @relu: size {{[0-9]+}}, 20 samples ({{[0-9]+}} distinct), 0 failed
// CHECK-NEXT: check-space @copy: size {{[0-9]+}}, 20 samples ({{[0-9]+}} distinct), 0 failed
// CHECK-NOT:  apply-failed
// MATMUL:     check-space @matmul: size {{.*}}, 20 samples (20 distinct), 0 failed
// ONE:        check-space @stencil: size {{[0-9]+}}, 5 samples ({{[1-5]}} distinct), 0 failed
// ONE-NOT:    @relu
// ONE-NOT:    @copy
// MISSING:    error: no function with a body named 'missing' in the module

func.func @stencil(%a: memref<34x34xf32>, %b: memref<32x32xf32>) {
  affine.for %i = 0 to 32 {
    affine.for %j = 0 to 32 {
      %x = affine.load %a[%i, %j + 1] : memref<34x34xf32>
      %y = affine.load %a[%i + 2, %j + 1] : memref<34x34xf32>
      %s = arith.addf %x, %y : f32
      affine.store %s, %b[%i, %j] : memref<32x32xf32>
    }
  }
  return
}

func.func @relu(%x: tensor<64x48xf32>, %o: tensor<64x48xf32>) -> tensor<64x48xf32> {
  %zero = arith.constant 0.0 : f32
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x48xf32>) outs(%o : tensor<64x48xf32>) {
  ^bb0(%v: f32, %u: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<64x48xf32>
  return %r : tensor<64x48xf32>
}

// A copy into an empty tensor, which canonicalization folds away inside the
// tiles: vectorizing it finds nothing to vectorize, which applies (it used
// to fail with "no linalg op inside could be vectorized").
func.func @copy(%in: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %e = tensor.empty() : tensor<8x32xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%in : tensor<8x32xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<8x32xf32>
  return %c : tensor<8x32xf32>
}
