// An scf.forall tile whose first op is the slice of the shared output it
// writes back (a fill on its own, not fused: nothing comes between the tile
// sizes and that slice). vectorize_tiles hoists the slice out of the
// versions and must build the scf.if after it; built before it, the
// versions used the slice before its definition and the schedule failed to
// apply (found on held-out kernels, conv1x1 and vecmat: their vectorized
// parallel fills with partial tiles). 100 elements in 16-element tiles
// (padded) for the fill and 8-element tiles (peeled) for the add: run
// against the untransformed function with mlir-runner, and replayed with
// stock mlir-opt.
// RUN: tuner-opt %s --tuner-apply="function=f config=%S/Inputs/partial-standalone.json schedule-output=%t.schedule.mlir" > %t.tuned.mlir
// RUN: FileCheck %s < %t.tuned.mlir
// RUN: %mlir_opt %s --load-dialect-plugin=%tuner_plugin --transform-preload-library=transform-library-paths=%t.schedule.mlir --transform-interpreter > %t.replayed.mlir
// RUN: diff %t.tuned.mlir %t.replayed.mlir
// RUN: %mlir_opt %s --one-shot-bufferize=bufferize-function-boundaries --convert-linalg-to-loops --scf-forall-to-for --convert-vector-to-scf --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-ub-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%c_runner_utils,%runner_utils > %t.reference.txt
// RUN: FileCheck %s --check-prefix=EXEC < %t.reference.txt
// RUN: %mlir_opt %t.tuned.mlir --one-shot-bufferize=bufferize-function-boundaries --convert-linalg-to-loops --scf-forall-to-for --convert-vector-to-scf --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-ub-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%c_runner_utils,%runner_utils > %t.tuned.txt
// RUN: diff %t.reference.txt %t.tuned.txt

// The fill's tile: its slice of the shared output, then the versions.
// CHECK-LABEL: func.func @f
// CHECK: scf.forall
// CHECK: %[[SLICE:.*]] = tensor.extract_slice
// CHECK: scf.if
// CHECK: tensor.extract_slice %[[SLICE]][0] [16] [1]
// CHECK: vector.transfer_write

// sum of 1..100 + 100 * 0.5
// EXEC: 5100

func.func @f(%x: tensor<100xf32>) -> tensor<100xf32> {
  %half = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<100xf32>
  %init = linalg.fill ins(%half : f32) outs(%e : tensor<100xf32>) -> tensor<100xf32>
  %r = linalg.add ins(%x, %init : tensor<100xf32>, tensor<100xf32>) outs(%e : tensor<100xf32>) -> tensor<100xf32>
  return %r : tensor<100xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %x = tensor.generate {
  ^bb0(%i: index):
    %i1 = arith.addi %i, %c1 : index
    %w = arith.index_cast %i1 : index to i32
    %v = arith.sitofp %w : i32 to f32
    tensor.yield %v : f32
  } : tensor<100xf32>
  %r = func.call @f(%x) : (tensor<100xf32>) -> tensor<100xf32>
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %i = %c0 to %c100 step %c1 iter_args(%s = %zero) -> (f32) {
    %v = tensor.extract %r[%i] : tensor<100xf32>
    %s1 = arith.addf %s, %v : f32
    scf.yield %s1 : f32
  }
  vector.print %sum : f32
  return
}
