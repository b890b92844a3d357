// 2-D convolutions computed as 1-D convolutions: the output-height and
// kernel-height loops (and, in the channel-first layout, the filter and
// input channel loops) are cut to size 1 inside the register tiles,
// transform.structured.decompose turns each tile into a 1-D convolution,
// and vectorize_tiles vectorizes it along the output width (NCHW:
// 16 columns, a partial register tile of 4 peeled; the filter's weights
// broadcast) or along the filter channels (NHWC). The NCHW schedule also fuses the fill
// and runs on all cores; an unvectorized one (a space without
// vectorization) needs no plugin. Each is
// verified against the untransformed functions with mlir-runner, and stock
// mlir-opt replays the NCHW schedule with the plugin. The NHWC convolution
// is also computed by im2col. A convolution fused into its consumer (a
// ReLU, with the fill) is decomposed inside the consumer's tiles, and the
// consumer's vectorization vectorizes both.
// RUN: tuner-opt %s --tuner-apply="function=conv config=%S/Inputs/conv-decompose.json target=%S/../Space/Inputs/avx512-4core.json schedule-output=%t.schedule.mlir" > %t.tuned.mlir
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
// RUN: tuner-opt %s --tuner-apply="function=conv space=%t.scalar-space.json config=%S/Inputs/conv-decompose-scalar.json target=%S/../Space/Inputs/avx512-4core.json schedule-output=%t.scalar.mlir" \
// RUN:   | %mlir_opt --one-shot-bufferize=bufferize-function-boundaries --convert-linalg-to-loops --scf-forall-to-for --convert-vector-to-scf --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-ub-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%c_runner_utils,%runner_utils | FileCheck %s --check-prefix=EXEC
// RUN: FileCheck %s --check-prefix=SCALAR < %t.scalar.mlir
// RUN: tuner-opt %s --tuner-apply="function=conv_relu config=%S/Inputs/conv-relu-fused.json target=%S/../Space/Inputs/avx512-4core.json schedule-output=%t.fused.schedule.mlir" > %t.fused.mlir
// RUN: FileCheck %s --check-prefix=FUSED < %t.fused.schedule.mlir
// RUN: FileCheck %s --check-prefix=FUSED-IR < %t.fused.mlir
// RUN: %mlir_opt %t.fused.mlir --one-shot-bufferize=bufferize-function-boundaries --convert-linalg-to-loops --scf-forall-to-for --convert-vector-to-scf --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-ub-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%c_runner_utils,%runner_utils | FileCheck %s --check-prefix=EXEC
// RUN: tuner-opt %s --tuner-apply="function=conv_nhwc config=%S/Inputs/conv-decompose-nhwc.json target=%S/../Space/Inputs/avx512-4core.json" > %t.nhwc.mlir
// RUN: FileCheck %s --check-prefix=NHWC < %t.nhwc.mlir
// RUN: %mlir_opt %t.nhwc.mlir --one-shot-bufferize=bufferize-function-boundaries --convert-linalg-to-loops --scf-forall-to-for --convert-vector-to-scf --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-ub-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%c_runner_utils,%runner_utils | FileCheck %s --check-prefix=EXEC
// RUN: tuner-opt %s --tuner-apply="function=conv_nhwc config=%S/Inputs/conv-im2col-nhwc.json target=%S/../Space/Inputs/avx512-4core.json" \
// RUN:   | %mlir_opt --one-shot-bufferize=bufferize-function-boundaries --convert-linalg-to-loops --scf-forall-to-for --convert-vector-to-scf --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-ub-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%c_runner_utils,%runner_utils | FileCheck %s --check-prefix=EXEC

// SCRIPT:      // conv_2d_nchw_fchw_1: tile [1, 0, 4, 0, 0, 0, 0], register tile [0, 0, 0, 16, 0, 0, 0], fuse fill_0, decompose, vectorize, unroll 2, parallel
// SCRIPT-NEXT: transform.structured.tile_using_forall %conv_2d_nchw_fchw_1 tile_sizes [1, 0, 4, 0, 0, 0, 0]
// SCRIPT-NEXT: %fill_0_fused, %conv_2d_nchw_fchw_1_loop = transform.structured.fuse_into_containing_op %fill_0 into %conv_2d_nchw_fchw_1_forall
// SCRIPT-NEXT: transform.structured.tile_using_for %conv_2d_nchw_fchw_1_tiled tile_sizes [0, 0, 0, 16, 0, 0, 0]
// f, oh, c and kh cut to 1:
// SCRIPT-NEXT: %conv_2d_nchw_fchw_1_unit, %conv_2d_nchw_fchw_1_unit_loops:4 = transform.structured.tile_using_for %conv_2d_nchw_fchw_1_rtiled tile_sizes [0, 1, 1, 0, 1, 1, 0]
// SCRIPT-NEXT: %conv_2d_nchw_fchw_1_1d = transform.structured.decompose %conv_2d_nchw_fchw_1_unit
// SCRIPT-NEXT: transform.tuner.vectorize_tiles %conv_2d_nchw_fchw_1_loop {lowering = "outerproduct", unroll = 2, pad_remainders = true}

// IR-LABEL: func.func @conv(
// IR:         scf.forall (%{{.*}}, %{{.*}}) in (2, 2)
// Full tiles (4 rows) take the static version: the fused fill, then 16
// columns, the 16-float accumulator in a register across the
// input channels (the kernel-height loop unrolled: 9 FMAs per channel),
// then the last 4 columns.
// IR:           scf.if
// IR:             vector.transfer_write {{.*}} : vector<2x1x20xf32>
// IR:               scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (vector<16xf32>)
// IR-COUNT-9:         vector.fma {{.*}} : vector<16xf32>
// IR:               scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (vector<4xf32>)
// IR-COUNT-9:         vector.fma {{.*}} : vector<4xf32>
// IR:           } else {
// IR:           scf.forall.in_parallel
// IR-NOT:     linalg.conv
// IR-LABEL: func.func @conv_relu(

// SCALAR:      // conv_2d_nchw_fchw_1: tile [1, 0, 0, 0, 0, 0, 0], decompose
// SCALAR-NOT:  transform.tuner
// SCALAR:      transform.structured.tile_using_for %conv_2d_nchw_fchw_1_tiled tile_sizes [0, 1, 1, 0, 1, 1, 0]
// SCALAR-NEXT: transform.structured.decompose
// SCALAR-NOT:  transform.tuner

// NHWC-LABEL: func.func @conv_nhwc(
// NHWC:         vector.fma {{.*}} : vector<4xf32>
// NHWC-NOT:     linalg.conv
// NHWC-LABEL: func.func @input(

// FUSED:      // generic_2: tile [1, 0, 2, 0], register tile [0, 0, 0, 16], fuse conv_2d_nchw_fchw_1 (decompose), fill_0, vectorize, parallel
// FUSED:      %conv_2d_nchw_fchw_1_fused, %generic_2_loop = transform.structured.fuse_into_containing_op %conv_2d_nchw_fchw_1 into %generic_2_forall
// FUSED-NEXT: transform.structured.tile_using_for %conv_2d_nchw_fchw_1_fused tile_sizes [0, 1, 1, 0, 1, 1, 0] interchange = [1, 2, 0, 3, 4, 5, 6]
// FUSED-NEXT: transform.structured.decompose %conv_2d_nchw_fchw_1_unit
// FUSED-NEXT: transform.structured.fuse_into_containing_op %fill_0 into %generic_2_loop

// The convolution's rows of 20 inside each 2-row tile of the ReLU, then
// the ReLU.
// FUSED-IR-LABEL: func.func @conv_relu(
// FUSED-IR:         scf.forall
// FUSED-IR:           scf.for {{.*}} -> (vector<20xf32>)
// FUSED-IR-COUNT-3:     vector.fma {{.*}} : vector<20xf32>
// FUSED-IR:           arith.maximumf {{.*}} : vector<2x2x16xf32>
// FUSED-IR-NOT:     linalg.conv
// FUSED-IR-LABEL: func.func @conv_nhwc(

// EXEC: 134
// EXEC-NEXT: 28088
// EXEC-NEXT: 36566
// EXEC-NEXT: 8.72639e+06
// EXEC-NEXT: -87
// EXEC-NEXT: -43339

func.func @conv(%in: tensor<2x3x8x22xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<2x2x6x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2x6x20xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2x6x20xf32>) -> tensor<2x2x6x20xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<2x3x8x22xf32>, tensor<2x3x3x3xf32>)
      outs(%f : tensor<2x2x6x20xf32>) -> tensor<2x2x6x20xf32>
  return %c : tensor<2x2x6x20xf32>
}

func.func @conv_relu(%in: tensor<2x3x8x22xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<2x2x6x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2x6x20xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2x6x20xf32>) -> tensor<2x2x6x20xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<2x3x8x22xf32>, tensor<2x3x3x3xf32>)
      outs(%f : tensor<2x2x6x20xf32>) -> tensor<2x2x6x20xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, f, y, x) -> (n, f, y, x)>,
                                        affine_map<(n, f, y, x) -> (n, f, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<2x2x6x20xf32>) outs(%e : tensor<2x2x6x20xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %x, %zero : f32
    linalg.yield %m : f32
  } -> tensor<2x2x6x20xf32>
  return %r : tensor<2x2x6x20xf32>
}

func.func @conv_nhwc(%in: tensor<2x8x22x3xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<2x6x20x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x6x20x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x6x20x4xf32>) -> tensor<2x6x20x4xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<2x8x22x3xf32>, tensor<3x3x3x4xf32>)
      outs(%f : tensor<2x6x20x4xf32>) -> tensor<2x6x20x4xf32>
  return %c : tensor<2x6x20x4xf32>
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
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c22 = arith.constant 22 : index
  %in = call @input(%c2, %c3, %c8, %c22) : (index, index, index, index) -> tensor<?x?x?x?xf32>
  %w = call @input(%c2, %c3, %c3, %c3) : (index, index, index, index) -> tensor<?x?x?x?xf32>
  %IN = tensor.cast %in : tensor<?x?x?x?xf32> to tensor<2x3x8x22xf32>
  %W = tensor.cast %w : tensor<?x?x?x?xf32> to tensor<2x3x3x3xf32>
  %out = call @conv(%IN, %W) : (tensor<2x3x8x22xf32>, tensor<2x3x3x3xf32>) -> tensor<2x2x6x20xf32>
  %o = tensor.cast %out : tensor<2x2x6x20xf32> to tensor<?x?x?x?xf32>
  call @checksum(%o) : (tensor<?x?x?x?xf32>) -> ()
  %relu = call @conv_relu(%IN, %W) : (tensor<2x3x8x22xf32>, tensor<2x3x3x3xf32>) -> tensor<2x2x6x20xf32>
  %r = tensor.cast %relu : tensor<2x2x6x20xf32> to tensor<?x?x?x?xf32>
  call @checksum(%r) : (tensor<?x?x?x?xf32>) -> ()
  %in2 = call @input(%c2, %c8, %c22, %c3) : (index, index, index, index) -> tensor<?x?x?x?xf32>
  %w2 = call @input(%c3, %c3, %c3, %c4) : (index, index, index, index) -> tensor<?x?x?x?xf32>
  %IN2 = tensor.cast %in2 : tensor<?x?x?x?xf32> to tensor<2x8x22x3xf32>
  %W2 = tensor.cast %w2 : tensor<?x?x?x?xf32> to tensor<3x3x3x4xf32>
  %out2 = call @conv_nhwc(%IN2, %W2) : (tensor<2x8x22x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x6x20x4xf32>
  %o2 = tensor.cast %out2 : tensor<2x6x20x4xf32> to tensor<?x?x?x?xf32>
  call @checksum(%o2) : (tensor<?x?x?x?xf32>) -> ()
  return
}
