// RUN: tuner-opt --tuner-print-program=format=json %s -o /dev/null | FileCheck %s

// One object per function, in module order.
// CHECK:      [
// CHECK-NEXT:   {
// CHECK-NEXT:     "buffers": [
// CHECK:              "elementBytes": 4,
// CHECK-NEXT:         "elementType": "f32",
// CHECK-NEXT:         "id": 0,
// CHECK-NEXT:         "isFunctionArgument": true,
// CHECK-NEXT:         "isFunctionResult": false,
// CHECK-NEXT:         "isTensor": false,
// CHECK-NEXT:         "name": "%arg0",
// CHECK-NEXT:         "shape": [
// CHECK-NEXT:           8,
// CHECK-NEXT:           4
// CHECK-NEXT:         ]
// CHECK:          "computations": [
// CHECK:              "name": "nest_0.s0",
// CHECK:              "opCounts": {
// CHECK-NEXT:           "add": 1,
// CHECK-NEXT:           "div": 0,
// CHECK-NEXT:           "mul": 1,
// CHECK-NEXT:           "other": 0,
// CHECK-NEXT:           "sub": 0
// CHECK-NEXT:         },
// CHECK-NEXT:         "opName": "affine.store",
// CHECK:          "edges": [],
// CHECK-NEXT:     "function": "affine_matmul",
// CHECK:          "nests": [
// CHECK:              "band": [
// CHECK-NEXT:           0,
// CHECK-NEXT:           1,
// CHECK-NEXT:           2
// CHECK-NEXT:         ],
// CHECK:              "legalOrders": [
// CHECK-COUNT-6:        [
// CHECK:              "outerLoopParallel": true,
// CHECK-NEXT:         "rootLoopId": 0,
// CHECK-NEXT:         "source": "affine"
// CHECK:          "rootLoopIds": [
// CHECK-NEXT:       0
// CHECK-NEXT:     ]
// CHECK-NEXT:   },
// CHECK-NEXT:   {
// CHECK:          "edges": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "bufferId": 1,
// CHECK-NEXT:         "consumer": 1,
// CHECK-NEXT:         "intoInit": true,
// CHECK-NEXT:         "producer": 0,
// CHECK-NEXT:         "viaTensor": true
// CHECK-NEXT:       }
// CHECK-NEXT:     ],
// CHECK-NEXT:     "function": "fill_relu",
// CHECK:              "isParallel": true,
// CHECK-NEXT:         "isReduction": false,
// CHECK:              "legalOrders": [],
// CHECK:              "source": "linalg"
// CHECK:        ]
func.func @affine_matmul(%A: memref<8x4xf32>, %B: memref<4x8xf32>, %C: memref<8x8xf32>) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      affine.for %k = 0 to 4 {
        %a = affine.load %A[%i, %k] : memref<8x4xf32>
        %b = affine.load %B[%k, %j] : memref<4x8xf32>
        %c = affine.load %C[%i, %j] : memref<8x8xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<8x8xf32>
      }
    }
  }
  return
}

#id = affine_map<(d0) -> (d0)>
func.func @fill_relu(%x: tensor<16xf32>) -> tensor<16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<16xf32>) outs(%f : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}
