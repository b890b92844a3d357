// A schedule on which an upstream transformation crashes (a random program
// of tuner-gen: a batch matmul, an elementwise map and a 15-point stencil
// fused into one loop, while the map also feeds another batch matmul;
// MLIR 22's fuse_into_containing_op segfaults on it). The crash is caught:
// the schedule fails to apply with a diagnostic, the tool does not crash.
// The space no longer offers this fusion (a producer with several readers
// fuses into its last reader only), so the config is checked against the
// space saved before that rule (Inputs/fusion-chain-crash-space.json).
// What the crashed transformation had allocated is abandoned, not freed (the
// crash is recovered without unwinding its stack): the sanitized build's
// leak check is off for this one run.
// RUN: env LSAN_OPTIONS=detect_leaks=0 not tuner-opt %s --mlir-print-op-on-diagnostic=false --tuner-apply="config=%S/Inputs/fusion-chain-crash.json space=%S/Inputs/fusion-chain-crash-space.json" 2>&1 | FileCheck %s --implicit-check-not="Stack dump"
// The diagnostics point at the function, not at the module's file:0:0.
// CHECK: apply-crash.mlir:16:1: error: the schedule failed to apply; the module is left unchanged
// CHECK: apply-crash.mlir:16:1: note: error: the transform interpreter crashed on this schedule (a bug in an upstream transformation)
func.func @program(%t0: tensor<4x512x8xf32>, %t1: tensor<4x8x512xf32>, %t3: tensor<4x512x512xf32>, %t4: tensor<4x512x512xf32>, %t7: tensor<4x512x2xf32>) -> (tensor<4x507x509xf32>, tensor<4x512x2xf32>) {
  %e0 = tensor.empty() : tensor<4x512x512xf32>
  %z0 = arith.constant 0.000000e+00 : f32
  %f0 = linalg.fill ins(%z0 : f32) outs(%e0 : tensor<4x512x512xf32>) -> tensor<4x512x512xf32>
  %t2 = linalg.batch_matmul ins(%t0, %t1 : tensor<4x512x8xf32>, tensor<4x8x512xf32>) outs(%f0 : tensor<4x512x512xf32>) -> tensor<4x512x512xf32>
  %e1 = tensor.empty() : tensor<4x512x512xf32>
  %t5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%t2, %t3, %t4 : tensor<4x512x512xf32>, tensor<4x512x512xf32>, tensor<4x512x512xf32>) outs(%e1 : tensor<4x512x512xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %acc: f32):
    %n3 = arith.addf %a2, %a1 : f32
    %n4 = arith.addf %a0, %n3 : f32
    linalg.yield %n4 : f32
  } -> tensor<4x512x512xf32>
  %e2 = tensor.empty() : tensor<4x507x509xf32>
  %t6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1 + 1, d2 + 1)>, affine_map<(d0, d1, d2) -> (d0, d1 + 1, d2 + 2)>, affine_map<(d0, d1, d2) -> (d0, d1 + 1, d2 + 3)>, affine_map<(d0, d1, d2) -> (d0, d1 + 2, d2 + 1)>, affine_map<(d0, d1, d2) -> (d0, d1 + 2, d2 + 2)>, affine_map<(d0, d1, d2) -> (d0, d1 + 2, d2 + 3)>, affine_map<(d0, d1, d2) -> (d0, d1 + 3, d2 + 1)>, affine_map<(d0, d1, d2) -> (d0, d1 + 3, d2 + 2)>, affine_map<(d0, d1, d2) -> (d0, d1 + 3, d2 + 3)>, affine_map<(d0, d1, d2) -> (d0, d1 + 4, d2 + 1)>, affine_map<(d0, d1, d2) -> (d0, d1 + 4, d2 + 2)>, affine_map<(d0, d1, d2) -> (d0, d1 + 4, d2 + 3)>, affine_map<(d0, d1, d2) -> (d0, d1 + 5, d2 + 1)>, affine_map<(d0, d1, d2) -> (d0, d1 + 5, d2 + 2)>, affine_map<(d0, d1, d2) -> (d0, d1 + 5, d2 + 3)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%t5, %t5, %t5, %t5, %t5, %t5, %t5, %t5, %t5, %t5, %t5, %t5, %t5, %t5, %t5 : tensor<4x512x512xf32>, tensor<4x512x512xf32>, tensor<4x512x512xf32>, tensor<4x512x512xf32>, tensor<4x512x512xf32>, tensor<4x512x512xf32>, tensor<4x512x512xf32>, tensor<4x512x512xf32>, tensor<4x512x512xf32>, tensor<4x512x512xf32>, tensor<4x512x512xf32>, tensor<4x512x512xf32>, tensor<4x512x512xf32>, tensor<4x512x512xf32>, tensor<4x512x512xf32>) outs(%e2 : tensor<4x507x509xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %a4: f32, %a5: f32, %a6: f32, %a7: f32, %a8: f32, %a9: f32, %a10: f32, %a11: f32, %a12: f32, %a13: f32, %a14: f32, %acc: f32):
    %n15 = arith.constant 1.250000e+00 : f32
    %n16 = arith.mulf %a3, %n15 : f32
    %n17 = arith.addf %n16, %a4 : f32
    %n18 = arith.addf %a1, %a7 : f32
    %n19 = arith.mulf %a0, %a5 : f32
    %n20 = arith.subf %a14, %a11 : f32
    %n21 = arith.mulf %a12, %n19 : f32
    %n22 = arith.addf %a8, %a10 : f32
    %n23 = arith.constant -6.250000e-01 : f32
    %n24 = arith.mulf %n22, %n23 : f32
    %n25 = arith.maximumf %n21, %a13 : f32
    %n26 = arith.addf %a9, %a2 : f32
    %n27 = arith.addf %n17, %n25 : f32
    %n28 = arith.minimumf %n24, %n26 : f32
    %n29 = arith.constant 1.000000e+00 : f32
    %n30 = arith.mulf %n28, %n29 : f32
    %n31 = arith.addf %a6, %n18 : f32
    %n32 = arith.subf %n31, %n30 : f32
    %n33 = arith.constant 8.750000e-01 : f32
    %n34 = arith.addf %n32, %n33 : f32
    %n35 = arith.minimumf %n27, %n34 : f32
    %n36 = arith.subf %n20, %n35 : f32
    linalg.yield %n36 : f32
  } -> tensor<4x507x509xf32>
  %e3 = tensor.empty() : tensor<4x512x2xf32>
  %z3 = arith.constant 0.000000e+00 : f32
  %f3 = linalg.fill ins(%z3 : f32) outs(%e3 : tensor<4x512x2xf32>) -> tensor<4x512x2xf32>
  %t8 = linalg.batch_matmul ins(%t5, %t7 : tensor<4x512x512xf32>, tensor<4x512x2xf32>) outs(%f3 : tensor<4x512x2xf32>) -> tensor<4x512x2xf32>
  return %t6, %t8 : tensor<4x507x509xf32>, tensor<4x512x2xf32>
}
