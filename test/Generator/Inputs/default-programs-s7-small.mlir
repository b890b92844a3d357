// program 0: random-affine seed=13309476754707697221: 1 computation (reduction), f32, 1 input, 1 output, 3328 points
func.func @program(%t0: memref<104x32xf32>, %t1: memref<104xf32>) {
  affine.for %i0 = 0 to 104 {
    %z = arith.constant 0.000000e+00 : f32
    affine.store %z, %t1[%i0] : memref<104xf32>
  }
  affine.for %i1 = 0 to 32 {
    affine.for %i0 = 0 to 104 {
      %a0 = affine.load %t0[%i0, %i1] : memref<104x32xf32>
      %n1 = arith.constant 7.500000e-01 : f32
      %n2 = arith.mulf %a0, %n1 : f32
      %acc = affine.load %t1[%i0] : memref<104xf32>
      %r = arith.addf %acc, %n2 : f32
      affine.store %r, %t1[%i0] : memref<104xf32>
    }
  }
  return
}
// -----
// program 1: random-linalg seed=4414019431610648415: 4 computations (elementwise, contraction, elementwise, stencil), f64, 5 inputs, 1 output, 16.1K points
func.func @program(%t0: tensor<223x8xf64>, %t1: tensor<223x8xf64>, %t3: tensor<8x223xf64>, %t5: tensor<8xf64>, %t7: tensor<5x5xf64>) -> (tensor<5x5xf64>) {
  %e0 = tensor.empty() : tensor<223x8xf64>
  %t2 = linalg.add ins(%t0, %t1 : tensor<223x8xf64>, tensor<223x8xf64>) outs(%e0 : tensor<223x8xf64>) -> tensor<223x8xf64>
  %e1 = tensor.empty() : tensor<8x8xf64>
  %z1 = arith.constant 0.000000e+00 : f64
  %f1 = linalg.fill ins(%z1 : f64) outs(%e1 : tensor<8x8xf64>) -> tensor<8x8xf64>
  %t4 = linalg.matmul ins(%t3, %t2 : tensor<8x223xf64>, tensor<223x8xf64>) outs(%f1 : tensor<8x8xf64>) -> tensor<8x8xf64>
  %e2 = tensor.empty() : tensor<8x8xf64>
  %t6 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t4, %t5 : tensor<8x8xf64>, tensor<8xf64>) outs(%e2 : tensor<8x8xf64>) {
  ^bb0(%a0: f64, %a1: f64, %acc: f64):
    %n2 = arith.constant 1.125000e+00 : f64
    %n3 = arith.addf %a1, %n2 : f64
    %n4 = arith.addf %n3, %a0 : f64
    %n5 = arith.constant -5.000000e-01 : f64
    %n6 = arith.addf %n4, %n5 : f64
    linalg.yield %n6 : f64
  } -> tensor<8x8xf64>
  %e3 = tensor.empty() : tensor<5x5xf64>
  %t8 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 + 2, d1 + 2)>, affine_map<(d0, d1) -> (d0 + 1, d1 + 2)>, affine_map<(d0, d1) -> (d0 + 3, d1 + 2)>, affine_map<(d0, d1) -> (d0 + 2, d1 + 1)>, affine_map<(d0, d1) -> (d0 + 2, d1 + 3)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t6, %t6, %t6, %t6, %t6, %t7 : tensor<8x8xf64>, tensor<8x8xf64>, tensor<8x8xf64>, tensor<8x8xf64>, tensor<8x8xf64>, tensor<5x5xf64>) outs(%e3 : tensor<5x5xf64>) {
  ^bb0(%a0: f64, %a1: f64, %a2: f64, %a3: f64, %a4: f64, %a5: f64, %acc: f64):
    %n6 = arith.maximumf %a0, %a1 : f64
    %n7 = arith.maximumf %n6, %a2 : f64
    %n8 = arith.maximumf %n7, %a3 : f64
    %n9 = arith.maximumf %n8, %a4 : f64
    %n10 = arith.subf %n9, %a5 : f64
    linalg.yield %n10 : f64
  } -> tensor<5x5xf64>
  return %t8 : tensor<5x5xf64>
}
// -----
// program 2: random-affine seed=5090977316425868581: 2 computations (stencil, stencil), f32, 1 input, 1 output, 576 points
func.func @program(%t0: memref<9x11x12xf32>, %t2: memref<6x6x4xf32>) {
  %t1 = memref.alloc() : memref<6x8x9xf32>
  affine.for %i2 = 0 to 9 {
    affine.for %i0 = 0 to 6 {
      affine.for %i1 = 0 to 8 {
        %a0 = affine.load %t0[%i0 + 1, %i1 + 1, %i2 + 3] : memref<9x11x12xf32>
        %a1 = affine.load %t0[%i0 + 3, %i1 + 3, %i2 + 1] : memref<9x11x12xf32>
        %a2 = affine.load %t0[%i0 + 2, %i1 + 3, %i2 + 1] : memref<9x11x12xf32>
        %n3 = arith.maximumf %a0, %a1 : f32
        %n4 = arith.maximumf %n3, %a2 : f32
        affine.store %n4, %t1[%i0, %i1, %i2] : memref<6x8x9xf32>
      }
    }
  }
  affine.for %i2 = 0 to 4 {
    affine.for %i1 = 0 to 6 {
      affine.for %i0 = 0 to 6 {
        %a0 = affine.load %t1[%i0, %i1 + 1, %i2 + 1] : memref<6x8x9xf32>
        %a1 = affine.load %t1[%i0, %i1 + 1, %i2 + 2] : memref<6x8x9xf32>
        %a2 = affine.load %t1[%i0, %i1 + 1, %i2 + 3] : memref<6x8x9xf32>
        %a3 = affine.load %t1[%i0, %i1 + 1, %i2 + 4] : memref<6x8x9xf32>
        %a4 = affine.load %t1[%i0, %i1 + 1, %i2 + 5] : memref<6x8x9xf32>
        %a5 = affine.load %t1[%i0, %i1 + 2, %i2 + 1] : memref<6x8x9xf32>
        %a6 = affine.load %t1[%i0, %i1 + 2, %i2 + 2] : memref<6x8x9xf32>
        %a7 = affine.load %t1[%i0, %i1 + 2, %i2 + 3] : memref<6x8x9xf32>
        %a8 = affine.load %t1[%i0, %i1 + 2, %i2 + 4] : memref<6x8x9xf32>
        %a9 = affine.load %t1[%i0, %i1 + 2, %i2 + 5] : memref<6x8x9xf32>
        %n10 = arith.constant 1.750000e+00 : f32
        %n11 = arith.mulf %a0, %n10 : f32
        %n12 = arith.constant 1.250000e+00 : f32
        %n13 = arith.mulf %a1, %n12 : f32
        %n14 = arith.addf %n11, %n13 : f32
        %n15 = arith.constant 1.250000e-01 : f32
        %n16 = arith.mulf %a2, %n15 : f32
        %n17 = arith.subf %n14, %n16 : f32
        %n18 = arith.constant 1.375000e+00 : f32
        %n19 = arith.mulf %a3, %n18 : f32
        %n20 = arith.addf %n17, %n19 : f32
        %n21 = arith.constant 7.500000e-01 : f32
        %n22 = arith.mulf %a4, %n21 : f32
        %n23 = arith.addf %n20, %n22 : f32
        %n24 = arith.constant -1.500000e+00 : f32
        %n25 = arith.mulf %a5, %n24 : f32
        %n26 = arith.addf %n23, %n25 : f32
        %n27 = arith.constant 2.500000e-01 : f32
        %n28 = arith.mulf %a6, %n27 : f32
        %n29 = arith.subf %n26, %n28 : f32
        %n30 = arith.constant 1.625000e+00 : f32
        %n31 = arith.mulf %a7, %n30 : f32
        %n32 = arith.addf %n29, %n31 : f32
        %n33 = arith.constant 3.750000e-01 : f32
        %n34 = arith.mulf %a8, %n33 : f32
        %n35 = arith.subf %n32, %n34 : f32
        %n36 = arith.constant 2.000000e+00 : f32
        %n37 = arith.mulf %a9, %n36 : f32
        %n38 = arith.addf %n35, %n37 : f32
        affine.store %n38, %t2[%i0, %i1, %i2] : memref<6x6x4xf32>
      }
    }
  }
  return
}
// -----
// program 3: random-affine seed=7758145696617331093: 6 computations (elementwise, reduction, convolution, contraction, stencil, stencil), f32, 5 inputs, 3 outputs, 27.9K points
func.func @program(%t0: memref<38x32x3xf32>, %t1: memref<3xf32>, %t4: memref<34x34xf32>, %t5: memref<3x3xf32>, %t7: memref<32x8xf32>, %t3: memref<38x32xf32>, %t9: memref<35x30x3xf32>, %t10: memref<29x3xf32>) {
  %t2 = memref.alloc() : memref<38x32x3xf32>
  %t6 = memref.alloc() : memref<32x32xf32>
  %t8 = memref.alloc() : memref<32x8xf32>
  affine.for %i0 = 0 to 38 {
    affine.for %i2 = 0 to 3 {
      affine.for %i1 = 0 to 32 {
        %a0 = affine.load %t0[%i0, %i1, %i2] : memref<38x32x3xf32>
        %a1 = affine.load %t1[%i2] : memref<3xf32>
        %n2 = arith.addf %a0, %a1 : f32
        %n3 = arith.constant 2.000000e+00 : f32
        %n4 = arith.addf %n2, %n3 : f32
        affine.store %n4, %t2[%i0, %i1, %i2] : memref<38x32x3xf32>
      }
    }
  }
  affine.for %i0 = 0 to 38 {
    affine.for %i1 = 0 to 32 {
      %z = arith.constant 0.000000e+00 : f32
      affine.store %z, %t3[%i0, %i1] : memref<38x32xf32>
    }
  }
  affine.for %i1 = 0 to 32 {
    affine.for %i2 = 0 to 3 {
      affine.for %i0 = 0 to 38 {
        %a0 = affine.load %t2[%i0, %i1, %i2] : memref<38x32x3xf32>
        %n1 = arith.constant 1.125000e+00 : f32
        %n2 = arith.mulf %a0, %n1 : f32
        %acc = affine.load %t3[%i0, %i1] : memref<38x32xf32>
        %r = arith.addf %acc, %n2 : f32
        affine.store %r, %t3[%i0, %i1] : memref<38x32xf32>
      }
    }
  }
  affine.for %i0 = 0 to 32 {
    affine.for %i1 = 0 to 32 {
      %z = arith.constant 0xFF800000 : f32
      affine.store %z, %t6[%i0, %i1] : memref<32x32xf32>
    }
  }
  affine.for %i1 = 0 to 32 {
    affine.for %i3 = 0 to 3 {
      affine.for %i2 = 0 to 3 {
        affine.for %i0 = 0 to 32 {
          %a0 = affine.load %t4[%i0 + %i2, %i1 + %i3] : memref<34x34xf32>
          %a1 = affine.load %t5[%i2, %i3] : memref<3x3xf32>
          %n2 = arith.addf %a0, %a1 : f32
          %acc = affine.load %t6[%i0, %i1] : memref<32x32xf32>
          %r = arith.maximumf %acc, %n2 : f32
          affine.store %r, %t6[%i0, %i1] : memref<32x32xf32>
        }
      }
    }
  }
  affine.for %i0 = 0 to 32 {
    affine.for %i1 = 0 to 8 {
      %z = arith.constant 0.000000e+00 : f32
      affine.store %z, %t8[%i0, %i1] : memref<32x8xf32>
    }
  }
  affine.for %i0 = 0 to 32 {
    affine.for %i1 = 0 to 8 {
      affine.for %i2 = 0 to 32 {
        %a0 = affine.load %t6[%i0, %i2] : memref<32x32xf32>
        %a1 = affine.load %t7[%i2, %i1] : memref<32x8xf32>
        %n2 = arith.mulf %a0, %a1 : f32
        %acc = affine.load %t8[%i0, %i1] : memref<32x8xf32>
        %r = arith.addf %acc, %n2 : f32
        affine.store %r, %t8[%i0, %i1] : memref<32x8xf32>
      }
    }
  }
  affine.for %i0 = 0 to 35 {
    affine.for %i1 = 0 to 30 {
      affine.for %i2 = 0 to 3 {
        %a0 = affine.load %t2[%i0 + 2, %i1 + 2, %i2] : memref<38x32x3xf32>
        %a1 = affine.load %t2[%i0 + 1, %i1 + 2, %i2] : memref<38x32x3xf32>
        %a2 = affine.load %t2[%i0 + 3, %i1 + 2, %i2] : memref<38x32x3xf32>
        %a3 = affine.load %t2[%i0 + 2, %i1 + 1, %i2] : memref<38x32x3xf32>
        %n4 = arith.minimumf %a0, %a1 : f32
        %n5 = arith.minimumf %n4, %a2 : f32
        %n6 = arith.minimumf %n5, %a3 : f32
        affine.store %n6, %t9[%i0, %i1, %i2] : memref<35x30x3xf32>
      }
    }
  }
  affine.for %i0 = 0 to 29 {
    affine.for %i1 = 0 to 3 {
      %a0 = affine.load %t8[%i0 + 1, %i1 + 1] : memref<32x8xf32>
      %a1 = affine.load %t8[%i0 + 1, %i1 + 2] : memref<32x8xf32>
      %a2 = affine.load %t8[%i0 + 1, %i1 + 3] : memref<32x8xf32>
      %a3 = affine.load %t8[%i0 + 1, %i1 + 4] : memref<32x8xf32>
      %a4 = affine.load %t8[%i0 + 1, %i1 + 5] : memref<32x8xf32>
      %a5 = affine.load %t8[%i0 + 2, %i1 + 1] : memref<32x8xf32>
      %a6 = affine.load %t8[%i0 + 2, %i1 + 2] : memref<32x8xf32>
      %a7 = affine.load %t8[%i0 + 2, %i1 + 3] : memref<32x8xf32>
      %a8 = affine.load %t8[%i0 + 2, %i1 + 4] : memref<32x8xf32>
      %a9 = affine.load %t8[%i0 + 2, %i1 + 5] : memref<32x8xf32>
      %a10 = affine.load %t8[%i0 + 3, %i1 + 1] : memref<32x8xf32>
      %a11 = affine.load %t8[%i0 + 3, %i1 + 2] : memref<32x8xf32>
      %a12 = affine.load %t8[%i0 + 3, %i1 + 3] : memref<32x8xf32>
      %a13 = affine.load %t8[%i0 + 3, %i1 + 4] : memref<32x8xf32>
      %a14 = affine.load %t8[%i0 + 3, %i1 + 5] : memref<32x8xf32>
      %n15 = arith.constant 3.750000e-01 : f32
      %n16 = arith.mulf %a0, %n15 : f32
      %n17 = arith.addf %n16, %a1 : f32
      %n18 = arith.constant 6.250000e-01 : f32
      %n19 = arith.mulf %a2, %n18 : f32
      %n20 = arith.addf %n17, %n19 : f32
      %n21 = arith.subf %n20, %a3 : f32
      %n22 = arith.constant -1.250000e-01 : f32
      %n23 = arith.mulf %a4, %n22 : f32
      %n24 = arith.addf %n21, %n23 : f32
      %n25 = arith.constant 8.750000e-01 : f32
      %n26 = arith.mulf %a5, %n25 : f32
      %n27 = arith.addf %n24, %n26 : f32
      %n28 = arith.constant 1.375000e+00 : f32
      %n29 = arith.mulf %a6, %n28 : f32
      %n30 = arith.addf %n27, %n29 : f32
      %n31 = arith.constant 8.750000e-01 : f32
      %n32 = arith.mulf %a7, %n31 : f32
      %n33 = arith.addf %n30, %n32 : f32
      %n34 = arith.constant -1.750000e+00 : f32
      %n35 = arith.mulf %a8, %n34 : f32
      %n36 = arith.addf %n33, %n35 : f32
      %n37 = arith.constant 3.750000e-01 : f32
      %n38 = arith.mulf %a9, %n37 : f32
      %n39 = arith.addf %n36, %n38 : f32
      %n40 = arith.addf %n39, %a10 : f32
      %n41 = arith.constant 2.500000e-01 : f32
      %n42 = arith.mulf %a11, %n41 : f32
      %n43 = arith.addf %n40, %n42 : f32
      %n44 = arith.constant 6.250000e-01 : f32
      %n45 = arith.mulf %a12, %n44 : f32
      %n46 = arith.addf %n43, %n45 : f32
      %n47 = arith.constant 3.750000e-01 : f32
      %n48 = arith.mulf %a13, %n47 : f32
      %n49 = arith.addf %n46, %n48 : f32
      %n50 = arith.addf %n49, %a14 : f32
      affine.store %n50, %t10[%i0, %i1] : memref<29x3xf32>
    }
  }
  return
}
// -----
// program 4: random-linalg seed=10262101105036121634: 1 computation (stencil), f32, 1 input, 1 output, 448 points
func.func @program(%t0: tensor<19x35xf32>) -> (tensor<14x32xf32>) {
  %e0 = tensor.empty() : tensor<14x32xf32>
  %t1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 + 2, d1 + 3)>, affine_map<(d0, d1) -> (d0 + 3, d1 + 3)>, affine_map<(d0, d1) -> (d0 + 2, d1 + 2)>, affine_map<(d0, d1) -> (d0 + 1, d1 + 2)>, affine_map<(d0, d1) -> (d0 + 1, d1 + 3)>, affine_map<(d0, d1) -> (d0 + 5, d1 + 1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t0, %t0, %t0, %t0, %t0, %t0 : tensor<19x35xf32>, tensor<19x35xf32>, tensor<19x35xf32>, tensor<19x35xf32>, tensor<19x35xf32>, tensor<19x35xf32>) outs(%e0 : tensor<14x32xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %a4: f32, %a5: f32, %acc: f32):
    %n6 = arith.addf %a5, %a3 : f32
    %n7 = arith.mulf %a1, %a2 : f32
    %n8 = arith.addf %n6, %a4 : f32
    %n9 = arith.mulf %a0, %n7 : f32
    %n10 = arith.mulf %n9, %n8 : f32
    linalg.yield %n10 : f32
  } -> tensor<14x32xf32>
  return %t1 : tensor<14x32xf32>
}
// -----
// program 5: random-linalg seed=9853691929716327830: 4 computations (reduction, stencil, contraction, stencil), f32, 2 inputs, 1 output, 5018 points
func.func @program(%t0: tensor<47x36xf32>, %t3: tensor<73x44xf32>) -> (tensor<70xf32>) {
  %e0 = tensor.empty() : tensor<47xf32>
  %z0 = arith.constant 0.000000e+00 : f32
  %f0 = linalg.fill ins(%z0 : f32) outs(%e0 : tensor<47xf32>) -> tensor<47xf32>
  %t1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%t0 : tensor<47x36xf32>) outs(%f0 : tensor<47xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %n1 = arith.constant -5.000000e-01 : f32
    %n2 = arith.mulf %a0, %n1 : f32
    %r = arith.addf %acc, %n2 : f32
    linalg.yield %r : f32
  } -> tensor<47xf32>
  %e1 = tensor.empty() : tensor<44xf32>
  %t2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0 + 2)>, affine_map<(d0) -> (d0 + 1)>, affine_map<(d0) -> (d0 + 3)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%t1, %t1, %t1 : tensor<47xf32>, tensor<47xf32>, tensor<47xf32>) outs(%e1 : tensor<44xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %acc: f32):
    %n3 = arith.constant -2.500000e-01 : f32
    %n4 = arith.mulf %a0, %n3 : f32
    %n5 = arith.constant 1.625000e+00 : f32
    %n6 = arith.mulf %a1, %n5 : f32
    %n7 = arith.addf %n4, %n6 : f32
    %n8 = arith.constant 1.500000e+00 : f32
    %n9 = arith.mulf %a2, %n8 : f32
    %n10 = arith.addf %n7, %n9 : f32
    linalg.yield %n10 : f32
  } -> tensor<44xf32>
  %e2 = tensor.empty() : tensor<73xf32>
  %z2 = arith.constant 0.000000e+00 : f32
  %f2 = linalg.fill ins(%z2 : f32) outs(%e2 : tensor<73xf32>) -> tensor<73xf32>
  %t4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%t3, %t2 : tensor<73x44xf32>, tensor<44xf32>) outs(%f2 : tensor<73xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %n2 = arith.mulf %a0, %a1 : f32
    %r = arith.addf %acc, %n2 : f32
    linalg.yield %r : f32
  } -> tensor<73xf32>
  %e3 = tensor.empty() : tensor<70xf32>
  %t5 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0 + 2)>, affine_map<(d0) -> (d0 + 1)>, affine_map<(d0) -> (d0 + 3)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%t4, %t4, %t4 : tensor<73xf32>, tensor<73xf32>, tensor<73xf32>) outs(%e3 : tensor<70xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %acc: f32):
    %n3 = arith.addf %a1, %a2 : f32
    %n4 = arith.mulf %a0, %n3 : f32
    linalg.yield %n4 : f32
  } -> tensor<70xf32>
  return %t5 : tensor<70xf32>
}
