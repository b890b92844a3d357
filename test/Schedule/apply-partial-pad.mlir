// Partial tiles padded to full micro-kernel tiles (the `partial` parameter,
// "pad"): a matmul on sizes that no tile divides (37x23 times 23x29), its
// 16x16 cache tiles distributed over the cores (three of the six are
// partial: 5 rows, 13 columns or both), a 6x16 register tile, the fill
// fused. transform.tuner.vectorize_tiles versions the scf.forall's tiles on
// whether they are full; with partial = "pad" the partial ones pad the
// tile's slices of A, B and C with zeros to 16x16 and run the same 6x16
// micro-kernel as the full tiles, then cut the result back (with "peel"
// they are cut into static slices of one row or column). The result is
// verified against the untransformed function with mlir-runner (peeled and
// padded alike), and stock mlir-opt replays the schedule with the plugin.
// RUN: tuner-opt %s --tuner-apply="function=mm config=%S/Inputs/partial-pad.json schedule-output=%t.schedule.mlir" > %t.tuned.mlir
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
// Peeled instead (the same config, partial = "peel"): no padding, the same
// output.
// RUN: sed -e 's/"pad"/"peel"/' %S/Inputs/partial-pad.json > %t.peel.json
// RUN: tuner-opt %s --tuner-apply="function=mm config=%t.peel.json schedule-output=%t.peel.schedule.mlir" > %t.peeled.mlir
// RUN: FileCheck %s --check-prefix=PEEL < %t.peel.schedule.mlir
// RUN: FileCheck %s --check-prefix=PEEL-IR < %t.peeled.mlir
// RUN: %mlir_opt %t.peeled.mlir --one-shot-bufferize=bufferize-function-boundaries --convert-linalg-to-loops --scf-forall-to-for --convert-vector-to-scf --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-ub-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%c_runner_utils,%runner_utils > %t.peeled.txt
// RUN: diff %t.reference.txt %t.peeled.txt

// SCRIPT:      // matmul_1: tile [16, 16, 8], register tile [6, 0, 1], fuse fill_0, vectorize, parallel, partial tiles padded
// SCRIPT:      transform.tuner.vectorize_tiles %matmul_1_loop {lowering = "outerproduct", partial = "pad", pad_remainders = true}

// The fill is fused: it takes its slice of the shared output at offsets
// that fusion computes anew, which CSE makes the terminator's, so that the
// slice is taken once, before the versions, and both compute in place of it.
// IR-LABEL: func.func @mm(
// IR:         scf.forall (%{{.*}}, %{{.*}}) in (3, 2) shared_outs(%[[OUT:.*]] = %{{.*}})
// IR:           %[[TILE:.*]] = tensor.extract_slice %[[OUT]][%{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}] [1, 1] : tensor<37x29xf32> to tensor<?x?xf32>
// IR:            scf.if
// IR:           } else {
// The partial tile's slices of C (both: the slice of the shared output,
// taken before the versions), A (rows) and B (columns), padded with zeros
// to the full tile.
// IR:             tensor.pad
// IR:             } : tensor<?x?xf32> to tensor<16x16xf32>
// IR:             tensor.pad
// IR:             } : tensor<?x23xf32> to tensor<16x23xf32>
// IR:             tensor.pad
// IR:             } : tensor<23x?xf32> to tensor<23x16xf32>
// The full 6x16 micro-kernel, its accumulator in registers.
// IR:             scf.for %{{.*}} = %c0 to %c8 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (vector<6x16xf32>)
// IR-COUNT-6:       vector.fma {{.*}} : vector<16xf32>
// The result cut back to the partial tile.
// IR:             tensor.extract_slice %{{.*}}[0, 0] [%{{.*}}, %{{.*}}] [1, 1] : tensor<16x16xf32> to tensor<?x?xf32>
// IR:           scf.forall.in_parallel
// IR-NEXT:        tensor.parallel_insert_slice %{{.*}} into %[[OUT]]
// IR-NOT:     linalg.matmul
// IR-LABEL: func.func @input(

// Bufferized: the scf.if has no result and no tile is copied into the
// output (a per-tile memrefCopy of a layout of unknown strides before).
// BUF-LABEL: func.func @mm(
// BUF:         scf.forall
// BUF:           scf.if %{{.*}} {
// BUF-NOT:       memref.copy {{.*}}strided<[?, ?]
// BUF:         return
// BUF-LABEL: func.func @input(

// PEEL:        // matmul_1: tile [16, 16, 8], register tile [6, 0, 1], fuse fill_0, vectorize, parallel{{$}}
// PEEL:        transform.tuner.vectorize_tiles %matmul_1_loop {lowering = "outerproduct", pad_remainders = true}
// PEEL-IR-NOT: tensor.pad

// EXEC: 24533
// EXEC-NEXT: 1.15569e+06

func.func @mm(%A: tensor<37x23xf32>, %B: tensor<23x29xf32>) -> tensor<37x29xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x29xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<37x29xf32>) -> tensor<37x29xf32>
  %m = linalg.matmul ins(%A, %B : tensor<37x23xf32>, tensor<23x29xf32>) outs(%f : tensor<37x29xf32>) -> tensor<37x29xf32>
  return %m : tensor<37x29xf32>
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

func.func @checksum(%C: tensor<37x29xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c37 = arith.constant 37 : index
  %c29 = arith.constant 29 : index
  %zero = arith.constant 0.0 : f32
  %sums:2 = scf.for %i = %c0 to %c37 step %c1 iter_args(%s0 = %zero, %w0 = %zero) -> (f32, f32) {
    %inner:2 = scf.for %j = %c0 to %c29 step %c1 iter_args(%s1 = %s0, %w1 = %w0) -> (f32, f32) {
      %x = tensor.extract %C[%i, %j] : tensor<37x29xf32>
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
  %c23 = arith.constant 23 : index
  %c37 = arith.constant 37 : index
  %c29 = arith.constant 29 : index
  %a = call @input(%c3, %c1, %c7, %c2, %c37, %c23) : (index, index, index, index, index, index) -> tensor<?x?xf32>
  %b = call @input(%c1, %c2, %c5, %c1, %c23, %c29) : (index, index, index, index, index, index) -> tensor<?x?xf32>
  %A = tensor.cast %a : tensor<?x?xf32> to tensor<37x23xf32>
  %B = tensor.cast %b : tensor<?x?xf32> to tensor<23x29xf32>
  %C = call @mm(%A, %B) : (tensor<37x23xf32>, tensor<23x29xf32>) -> tensor<37x29xf32>
  call @checksum(%C) : (tensor<37x29xf32>) -> ()
  return
}
