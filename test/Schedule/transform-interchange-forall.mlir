// transform.tuner.interchange_forall, driven directly by a script: the
// induction variables of an scf.forall permuted in place (static and
// dynamic bounds, steps and a mapping move with them, and their uses
// follow), and its errors.
// RUN: tuner-opt %s --transform-interpreter --split-input-file --verify-diagnostics | FileCheck %s

// Position k takes the variable that was at permutation[k]: (i, j, k)
// with permutation [2, 0, 1] becomes (k, i, j).
// CHECK-LABEL: func.func @permute(
// CHECK-SAME:    %{{.*}}: tensor<8x6x?xf32>, %[[N:.*]]: index)
// CHECK:         scf.forall (%[[K:.*]], %[[I:.*]], %[[J:.*]]) = (0, 0, 0) to (%[[N]], 8, 6) step (1, 2, 3)
// CHECK-SAME:        shared_outs(%[[OUT:.*]] = %{{.*}})
// CHECK:           tensor.extract_slice %[[OUT]][%[[I]], %[[J]], %[[K]]] [2, 3, 1]
// CHECK-NEXT:      linalg.fill {still_valid}
// CHECK:           tensor.parallel_insert_slice %{{.*}} into %[[OUT]][%[[I]], %[[J]], %[[K]]] [2, 3, 1]
// CHECK:         } {mapping = [#gpu.thread<z>, #gpu.thread<x>, #gpu.thread<y>]}
func.func @permute(%t: tensor<8x6x?xf32>, %n: index) -> tensor<8x6x?xf32> {
  %one = arith.constant 1.0 : f32
  %r = scf.forall (%i, %j, %k) = (0, 0, 0) to (8, 6, %n) step (2, 3, 1)
      shared_outs(%o = %t) -> (tensor<8x6x?xf32>) {
    %s = tensor.extract_slice %o[%i, %j, %k] [2, 3, 1] [1, 1, 1]
        : tensor<8x6x?xf32> to tensor<2x3x1xf32>
    %f = linalg.fill ins(%one : f32) outs(%s : tensor<2x3x1xf32>)
        -> tensor<2x3x1xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %f into %o[%i, %j, %k] [2, 3, 1] [1, 1, 1]
          : tensor<2x3x1xf32> into tensor<8x6x?xf32>
    }
  } {mapping = [#gpu.thread<x>, #gpu.thread<y>, #gpu.thread<z>]}
  return %r : tensor<8x6x?xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %forall = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %fill = transform.structured.match ops{["linalg.fill"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tuner.interchange_forall %forall permutation = [2, 0, 1] : !transform.any_op
    // The handles to the forall and to the ops in it stay valid.
    transform.tuner.interchange_forall %forall permutation = [0, 1, 2] : !transform.any_op
    transform.annotate %fill "still_valid" : !transform.any_op
    transform.yield
  }
}

// -----

func.func @not_a_forall(%t: tensor<4xf32>) -> tensor<4xf32> {
  %one = arith.constant 1.0 : f32
  // expected-note @below {{target}}
  %f = linalg.fill ins(%one : f32) outs(%t : tensor<4xf32>) -> tensor<4xf32>
  return %f : tensor<4xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %fill = transform.structured.match ops{["linalg.fill"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expects an scf.forall}}
    transform.tuner.interchange_forall %fill permutation = [0] : !transform.any_op
    transform.yield
  }
}

// -----

func.func @wrong_rank(%t: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-note @below {{target}}
  %r = scf.forall (%i, %j) in (4, 4) shared_outs(%o = %t) -> (tensor<4x4xf32>) {
  }
  return %r : tensor<4x4xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %forall = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{permutation of 3 induction variables for an scf.forall with 2}}
    transform.tuner.interchange_forall %forall permutation = [0, 2, 1] : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %forall = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expects a permutation of 0..1}}
    transform.tuner.interchange_forall %forall permutation = [1, 1] : !transform.any_op
    transform.yield
  }
}
