// A micro-kernel on sizes that no tile divides (19x13 times 13x23): cache
// tiles of 8x16x8 distributed over the cores, a 3x16 register tile with the
// reduction loop innermost, the fill fused. transform.tuner.vectorize_tiles
// versions the scf.forall's tiles on whether they are full, peels the
// partial iterations of the scf.for loops, vectorizes every tile (the
// partial ones cut into static slices), keeps the 3x16 accumulator in
// vector registers across the reduction loop and unrolls that loop. The
// result is verified against the untransformed function with mlir-runner,
// and stock mlir-opt replays the schedule with the plugin.
// RUN: tuner-opt %s --tuner-apply="function=mm config=%S/Inputs/micro-kernel.json schedule-output=%t.schedule.mlir" > %t.tuned.mlir
// RUN: FileCheck %s --check-prefix=SCRIPT < %t.schedule.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.tuned.mlir
// RUN: %mlir_opt %s --load-dialect-plugin=%tuner_plugin --transform-preload-library=transform-library-paths=%t.schedule.mlir --transform-interpreter > %t.replayed.mlir
// RUN: diff %t.tuned.mlir %t.replayed.mlir
//
// The untransformed function, the micro-kernel and its dot-product lowering
// (not distributed, not fused) print the same checksums.
// RUN: %mlir_opt %s --one-shot-bufferize=bufferize-function-boundaries --convert-linalg-to-loops --scf-forall-to-for --convert-vector-to-scf --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-ub-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%c_runner_utils,%runner_utils | FileCheck %s --check-prefix=EXEC
// RUN: %mlir_opt %t.tuned.mlir --one-shot-bufferize=bufferize-function-boundaries --convert-linalg-to-loops --scf-forall-to-for --convert-vector-to-scf --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-ub-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%c_runner_utils,%runner_utils | FileCheck %s --check-prefix=EXEC
// RUN: tuner-opt %s --tuner-apply="function=mm config=%S/Inputs/micro-kernel-dot.json" \
// RUN:   | %mlir_opt --one-shot-bufferize=bufferize-function-boundaries --convert-linalg-to-loops --scf-forall-to-for --convert-vector-to-scf --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-ub-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%c_runner_utils,%runner_utils | FileCheck %s --check-prefix=EXEC

// SCRIPT:      // matmul_1: tile [8, 16, 8], register tile [3, 0, 1], fuse fill_0, vectorize, unroll 2, parallel
// SCRIPT:      %matmul_1_tiled, %matmul_1_forall = transform.structured.tile_using_forall %matmul_1 tile_sizes [8, 16, 0]
// SCRIPT:      %fill_0_fused, %matmul_1_loop = transform.structured.fuse_into_containing_op %fill_0 into %matmul_1_forall
// SCRIPT:      transform.structured.tile_using_for %matmul_1_tiled_1 tile_sizes [3, 0, 1]
// SCRIPT-NEXT: transform.tuner.vectorize_tiles %matmul_1_loop {lowering = "outerproduct", unroll = 2, pad_remainders = true}

// IR-LABEL: func.func @mm(
// IR:         scf.forall (%{{.*}}, %{{.*}}) in (3, 2)
// Full tiles (8x16) take the static version.
// IR:           scf.if
// IR:             scf.for {{.*}} -> (tensor<8x16xf32>)
// The reduction loop, unrolled by 2, carries the 3x16 accumulator in
// registers; the 2-row remainder of the 8 rows gets its own.
// IR:               scf.for %{{.*}} = %c0 to %c8 step %c2 iter_args(%{{.*}} = %{{.*}}) -> (vector<3x16xf32>)
// IR-COUNT-6:         vector.fma {{.*}} : vector<16xf32>
// IR:             scf.for %{{.*}} = %c0 to %c8 step %c2 iter_args(%{{.*}} = %{{.*}}) -> (vector<2x16xf32>)
// IR:           } else {
// IR:           scf.forall.in_parallel
// IR-NOT:     linalg.matmul
// IR-LABEL: func.func @input(

// EXEC: 5578
// EXEC-NEXT: 179272

func.func @mm(%A: tensor<19x13xf32>, %B: tensor<13x23xf32>) -> tensor<19x23xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<19x23xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<19x23xf32>) -> tensor<19x23xf32>
  %m = linalg.matmul ins(%A, %B : tensor<19x13xf32>, tensor<13x23xf32>) outs(%f : tensor<19x23xf32>) -> tensor<19x23xf32>
  return %m : tensor<19x23xf32>
}

// t[i][j] = (a*i + b*j) mod m - off.
func.func @input(%a: index, %b: index, %m: index, %off: index, %rows: index, %cols: index) -> tensor<?x?xf32> {
  %t = tensor.generate %rows, %cols {
  ^bb0(%i: index, %j: index):
    %ai = arith.muli %i, %a : index
    %bj = arith.muli %j, %b : index
    %s = arith.addi %ai, %bj : index
    %r = arith.remui %s, %m : index
    %v = arith.subi %r, %off : index
    %w = arith.index_cast %v : index to i32
    %x = arith.sitofp %w : i32 to f32
    tensor.yield %x : f32
  } : tensor<?x?xf32>
  return %t : tensor<?x?xf32>
}

// Prints the sum of C and the sum of C[i][j] * (i + 2j + 1).
func.func @checksum(%C: tensor<19x23xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c19 = arith.constant 19 : index
  %c23 = arith.constant 23 : index
  %zero = arith.constant 0.0 : f32
  %sums:2 = scf.for %i = %c0 to %c19 step %c1 iter_args(%s0 = %zero, %w0 = %zero) -> (f32, f32) {
    %inner:2 = scf.for %j = %c0 to %c23 step %c1 iter_args(%s1 = %s0, %w1 = %w0) -> (f32, f32) {
      %x = tensor.extract %C[%i, %j] : tensor<19x23xf32>
      %j2 = arith.muli %j, %c2 : index
      %k = arith.addi %i, %j2 : index
      %k1 = arith.addi %k, %c1 : index
      %ki = arith.index_cast %k1 : index to i32
      %kf = arith.sitofp %ki : i32 to f32
      %xw = arith.mulf %x, %kf : f32
      %s2 = arith.addf %s1, %x : f32
      %w2 = arith.addf %w1, %xw : f32
      scf.yield %s2, %w2 : f32, f32
    }
    scf.yield %inner#0, %inner#1 : f32, f32
  }
  vector.print %sums#0 : f32
  vector.print %sums#1 : f32
  return
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c13 = arith.constant 13 : index
  %c19 = arith.constant 19 : index
  %c23 = arith.constant 23 : index
  %a = call @input(%c3, %c1, %c7, %c2, %c19, %c13) : (index, index, index, index, index, index) -> tensor<?x?xf32>
  %b = call @input(%c1, %c2, %c5, %c1, %c13, %c23) : (index, index, index, index, index, index) -> tensor<?x?xf32>
  %A = tensor.cast %a : tensor<?x?xf32> to tensor<19x13xf32>
  %B = tensor.cast %b : tensor<?x?xf32> to tensor<13x23xf32>
  %C = call @mm(%A, %B) : (tensor<19x13xf32>, tensor<13x23xf32>) -> tensor<19x23xf32>
  call @checksum(%C) : (tensor<19x23xf32>) -> ()
  return
}
