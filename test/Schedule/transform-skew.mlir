// The tuner's time-tiling transform ops (skew, tiles of a skewed band, a
// wavefront of tiles, sibling fusion with shifts), driven by scripts.
// RUN: tuner-opt %s --transform-interpreter --split-input-file --verify-diagnostics | FileCheck %s

// A Gauss-Seidel sweep under a time loop: (0, 1, -1) and (1, -1, -1) are
// among its dependences, so the band is not fully permutable. The smallest
// skew that fixes it is (t, t + i, 2t + i + j): loop k runs over its range
// shifted by the outer loops, the body reads i = i' - t, j = j' - i' - t.
// CHECK-DAG: #[[LBI:.*]] = affine_map<(d0) -> (d0 + 1)>
// CHECK-DAG: #[[UBI:.*]] = affine_map<(d0) -> (d0 + 9)>
// CHECK-DAG: #[[LBJ:.*]] = affine_map<(d0, d1) -> (d0 + d1 + 1)>
// CHECK-DAG: #[[UBJ:.*]] = affine_map<(d0, d1) -> (d0 + d1 + 9)>
// CHECK-DAG: #[[I:.*]] = affine_map<(d0, d1) -> (-d0 + d1)>
// CHECK-DAG: #[[J:.*]] = affine_map<(d0, d1, d2) -> (-d0 - d1 + d2)>
// CHECK-LABEL: func.func @skew(
// CHECK:         affine.for %[[T:.*]] = 0 to 4 {
// CHECK-NEXT:      affine.for %[[Y1:.*]] = #[[LBI]](%[[T]]) to #[[UBI]](%[[T]]) {
// CHECK-NEXT:        affine.for %[[Y2:.*]] = #[[LBJ]](%[[T]], %[[Y1]]) to #[[UBJ]](%[[T]], %[[Y1]]) {
// CHECK-NEXT:          %[[X1:.*]] = affine.apply #[[I]](%[[T]], %[[Y1]])
// CHECK-NEXT:          %[[X2:.*]] = affine.apply #[[J]](%[[T]], %[[Y1]], %[[Y2]])
// CHECK-NEXT:          affine.load %{{.*}}[%[[X1]] - 1, %[[X2]] + 1]
// CHECK:               affine.store %{{.*}}, %{{.*}}[%[[X1]], %[[X2]]]
func.func @skew(%A: memref<10x10xf32>) {
  affine.for %t = 0 to 4 {
    affine.for %i = 1 to 9 {
      affine.for %j = 1 to 9 {
        %n = affine.load %A[%i - 1, %j + 1] : memref<10x10xf32>
        %w = affine.load %A[%i, %j - 1] : memref<10x10xf32>
        %s = affine.load %A[%i + 1, %j - 1] : memref<10x10xf32>
        %a = arith.addf %n, %w : f32
        %b = arith.addf %a, %s : f32
        affine.store %b, %A[%i, %j] : memref<10x10xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %nest = transform.tuner.affine_nest %func index = 0 : (!transform.any_op) -> !transform.any_op
    %skewed = transform.tuner.affine_skew %nest depth = 3 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A given skew that is larger than needed: j' = j + 2i + 3t.
// CHECK-DAG: #[[LBJ:.*]] = affine_map<(d0, d1) -> (d0 + d1 * 2 + 1)>
// CHECK-DAG: #[[J:.*]] = affine_map<(d0, d1, d2) -> (-d0 - d1 * 2 + d2)>
// CHECK-LABEL: func.func @given_skew(
// CHECK:         affine.for %[[T:.*]] = 0 to 4 {
// CHECK-NEXT:      affine.for %[[Y1:.*]] = #{{.*}}(%[[T]]) to
// CHECK-NEXT:        affine.for %[[Y2:.*]] = #[[LBJ]](%[[T]], %[[Y1]]) to
// CHECK:               affine.apply #[[J]](%[[T]], %[[Y1]], %[[Y2]])
func.func @given_skew(%A: memref<10x10xf32>) {
  affine.for %t = 0 to 4 {
    affine.for %i = 1 to 9 {
      affine.for %j = 1 to 9 {
        %n = affine.load %A[%i - 1, %j + 1] : memref<10x10xf32>
        %w = affine.load %A[%i, %j - 1] : memref<10x10xf32>
        %s = affine.load %A[%i + 1, %j - 1] : memref<10x10xf32>
        %a = arith.addf %n, %w : f32
        %b = arith.addf %a, %s : f32
        affine.store %b, %A[%i, %j] : memref<10x10xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %nest = transform.tuner.affine_nest %func index = 0 : (!transform.any_op) -> !transform.any_op
    %skewed = transform.tuner.affine_skew %nest depth = 3 skew = affine_map<(t, i, j) -> (t, t + i, t * 3 + i * 2 + j)> : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Tiles of the skewed band: tile loops count tiles (t by 2, i' by 4, j'
// untiled, so it gets no tile loop); a point loop runs from the larger of
// its tile's origin and its own lower bound to the smaller of the tile's
// end and its own upper bound. The i' tiles of a t tile start at
// floor((2 T + 1) / 4) and end after floor((2 T + 1 + 8) / 4) (the rows
// 1 + t .. 8 + t for t in 2T .. 2T + 1), and at most at 3 (i' <= 11).
// CHECK-DAG: #[[TLB:.*]] = affine_map<(d0) -> ((d0 * 2 + 1) floordiv 4)>
// CHECK-DAG: #[[TUB:.*]] = affine_map<(d0) -> ((d0 * 2 + 9) floordiv 4 + 1, 3)>
// CHECK-DAG: #[[PLB0:.*]] = affine_map<(d0) -> (d0 * 2, 0)>
// CHECK-DAG: #[[PUB0:.*]] = affine_map<(d0) -> (d0 * 2 + 2, 4)>
// CHECK-DAG: #[[PLB1:.*]] = affine_map<(d0, d1) -> (d0 + 1, d1 * 4)>
// CHECK-DAG: #[[PUB1:.*]] = affine_map<(d0, d1) -> (d0 + 9, d1 * 4 + 4)>
// CHECK-LABEL: func.func @tile_skewed(
// CHECK:         affine.for %[[TT:.*]] = 0 to 2 {
// CHECK-NEXT:      affine.for %[[TI:.*]] = #[[TLB]](%[[TT]]) to min #[[TUB]](%[[TT]]) {
// CHECK-NEXT:        affine.for %[[T:.*]] = max #[[PLB0]](%[[TT]]) to min #[[PUB0]](%[[TT]]) {
// CHECK-NEXT:          affine.for %[[I:.*]] = max #[[PLB1]](%[[T]], %[[TI]]) to min #[[PUB1]](%[[T]], %[[TI]]) {
// CHECK-NEXT:            affine.for %{{.*}} = #{{.*}}(%[[T]], %[[I]]) to #{{.*}}(%[[T]], %[[I]]) {
// CHECK:                   affine.store
func.func @tile_skewed(%A: memref<10x10xf32>) {
  affine.for %t = 0 to 4 {
    affine.for %i = 1 to 9 {
      affine.for %j = 1 to 9 {
        %n = affine.load %A[%i - 1, %j + 1] : memref<10x10xf32>
        %w = affine.load %A[%i, %j - 1] : memref<10x10xf32>
        %s = affine.load %A[%i + 1, %j - 1] : memref<10x10xf32>
        %a = arith.addf %n, %w : f32
        %b = arith.addf %a, %s : f32
        affine.store %b, %A[%i, %j] : memref<10x10xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %nest = transform.tuner.affine_nest %func index = 0 : (!transform.any_op) -> !transform.any_op
    %skewed = transform.tuner.affine_skew %nest depth = 3 : (!transform.any_op) -> !transform.any_op
    %l:5 = transform.tuner.affine_tile %skewed tile_sizes [2, 4, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// The same tiles as a wavefront: w = T + I runs sequentially, the tiles of
// one wavefront in parallel (T from max(0, w - 2) to min(1, w); I is in
// 0 .. 2 for both T), each with I = w - T under a guard that keeps it within
// the tile loop's bounds.
// CHECK-DAG: #[[I:.*]] = affine_map<(d0, d1) -> (d0 - d1)>
// CHECK-DAG: #[[GUARD:.*]] = affine_set<(d0, d1) : (d1 - (d0 * 2 + 1) floordiv 4 >= 0, (d0 * 2 + 9) floordiv 4 - d1 >= 0, -d1 + 2 >= 0)>
// CHECK-LABEL: func.func @wavefront(
// CHECK:         affine.for %[[W:.*]] = 0 to 4 {
// CHECK-NEXT:      affine.parallel (%[[TT:.*]]) = (max(%[[W]] - 2, 0)) to (min(%[[W]] + 1, 2)) {
// CHECK-NEXT:        %[[TI:.*]] = affine.apply #[[I]](%[[W]], %[[TT]])
// CHECK-NEXT:        affine.if #[[GUARD]](%[[TT]], %[[TI]]) {
// CHECK-NEXT:          affine.for %[[T:.*]] = max #{{.*}}(%[[TT]]) to min #{{.*}}(%[[TT]]) {
// CHECK-NEXT:            affine.for %{{.*}} = max #{{.*}}(%[[T]], %[[TI]]) to min #{{.*}}(%[[T]], %[[TI]]) {
func.func @wavefront(%A: memref<10x10xf32>) {
  affine.for %t = 0 to 4 {
    affine.for %i = 1 to 9 {
      affine.for %j = 1 to 9 {
        %n = affine.load %A[%i - 1, %j + 1] : memref<10x10xf32>
        %w = affine.load %A[%i, %j - 1] : memref<10x10xf32>
        %s = affine.load %A[%i + 1, %j - 1] : memref<10x10xf32>
        %a = arith.addf %n, %w : f32
        %b = arith.addf %a, %s : f32
        affine.store %b, %A[%i, %j] : memref<10x10xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %nest = transform.tuner.affine_nest %func index = 0 : (!transform.any_op) -> !transform.any_op
    %skewed = transform.tuner.affine_skew %nest depth = 3 : (!transform.any_op) -> !transform.any_op
    %l:5 = transform.tuner.affine_tile %skewed tile_sizes [2, 4, 0] wavefront : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Two Jacobi sweeps under a time loop: the second reads B[i + 1] that the
// first writes at i + 1, and writes A[i], which the first reads at i - 1 and
// i + 1, so its rows are shifted by 1: the fused loop runs i from 1 to 8,
// the first sweep under i <= 6, the second under i >= 2 for row i - 1.
// CHECK-DAG: #[[SHIFT:.*]] = affine_map<(d0) -> (d0 - 1)>
// CHECK-DAG: #[[FIRST:.*]] = affine_set<(d0) : (-d0 + 6 >= 0)>
// CHECK-DAG: #[[SECOND:.*]] = affine_set<(d0) : (d0 - 2 >= 0)>
// CHECK-LABEL: func.func @shift_fuse(
// CHECK:         affine.for %{{.*}} = 0 to 3 {
// CHECK-NEXT:      affine.for %[[I:.*]] = 1 to 8 {
// CHECK-NEXT:        affine.if #[[FIRST]](%[[I]]) {
// CHECK-NEXT:          affine.for %[[J:.*]] = 1 to 7 {
// CHECK:                 affine.store %{{.*}}, %{{.*}}[%[[I]], %[[J]]]
// CHECK:             affine.if #[[SECOND]](%[[I]]) {
// CHECK-NEXT:          %[[ROW:.*]] = affine.apply #[[SHIFT]](%[[I]])
// CHECK-NEXT:          affine.for %[[J:.*]] = 1 to 7 {
// CHECK:                 affine.store %{{.*}}, %{{.*}}[%[[ROW]], %[[J]]]
func.func @shift_fuse(%A: memref<8x8xf32>, %B: memref<8x8xf32>) {
  affine.for %t = 0 to 3 {
    affine.for %i = 1 to 7 {
      affine.for %j = 1 to 7 {
        %n = affine.load %A[%i - 1, %j] : memref<8x8xf32>
        %s = affine.load %A[%i + 1, %j] : memref<8x8xf32>
        %v = arith.addf %n, %s : f32
        affine.store %v, %B[%i, %j] : memref<8x8xf32>
      }
    }
    affine.for %i = 1 to 7 {
      affine.for %j = 1 to 7 {
        %n = affine.load %B[%i - 1, %j] : memref<8x8xf32>
        %s = affine.load %B[%i + 1, %j] : memref<8x8xf32>
        %v = arith.addf %n, %s : f32
        affine.store %v, %A[%i, %j] : memref<8x8xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %nest = transform.tuner.affine_nest %func index = 0 : (!transform.any_op) -> !transform.any_op
    %fused = transform.tuner.affine_shift_fuse %nest depth = 1 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// After the fusion, the band (t, i) skews by i' = i + 2t (the first sweep
// of step t + 1 reads row i + 1 of A, which the second sweep of step t
// writes at fused row i + 2), and its guards follow the skew.
// CHECK-DAG: #[[LB:.*]] = affine_map<(d0) -> (d0 * 2 + 1)>
// CHECK-DAG: #[[UB:.*]] = affine_map<(d0) -> (d0 * 2 + 8)>
// CHECK-DAG: #[[FIRST:.*]] = affine_set<(d0, d1) : (d0 * 2 - d1 + 6 >= 0)>
// CHECK-LABEL: func.func @fuse_then_skew(
// CHECK:         affine.for %[[T:.*]] = 0 to 3 {
// CHECK-NEXT:      affine.for %[[I:.*]] = #[[LB]](%[[T]]) to #[[UB]](%[[T]]) {
// CHECK:             affine.if #[[FIRST]](%[[T]], %[[I]]) {
func.func @fuse_then_skew(%A: memref<8x8xf32>, %B: memref<8x8xf32>) {
  affine.for %t = 0 to 3 {
    affine.for %i = 1 to 7 {
      affine.for %j = 1 to 7 {
        %n = affine.load %A[%i - 1, %j] : memref<8x8xf32>
        %s = affine.load %A[%i + 1, %j] : memref<8x8xf32>
        %v = arith.addf %n, %s : f32
        affine.store %v, %B[%i, %j] : memref<8x8xf32>
      }
    }
    affine.for %i = 1 to 7 {
      affine.for %j = 1 to 7 {
        %n = affine.load %B[%i - 1, %j] : memref<8x8xf32>
        %s = affine.load %B[%i + 1, %j] : memref<8x8xf32>
        %v = arith.addf %n, %s : f32
        affine.store %v, %A[%i, %j] : memref<8x8xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %nest = transform.tuner.affine_nest %func index = 0 : (!transform.any_op) -> !transform.any_op
    %fused = transform.tuner.affine_shift_fuse %nest depth = 1 : (!transform.any_op) -> !transform.any_op
    %skewed = transform.tuner.affine_skew %fused depth = 2 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Errors.

func.func @not_permutable(%A: memref<10x10xf32>) {
  // expected-note @below {{band root}}
  affine.for %t = 0 to 4 {
    affine.for %i = 1 to 9 {
      affine.for %j = 1 to 9 {
        %n = affine.load %A[%i - 1, %j + 1] : memref<10x10xf32>
        %s = affine.load %A[%i + 1, %j - 1] : memref<10x10xf32>
        %a = arith.addf %n, %s : f32
        affine.store %a, %A[%i, %j] : memref<10x10xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %nest = transform.tuner.affine_nest %func index = 0 : (!transform.any_op) -> !transform.any_op
    // Skewing i by t alone leaves (0, 1, -1) negative on j.
    // expected-error @below {{the band skewed by affine_map<(d0, d1, d2) -> (d0, d0 + d1, d0 + d2)> is not fully permutable: dependence (0, 1, -1) has a negative or unknown distance}}
    %skewed = transform.tuner.affine_skew %nest depth = 3 skew = affine_map<(t, i, j) -> (t, t + i, t + j)> : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    // expected-error @below {{expects a skew of 2 dims and results, result k being d_k plus an integer combination of d_0 .. d_{k-1} (unit lower-triangular), got affine_map<(d0, d1) -> (d0 + d1, d1)>}}
    %skewed = transform.tuner.affine_skew %root depth = 2 skew = affine_map<(t, i) -> (t + i, i)> : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Tiles as a wavefront need a fully permutable band: unskewed, seidel's is
// not.
func.func @wavefront_unskewed(%A: memref<10x10xf32>) {
  // expected-note @below {{band root}}
  affine.for %t = 0 to 4 {
    affine.for %i = 1 to 9 {
      affine.for %j = 1 to 9 {
        %n = affine.load %A[%i - 1, %j + 1] : memref<10x10xf32>
        %s = affine.load %A[%i + 1, %j - 1] : memref<10x10xf32>
        %a = arith.addf %n, %s : f32
        affine.store %a, %A[%i, %j] : memref<10x10xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %nest = transform.tuner.affine_nest %func index = 0 : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{the band is not fully permutable (skew it first)}}
    %l:5 = transform.tuner.affine_tile %nest tile_sizes [2, 4, 0] wavefront : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

func.func @wavefront_one_tile(%A: memref<10x10xf32>) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %c = arith.constant 1.0 : f32
      affine.store %c, %A[%i, %j] : memref<10x10xf32>
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %nest = transform.tuner.affine_nest %func index = 0 : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{a wavefront of tiles needs at least two tiled loops}}
    %l:3 = transform.tuner.affine_tile %nest tile_sizes [2, 0] wavefront : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Shifts that reverse a dependence between the sweeps: the second must run
// at least one row behind the first.
func.func @wrong_shifts(%A: memref<8xf32>, %B: memref<8xf32>) {
  // expected-note @below {{band root}}
  affine.for %t = 0 to 3 {
    affine.for %i = 1 to 7 {
      %v = affine.load %A[%i + 1] : memref<8xf32>
      affine.store %v, %B[%i] : memref<8xf32>
    }
    affine.for %i = 1 to 7 {
      %v = affine.load %B[%i + 1] : memref<8xf32>
      affine.store %v, %A[%i] : memref<8xf32>
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %nest = transform.tuner.affine_nest %func index = 0 : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{the shifts reverse dependence (0, -1) from statement 0 to statement 1: on fused loop 0 statement 1 must be shifted at least 1 more than statement 0, not 0}}
    %fused = transform.tuner.affine_shift_fuse %nest depth = 1 shifts = [0, 0] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

func.func @not_siblings(%A: memref<8xf32>) {
  // expected-note @below {{band root}}
  affine.for %t = 0 to 3 {
    %c = arith.constant 1.0 : f32
    affine.for %i = 1 to 7 {
      affine.store %c, %A[%i] : memref<8xf32>
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %nest = transform.tuner.affine_nest %func index = 0 : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot fuse the nests of the band: the innermost band loop holds 'arith.constant' besides loop nests: only loop nests can be fused}}
    %fused = transform.tuner.affine_shift_fuse %nest depth = 1 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
