// A two-stage stencil (a separable box filter: rows of three, then columns
// of three) whose second stage reads the first through shifted
// tensor.extract_slice windows. Fusing the first stage into the second's
// tiles computes, per tile, the union of the three windows (the tile and a
// two-row halo) once: transform.tuner.fuse_window_producer.
//
// Parallel (one channel per scf.forall tile), rows tiled by 4, vectorized:
// RUN: tuner-opt %s --tuner-apply="function=blur config=%S/Inputs/window-fusion.json schedule-output=%t.schedule.mlir" > %t.tuned.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.tuned.mlir
// RUN: FileCheck %s --check-prefix=SCRIPT < %t.schedule.mlir
// RUN: %mlir_opt %s --load-dialect-plugin=%tuner_plugin --transform-preload-library=transform-library-paths=%t.schedule.mlir --transform-interpreter > %t.replayed.mlir
// RUN: diff %t.tuned.mlir %t.replayed.mlir
//
// Both compute the same sums:
// RUN: %mlir_opt %s --one-shot-bufferize=bufferize-function-boundaries --convert-linalg-to-loops --convert-vector-to-scf --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-ub-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%c_runner_utils,%runner_utils | FileCheck %s --check-prefix=EXEC
// RUN: %mlir_opt %t.tuned.mlir --one-shot-bufferize=bufferize-function-boundaries --convert-linalg-to-loops --convert-vector-to-scf --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-ub-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%c_runner_utils,%runner_utils | FileCheck %s --check-prefix=EXEC
//
// The space offers the fusion, and says it goes through windows:
// RUN: tuner-opt %s --tuner-extract-space="function=blur" -o /dev/null | FileCheck %s --check-prefix=SPACE
// RUN: tuner-opt %s --tuner-print-program -o /dev/null | FileCheck %s --check-prefix=PROGRAM

// PROGRAM-COUNT-3: generic_0 -> generic_1 via #{{[0-9]+}} (tensor, windows)
// SPACE: "description": "fuse generic_0 into the tile loops of its consumer generic_1, which reads it through windows
// SPACE: "name": "fuse.generic_0.generic_1"

// SCRIPT: %generic_1_tiled, %generic_1_forall = transform.structured.tile_using_forall %generic_1
// SCRIPT: %generic_0_fused, %generic_1_loop = transform.tuner.fuse_window_producer %generic_0 into %generic_1_forall
// SCRIPT-NEXT: transform.structured.tile_using_for %generic_0_fused tile_sizes [0, 1, 16]
// SCRIPT-NOT: fuse_window_producer
// SCRIPT: transform.tuner.vectorize_tiles

// The first stage runs inside the row tiles, on 4 + 2 rows, once per tile
// (a 1x6x32 box, vectorized a register tile of 16 at a time like the
// second stage), and the second reads its three windows from that box.
// IR-LABEL: func.func @blur(
// IR:         scf.forall
// IR:           scf.for %[[Y:.*]] = %c0 to %c8 step %c4
// IR:             tensor.extract_slice %{{.*}}[%{{.*}}, %[[Y]], 0] [1, 6, 32]
// IR:             %[[BOX:.*]] = scf.for %{{.*}} = %c0 to %c6 step %c1 {{.*}} -> (tensor<1x6x32xf32>)
// IR:               vector.transfer_write {{.*}} : vector<1x1x16xf32>, tensor<1x1x16xf32>
// IR-DAG:         tensor.extract_slice %[[BOX]][0, 0, 0] [1, 4, 32]
// IR-DAG:         tensor.extract_slice %[[BOX]][0, 1, 0] [1, 4, 32]
// IR-DAG:         tensor.extract_slice %[[BOX]][0, 2, 0] [1, 4, 32]
// IR:             vector.transfer_read {{.*}} vector<1x1x16xf32>
// IR-NOT:     linalg.generic
// IR-LABEL: func.func @input(

// EXEC: 4597
// EXEC-NEXT: 252789

#id = affine_map<(c, y, x) -> (c, y, x)>
func.func @blur(%in: tensor<2x10x34xf32>) -> tensor<2x8x32xf32> {
  %x0 = tensor.extract_slice %in[0, 0, 0] [2, 10, 32] [1, 1, 1] : tensor<2x10x34xf32> to tensor<2x10x32xf32>
  %x1 = tensor.extract_slice %in[0, 0, 1] [2, 10, 32] [1, 1, 1] : tensor<2x10x34xf32> to tensor<2x10x32xf32>
  %x2 = tensor.extract_slice %in[0, 0, 2] [2, 10, 32] [1, 1, 1] : tensor<2x10x34xf32> to tensor<2x10x32xf32>
  %e0 = tensor.empty() : tensor<2x10x32xf32>
  %bx = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x0, %x1, %x2 : tensor<2x10x32xf32>, tensor<2x10x32xf32>, tensor<2x10x32xf32>)
      outs(%e0 : tensor<2x10x32xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %o: f32):
    %ab = arith.addf %a, %b : f32
    %abc = arith.addf %ab, %c : f32
    linalg.yield %abc : f32
  } -> tensor<2x10x32xf32>
  %y0 = tensor.extract_slice %bx[0, 0, 0] [2, 8, 32] [1, 1, 1] : tensor<2x10x32xf32> to tensor<2x8x32xf32>
  %y1 = tensor.extract_slice %bx[0, 1, 0] [2, 8, 32] [1, 1, 1] : tensor<2x10x32xf32> to tensor<2x8x32xf32>
  %y2 = tensor.extract_slice %bx[0, 2, 0] [2, 8, 32] [1, 1, 1] : tensor<2x10x32xf32> to tensor<2x8x32xf32>
  %e1 = tensor.empty() : tensor<2x8x32xf32>
  %out = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%y0, %y1, %y2 : tensor<2x8x32xf32>, tensor<2x8x32xf32>, tensor<2x8x32xf32>)
      outs(%e1 : tensor<2x8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %o: f32):
    %ab = arith.addf %a, %b : f32
    %abc = arith.addf %ab, %c : f32
    linalg.yield %abc : f32
  } -> tensor<2x8x32xf32>
  return %out : tensor<2x8x32xf32>
}

// in[c][y][x] = (3y + x + 5c) mod 7 - 2.
func.func @input() -> tensor<2x10x34xf32> {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %t = tensor.generate {
  ^bb0(%c: index, %y: index, %x: index):
    %y3 = arith.muli %y, %c3 : index
    %c5c = arith.muli %c, %c5 : index
    %s0 = arith.addi %y3, %x : index
    %s = arith.addi %s0, %c5c : index
    %r = arith.remui %s, %c7 : index
    %v = arith.subi %r, %c2 : index
    %w = arith.index_cast %v : index to i32
    %f = arith.sitofp %w : i32 to f32
    tensor.yield %f : f32
  } : tensor<2x10x34xf32>
  return %t : tensor<2x10x34xf32>
}

// Prints the sum of out and the sum of out[c][y][x] * (c + 2y + 3x + 1).
func.func @checksum(%out: tensor<2x8x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  %sums:2 = scf.for %c = %c0 to %c2 step %c1 iter_args(%s0 = %zero, %w0 = %zero) -> (f32, f32) {
    %rows:2 = scf.for %y = %c0 to %c8 step %c1 iter_args(%s1 = %s0, %w1 = %w0) -> (f32, f32) {
      %cols:2 = scf.for %x = %c0 to %c32 step %c1 iter_args(%s2 = %s1, %w2 = %w1) -> (f32, f32) {
        %v = tensor.extract %out[%c, %y, %x] : tensor<2x8x32xf32>
        %y2 = arith.muli %y, %c2 : index
        %x3 = arith.muli %x, %c3 : index
        %k0 = arith.addi %c, %y2 : index
        %k1 = arith.addi %k0, %x3 : index
        %k = arith.addi %k1, %c1 : index
        %ki = arith.index_cast %k : index to i32
        %kf = arith.sitofp %ki : i32 to f32
        %vw = arith.mulf %v, %kf : f32
        %s3 = arith.addf %s2, %v : f32
        %w3 = arith.addf %w2, %vw : f32
        scf.yield %s3, %w3 : f32, f32
      }
      scf.yield %cols#0, %cols#1 : f32, f32
    }
    scf.yield %rows#0, %rows#1 : f32, f32
  }
  vector.print %sums#0 : f32
  vector.print %sums#1 : f32
  return
}

func.func @main() {
  %in = call @input() : () -> tensor<2x10x34xf32>
  %out = call @blur(%in) : (tensor<2x10x34xf32>) -> tensor<2x8x32xf32>
  call @checksum(%out) : (tensor<2x8x32xf32>) -> ()
  return
}
