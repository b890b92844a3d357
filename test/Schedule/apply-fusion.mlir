// fill + matmul + relu on tensors: the relu is tiled, the matmul is fused
// into its tile loops and the fill into the matmul's (now the relu's) loops;
// the fused producers get no schedule of their own (they are vectorized with
// their host).
// RUN: tuner-opt %s --tuner-apply="config=%S/Inputs/fusion.json schedule-output=%t.schedule.mlir" > %t.tuned.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.tuned.mlir
// RUN: FileCheck %s --check-prefix=SCRIPT < %t.schedule.mlir
// RUN: %mlir_opt %s --load-dialect-plugin=%tuner_plugin --transform-preload-library=transform-library-paths=%t.schedule.mlir --transform-interpreter > %t.replayed.mlir
// RUN: diff %t.tuned.mlir %t.replayed.mlir

// SCRIPT:      %fill_0, %matmul_1, %generic_2 = transform.split_handle %linalg_ops
// SCRIPT-NEXT: // generic_2: tile [8, 4], order [1, 0], fuse matmul_1, fill_0, vectorize
// SCRIPT-NEXT: %generic_2_tiled, %generic_2_tiled_loops:2 = transform.structured.tile_using_for %generic_2 tile_sizes [8, 4] interchange = [1, 0]
// SCRIPT-NEXT: %matmul_1_fused, %generic_2_loop = transform.structured.fuse_into_containing_op %matmul_1 into %generic_2_tiled_loops#0
// SCRIPT-NEXT: %matmul_1_fused_1, %generic_2_loop_1 = transform.structured.fuse_into_containing_op %matmul_1_fused into %generic_2_tiled_loops#1
// SCRIPT-NEXT: %fill_0_fused, %generic_2_loop_2 = transform.structured.fuse_into_containing_op %fill_0 into %generic_2_loop
// SCRIPT-NEXT: %fill_0_fused_1, %generic_2_loop_3 = transform.structured.fuse_into_containing_op %fill_0_fused into %generic_2_loop_1
// SCRIPT-NEXT: transform.tuner.vectorize_tiles %generic_2_loop_2 {lowering = "outerproduct"}
// SCRIPT-NOT:  matmul_1_tiled

// IR-LABEL: func.func @fused(
// IR-NOT:     linalg.
// IR:         scf.for %[[J:.*]] = %c0 to %c16 step %c4
// IR:           scf.for %[[I:.*]] = %c0 to %c16 step %c8
// The fused fill and matmul are vectorized with the relu: the fill becomes
// the zero the first FMAs add to.
// IR:             vector.fma {{.*}} : vector<4xf32>
// IR:             arith.maximumf {{.*}} : vector<8x4xf32>
// IR:             vector.transfer_write
// IR:             tensor.insert_slice
// IR-NOT:     linalg.
// IR:         return

func.func @fused(%A: tensor<16x16xf32>, %B: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %m = linalg.matmul ins(%A, %B : tensor<16x16xf32>, tensor<16x16xf32>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<16x16xf32>) outs(%e : tensor<16x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.maximumf %x, %zero : f32
    linalg.yield %y : f32
  } -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}
