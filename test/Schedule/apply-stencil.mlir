// A 2-D stencil (linalg.generic with shifted accesses), tiled with the
// column tiles outermost, register-tiled and unrolled.
// RUN: tuner-opt %s --tuner-apply="function=stencil config=%S/Inputs/stencil.json schedule-output=%t.schedule.mlir" > %t.tuned.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.tuned.mlir
// RUN: FileCheck %s --check-prefix=SCRIPT < %t.schedule.mlir
//
// RUN: %mlir_opt %s --transform-preload-library=transform-library-paths=%t.schedule.mlir --transform-interpreter > %t.replayed.mlir
// RUN: diff %t.tuned.mlir %t.replayed.mlir
//
// RUN: %mlir_opt %s --one-shot-bufferize=bufferize-function-boundaries --convert-linalg-to-loops --convert-vector-to-scf --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-ub-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%c_runner_utils,%runner_utils | FileCheck %s --check-prefix=EXEC
// RUN: %mlir_opt %t.tuned.mlir --one-shot-bufferize=bufferize-function-boundaries --convert-linalg-to-loops --convert-vector-to-scf --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-ub-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%c_runner_utils,%runner_utils | FileCheck %s --check-prefix=EXEC
//
// Vectorized: vectorize_tiles reads each shifted operand through a window
// (tensor.extract_slice at the shift) with a plain map, which upstream's
// vectorizer takes; rows of 16 floats, 4 rows per core's tile.
// RUN: tuner-opt %s --tuner-apply="function=stencil config=%S/Inputs/stencil-vectorize.json target=%S/../Space/Inputs/avx512-4core.json schedule-output=%t.vec.schedule.mlir" > %t.vec.mlir
// RUN: FileCheck %s --check-prefix=VEC < %t.vec.mlir
// RUN: %mlir_opt %s --load-dialect-plugin=%tuner_plugin --transform-preload-library=transform-library-paths=%t.vec.schedule.mlir --transform-interpreter > %t.vec.replayed.mlir
// RUN: diff %t.vec.mlir %t.vec.replayed.mlir
// RUN: %mlir_opt %t.vec.mlir --one-shot-bufferize=bufferize-function-boundaries --convert-linalg-to-loops --scf-forall-to-for --convert-vector-to-scf --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-ub-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%c_runner_utils,%runner_utils | FileCheck %s --check-prefix=EXEC

// SCRIPT:      %generic_0 = transform.structured.match interface{LinalgOp} in %func
// SCRIPT-NEXT: // generic_0: tile [8, 8], order [1, 0], register tile [2, 0], unroll 2
// SCRIPT-NEXT: %generic_0_tiled, %generic_0_tiled_loops:2 = transform.structured.tile_using_for %generic_0 tile_sizes [8, 8] interchange = [1, 0]
// SCRIPT-NEXT: %generic_0_rtiled, %generic_0_rtiled_loops = transform.structured.tile_using_for %generic_0_tiled tile_sizes [2, 0] interchange = [1, 0]
// SCRIPT-NEXT: transform.loop.unroll %generic_0_rtiled_loops {factor = 2}

// The outer loop walks the columns (j, second index), the inner one the rows;
// the register loop of 2 rows is unrolled by 2 (step 4, two generics).
// IR-LABEL: func.func @stencil(
// IR:         scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %c8
// IR:           scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %c8
// IR:             tensor.extract_slice %arg0[%[[I]], %[[J]]] [9, 9]
// IR:             scf.for %{{.*}} = %c0 to %c8 step %c4
// IR-COUNT-2:       linalg.generic {{.*}} outs(%{{.*}} : tensor<2x8xf32>)
// IR-LABEL: func.func @input(

// VEC-LABEL: func.func @stencil(
// VEC:         scf.forall (%{{.*}}) in (4)
// VEC:           scf.for
// VEC-COUNT-4:     vector.transfer_read {{.*}} : tensor<1x16xf32>, vector<1x16xf32>
// VEC-NOT:         linalg.generic
// VEC:           scf.forall.in_parallel
// VEC-LABEL: func.func @input(

// EXEC: 758
// EXEC-NEXT: 17863

#c = affine_map<(i, j) -> (i + 1, j + 1)>
#s = affine_map<(i, j) -> (i + 2, j + 1)>
#e = affine_map<(i, j) -> (i + 1, j + 2)>
#se = affine_map<(i, j) -> (i + 2, j + 2)>
#id = affine_map<(i, j) -> (i, j)>
func.func @stencil(%in: tensor<18x18xf32>) -> tensor<16x16xf32> {
  %empty = tensor.empty() : tensor<16x16xf32>
  %r = linalg.generic {indexing_maps = [#c, #s, #e, #se, #id], iterator_types = ["parallel", "parallel"]}
      ins(%in, %in, %in, %in : tensor<18x18xf32>, tensor<18x18xf32>, tensor<18x18xf32>, tensor<18x18xf32>)
      outs(%empty : tensor<16x16xf32>) {
  ^bb0(%center: f32, %south: f32, %east: f32, %southeast: f32, %out: f32):
    %two = arith.constant 2.0 : f32
    %0 = arith.mulf %center, %two : f32
    %1 = arith.addf %0, %south : f32
    %2 = arith.subf %1, %east : f32
    %3 = arith.addf %2, %southeast : f32
    linalg.yield %3 : f32
  } -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

// in[i][j] = (3i + j) mod 7 - 2.
func.func @input() -> tensor<18x18xf32> {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %t = tensor.generate {
  ^bb0(%i: index, %j: index):
    %i3 = arith.muli %i, %c3 : index
    %s = arith.addi %i3, %j : index
    %r = arith.remui %s, %c7 : index
    %v = arith.subi %r, %c2 : index
    %w = arith.index_cast %v : index to i32
    %x = arith.sitofp %w : i32 to f32
    tensor.yield %x : f32
  } : tensor<18x18xf32>
  return %t : tensor<18x18xf32>
}

// Prints the sum of out and the sum of out[i][j] * (i + 2j + 1).
func.func @checksum(%out: tensor<16x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %sums:2 = scf.for %i = %c0 to %c16 step %c1 iter_args(%s0 = %zero, %w0 = %zero) -> (f32, f32) {
    %inner:2 = scf.for %j = %c0 to %c16 step %c1 iter_args(%s1 = %s0, %w1 = %w0) -> (f32, f32) {
      %x = tensor.extract %out[%i, %j] : tensor<16x16xf32>
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
  %in = call @input() : () -> tensor<18x18xf32>
  %out = call @stencil(%in) : (tensor<18x18xf32>) -> tensor<16x16xf32>
  call @checksum(%out) : (tensor<16x16xf32>) -> ()
  return
}
