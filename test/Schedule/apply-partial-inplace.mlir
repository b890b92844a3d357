// The partial scf.forall tiles of a vectorized matmul on sizes that no tile
// divides (37x29 times 29x45: 16-row tiles on the cores, the last one of 5
// rows; 32-column scf.for cache tiles, the last one of 13 columns; a 6x16
// register tile) compute in place of their slice of the output, in both
// versions. transform.tuner.vectorize_tiles versions the tiles on whether
// they are full and takes the tile's slice of the shared output out of the
// versions (before the scf.if): the full version computes on it, the padded
// one pads it and inserts its result, cut back, into it. Both versions
// yield that slice, so that bufferization gives the scf.if no result and
// the scf.forall's write-back of the tile is a copy of a buffer onto itself,
// which folds away. (With a slice per version, every tile, full ones
// included, was copied element by element through memrefCopy into the
// output.) The 13 columns that the 32-column tiles leave are padded to a
// full 16-column register tile (pad_remainders). Verified against the
// untransformed function with mlir-runner, padded and peeled, and replayed
// with stock mlir-opt.
// RUN: tuner-opt %s --tuner-apply="function=mm config=%S/Inputs/partial-inplace.json schedule-output=%t.schedule.mlir" > %t.tuned.mlir
// RUN: FileCheck %s --check-prefix=SCRIPT < %t.schedule.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.tuned.mlir
// RUN: %mlir_opt %s --load-dialect-plugin=%tuner_plugin --transform-preload-library=transform-library-paths=%t.schedule.mlir --transform-interpreter > %t.replayed.mlir
// RUN: diff %t.tuned.mlir %t.replayed.mlir
// RUN: %mlir_opt %t.tuned.mlir --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --cse --canonicalize | FileCheck %s --check-prefix=BUF
// RUN: %mlir_opt %s --one-shot-bufferize=bufferize-function-boundaries --convert-linalg-to-loops --scf-forall-to-for --convert-vector-to-scf --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-ub-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%c_runner_utils,%runner_utils > %t.reference.txt
// RUN: FileCheck %s --check-prefix=EXEC < %t.reference.txt
// RUN: %mlir_opt %t.tuned.mlir --one-shot-bufferize=bufferize-function-boundaries --convert-linalg-to-loops --scf-forall-to-for --convert-vector-to-scf --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-ub-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%c_runner_utils,%runner_utils > %t.padded.txt
// RUN: diff %t.reference.txt %t.padded.txt
//
// Peeled instead (partial = "peel"): the same slice hoisted, no padding, the
// same output.
// RUN: sed -e 's/"pad"/"peel"/' %S/Inputs/partial-inplace.json > %t.peel.json
// RUN: tuner-opt %s --tuner-apply="function=mm config=%t.peel.json" > %t.peeled.mlir
// RUN: FileCheck %s --check-prefix=PEEL < %t.peeled.mlir
// RUN: %mlir_opt %t.peeled.mlir --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --cse --canonicalize | FileCheck %s --check-prefix=BUF
// RUN: %mlir_opt %t.peeled.mlir --one-shot-bufferize=bufferize-function-boundaries --convert-linalg-to-loops --scf-forall-to-for --convert-vector-to-scf --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-ub-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%c_runner_utils,%runner_utils > %t.peeled.txt
// RUN: diff %t.reference.txt %t.peeled.txt
//
// The fill fused into the tiles (as the analytic seeds fuse it): fusion
// takes the fill's slice of the shared output at offsets of its own, which
// vectorize_tiles makes one value with the terminator's (CSE) before it
// hoists the slice; the tiles compute in place all the same.
// RUN: tuner-opt %s --tuner-apply="function=mm config=%S/Inputs/partial-inplace-fused.json schedule-output=%t.fused.schedule.mlir" > %t.fused.mlir
// RUN: FileCheck %s --check-prefix=FUSED < %t.fused.mlir
// RUN: %mlir_opt %s --load-dialect-plugin=%tuner_plugin --transform-preload-library=transform-library-paths=%t.fused.schedule.mlir --transform-interpreter > %t.fused.replayed.mlir
// RUN: diff %t.fused.mlir %t.fused.replayed.mlir
// RUN: %mlir_opt %t.fused.mlir --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --cse --canonicalize | FileCheck %s --check-prefix=BUF
// RUN: %mlir_opt %t.fused.mlir --one-shot-bufferize=bufferize-function-boundaries --convert-linalg-to-loops --scf-forall-to-for --convert-vector-to-scf --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-ub-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%c_runner_utils,%runner_utils > %t.fused.txt
// RUN: diff %t.reference.txt %t.fused.txt

// SCRIPT: transform.tuner.vectorize_tiles %matmul_1_forall {lowering = "outerproduct", partial = "pad", pad_remainders = true}

// The slice of the shared output, taken before the versions; the full
// version computes in it, the padded one writes its result back into it.
// IR-LABEL: func.func @mm(
// IR:         scf.forall (%{{.*}}) in (3) shared_outs(%[[OUT:.*]] = %{{.*}})
// IR:           %[[TILE:.*]] = tensor.extract_slice %[[OUT]][%{{.*}}, 0] [%[[ROWS:.*]], 45] [1, 1] : tensor<37x45xf32> to tensor<?x45xf32>
// IR-NEXT:      %[[IF:.*]] = scf.if
// The full version computes on all of the slice with its static sizes.
// IR-NEXT:        %[[WHOLE:.*]] = tensor.extract_slice %[[TILE]][0, 0] [16, 45] [1, 1] : tensor<?x45xf32> to tensor<16x45xf32>
// IR:             tensor.extract_slice %[[WHOLE]][0, 0] [16, 32]
// The 13 columns left of 45 by 32-column tiles (pad_remainders) run the
// 6x16 micro-kernel, its transfers out of bounds at the edge.
// IR:             vector.transfer_read {{.*}} {in_bounds = [true, false]} : tensor<6x13xf32>, vector<6x16xf32>
// IR:             %[[FULL:.*]] = tensor.insert_slice %{{.*}} into %[[TILE]][0, 0] [16, 45] [1, 1] : tensor<16x45xf32> into tensor<?x45xf32>
// IR-NEXT:        scf.yield %[[FULL]] : tensor<?x45xf32>
// IR:           } else {
// IR:             tensor.pad %[[TILE]] low[0, 0]
// IR:             %[[BACK:.*]] = tensor.insert_slice %{{.*}} into %[[TILE]][0, 0] [%[[ROWS]], 45] [1, 1]
// IR-NEXT:        scf.yield %[[BACK]] : tensor<?x45xf32>
// IR:           scf.forall.in_parallel
// IR-NEXT:        tensor.parallel_insert_slice %[[IF]] into %[[OUT]]

// FUSED-LABEL: func.func @mm(
// FUSED:         scf.forall (%{{.*}}) in (3) shared_outs(%[[OUT:.*]] = %{{.*}})
// FUSED:           %[[TILE:.*]] = tensor.extract_slice %[[OUT]][%{{.*}}, 0] [%{{.*}}, 45] [1, 1] : tensor<37x45xf32> to tensor<?x45xf32>
// FUSED-NEXT:      %[[IF:.*]] = scf.if
// FUSED:           } else {
// FUSED:             tensor.pad %[[TILE]] low[0, 0]
// FUSED:           scf.forall.in_parallel
// FUSED-NEXT:        tensor.parallel_insert_slice %[[IF]] into %[[OUT]]

// PEEL-LABEL: func.func @mm(
// PEEL:         %[[TILE:.*]] = tensor.extract_slice %{{.*}}[%{{.*}}, 0] [%{{.*}}, 45] [1, 1] : tensor<37x45xf32> to tensor<?x45xf32>
// PEEL-NEXT:    scf.if
// PEEL-NOT:     tensor.pad

// Bufferized: the versions write in place, the scf.if has no result and
// no tile is copied into the output.
// BUF-LABEL: func.func @mm(
// BUF:         scf.forall
// BUF:           scf.if %{{.*}} {
// BUF-NOT:       memref.copy {{.*}}strided<[?, ?]
// BUF:         return
// BUF-LABEL: func.func @input(

// EXEC: 48150
// EXEC-NEXT: 3.03561e+06

func.func @mm(%A: tensor<37x29xf32>, %B: tensor<29x45xf32>) -> tensor<37x45xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x45xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<37x45xf32>) -> tensor<37x45xf32>
  %m = linalg.matmul ins(%A, %B : tensor<37x29xf32>, tensor<29x45xf32>) outs(%f : tensor<37x45xf32>) -> tensor<37x45xf32>
  return %m : tensor<37x45xf32>
}

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

func.func @checksum(%C: tensor<37x45xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c37 = arith.constant 37 : index
  %c45 = arith.constant 45 : index
  %zero = arith.constant 0.0 : f32
  %sums:2 = scf.for %i = %c0 to %c37 step %c1 iter_args(%s0 = %zero, %w0 = %zero) -> (f32, f32) {
    %inner:2 = scf.for %j = %c0 to %c45 step %c1 iter_args(%s1 = %s0, %w1 = %w0) -> (f32, f32) {
      %x = tensor.extract %C[%i, %j] : tensor<37x45xf32>
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
  %c29 = arith.constant 29 : index
  %c37 = arith.constant 37 : index
  %c45 = arith.constant 45 : index
  %a = call @input(%c3, %c1, %c7, %c2, %c37, %c29) : (index, index, index, index, index, index) -> tensor<?x?xf32>
  %b = call @input(%c1, %c2, %c5, %c1, %c29, %c45) : (index, index, index, index, index, index) -> tensor<?x?xf32>
  %A = tensor.cast %a : tensor<?x?xf32> to tensor<37x29xf32>
  %B = tensor.cast %b : tensor<?x?xf32> to tensor<29x45xf32>
  %C = call @mm(%A, %B) : (tensor<37x29xf32>, tensor<29x45xf32>) -> tensor<37x45xf32>
  call @checksum(%C) : (tensor<37x45xf32>) -> ()
  return
}
