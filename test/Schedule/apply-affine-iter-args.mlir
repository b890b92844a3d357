// A band whose loops carry iter_args (a sum over a 2-D array): the space
// offers no other loop order (reordering would reorder the sum, and
// affine::permuteLoops does not move iter_args) and tiles only the
// outermost loop, which transform.tuner.affine_tile strip-mines with the
// carried values threaded through the tile loop.
// RUN: tuner-opt %s --tuner-extract-space -o /dev/null | FileCheck %s --check-prefix=SPACE
// RUN: tuner-opt %s --tuner-apply="config=%S/Inputs/iter-args-tile.json" | FileCheck %s --check-prefix=IR
// RUN: tuner-opt %s --tuner-apply="config=%S/Inputs/iter-args-tile-partial.json space=%S/Inputs/iter-args-space.json" | FileCheck %s --check-prefix=PARTIAL
// RUN: tuner-opt %s --tuner-check-space="samples=30" -o /dev/null | FileCheck %s --check-prefix=CHECK-SPACE
// The order [1, 0], once offered and then refused by the interchange at
// apply ("violates a dependence"), is no longer in the space.
// RUN: not tuner-opt %s --mlir-print-op-on-diagnostic=false --tuner-apply="config=%S/Inputs/iter-args-order.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ORDER

// SPACE:     "constraints": [
// SPACE-NEXT:  "nest_0.unroll <= min(nest_0.tile.l0, 32)"
// SPACE-NEXT: ],
// SPACE-NOT: nest_0.order
// SPACE-NOT: nest_0.tile.l1
// SPACE:     "name": "nest_0.tile.l0"
// SPACE-NOT: nest_0.order
// SPACE-NOT: nest_0.tile.l1

// IR-LABEL: func.func @sum
// IR:       %[[R:.*]]:2 = affine.for %[[II:.*]] = 0 to 24 step 8 iter_args(%[[C:.*]] = %{{.*}}, %[[S:.*]] = %{{.*}}) -> (index, f32) {
// IR-NEXT:    %[[P:.*]]:2 = affine.for %{{.*}} = #map{{[0-9]*}}(%[[II]]) to #map{{[0-9]*}}(%[[II]]) iter_args(%{{.*}} = %[[C]], %{{.*}} = %[[S]]) -> (index, f32) {
// IR-NEXT:      affine.for %{{.*}} = 0 to 32 step 2 iter_args(
// IR:         affine.yield %[[P]]#0, %[[P]]#1 : index, f32
// IR:       memref.store %[[R]]#1
// IR:       return %[[R]]#0

// PARTIAL-DAG: #[[UB:.*]] = affine_map<(d0) -> (d0 + 5, 24)>
// PARTIAL:     affine.for %[[II:.*]] = 0 to 24 step 5 iter_args(
// PARTIAL-NEXT:  affine.for %{{.*}} = #map{{[0-9]*}}(%[[II]]) to min #[[UB]](%[[II]]) iter_args(

// ORDER: error: invalid config '{{.*}}iter-args-order.json': config: unknown parameter 'nest_0.order'

// CHECK-SPACE: check-space @sum: size {{[0-9]+}}, 30 samples ({{[0-9]+}} distinct), 0 failed
func.func @sum(%a: memref<24x32xf32>, %out: memref<f32>) -> index {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %r:2 = affine.for %i = 0 to 24 iter_args(%n = %c0, %s = %zero) -> (index, f32) {
    %q:2 = affine.for %j = 0 to 32 iter_args(%n1 = %n, %s1 = %s) -> (index, f32) {
      %x = affine.load %a[%i, %j] : memref<24x32xf32>
      %c1 = arith.constant 1 : index
      %n2 = arith.addi %n1, %c1 : index
      %s2 = arith.addf %s1, %x : f32
      affine.yield %n2, %s2 : index, f32
    }
    affine.yield %q#0, %q#1 : index, f32
  }
  memref.store %r#1, %out[] : memref<f32>
  return %r#0 : index
}
