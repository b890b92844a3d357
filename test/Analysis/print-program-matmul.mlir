// RUN: tuner-opt --tuner-print-program %s -o /dev/null | FileCheck %s

// Matmul on tensors: fill of a fresh tensor, then matmul into it.
// CHECK-LABEL: function @matmul_tensors
// CHECK-NEXT:   buffers:
// CHECK-NEXT:     #0 %arg0 tensor 64x32 f32 (arg)
// CHECK-NEXT:     #1 %arg1 tensor 32x16 f32 (arg)
// CHECK-NEXT:     #2 %0 tensor 64x16 f32 (result)
// CHECK-NEXT:   nest fill_0 (linalg, op 0) perfect outer-parallel
// CHECK-NEXT:     loop fill_0.d0 extent 64 lb 0 step 1 parallel
// CHECK-NEXT:       loop fill_0.d1 extent 16 lb 0 step 1 parallel
// CHECK-NEXT:         comp fill_0 (linalg.fill) writes #2 [64, 16] f32 ops add=0 mul=0 sub=0 div=0 other=0
// CHECK-NEXT:           write #2 {{\[}}[1, 0, 0], [0, 1, 0]]
// CHECK-NEXT:     band: fill_0.d0 fill_0.d1
// CHECK-NEXT:     legal orders: all
// CHECK-NEXT:   nest matmul_1 (linalg, op 1) perfect outer-parallel
// CHECK-NEXT:     loop matmul_1.d0 extent 64 lb 0 step 1 parallel
// CHECK-NEXT:       loop matmul_1.d1 extent 16 lb 0 step 1 parallel
// CHECK-NEXT:         loop matmul_1.d2 extent 32 lb 0 step 1 reduction
// CHECK-NEXT:           comp matmul_1 (linalg.matmul) writes #2 [64, 16] f32 ops add=1 mul=1 sub=0 div=0 other=0
// CHECK-NEXT:             read  #0 {{\[}}[1, 0, 0, 0], [0, 0, 1, 0]]
// CHECK-NEXT:             read  #1 {{\[}}[0, 0, 1, 0], [0, 1, 0, 0]]
// CHECK-NEXT:             read  #2 {{\[}}[1, 0, 0, 0], [0, 1, 0, 0]]
// CHECK-NEXT:             write #2 {{\[}}[1, 0, 0, 0], [0, 1, 0, 0]]
// CHECK-NEXT:     band: matmul_1.d0 matmul_1.d1 matmul_1.d2
// CHECK-NEXT:     legal orders: all
// CHECK-NEXT:   edges:
// CHECK-NEXT:     fill_0 -> matmul_1 via #2 (tensor, init)
func.func @matmul_tensors(%A: tensor<64x32xf32>, %B: tensor<32x16xf32>) -> tensor<64x16xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64x16xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<64x16xf32>) -> tensor<64x16xf32>
  %D = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x16xf32>)
                     outs(%C : tensor<64x16xf32>) -> tensor<64x16xf32>
  return %D : tensor<64x16xf32>
}

// Matmul on memrefs, integer: the init is read, extends are casts.
// CHECK-LABEL: function @matmul_memrefs
// CHECK-NEXT:   buffers:
// CHECK-NEXT:     #0 %arg0 memref 8x4 i8 (arg)
// CHECK-NEXT:     #1 %arg1 memref 4x8 i8 (arg)
// CHECK-NEXT:     #2 %arg2 memref 8x8 i32 (arg)
// CHECK-NEXT:   nest fill_0 (linalg, op 0)
// CHECK:        nest matmul_1 (linalg, op 1) perfect outer-parallel
// CHECK:            loop matmul_1.d2 extent 4 lb 0 step 1 reduction
// CHECK-NEXT:           comp matmul_1 (linalg.matmul) writes #2 [8, 8] i32 ops add=1 mul=1 sub=0 div=0 other=0
// CHECK-NEXT:             read  #0
// CHECK-NEXT:             read  #1
// CHECK-NEXT:             read  #2
// CHECK-NEXT:             write #2
// CHECK:        edges:
// CHECK-NEXT:     fill_0 -> matmul_1 via #2 (memref)
// CHECK-NOT:      ->
func.func @matmul_memrefs(%A: memref<8x4xi8>, %B: memref<4x8xi8>, %C: memref<8x8xi32>) {
  %zero = arith.constant 0 : i32
  linalg.fill ins(%zero : i32) outs(%C : memref<8x8xi32>)
  linalg.matmul ins(%A, %B : memref<8x4xi8>, memref<4x8xi8>) outs(%C : memref<8x8xi32>)
  return
}

// Functions without loop nests are not printed.
// CHECK-NOT: function @no_nests
func.func @no_nests(%x: f32) -> f32 {
  return %x : f32
}
