// A function beyond the cost model's feature layout (14 accesses in one
// computation; the layout holds 12): the model-guided strategies say so
// and search with measurements only, instead of proposing nothing.
// RUN: tuner-opt %s --tuner-autotune="strategy=mcts budget=3 database=none summary-output=%t.json" -verify-diagnostics -o /dev/null
// RUN: FileCheck %s < %t.json
// CHECK: "strategy": "beam-exec"

// expected-remark-re @+2 {{autotune @wide: baseline {{.*}}; 3 candidates (3 measured, 0 from the database){{.*}}}}
// expected-warning @+1 {{the cost model cannot score this function (function @wide, computation 'generic_0': 14 memory accesses, but the cost model's feature layout holds at most 12 (accesses in Features.def)): searching with measurements only (strategy beam-exec) instead of mcts}}
func.func @wide(%a0: tensor<16xf32>, %a1: tensor<16xf32>, %a2: tensor<16xf32>, %a3: tensor<16xf32>, %a4: tensor<16xf32>, %a5: tensor<16xf32>, %a6: tensor<16xf32>, %a7: tensor<16xf32>, %a8: tensor<16xf32>, %a9: tensor<16xf32>, %a10: tensor<16xf32>, %a11: tensor<16xf32>, %a12: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7, %a8, %a9, %a10, %a11, %a12 : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%x0: f32, %x1: f32, %x2: f32, %x3: f32, %x4: f32, %x5: f32, %x6: f32, %x7: f32, %x8: f32, %x9: f32, %x10: f32, %x11: f32, %x12: f32, %out: f32):
    %s1 = arith.addf %x0, %x1 : f32
    %s2 = arith.addf %s1, %x2 : f32
    %s3 = arith.addf %s2, %x3 : f32
    %s4 = arith.addf %s3, %x4 : f32
    %s5 = arith.addf %s4, %x5 : f32
    %s6 = arith.addf %s5, %x6 : f32
    %s7 = arith.addf %s6, %x7 : f32
    %s8 = arith.addf %s7, %x8 : f32
    %s9 = arith.addf %s8, %x9 : f32
    %s10 = arith.addf %s9, %x10 : f32
    %s11 = arith.addf %s10, %x11 : f32
    %s12 = arith.addf %s11, %x12 : f32
    linalg.yield %s12 : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}
