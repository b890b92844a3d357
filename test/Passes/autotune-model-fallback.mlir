// A function beyond the cost model's feature layout (34 accesses in one
// computation; the layout holds 32): the model-guided strategies say so
// and search with measurements only, instead of proposing nothing. (Eight
// tensors, each read four or five times: the harness passes at most 32
// arguments.)
// RUN: tuner-opt %s --tuner-autotune="strategy=mcts budget=3 database=none summary-output=%t.json" -verify-diagnostics -o /dev/null
// RUN: FileCheck %s < %t.json
// CHECK: "strategy": "beam-exec"

// expected-remark-re @+2 {{autotune @wide: baseline {{.*}}; 3 candidates (3 measured, 0 from the database){{.*}}}}
// expected-warning @+1 {{the cost model cannot score this function (function @wide, computation 'generic_0': 34 memory accesses, but the cost model's feature layout holds at most 32 (accesses in Features.def)): searching with measurements only (strategy beam-exec) instead of mcts}}
func.func @wide(%a0: tensor<16xf32>, %a1: tensor<16xf32>, %a2: tensor<16xf32>, %a3: tensor<16xf32>, %a4: tensor<16xf32>, %a5: tensor<16xf32>, %a6: tensor<16xf32>, %a7: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7, %a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7, %a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7, %a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7, %a0 : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%x0: f32, %x1: f32, %x2: f32, %x3: f32, %x4: f32, %x5: f32, %x6: f32, %x7: f32, %x8: f32, %x9: f32, %x10: f32, %x11: f32, %x12: f32, %x13: f32, %x14: f32, %x15: f32, %x16: f32, %x17: f32, %x18: f32, %x19: f32, %x20: f32, %x21: f32, %x22: f32, %x23: f32, %x24: f32, %x25: f32, %x26: f32, %x27: f32, %x28: f32, %x29: f32, %x30: f32, %x31: f32, %x32: f32, %out: f32):
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
    %s13 = arith.addf %s12, %x13 : f32
    %s14 = arith.addf %s13, %x14 : f32
    %s15 = arith.addf %s14, %x15 : f32
    %s16 = arith.addf %s15, %x16 : f32
    %s17 = arith.addf %s16, %x17 : f32
    %s18 = arith.addf %s17, %x18 : f32
    %s19 = arith.addf %s18, %x19 : f32
    %s20 = arith.addf %s19, %x20 : f32
    %s21 = arith.addf %s20, %x21 : f32
    %s22 = arith.addf %s21, %x22 : f32
    %s23 = arith.addf %s22, %x23 : f32
    %s24 = arith.addf %s23, %x24 : f32
    %s25 = arith.addf %s24, %x25 : f32
    %s26 = arith.addf %s25, %x26 : f32
    %s27 = arith.addf %s26, %x27 : f32
    %s28 = arith.addf %s27, %x28 : f32
    %s29 = arith.addf %s28, %x29 : f32
    %s30 = arith.addf %s29, %x30 : f32
    %s31 = arith.addf %s30, %x31 : f32
    %s32 = arith.addf %s31, %x32 : f32
    linalg.yield %s32 : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}
