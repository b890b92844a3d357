// A 2-D convolution (NCHW, 2x3x8x22 input, 2x3x3x3 filter) computed by
// im2col: convert_conv2d_to_img2col turns it into a copy of the input's
// windows and a contraction (n, f, oh*ow, c*kh*kw), whose loops the
// convolution's tile sizes describe (oh*ow tiled by 4 rows of 20, a
// partial last tile; register tiles of 16 columns and one input channel).
// The copy is fused into the contraction's scf.forall, and the
// contraction becomes a vectorized micro-kernel. A second config tiles
// oh*ow by 5 columns of one row and c*kh*kw by one channel, unvectorized
// (in a space without vectorization: otherwise im2col is vectorized).
// Both are verified against the untransformed function with mlir-runner,
// and stock mlir-opt replays the first schedule with the plugin.
// RUN: tuner-opt %s --tuner-apply="function=conv config=%S/Inputs/conv-im2col.json target=%S/../Space/Inputs/avx512-4core.json schedule-output=%t.schedule.mlir" > %t.tuned.mlir
// RUN: FileCheck %s --check-prefix=SCRIPT < %t.schedule.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.tuned.mlir
// RUN: %mlir_opt %s --load-dialect-plugin=%tuner_plugin --transform-preload-library=transform-library-paths=%t.schedule.mlir --transform-interpreter > %t.replayed.mlir
// RUN: diff %t.tuned.mlir %t.replayed.mlir
//
// RUN: %mlir_opt %s --one-shot-bufferize=bufferize-function-boundaries --convert-linalg-to-loops --scf-forall-to-for --convert-vector-to-scf --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-ub-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%c_runner_utils,%runner_utils | FileCheck %s --check-prefix=EXEC
// RUN: %mlir_opt %t.tuned.mlir --one-shot-bufferize=bufferize-function-boundaries --convert-linalg-to-loops --scf-forall-to-for --convert-vector-to-scf --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-ub-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%c_runner_utils,%runner_utils | FileCheck %s --check-prefix=EXEC
// RUN: tuner-opt %s --tuner-extract-space="function=conv vectorize=false target=%S/../Space/Inputs/avx512-4core.json output=%t.scalar-space.json" -o /dev/null
// RUN: tuner-opt %s --tuner-apply="function=conv space=%t.scalar-space.json config=%S/Inputs/conv-im2col-scalar.json target=%S/../Space/Inputs/avx512-4core.json schedule-output=%t.scalar.mlir" \
// RUN:   | %mlir_opt --one-shot-bufferize=bufferize-function-boundaries --convert-linalg-to-loops --scf-forall-to-for --convert-vector-to-scf --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-ub-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%c_runner_utils,%runner_utils | FileCheck %s --check-prefix=EXEC
// Without vectorization the schedule needs no plugin.
// RUN: FileCheck %s --check-prefix=SCALAR < %t.scalar.mlir

// SCRIPT:      // conv_2d_nchw_fchw_1: tile [1, 0, 4, 0, 0, 0, 0], register tile [0, 0, 1, 16, 1, 0, 0], im2col, vectorize, parallel
// SCRIPT-NEXT: %conv_2d_nchw_fchw_1_im2col, %conv_2d_nchw_fchw_1_expanded = transform.structured.convert_conv2d_to_img2col %conv_2d_nchw_fchw_1
// SCRIPT-NEXT: %conv_2d_nchw_fchw_1_contraction = transform.get_producer_of_operand %conv_2d_nchw_fchw_1_expanded[0]
// The contraction's loops: (n, f, oh*ow, c*kh*kw); 4 rows of 20 are 80.
// SCRIPT-NEXT: transform.structured.tile_using_forall %conv_2d_nchw_fchw_1_contraction tile_sizes [1, 0, 80, 0]
// SCRIPT-NEXT: %conv_2d_nchw_fchw_1_im2col_fused, %conv_2d_nchw_fchw_1_loop = transform.structured.fuse_into_containing_op %conv_2d_nchw_fchw_1_im2col into %conv_2d_nchw_fchw_1_forall
// SCRIPT-NEXT: transform.structured.tile_using_for %conv_2d_nchw_fchw_1_tiled tile_sizes [0, 0, 16, 9]
// SCRIPT-NEXT: transform.tuner.vectorize_tiles %conv_2d_nchw_fchw_1_loop {lowering = "outerproduct", pad_remainders = true}

// IR-LABEL: func.func @conv(
// IR:         tensor.collapse_shape
// IR:         scf.forall (%{{.*}}, %{{.*}}) in (2, 2)
// Full tiles (80 of oh*ow) take the static version: the im2col copy of the
// tile, then the micro-kernel, its 2x16 accumulator in registers across
// the reduction loop (9 FMAs per filter row).
// IR:           scf.if
// IR:             linalg.generic
// IR:             scf.for %{{.*}} = %c0 to %c27 step %c9 iter_args(%{{.*}} = %{{.*}}) -> (vector<1x2x16xf32>)
// IR-COUNT-18:      vector.fma {{.*}} : vector<16xf32>
// IR:           } else {
// IR:           scf.forall.in_parallel
// IR:         tensor.expand_shape
// IR-NOT:     linalg.conv_2d_nchw_fchw
// IR-LABEL: func.func @input(

// SCALAR:      // Tile sizes are listed by loop, 0 meaning not tiled.
// SCALAR:      // conv_2d_nchw_fchw_1: tile [1, 0, 1, 5, 1, 0, 0], im2col
// SCALAR-NOT:  transform.tuner
// SCALAR:      transform.structured.tile_using_for %conv_2d_nchw_fchw_1_contraction tile_sizes [1, 0, 5, 9]
// SCALAR:      transform.structured.fuse_into_containing_op %conv_2d_nchw_fchw_1_im2col into
// SCALAR-NOT:  transform.tuner

// EXEC: 134
// EXEC-NEXT: 28088

func.func @conv(%in: tensor<2x3x8x22xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<2x2x6x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2x6x20xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2x6x20xf32>) -> tensor<2x2x6x20xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<2x3x8x22xf32>, tensor<2x3x3x3xf32>)
      outs(%f : tensor<2x2x6x20xf32>) -> tensor<2x2x6x20xf32>
  return %c : tensor<2x2x6x20xf32>
}

// t[a][b][c][d] = (3a + 5b + 7c + 11d) mod 13 - 6, as small integers, so
// that every sum is exact.
func.func @input(%d0: index, %d1: index, %d2: index, %d3: index) -> tensor<?x?x?x?xf32> {
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c11 = arith.constant 11 : index
  %c13 = arith.constant 13 : index
  %c6 = arith.constant 6 : index
  %t = tensor.generate %d0, %d1, %d2, %d3 {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    %a3 = arith.muli %a, %c3 : index
    %b5 = arith.muli %b, %c5 : index
    %c7c = arith.muli %c, %c7 : index
    %d11 = arith.muli %d, %c11 : index
    %s0 = arith.addi %a3, %b5 : index
    %s1 = arith.addi %s0, %c7c : index
    %s2 = arith.addi %s1, %d11 : index
    %r = arith.remui %s2, %c13 : index
    %v = arith.subi %r, %c6 : index
    %i = arith.index_cast %v : index to i32
    %x = arith.sitofp %i : i32 to f32
    tensor.yield %x : f32
  } : tensor<?x?x?x?xf32>
  return %t : tensor<?x?x?x?xf32>
}

// Prints the sum of the output and the sum weighted by position + 1.
func.func @checksum(%t: tensor<?x?x?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %n0 = tensor.dim %t, %c0 : tensor<?x?x?x?xf32>
  %n1 = tensor.dim %t, %c1 : tensor<?x?x?x?xf32>
  %n2 = tensor.dim %t, %c2 : tensor<?x?x?x?xf32>
  %n3 = tensor.dim %t, %c3 : tensor<?x?x?x?xf32>
  %flat = tensor.collapse_shape %t [[0, 1, 2, 3]] : tensor<?x?x?x?xf32> into tensor<?xf32>
  %size = tensor.dim %flat, %c0 : tensor<?xf32>
  %sums:2 = scf.for %i = %c0 to %size step %c1 iter_args(%s = %zero, %w = %zero) -> (f32, f32) {
    %x = tensor.extract %flat[%i] : tensor<?xf32>
    %i1 = arith.addi %i, %c1 : index
    %ii = arith.index_cast %i1 : index to i32
    %if = arith.sitofp %ii : i32 to f32
    %xw = arith.mulf %x, %if : f32
    %s1 = arith.addf %s, %x : f32
    %w1 = arith.addf %w, %xw : f32
    scf.yield %s1, %w1 : f32, f32
  }
  vector.print %sums#0 : f32
  vector.print %sums#1 : f32
  return
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c22 = arith.constant 22 : index
  %in = call @input(%c2, %c3, %c8, %c22) : (index, index, index, index) -> tensor<?x?x?x?xf32>
  %w = call @input(%c2, %c3, %c3, %c3) : (index, index, index, index) -> tensor<?x?x?x?xf32>
  %IN = tensor.cast %in : tensor<?x?x?x?xf32> to tensor<2x3x8x22xf32>
  %W = tensor.cast %w : tensor<?x?x?x?xf32> to tensor<2x3x3x3xf32>
  %out = call @conv(%IN, %W) : (tensor<2x3x8x22xf32>, tensor<2x3x3x3xf32>) -> tensor<2x2x6x20xf32>
  %o = tensor.cast %out : tensor<2x2x6x20xf32> to tensor<?x?x?x?xf32>
  call @checksum(%o) : (tensor<?x?x?x?xf32>) -> ()
  return
}
