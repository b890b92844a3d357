// The tuner's affine transform ops, driven directly by a script.
// RUN: tuner-opt %s --transform-interpreter --split-input-file --verify-diagnostics | FileCheck %s

// Interchange to (j, k, i), then tile i by 4 only: the tile loop of i is
// outermost, j and k are left untiled and promoted away.
// CHECK-LABEL: func.func @tile_interchange(
// CHECK:         affine.for %[[I0:.*]] = 0 to 16 step 4 {
// CHECK-NEXT:      affine.for %[[J:.*]] = 0 to 8 {
// CHECK-NEXT:        affine.for %[[K:.*]] = 0 to 4 {
// CHECK-NEXT:          affine.for %[[I:.*]] = #{{.*}}(%[[I0]]) to #{{.*}}(%[[I0]]) {
// CHECK-NEXT:            affine.load %{{.*}}[%[[I]], %[[J]], %[[K]]]
func.func @tile_interchange(%A: memref<16x8x4xf32>, %B: memref<16x8x4xf32>) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 8 {
      affine.for %k = 0 to 4 {
        %v = affine.load %A[%i, %j, %k] : memref<16x8x4xf32>
        affine.store %v, %B[%i, %j, %k] : memref<16x8x4xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %nest = transform.tuner.affine_nest %func index = 0 : (!transform.any_op) -> !transform.any_op
    %moved = transform.tuner.affine_interchange %nest permutation = [1, 2, 0] : (!transform.any_op) -> !transform.any_op
    %loops:4 = transform.tuner.affine_tile %moved tile_sizes [0, 0, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.apply_patterns to %func {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.yield
  }
}

// -----

// The second outermost nest is found, made parallel; its loop is returned.
// CHECK-LABEL: func.func @second_nest(
// CHECK:         affine.for %{{.*}} = 0 to 8 {
// CHECK:         affine.parallel (%{{.*}}) = (0) to (8) {
func.func @second_nest(%A: memref<8xf32>) {
  %c = arith.constant 1.0 : f32
  affine.for %i = 0 to 8 {
    affine.store %c, %A[%i] : memref<8xf32>
  }
  affine.for %i = 0 to 8 {
    %v = affine.load %A[%i] : memref<8xf32>
    %w = arith.addf %v, %c : f32
    affine.store %w, %A[%i] : memref<8xf32>
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %nest = transform.tuner.affine_nest %func index = 1 : (!transform.any_op) -> !transform.any_op
    %par = transform.tuner.affine_parallelize %nest : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A prefix sum carries a dependence: interchange and parallelization are
// refused with a diagnostic.
func.func @carried(%A: memref<8x8xf32>) {
  // expected-note @below {{loop nest}}
  affine.for %i = 1 to 8 {
    affine.for %j = 0 to 7 {
      %v = affine.load %A[%i - 1, %j + 1] : memref<8x8xf32>
      affine.store %v, %A[%i, %j] : memref<8x8xf32>
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %nest = transform.tuner.affine_nest %func index = 0 : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{interchange [1, 0] violates a dependence of the loop nest}}
    %moved = transform.tuner.affine_interchange %nest permutation = [1, 0] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

func.func @serial(%A: memref<8xf32>) {
  // expected-note @below {{loop}}
  affine.for %i = 1 to 8 {
    %v = affine.load %A[%i - 1] : memref<8xf32>
    affine.store %v, %A[%i] : memref<8xf32>
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %nest = transform.tuner.affine_nest %func index = 0 : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{the loop carries a dependence and cannot run in parallel}}
    %par = transform.tuner.affine_parallelize %nest : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// expected-note @below {{target}}
func.func @one_nest(%A: memref<8xf32>) {
  %c = arith.constant 1.0 : f32
  affine.for %i = 0 to 8 {
    affine.store %c, %A[%i] : memref<8xf32>
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{asked for outermost affine.for #1 but the target has 1}}
    %nest = transform.tuner.affine_nest %func index = 1 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

func.func @short_band(%A: memref<8xf32>) {
  %c = arith.constant 1.0 : f32
  // expected-note @below {{band root}}
  affine.for %i = 0 to 8 {
    affine.store %c, %A[%i] : memref<8xf32>
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %nest = transform.tuner.affine_nest %func index = 0 : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected a perfect band of at least 2 loops, found 1}}
    %l:4 = transform.tuner.affine_tile %nest tile_sizes [2, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    // expected-error @below {{expects a permutation of 0..2}}
    %moved = transform.tuner.affine_interchange %root permutation = [0, 2, 2] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    // expected-error @below {{expects 3 results (one per tiled loop, then one per band loop), got 2}}
    %l:2 = transform.tuner.affine_tile %root tile_sizes [4, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    // expected-error @below {{unknown contraction lowering 'broadcast' (expected dot, llvmintr, outerproduct or parallelarith)}}
    transform.tuner.vectorize_tiles %root {lowering = "broadcast"} : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    // expected-error @below {{expects a positive unroll factor, got 0}}
    transform.tuner.vectorize_tiles %root {unroll = 0} : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    // expected-error @below {{unknown partial-tile handling 'mask' (expected peel or pad)}}
    transform.tuner.vectorize_tiles %root {partial = "mask"} : !transform.any_op
    transform.yield
  }
}

// -----

// A loop with no linalg op inside has nothing to vectorize.
func.func @nothing_to_vectorize(%A: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  // expected-note @below {{target}}
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %zero, %A[%i] : memref<16xf32>
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{no linalg op inside could be vectorized}}
    transform.tuner.vectorize_tiles %loop : !transform.any_op
    transform.yield
  }
}

// -----

// An op whose vectors would hold more than 1024 1-D vectors stays scalar
// (its lowering to LLVM would unroll 2048 vectors of one lane per value);
// one of as many points along a long innermost loop is vectorized.
// CHECK-LABEL: func.func @too_many_rows(
// CHECK:         linalg.generic
// CHECK-SAME:      outs(%{{.*}} : tensor<2048x1xf32>)
// CHECK:         arith.negf %{{.*}} : vector<4x512xf32>
// CHECK-NOT:     vector<2048x1xf32>
// CHECK:         return
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @too_many_rows(%A: tensor<2048x1xf32>, %B: tensor<4x512xf32>) -> (tensor<2048x1xf32>, tensor<4x512xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %A, %b = %B) -> (tensor<2048x1xf32>, tensor<4x512xf32>) {
    %x = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%a : tensor<2048x1xf32>) {
    ^bb0(%v: f32):
      %n = arith.negf %v : f32
      linalg.yield %n : f32
    } -> tensor<2048x1xf32>
    %y = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%b : tensor<4x512xf32>) {
    ^bb0(%v: f32):
      %n = arith.negf %v : f32
      linalg.yield %n : f32
    } -> tensor<4x512xf32>
    scf.yield %x, %y : tensor<2048x1xf32>, tensor<4x512xf32>
  }
  return %r#0, %r#1 : tensor<2048x1xf32>, tensor<4x512xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tuner.vectorize_tiles %loop : !transform.any_op
    transform.yield
  }
}

// -----

// A partial tile of a contraction (7 = 4 + 3 along j) is peeled: the full
// tile and the remainder are both vectorized, and the accumulator of each
// stays in registers across the reduction loop.
// CHECK-LABEL: func.func @peel_and_hoist(
// CHECK:         scf.for %{{.*}} = %{{.*}} to %c8 step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<2x4xf32>)
// CHECK:         scf.for %{{.*}} = %{{.*}} to %c8 step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<2x3xf32>)
// CHECK-NOT:     linalg.matmul
// CHECK:         return
func.func @peel_and_hoist(%A: tensor<2x8xf32>, %B: tensor<8x7xf32>, %C: tensor<2x7xf32>) -> tensor<2x7xf32> {
  %m = linalg.matmul ins(%A, %B : tensor<2x8xf32>, tensor<8x7xf32>) outs(%C : tensor<2x7xf32>) -> tensor<2x7xf32>
  return %m : tensor<2x7xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %loops:2 = transform.structured.tile_using_for %mm tile_sizes [0, 4, 1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.tuner.vectorize_tiles %loops#0 : !transform.any_op
    transform.yield
  }
}

// -----

// vectorize_tiles cannot vectorize a 2-D convolution (upstream's vectorizer
// takes 1-D convolutions only): the space offers vectorization only to
// convolutions computed by im2col or decomposition.

func.func @direct(%in: tensor<1x1x4x10xf32>, %w: tensor<1x1x3x3xf32>,
                  %out: tensor<1x1x2x8xf32>) -> tensor<1x1x2x8xf32> {
  // expected-note @below {{target}}
  %r = linalg.conv_2d_nchw_fchw
      {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x1x4x10xf32>, tensor<1x1x3x3xf32>)
      outs(%out : tensor<1x1x2x8xf32>) -> tensor<1x1x2x8xf32>
  return %r : tensor<1x1x2x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %conv = transform.structured.match ops{["linalg.conv_2d_nchw_fchw"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{no linalg op inside could be vectorized}}
    transform.tuner.vectorize_tiles %conv : !transform.any_op
    transform.yield
  }
}
