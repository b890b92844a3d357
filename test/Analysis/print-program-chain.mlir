// RUN: tuner-opt --tuner-print-program %s -o /dev/null | FileCheck %s

// fill -> matmul -> bias + relu: the fill and the matmul share the buffer of
// the tensor.empty they are built on; the elementwise op writes a new one.
// CHECK-LABEL: function @chain
// CHECK-NEXT:   buffers:
// CHECK-NEXT:     #0 %arg0 tensor 32x16 f32 (arg)
// CHECK-NEXT:     #1 %arg1 tensor 16x8 f32 (arg)
// CHECK-NEXT:     #2 %arg2 tensor 8 f32 (arg)
// CHECK-NEXT:     #3 %0 tensor 32x8 f32{{$}}
// CHECK-NEXT:     #4 %3 tensor 32x8 f32 (result)
// CHECK-NEXT:   nest fill_0 (linalg, op 0) perfect outer-parallel
// CHECK:          comp fill_0 (linalg.fill) writes #3 [32, 8] f32
// CHECK:        nest matmul_1 (linalg, op 1) perfect outer-parallel
// CHECK:          comp matmul_1 (linalg.matmul) writes #3 [32, 8] f32 ops add=1 mul=1 sub=0 div=0 other=0
// CHECK:        nest generic_2 (linalg, op 2) perfect outer-parallel
// CHECK-NEXT:     loop generic_2.d0 extent 32 lb 0 step 1 parallel
// CHECK-NEXT:       loop generic_2.d1 extent 8 lb 0 step 1 parallel
// CHECK-NEXT:         comp generic_2 (linalg.generic) writes #4 [32, 8] f32 ops add=1 mul=0 sub=0 div=0 other=1
// CHECK-NEXT:           read  #3 {{\[}}[1, 0, 0], [0, 1, 0]]
// CHECK-NEXT:           read  #2 {{\[}}[0, 1, 0]]
// CHECK-NEXT:           write #4 {{\[}}[1, 0, 0], [0, 1, 0]]
// CHECK:        edges:
// CHECK-NEXT:     fill_0 -> matmul_1 via #3 (tensor, init)
// CHECK-NEXT:     matmul_1 -> generic_2 via #3 (tensor)
// CHECK-NOT:      ->
#map2 = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
func.func @chain(%A: tensor<32x16xf32>, %B: tensor<16x8xf32>,
                 %bias: tensor<8xf32>) -> tensor<32x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<32x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e0 : tensor<32x8xf32>) -> tensor<32x8xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<32x16xf32>, tensor<16x8xf32>)
                      outs(%f : tensor<32x8xf32>) -> tensor<32x8xf32>
  %e1 = tensor.empty() : tensor<32x8xf32>
  %r = linalg.generic {indexing_maps = [#map2, #bias, #map2],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<32x8xf32>, tensor<8xf32>) outs(%e1 : tensor<32x8xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %x, %b : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<32x8xf32>
  return %r : tensor<32x8xf32>
}

// A 0-d result: the fill has no loops, the dot one reduction loop.
// CHECK-LABEL: function @dot
// CHECK-NEXT:   buffers:
// CHECK-NEXT:     #0 %arg0 tensor 16 f32 (arg)
// CHECK-NEXT:     #1 %arg1 tensor 16 f32 (arg)
// CHECK-NEXT:     #2 %0 tensor scalar f32 (result)
// CHECK-NEXT:   nest fill_0 (linalg, op 0) perfect outer-sequential
// CHECK-NEXT:     comp fill_0 (linalg.fill) writes #2 [] f32 ops add=0 mul=0 sub=0 div=0 other=0
// CHECK-NEXT:       write #2 []
// CHECK-NEXT:     band: none
// CHECK-NEXT:     legal orders: all
// CHECK-NEXT:   nest dot_1 (linalg, op 1) perfect outer-sequential
// CHECK-NEXT:     loop dot_1.d0 extent 16 lb 0 step 1 reduction
// CHECK-NEXT:       comp dot_1 (linalg.dot) writes #2 [] f32 ops add=1 mul=1 sub=0 div=0 other=0
// CHECK-NEXT:         read  #0 {{\[}}[1, 0]]
// CHECK-NEXT:         read  #1 {{\[}}[1, 0]]
// CHECK-NEXT:         read  #2 []
// CHECK-NEXT:         write #2 []
// CHECK:        edges:
// CHECK-NEXT:     fill_0 -> dot_1 via #2 (tensor, init)
func.func @dot(%a: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %d = linalg.dot ins(%a, %b : tensor<16xf32>, tensor<16xf32>)
                  outs(%f : tensor<f32>) -> tensor<f32>
  return %d : tensor<f32>
}

// Linalg ops and an affine nest on memrefs in one function: edges follow the
// last writer of each memref, allocations are buffers.
// CHECK-LABEL: function @mixed
// CHECK-NEXT:   buffers:
// CHECK-NEXT:     #0 %arg0 memref 8x8 f32 (arg)
// CHECK-NEXT:     #1 %arg1 memref 8x8 f32 (arg)
// CHECK-NEXT:     #2 %alloc memref 8x8 f32{{$}}
// CHECK-NEXT:   nest fill_0 (linalg, op 0)
// CHECK:        nest nest_0 (affine, op 0) perfect outer-sequential
// CHECK:          legal orders (1 of 2): [0, 1]
// CHECK-NEXT:   nest copy_1 (linalg, op 1)
// CHECK:        edges:
// CHECK-NEXT:     fill_0 -> nest_0.s0 via #2 (memref)
// CHECK-NEXT:     nest_0.s0 -> copy_1 via #2 (memref)
// CHECK-NOT:      ->
func.func @mixed(%A: memref<8x8xf32>, %B: memref<8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %tmp = memref.alloc() : memref<8x8xf32>
  linalg.fill ins(%zero : f32) outs(%tmp : memref<8x8xf32>)
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %a = affine.load %A[%i, %j] : memref<8x8xf32>
      %t = affine.load %tmp[%j, %i] : memref<8x8xf32>
      %s = arith.subf %a, %t : f32
      affine.store %s, %tmp[%i, %j] : memref<8x8xf32>
    }
  }
  linalg.copy ins(%tmp : memref<8x8xf32>) outs(%B : memref<8x8xf32>)
  memref.dealloc %tmp : memref<8x8xf32>
  return
}
