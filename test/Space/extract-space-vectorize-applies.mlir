// Vectorization is offered only where it applies. Complex elements (no
// vector holds them) and a contraction without a parallel loop (a dot
// product into a 0-d result, whose scalar accumulator the contraction
// lowerings do not take) get no vectorize parameter; a matmul whose
// indexing maps broadcast an operand, which upstream's named-contraction
// vectorization refuses, is vectorized as the linalg.generic it is.
// RUN: tuner-opt %s --tuner-extract-space="function=complex_add" -o /dev/null | FileCheck %s --check-prefix=COMPLEX
// RUN: tuner-opt %s --tuner-extract-space="function=dot" -o /dev/null | FileCheck %s --check-prefix=DOT
// RUN: tuner-opt %s --tuner-extract-space="function=sum" -o /dev/null | FileCheck %s --check-prefix=SUM
// RUN: tuner-opt %s --tuner-apply="function=matmul_bcast config=%S/Inputs/matmul-bcast-vectorize.json" | FileCheck %s --check-prefix=BCAST
// RUN: tuner-opt %s --tuner-check-space="samples=20" -o /dev/null | FileCheck %s --check-prefix=CHECK-SPACE

// COMPLEX-NOT: "name": "generic_0.vectorize"
// COMPLEX:     "name": "generic_0.tile.l0"
// COMPLEX-NOT: "name": "generic_0.vectorize"

// DOT-NOT: "name": "dot_0.vectorize"
// DOT:     "name": "dot_0.tile.l0"
// DOT-NOT: "name": "dot_0.vectorize"

// A reduction that is not a contraction still vectorizes.
// SUM: "name": "generic_0.vectorize"

// BCAST-LABEL: func.func @matmul_bcast
// BCAST-NOT:     linalg.matmul
// BCAST:         vector.transfer_read %arg0
// BCAST-NOT:     linalg.matmul
// BCAST:         vector.transfer_write
// BCAST-NOT:     linalg.matmul

// CHECK-SPACE-DAG: check-space @complex_add: size {{[0-9]+}}, 20 samples ({{[0-9]+}} distinct), 0 failed
// CHECK-SPACE-DAG: check-space @dot: size {{[0-9]+}}, 20 samples ({{[0-9]+}} distinct), 0 failed
// CHECK-SPACE-DAG: check-space @sum: size {{[0-9]+}}, 20 samples ({{[0-9]+}} distinct), 0 failed
// CHECK-SPACE-DAG: check-space @matmul_bcast: size {{[0-9]+}}, 20 samples ({{[0-9]+}} distinct), 0 failed

#id2 = affine_map<(i, j) -> (i, j)>
func.func @complex_add(%A: tensor<16x32xcomplex<f32>>, %B: tensor<16x32xcomplex<f32>>,
                       %C: tensor<16x32xcomplex<f32>>) -> tensor<16x32xcomplex<f32>> {
  %r = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%A, %B : tensor<16x32xcomplex<f32>>, tensor<16x32xcomplex<f32>>)
      outs(%C : tensor<16x32xcomplex<f32>>) {
  ^bb0(%x: complex<f32>, %y: complex<f32>, %o: complex<f32>):
    %s = complex.add %x, %y : complex<f32>
    linalg.yield %s : complex<f32>
  } -> tensor<16x32xcomplex<f32>>
  return %r : tensor<16x32xcomplex<f32>>
}

func.func @dot(%a: tensor<16xf32>, %b: tensor<16xf32>, %o: tensor<f32>) -> tensor<f32> {
  %d = linalg.dot ins(%a, %b : tensor<16xf32>, tensor<16xf32>)
                  outs(%o : tensor<f32>) -> tensor<f32>
  return %d : tensor<f32>
}

func.func @sum(%A: tensor<64xf32>, %C: tensor<f32>) -> tensor<f32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>],
                       iterator_types = ["reduction"]}
      ins(%A : tensor<64xf32>) outs(%C : tensor<f32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %o, %x : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}

func.func @matmul_bcast(%A: tensor<16xf32>, %B: tensor<16x8xf32>,
                        %C: tensor<32x8xf32>) -> tensor<32x8xf32> {
  %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>,
                                      affine_map<(d0, d1, d2) -> (d2, d1)>,
                                      affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%A, %B : tensor<16xf32>, tensor<16x8xf32>)
      outs(%C : tensor<32x8xf32>) -> tensor<32x8xf32>
  return %r : tensor<32x8xf32>
}
