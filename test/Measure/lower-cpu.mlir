// The CPU lowering pipeline: every kind of input ends as LLVM dialect (plus
// OpenMP ops for parallel loops), with results turned into out-params and a
// C interface for the harness.
// RUN: tuner-opt --tuner-lower-cpu -split-input-file %s | FileCheck %s
// RUN: tuner-opt --tuner-lower-cpu="openmp=false" -split-input-file %s \
// RUN:   | FileCheck %s --check-prefix=SEQ
// RUN: tuner-opt --tuner-lower-cpu="num-threads=3" -split-input-file %s \
// RUN:   | FileCheck %s --check-prefix=THREADS

// Tensor matmul: the result becomes a fourth pointer argument.
// CHECK-LABEL: llvm.func @matmul_tensor(
// CHECK-NOT: {{[ ](linalg|scf|affine|memref|vector|arith|tensor|bufferization|cf|math|func|omp)\.}}
// CHECK: llvm.fmul
// CHECK: llvm.fadd
// CHECK-LABEL: llvm.func @_mlir_ciface_matmul_tensor(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// CHECK-NEXT: llvm.load
// CHECK-NOT: {{[ ](linalg|scf|affine|memref|vector|arith|tensor|bufferization|cf|math|func|omp)\.}}
// CHECK: llvm.return{{$}}
func.func @matmul_tensor(%A: tensor<16x16xf32>, %B: tensor<16x16xf32>,
                         %C: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %0 = linalg.matmul ins(%A, %B : tensor<16x16xf32>, tensor<16x16xf32>)
                     outs(%C : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// -----

// Memref matmul in f64: arguments only, nothing returned. The descriptors'
// pointers are noalias (the caller's buffers never overlap), the C
// wrapper's pointers to descriptors are not.
// CHECK-LABEL: llvm.func @matmul_memref(
// CHECK-SAME: %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: i64,
// CHECK-NOT: {{[ ](linalg|scf|affine|memref|vector|arith|tensor|bufferization|cf|math|func|omp)\.}}
// CHECK: llvm.fmul {{.*}} : f64
// CHECK-LABEL: llvm.func @_mlir_ciface_matmul_memref(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
func.func @matmul_memref(%A: memref<16x8xf64>, %B: memref<8x4xf64>,
                         %C: memref<16x4xf64>) {
  linalg.matmul ins(%A, %B : memref<16x8xf64>, memref<8x4xf64>)
                outs(%C : memref<16x4xf64>)
  return
}

// -----

// An affine nest with a math op.
// CHECK-LABEL: llvm.func @affine_nest(
// CHECK-NOT: {{[ ](linalg|scf|affine|memref|vector|arith|tensor|bufferization|cf|math|func|omp)\.}}
// CHECK: llvm.intr.exp
// CHECK: llvm.func @_mlir_ciface_affine_nest
func.func @affine_nest(%A: memref<16x16xf32>, %B: memref<16x16xf32>) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 step 4 {
      %a = affine.load %A[%j, %i] : memref<16x16xf32>
      %e = math.exp %a : f32
      affine.store %e, %B[%i, %j] : memref<16x16xf32>
    }
  }
  return
}

// -----

// scf.forall over tiles: OpenMP by default, sequential loops without it.
// CHECK-LABEL: llvm.func @forall_tiles(
// CHECK: omp.parallel
// CHECK: omp.wsloop
// CHECK: omp.loop_nest
// CHECK-NOT: {{[ ](linalg|scf|affine|memref|vector|arith|tensor|bufferization|cf|math|func)\.}}
// CHECK: llvm.func @_mlir_ciface_forall_tiles
// THREADS-LABEL: llvm.func @forall_tiles(
// THREADS: %[[THREADS:.*]] = llvm.mlir.constant(3 : i32) : i32
// THREADS-NEXT: omp.parallel num_threads(%[[THREADS]] : i32)
// SEQ-LABEL: llvm.func @forall_tiles(
// SEQ-NOT: omp.
// SEQ-NOT: {{[ ](linalg|scf|affine|memref|vector|arith|tensor|bufferization|cf|math|func)\.}}
// SEQ: llvm.func @_mlir_ciface_forall_tiles
func.func @forall_tiles(%A: tensor<32x32xf32>, %B: tensor<32x32xf32>)
    -> tensor<32x32xf32> {
  %0 = scf.forall (%i, %j) in (4, 4) shared_outs(%out = %B)
      -> (tensor<32x32xf32>) {
    %r = affine.apply affine_map<(d0) -> (d0 * 8)>(%i)
    %c = affine.apply affine_map<(d0) -> (d0 * 8)>(%j)
    %in = tensor.extract_slice %A[%r, %c] [8, 8] [1, 1]
        : tensor<32x32xf32> to tensor<8x8xf32>
    %acc = tensor.extract_slice %out[%r, %c] [8, 8] [1, 1]
        : tensor<32x32xf32> to tensor<8x8xf32>
    %sum = linalg.add ins(%in, %acc : tensor<8x8xf32>, tensor<8x8xf32>)
                      outs(%acc : tensor<8x8xf32>) -> tensor<8x8xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %sum into %out[%r, %c] [8, 8] [1, 1]
          : tensor<8x8xf32> into tensor<32x32xf32>
    }
  }
  return %0 : tensor<32x32xf32>
}

// -----

// affine.parallel and scf.parallel with a reduction.
// CHECK-LABEL: llvm.func @parallel_loops(
// CHECK: omp.parallel
// CHECK: omp.wsloop
// CHECK: llvm.func @_mlir_ciface_parallel_loops
func.func @parallel_loops(%A: memref<32x32xi32>, %B: memref<32x32xi32>,
                          %S: memref<i32>) {
  affine.parallel (%i, %j) = (0, 0) to (32, 32) {
    %a = affine.load %A[%j, %i] : memref<32x32xi32>
    %b = arith.muli %a, %a : i32
    affine.store %b, %B[%i, %j] : memref<32x32xi32>
  }
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0 : i32
  %sum = scf.parallel (%i) = (%c0) to (%c32) step (%c1) init (%zero) -> i32 {
    %x = memref.load %B[%i, %i] : memref<32x32xi32>
    scf.reduce(%x : i32) {
    ^bb0(%l: i32, %r: i32):
      %s = arith.addi %l, %r : i32
      scf.reduce.return %s : i32
    }
  }
  memref.store %sum, %S[] : memref<i32>
  return
}

// -----

// What transform.structured.vectorize produces: broadcasting transfers and
// a multiply-reduce (folded into a contraction), and a contraction, become
// broadcasts and FMAs on 1-D vectors: no 3-D product is materialized.
// CHECK-LABEL: llvm.func @vectorized(
// CHECK-NOT: {{[ ](linalg|scf|affine|memref|vector|arith|tensor|bufferization|cf|math|func|omp)\.}}
// CHECK-NOT: llvm.fmul
// CHECK: llvm.load {{.*}} -> vector<16xf32>
// CHECK-NOT: llvm.fmul
// CHECK: llvm.intr.fmuladd({{.*}}) : (vector<16xf32>, vector<16xf32>, vector<16xf32>) -> vector<16xf32>
// CHECK-NOT: llvm.fmul
// CHECK: llvm.store {{.*}} : vector<16xf32>, !llvm.ptr
// CHECK: llvm.func @_mlir_ciface_vectorized
#lhs = affine_map<(d0, d1) -> (d0, 0, d1)>
#rhs = affine_map<(d0, d1) -> (0, d1, d0)>
func.func @vectorized(%A: memref<8x4xf32>, %B: memref<4x16xf32>,
                      %C: memref<8x16xf32>, %D: memref<8x16xf32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %a = vector.transfer_read %A[%c0, %c0], %pad
      {in_bounds = [true, true, true], permutation_map = #lhs}
      : memref<8x4xf32>, vector<8x16x4xf32>
  %b = vector.transfer_read %B[%c0, %c0], %pad
      {in_bounds = [true, true, true], permutation_map = #rhs}
      : memref<4x16xf32>, vector<8x16x4xf32>
  %c = vector.transfer_read %C[%c0, %c0], %pad {in_bounds = [true, true]}
      : memref<8x16xf32>, vector<8x16xf32>
  %m = arith.mulf %a, %b : vector<8x16x4xf32>
  %r = vector.multi_reduction <add>, %m, %c [2]
      : vector<8x16x4xf32> to vector<8x16xf32>
  vector.transfer_write %r, %C[%c0, %c0] {in_bounds = [true, true]}
      : vector<8x16xf32>, memref<8x16xf32>
  %a2 = vector.transfer_read %A[%c0, %c0], %pad {in_bounds = [true, true]}
      : memref<8x4xf32>, vector<8x4xf32>
  %b2 = vector.transfer_read %B[%c0, %c0], %pad {in_bounds = [true, true]}
      : memref<4x16xf32>, vector<4x16xf32>
  %d = vector.contract {
      indexing_maps = [affine_map<(i, j, k) -> (i, k)>,
                       affine_map<(i, j, k) -> (k, j)>,
                       affine_map<(i, j, k) -> (i, j)>],
      iterator_types = ["parallel", "parallel", "reduction"],
      kind = #vector.kind<add>} %a2, %b2, %r
      : vector<8x4xf32>, vector<4x16xf32> into vector<8x16xf32>
  vector.transfer_write %d, %D[%c0, %c0] {in_bounds = [true, true]}
      : vector<8x16xf32>, memref<8x16xf32>
  return
}

// -----

// A tiled loop writing a fresh tensor: after bufferization the result is
// the loop's carried buffer. It becomes the out-param itself: nothing is
// allocated or copied per call.
// CHECK-LABEL: llvm.func @tiled_result(
// CHECK-NOT: llvm.call @malloc
// CHECK-NOT: llvm.intr.memcpy
// CHECK: llvm.return
func.func @tiled_result(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %e = tensor.empty() : tensor<64x64xf32>
  %r = scf.for %i = %c0 to %c64 step %c8 iter_args(%acc = %e) -> (tensor<64x64xf32>) {
    %in = tensor.extract_slice %x[%i, 0] [8, 64] [1, 1] : tensor<64x64xf32> to tensor<8x64xf32>
    %out = tensor.extract_slice %acc[%i, 0] [8, 64] [1, 1] : tensor<64x64xf32> to tensor<8x64xf32>
    %n = linalg.negf ins(%in : tensor<8x64xf32>) outs(%out : tensor<8x64xf32>) -> tensor<8x64xf32>
    %u = tensor.insert_slice %n into %acc[%i, 0] [8, 64] [1, 1] : tensor<8x64xf32> into tensor<64x64xf32>
    scf.yield %u : tensor<64x64xf32>
  }
  return %r : tensor<64x64xf32>
}

// -----

// Copies of strided buffers whose rows are contiguous become loops (which
// LLVM vectorizes), also when their sizes are known only at run time (a
// padded partial tile's rows); a copy whose innermost stride is unknown
// still calls the runtime's memrefCopy, and contiguous buffers a memcpy.
// CHECK-LABEL: llvm.func @strided_copies(
// CHECK-NOT: llvm.call @memrefCopy
// CHECK: llvm.return
// CHECK-LABEL: llvm.func @unknown_inner_stride(
// CHECK: llvm.call @memrefCopy
// CHECK-LABEL: llvm.func @contiguous_copy(
// CHECK-NOT: llvm.call @memrefCopy
// CHECK: llvm.intr.memcpy
func.func @strided_copies(%a: memref<37x45xf32>, %b: memref<16x45xf32>,
                          %rows: index, %off: index) {
  %src = memref.subview %a[%off, 0] [%rows, 45] [1, 1]
      : memref<37x45xf32> to memref<?x45xf32, strided<[45, 1], offset: ?>>
  %dst = memref.subview %b[0, 0] [%rows, 45] [1, 1]
      : memref<16x45xf32> to memref<?x45xf32, strided<[45, 1]>>
  memref.copy %src, %dst : memref<?x45xf32, strided<[45, 1], offset: ?>>
      to memref<?x45xf32, strided<[45, 1]>>
  %src2 = memref.subview %a[%off, 0] [16, 13] [1, 1]
      : memref<37x45xf32> to memref<16x13xf32, strided<[45, 1], offset: ?>>
  %dst2 = memref.subview %b[0, 0] [16, 13] [1, 1]
      : memref<16x45xf32> to memref<16x13xf32, strided<[45, 1]>>
  memref.copy %src2, %dst2 : memref<16x13xf32, strided<[45, 1], offset: ?>>
      to memref<16x13xf32, strided<[45, 1]>>
  return
}
func.func @unknown_inner_stride(%a: memref<?x?xf32, strided<[?, ?]>>,
                                %b: memref<?x?xf32>) {
  memref.copy %a, %b : memref<?x?xf32, strided<[?, ?]>> to memref<?x?xf32>
  return
}
func.func @contiguous_copy(%a: memref<?x45xf32>, %b: memref<?x45xf32>) {
  memref.copy %a, %b : memref<?x45xf32> to memref<?x45xf32>
  return
}
