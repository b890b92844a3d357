// A tensor matmul (fill + matmul), tiled over all cores, fill fused into the
// scf.forall, register-tiled, vectorized and unrolled.
// RUN: tuner-opt %s --tuner-apply="function=mm config=%S/Inputs/matmul-tensor.json schedule-output=%t.schedule.mlir" > %t.tuned.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.tuned.mlir
// RUN: FileCheck %s --check-prefix=SCRIPT < %t.schedule.mlir
//
// Identical configs give identical scripts.
// RUN: tuner-opt %s --tuner-apply="function=mm config=%S/Inputs/matmul-tensor.json schedule-output=%t.again.mlir" -o /dev/null
// RUN: diff %t.schedule.mlir %t.again.mlir
//
// Stock mlir-opt replays the schedule to the same IR.
// RUN: %mlir_opt %s --load-dialect-plugin=%tuner_plugin --transform-preload-library=transform-library-paths=%t.schedule.mlir --transform-interpreter > %t.replayed.mlir
// RUN: diff %t.tuned.mlir %t.replayed.mlir
//
// The original and the tuned module compute the same checksums.
// RUN: %mlir_opt %s --one-shot-bufferize=bufferize-function-boundaries --convert-linalg-to-loops --scf-forall-to-for --convert-vector-to-scf --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-ub-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%c_runner_utils,%runner_utils | FileCheck %s --check-prefix=EXEC
// RUN: %mlir_opt %t.tuned.mlir --one-shot-bufferize=bufferize-function-boundaries --convert-linalg-to-loops --scf-forall-to-for --convert-vector-to-scf --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-ub-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%c_runner_utils,%runner_utils | FileCheck %s --check-prefix=EXEC

// The same schedule with only the outer tiled parallel loop distributed: the
// scf.forall has one dimension, the other parallel loop is an scf.for inside.
// RUN: tuner-opt %s --tuner-apply="function=mm config=%S/Inputs/matmul-tensor-outer.json schedule-output=%t.outer.mlir" > %t.outer.tuned.mlir
// RUN: FileCheck %s --check-prefix=OUTER < %t.outer.mlir
// RUN: FileCheck %s --check-prefix=OUTER-IR < %t.outer.tuned.mlir
// RUN: %mlir_opt %t.outer.tuned.mlir --one-shot-bufferize=bufferize-function-boundaries --convert-linalg-to-loops --scf-forall-to-for --convert-vector-to-scf --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-ub-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%c_runner_utils,%runner_utils | FileCheck %s --check-prefix=EXEC

// OUTER:      // matmul_1: tile [8, 8, 4], order [0, 2, 1], register tile [2, 4, 1], fuse fill_0, vectorize, unroll 2, parallel (outer loop)
// OUTER-NEXT: transform.structured.tile_using_forall %matmul_1 tile_sizes [8, 0, 0]
// OUTER-NEXT: transform.structured.tile_using_for %matmul_1_tiled tile_sizes [0, 8, 4] interchange = [0, 2, 1]
// OUTER-IR:   scf.forall (%{{.*}}) in (2)
// OUTER-IR:     scf.for %{{.*}} = %c0 to %c16 step %c4
// OUTER-IR:       scf.for %{{.*}} = %c0 to %c16 step %c8

// SCRIPT:      module attributes {transform.with_named_sequence}
// SCRIPT:        %func = transform.structured.match ops{["func.func"]} attributes{sym_name = "mm"} in %root
// SCRIPT:        %fill_0, %matmul_1 = transform.split_handle %linalg_ops
// SCRIPT:        // matmul_1: tile [8, 8, 4], order [0, 2, 1], register tile [2, 4, 1], fuse fill_0, vectorize, unroll 2, parallel
// SCRIPT-NEXT:   %matmul_1_tiled, %matmul_1_forall = transform.structured.tile_using_forall %matmul_1 tile_sizes [8, 8, 0]
// SCRIPT-NEXT:   %matmul_1_tiled_1, %matmul_1_tiled_loops = transform.structured.tile_using_for %matmul_1_tiled tile_sizes [0, 0, 4] interchange = [0, 2, 1]
// SCRIPT-NEXT:   %fill_0_fused, %matmul_1_loop = transform.structured.fuse_into_containing_op %fill_0 into %matmul_1_forall
// SCRIPT-NEXT:   %matmul_1_rtiled, %matmul_1_rtiled_loops:3 = transform.structured.tile_using_for %matmul_1_tiled_1 tile_sizes [2, 4, 1] interchange = [0, 2, 1]
// SCRIPT-NEXT:   transform.tuner.vectorize_tiles %matmul_1_loop {lowering = "outerproduct", unroll = 2}
// SCRIPT:        transform.apply_cse to %func
// SCRIPT-NEXT:   transform.yield

// IR-LABEL: func.func @mm(
// IR:         scf.forall (%{{.*}}, %{{.*}}) in (2, 2)
// The fused fill is vectorized with the micro-kernel.
// IR:           vector.transfer_write {{.*}} : vector<8x8xf32>, tensor<8x8xf32>
// IR:           scf.for
// IR:             scf.for
// IR:               scf.for
// IR-COUNT-2:         vector.transfer_write {{.*}} : vector<2x4xf32>, tensor<2x4xf32>
// IR:           scf.forall.in_parallel
// IR-NOT:     linalg.matmul
// IR-LABEL: func.func @input(

// EXEC: 3999
// EXEC-NEXT: 94347

func.func @mm(%A: tensor<16x16xf32>, %B: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %m = linalg.matmul ins(%A, %B : tensor<16x16xf32>, tensor<16x16xf32>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %m : tensor<16x16xf32>
}

// t[i][j] = (a*i + b*j) mod m - off.
func.func @input(%a: index, %b: index, %m: index, %off: index) -> tensor<16x16xf32> {
  %t = tensor.generate {
  ^bb0(%i: index, %j: index):
    %ai = arith.muli %i, %a : index
    %bj = arith.muli %j, %b : index
    %s = arith.addi %ai, %bj : index
    %r = arith.remui %s, %m : index
    %v = arith.subi %r, %off : index
    %w = arith.index_cast %v : index to i32
    %x = arith.sitofp %w : i32 to f32
    tensor.yield %x : f32
  } : tensor<16x16xf32>
  return %t : tensor<16x16xf32>
}

// Prints the sum of C and the sum of C[i][j] * (i + 2j + 1).
func.func @checksum(%C: tensor<16x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %sums:2 = scf.for %i = %c0 to %c16 step %c1 iter_args(%s0 = %zero, %w0 = %zero) -> (f32, f32) {
    %inner:2 = scf.for %j = %c0 to %c16 step %c1 iter_args(%s1 = %s0, %w1 = %w0) -> (f32, f32) {
      %x = tensor.extract %C[%i, %j] : tensor<16x16xf32>
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
  %A = call @input(%c3, %c1, %c7, %c2) : (index, index, index, index) -> tensor<16x16xf32>
  %B = call @input(%c1, %c2, %c5, %c1) : (index, index, index, index) -> tensor<16x16xf32>
  %C = call @mm(%A, %B) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  call @checksum(%C) : (tensor<16x16xf32>) -> ()
  return
}
