// transform.tuner.fuse_window_producer driven directly by a script: a
// partial last tile, and the producers it refuses.
// RUN: tuner-opt %s --transform-interpreter --split-input-file --verify-diagnostics | FileCheck %s

// Rows tiled by 3 (8 rows: 3, 3, 2): the box has the tile's rows plus the
// two-row halo, a size known at run time for the partial tile.
// CHECK-LABEL: func.func @partial(
// CHECK:         scf.for %[[Y:.*]] = %c0 to %c8 step %c3
// CHECK:           %[[ROWS:.*]] = affine.min #{{.*}}(%[[Y]])
// CHECK:           %[[HALO:.*]] = affine.apply #{{.*}}()[%[[ROWS]]]
// CHECK:           tensor.extract_slice %arg0[%[[Y]], 0] [%[[HALO]], 32]
// CHECK:           %[[BOX:.*]] = linalg.generic
// CHECK:           } -> tensor<?x32xf32>
// CHECK-DAG:       tensor.extract_slice %[[BOX]][0, 0] [%[[ROWS]], 32]
// CHECK-DAG:       tensor.extract_slice %[[BOX]][1, 0] [%[[ROWS]], 32]
// CHECK-DAG:       tensor.extract_slice %[[BOX]][2, 0] [%[[ROWS]], 32]
// CHECK:           linalg.generic
// CHECK:           } -> tensor<?x32xf32>
// CHECK-NOT:   linalg.generic
// CHECK:       return
#id = affine_map<(y, x) -> (y, x)>
func.func @partial(%in: tensor<10x32xf32>) -> tensor<8x32xf32> {
  %e0 = tensor.empty() : tensor<10x32xf32>
  %bx = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%in : tensor<10x32xf32>) outs(%e0 : tensor<10x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %d = arith.addf %a, %a : f32
    linalg.yield %d : f32
  } -> tensor<10x32xf32>
  %y0 = tensor.extract_slice %bx[0, 0] [8, 32] [1, 1] : tensor<10x32xf32> to tensor<8x32xf32>
  %y1 = tensor.extract_slice %bx[1, 0] [8, 32] [1, 1] : tensor<10x32xf32> to tensor<8x32xf32>
  %y2 = tensor.extract_slice %bx[2, 0] [8, 32] [1, 1] : tensor<10x32xf32> to tensor<8x32xf32>
  %e1 = tensor.empty() : tensor<8x32xf32>
  %out = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y0, %y1, %y2 : tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>)
      outs(%e1 : tensor<8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %o: f32):
    %ab = arith.addf %a, %b : f32
    %abc = arith.addf %ab, %c : f32
    linalg.yield %abc : f32
  } -> tensor<8x32xf32>
  return %out : tensor<8x32xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %producer, %consumer = transform.split_handle %ops : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %tiled, %loop = transform.structured.tile_using_for %consumer tile_sizes [3, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fused, %loop2 = transform.tuner.fuse_window_producer %producer into %loop : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A producer read inside the loop other than through a window slice.
#id = affine_map<(y, x) -> (y, x)>
func.func @direct(%in: tensor<8x32xf32>, %out0: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %e0 = tensor.empty() : tensor<8x32xf32>
  %bx = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%in : tensor<8x32xf32>) outs(%e0 : tensor<8x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<8x32xf32>
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %out0) -> (tensor<8x32xf32>) {
    %v = tensor.extract %bx[%i, %c0] : tensor<8x32xf32>
    %w = tensor.insert %v into %acc[%i, %c0] : tensor<8x32xf32>
    scf.yield %w : tensor<8x32xf32>
  }
  return %r : tensor<8x32xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %producer = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{the producer is read inside the containing op other than through unit-stride, rank-preserving tensor.extract_slice windows}}
    %fused, %loop2 = transform.tuner.fuse_window_producer %producer into %loop : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A producer nothing inside the loop reads.
#id = affine_map<(y, x) -> (y, x)>
func.func @unused(%in: tensor<8x32xf32>, %out0: tensor<8x32xf32>) -> (tensor<8x32xf32>, tensor<8x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %e0 = tensor.empty() : tensor<8x32xf32>
  %bx = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%in : tensor<8x32xf32>) outs(%e0 : tensor<8x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<8x32xf32>
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %out0) -> (tensor<8x32xf32>) {
    %v = tensor.extract %in[%i, %c0] : tensor<8x32xf32>
    %w = tensor.insert %v into %acc[%i, %c0] : tensor<8x32xf32>
    scf.yield %w : tensor<8x32xf32>
  }
  return %r, %bx : tensor<8x32xf32>, tensor<8x32xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %producer = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{the producer has no slice inside the containing op}}
    %fused, %loop2 = transform.tuner.fuse_window_producer %producer into %loop : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A producer on buffers has no tensor to slice.
#id = affine_map<(y, x) -> (y, x)>
func.func @buffers(%in: memref<8x32xf32>, %tmp: memref<8x32xf32>, %out0: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%in : memref<8x32xf32>) outs(%tmp : memref<8x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %out0) -> (tensor<8x32xf32>) {
    scf.yield %acc : tensor<8x32xf32>
  }
  return %r : tensor<8x32xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %producer = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{the producer 'linalg.generic' is not one tileable op with one ranked tensor result}}
    %fused, %loop2 = transform.tuner.fuse_window_producer %producer into %loop : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
