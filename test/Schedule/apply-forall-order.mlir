// A distributed nest's scf.forall runs its tiles in the order of the
// schedule: transform.structured.tile_using_forall orders the induction
// variables as the op's loops, and transform.tuner.interchange_forall then
// permutes them to the plan's loop order (an order over the forall's loops
// used to be ignored). With the filter loop inside the output rows
// ([n, y, f, x]: the seeds' order for a convolution, whose input does not
// depend on the filter), OpenMP's threads, which take the collapsed
// iterations in contiguous chunks, compute both filters of a row one after
// the other, its input rows in cache. A convolution with its bias fused,
// and the same fused into a ReLU whose tiles carry the order; both
// verified against the untransformed functions with mlir-runner and
// replayed with stock mlir-opt.
// RUN: tuner-opt %s --tuner-apply="function=conv config=%S/Inputs/forall-order-conv.json target=%S/../Space/Inputs/avx512-4core.json schedule-output=%t.conv.schedule.mlir" > %t.conv.mlir
// RUN: FileCheck %s --check-prefix=SCRIPT < %t.conv.schedule.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.conv.mlir
// RUN: %mlir_opt %s --load-dialect-plugin=%tuner_plugin --transform-preload-library=transform-library-paths=%t.conv.schedule.mlir --transform-interpreter > %t.conv.replayed.mlir
// RUN: diff %t.conv.mlir %t.conv.replayed.mlir
// RUN: tuner-opt %s --tuner-apply="function=conv_relu config=%S/Inputs/forall-order-conv-relu.json target=%S/../Space/Inputs/avx512-4core.json schedule-output=%t.relu.schedule.mlir" > %t.relu.mlir
// RUN: FileCheck %s --check-prefix=RELU-SCRIPT < %t.relu.schedule.mlir
// RUN: FileCheck %s --check-prefix=RELU-IR < %t.relu.mlir
// RUN: %mlir_opt %s --load-dialect-plugin=%tuner_plugin --transform-preload-library=transform-library-paths=%t.relu.schedule.mlir --transform-interpreter > %t.relu.replayed.mlir
// RUN: diff %t.relu.mlir %t.relu.replayed.mlir
//
// RUN: %mlir_opt %s --one-shot-bufferize=bufferize-function-boundaries --convert-linalg-to-loops --scf-forall-to-for --convert-vector-to-scf --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-ub-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%c_runner_utils,%runner_utils > %t.reference.txt
// RUN: FileCheck %s --check-prefix=EXEC < %t.reference.txt
// RUN: tuner-opt %t.conv.mlir --tuner-apply="function=conv_relu config=%S/Inputs/forall-order-conv-relu.json target=%S/../Space/Inputs/avx512-4core.json" \
// RUN:   | %mlir_opt --one-shot-bufferize=bufferize-function-boundaries --convert-linalg-to-loops --scf-forall-to-for --convert-vector-to-scf --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-ub-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%c_runner_utils,%runner_utils > %t.tuned.txt
// RUN: diff %t.reference.txt %t.tuned.txt

// SCRIPT: %conv_2d_nchw_fchw_1_tiled, %conv_2d_nchw_fchw_1_forall = transform.structured.tile_using_forall %conv_2d_nchw_fchw_1 tile_sizes [1, 1, 1, 16, 0, 0, 0]
// SCRIPT-NEXT: transform.tuner.interchange_forall %conv_2d_nchw_fchw_1_forall permutation = [0, 2, 1, 3] : !transform.any_op
// SCRIPT-NEXT: transform.structured.fuse_into_containing_op %broadcast_0 into %conv_2d_nchw_fchw_1_forall

// The forall over (n, y, f, x tiles): the input's rows follow y, the
// weights and bias f.
// IR-LABEL: func.func @conv(
// IR:         scf.forall (%[[N:.*]], %[[Y:.*]], %[[F:.*]], %[[X:.*]]) in (2, 4, 2, 2)
// IR:           %[[X0:.*]] = affine.apply #{{.*}}(%[[X]])
// IR:           tensor.extract_slice %{{.*}}[%[[N]], 0, %[[Y]], %[[X0]]] [1, 3, 3, 18]
// IR:           tensor.extract_slice %{{.*}}[%[[F]], 0, 0, 0] [1, 3, 3, 3]
// IR:           tensor.extract_slice %{{.*}}[%[[F]]] [1] [1]
// IR:           vector.fma
// IR:           tensor.parallel_insert_slice %{{.*}} into %{{.*}}[%[[N]], %[[F]], %[[Y]], %[[X0]]] [1, 1, 1, 16]

// RELU-SCRIPT: %generic_2_tiled, %generic_2_forall = transform.structured.tile_using_forall %generic_2 tile_sizes [1, 1, 1, 16]
// RELU-SCRIPT-NEXT: transform.tuner.interchange_forall %generic_2_forall permutation = [0, 2, 1, 3] : !transform.any_op

// RELU-IR-LABEL: func.func @conv_relu(
// RELU-IR:         scf.forall (%[[N:.*]], %[[Y:.*]], %[[F:.*]], %[[X:.*]]) in (2, 4, 2, 2)
// RELU-IR:           tensor.extract_slice %{{.*}}[%[[N]], 0, %[[Y]], %{{.*}}] [1, 3, 3, 18]
// RELU-IR:           arith.maximumf
// RELU-IR:           tensor.parallel_insert_slice %{{.*}} into %{{.*}}[%[[N]], %[[F]], %[[Y]], %{{.*}}] [1, 1, 1, 16]

// EXEC: -272
// EXEC-NEXT: -116350
// EXEC-NEXT: 38826
// EXEC-NEXT: 9.86406e+06

func.func @conv(%in: tensor<2x3x6x34xf32>, %w: tensor<2x3x3x3xf32>, %bias: tensor<2xf32>) -> tensor<2x2x4x32xf32> {
  %e = tensor.empty() : tensor<2x2x4x32xf32>
  %b = linalg.broadcast ins(%bias : tensor<2xf32>) outs(%e : tensor<2x2x4x32xf32>) dimensions = [0, 2, 3]
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<2x3x6x34xf32>, tensor<2x3x3x3xf32>)
      outs(%b : tensor<2x2x4x32xf32>) -> tensor<2x2x4x32xf32>
  return %c : tensor<2x2x4x32xf32>
}

func.func @conv_relu(%in: tensor<2x3x6x34xf32>, %w: tensor<2x3x3x3xf32>, %bias: tensor<2xf32>) -> tensor<2x2x4x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2x4x32xf32>
  %b = linalg.broadcast ins(%bias : tensor<2xf32>) outs(%e : tensor<2x2x4x32xf32>) dimensions = [0, 2, 3]
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<2x3x6x34xf32>, tensor<2x3x3x3xf32>)
      outs(%b : tensor<2x2x4x32xf32>) -> tensor<2x2x4x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, f, y, x) -> (n, f, y, x)>,
                                        affine_map<(n, f, y, x) -> (n, f, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<2x2x4x32xf32>) outs(%e : tensor<2x2x4x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %x, %zero : f32
    linalg.yield %m : f32
  } -> tensor<2x2x4x32xf32>
  return %r : tensor<2x2x4x32xf32>
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
  %c6 = arith.constant 6 : index
  %c34 = arith.constant 34 : index
  %bias = arith.constant dense<[1.0, -2.0]> : tensor<2xf32>
  %in = call @input(%c2, %c3, %c6, %c34) : (index, index, index, index) -> tensor<?x?x?x?xf32>
  %w = call @input(%c2, %c3, %c3, %c3) : (index, index, index, index) -> tensor<?x?x?x?xf32>
  %IN = tensor.cast %in : tensor<?x?x?x?xf32> to tensor<2x3x6x34xf32>
  %W = tensor.cast %w : tensor<?x?x?x?xf32> to tensor<2x3x3x3xf32>
  %out = call @conv(%IN, %W, %bias) : (tensor<2x3x6x34xf32>, tensor<2x3x3x3xf32>, tensor<2xf32>) -> tensor<2x2x4x32xf32>
  %o = tensor.cast %out : tensor<2x2x4x32xf32> to tensor<?x?x?x?xf32>
  call @checksum(%o) : (tensor<?x?x?x?xf32>) -> ()
  %relu = call @conv_relu(%IN, %W, %bias) : (tensor<2x3x6x34xf32>, tensor<2x3x3x3xf32>, tensor<2xf32>) -> tensor<2x2x4x32xf32>
  %r = tensor.cast %relu : tensor<2x2x4x32xf32> to tensor<?x?x?x?xf32>
  call @checksum(%r) : (tensor<?x?x?x?xf32>) -> ()
  return
}
