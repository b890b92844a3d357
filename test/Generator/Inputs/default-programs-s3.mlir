// program 0: random-affine seed=13604808898340030615: 2 computations (reduction, contraction), i32, 3 inputs, 1 output, 1.6M points
func.func @program(%t0: memref<1536x1024xi32>, %t1: memref<1536xi32>, %t3: memref<32x1536xi32>, %t4: memref<32xi32>) {
  %t2 = memref.alloc() : memref<1536xi32>
  affine.for %i0 = 0 to 1536 {
    %z = arith.constant 0 : i32
    affine.store %z, %t2[%i0] : memref<1536xi32>
    affine.for %i1 = 0 to 1024 {
      %a0 = affine.load %t0[%i0, %i1] : memref<1536x1024xi32>
      %a1 = affine.load %t1[%i0] : memref<1536xi32>
      %n2 = arith.addi %a1, %a0 : i32
      %acc = affine.load %t2[%i0] : memref<1536xi32>
      %r = arith.addi %acc, %n2 : i32
      affine.store %r, %t2[%i0] : memref<1536xi32>
    }
  }
  affine.for %i0 = 0 to 32 {
    %z = arith.constant 0 : i32
    affine.store %z, %t4[%i0] : memref<32xi32>
    affine.for %i1 = 0 to 1536 {
      %a0 = affine.load %t3[%i0, %i1] : memref<32x1536xi32>
      %a1 = affine.load %t2[%i1] : memref<1536xi32>
      %n2 = arith.muli %a0, %a1 : i32
      %acc = affine.load %t4[%i0] : memref<32xi32>
      %r = arith.addi %acc, %n2 : i32
      affine.store %r, %t4[%i0] : memref<32xi32>
    }
  }
  return
}
// -----
// program 1: random-affine seed=17027085370592858547: 2 computations (contraction, convolution), f32, 3 inputs, 1 output, 13.3M points
func.func @program(%t0: memref<256x195xf32>, %t1: memref<195x248xf32>, %t3: memref<5x3xf32>, %t4: memref<252x246xf32>) {
  %t2 = memref.alloc() : memref<256x248xf32>
  affine.for %i0 = 0 to 256 {
    affine.for %i1 = 0 to 248 {
      %z = arith.constant 0.000000e+00 : f32
      affine.store %z, %t2[%i0, %i1] : memref<256x248xf32>
    }
  }
  affine.for %i2 = 0 to 195 {
    affine.for %i0 = 0 to 256 {
      affine.for %i1 = 0 to 248 {
        %a0 = affine.load %t0[%i0, %i2] : memref<256x195xf32>
        %a1 = affine.load %t1[%i2, %i1] : memref<195x248xf32>
        %n2 = arith.mulf %a0, %a1 : f32
        %acc = affine.load %t2[%i0, %i1] : memref<256x248xf32>
        %r = arith.addf %acc, %n2 : f32
        affine.store %r, %t2[%i0, %i1] : memref<256x248xf32>
      }
    }
  }
  affine.for %i0 = 0 to 252 {
    affine.for %i1 = 0 to 246 {
      %z = arith.constant 0.000000e+00 : f32
      affine.store %z, %t4[%i0, %i1] : memref<252x246xf32>
    }
  }
  affine.for %i0 = 0 to 252 {
    affine.for %i1 = 0 to 246 {
      affine.for %i2 = 0 to 5 {
        affine.for %i3 = 0 to 3 {
          %a0 = affine.load %t2[%i0 + %i2, %i1 + %i3] : memref<256x248xf32>
          %a1 = affine.load %t3[%i2, %i3] : memref<5x3xf32>
          %n2 = arith.mulf %a0, %a1 : f32
          %acc = affine.load %t4[%i0, %i1] : memref<252x246xf32>
          %r = arith.addf %acc, %n2 : f32
          affine.store %r, %t4[%i0, %i1] : memref<252x246xf32>
        }
      }
    }
  }
  return
}
// -----
// program 2: random-affine seed=2554043094958247610: 2 computations (stencil, contraction), f64, 4 inputs, 2 outputs, 1.4M points
func.func @program(%t0: memref<517x651xf64>, %t1: memref<512x648xf64>, %t3: memref<1024x1024xf64>, %t4: memref<1024xf64>, %t2: memref<512x648xf64>, %t5: memref<1024xf64>) {
  affine.for %i0 = 0 to 512 {
    affine.for %i1 = 0 to 648 {
      %a0 = affine.load %t0[%i0 + 1, %i1 + 1] : memref<517x651xf64>
      %a1 = affine.load %t0[%i0 + 1, %i1 + 2] : memref<517x651xf64>
      %a2 = affine.load %t0[%i0 + 1, %i1 + 3] : memref<517x651xf64>
      %a3 = affine.load %t0[%i0 + 2, %i1 + 1] : memref<517x651xf64>
      %a4 = affine.load %t0[%i0 + 2, %i1 + 2] : memref<517x651xf64>
      %a5 = affine.load %t0[%i0 + 2, %i1 + 3] : memref<517x651xf64>
      %a6 = affine.load %t0[%i0 + 3, %i1 + 1] : memref<517x651xf64>
      %a7 = affine.load %t0[%i0 + 3, %i1 + 2] : memref<517x651xf64>
      %a8 = affine.load %t0[%i0 + 3, %i1 + 3] : memref<517x651xf64>
      %a9 = affine.load %t0[%i0 + 4, %i1 + 1] : memref<517x651xf64>
      %a10 = affine.load %t0[%i0 + 4, %i1 + 2] : memref<517x651xf64>
      %a11 = affine.load %t0[%i0 + 4, %i1 + 3] : memref<517x651xf64>
      %a12 = affine.load %t0[%i0 + 5, %i1 + 1] : memref<517x651xf64>
      %a13 = affine.load %t0[%i0 + 5, %i1 + 2] : memref<517x651xf64>
      %a14 = affine.load %t0[%i0 + 5, %i1 + 3] : memref<517x651xf64>
      %a15 = affine.load %t1[%i0, %i1] : memref<512x648xf64>
      %n16 = arith.constant 2.000000e+00 : f64
      %n17 = arith.mulf %a0, %n16 : f64
      %n18 = arith.constant 1.500000e+00 : f64
      %n19 = arith.mulf %a1, %n18 : f64
      %n20 = arith.addf %n17, %n19 : f64
      %n21 = arith.constant 1.500000e+00 : f64
      %n22 = arith.mulf %a2, %n21 : f64
      %n23 = arith.addf %n20, %n22 : f64
      %n24 = arith.constant 6.250000e-01 : f64
      %n25 = arith.mulf %a3, %n24 : f64
      %n26 = arith.addf %n23, %n25 : f64
      %n27 = arith.constant 7.500000e-01 : f64
      %n28 = arith.mulf %a4, %n27 : f64
      %n29 = arith.subf %n26, %n28 : f64
      %n30 = arith.constant 8.750000e-01 : f64
      %n31 = arith.mulf %a5, %n30 : f64
      %n32 = arith.addf %n29, %n31 : f64
      %n33 = arith.subf %n32, %a6 : f64
      %n34 = arith.constant 1.000000e+00 : f64
      %n35 = arith.mulf %a7, %n34 : f64
      %n36 = arith.addf %n33, %n35 : f64
      %n37 = arith.constant 5.000000e-01 : f64
      %n38 = arith.mulf %a8, %n37 : f64
      %n39 = arith.addf %n36, %n38 : f64
      %n40 = arith.constant -5.000000e-01 : f64
      %n41 = arith.mulf %a9, %n40 : f64
      %n42 = arith.addf %n39, %n41 : f64
      %n43 = arith.addf %n42, %a10 : f64
      %n44 = arith.constant 7.500000e-01 : f64
      %n45 = arith.mulf %a11, %n44 : f64
      %n46 = arith.addf %n43, %n45 : f64
      %n47 = arith.constant 1.625000e+00 : f64
      %n48 = arith.mulf %a12, %n47 : f64
      %n49 = arith.addf %n46, %n48 : f64
      %n50 = arith.constant -6.250000e-01 : f64
      %n51 = arith.mulf %a13, %n50 : f64
      %n52 = arith.subf %n49, %n51 : f64
      %n53 = arith.constant -6.250000e-01 : f64
      %n54 = arith.mulf %a14, %n53 : f64
      %n55 = arith.addf %n52, %n54 : f64
      %n56 = arith.addf %n55, %a15 : f64
      affine.store %n56, %t2[%i0, %i1] : memref<512x648xf64>
    }
  }
  affine.for %i0 = 0 to 1024 {
    %z = arith.constant 0xFFF0000000000000 : f64
    affine.store %z, %t5[%i0] : memref<1024xf64>
  }
  affine.for %i0 = 0 to 1024 {
    affine.for %i1 = 0 to 1024 {
      %a0 = affine.load %t3[%i0, %i1] : memref<1024x1024xf64>
      %a1 = affine.load %t4[%i1] : memref<1024xf64>
      %n2 = arith.mulf %a0, %a1 : f64
      %acc = affine.load %t5[%i0] : memref<1024xf64>
      %r = arith.maximumf %acc, %n2 : f64
      affine.store %r, %t5[%i0] : memref<1024xf64>
    }
  }
  return
}
// -----
// program 3: random-affine seed=13592992832856903821: 1 computation (reduction), f32, 1 input, 1 output, 1.0M points
func.func @program(%t0: memref<1024x1024xf32>, %t1: memref<1024xf32>) {
  affine.for %i0 = 0 to 1024 {
    %z = arith.constant 0.000000e+00 : f32
    affine.store %z, %t1[%i0] : memref<1024xf32>
  }
  affine.for %i0 = 0 to 1024 {
    affine.for %i1 = 0 to 1024 {
      %a0 = affine.load %t0[%i0, %i1] : memref<1024x1024xf32>
      %n1 = arith.constant 7.500000e-01 : f32
      %n2 = arith.addf %a0, %n1 : f32
      %acc = affine.load %t1[%i0] : memref<1024xf32>
      %r = arith.addf %acc, %n2 : f32
      affine.store %r, %t1[%i0] : memref<1024xf32>
    }
  }
  return
}
// -----
// program 4: random-linalg seed=10968187914866821265: 4 computations (convolution, stencil, reduction, convolution), f32, 7 inputs, 3 outputs, 8.8M points
func.func @program(%t0: tensor<1048578xf32>, %t1: tensor<3xf32>, %t3: tensor<515x517xf32>, %t4: tensor<512x512xf32>, %t6: tensor<512xf32>, %t8: tensor<403x2051xf32>, %t9: tensor<5x5xf32>) -> (tensor<1048576xf32>, tensor<512xf32>, tensor<200x1024xf32>) {
  %e0 = tensor.empty() : tensor<1048576xf32>
  %z0 = arith.constant 0.000000e+00 : f32
  %f0 = linalg.fill ins(%z0 : f32) outs(%e0 : tensor<1048576xf32>) -> tensor<1048576xf32>
  %t2 = linalg.conv_1d ins(%t0, %t1 : tensor<1048578xf32>, tensor<3xf32>) outs(%f0 : tensor<1048576xf32>) -> tensor<1048576xf32>
  %e1 = tensor.empty() : tensor<512x512xf32>
  %t5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 + 2, d1 + 3)>, affine_map<(d0, d1) -> (d0 + 1, d1 + 3)>, affine_map<(d0, d1) -> (d0 + 3, d1 + 3)>, affine_map<(d0, d1) -> (d0 + 2, d1 + 1)>, affine_map<(d0, d1) -> (d0 + 2, d1 + 5)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t3, %t3, %t3, %t3, %t3, %t4 : tensor<515x517xf32>, tensor<515x517xf32>, tensor<515x517xf32>, tensor<515x517xf32>, tensor<515x517xf32>, tensor<512x512xf32>) outs(%e1 : tensor<512x512xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %a4: f32, %a5: f32, %acc: f32):
    %n6 = arith.constant 3.750000e-01 : f32
    %n7 = arith.mulf %a0, %n6 : f32
    %n8 = arith.constant 1.625000e+00 : f32
    %n9 = arith.mulf %a1, %n8 : f32
    %n10 = arith.addf %n7, %n9 : f32
    %n11 = arith.constant 1.000000e+00 : f32
    %n12 = arith.mulf %a2, %n11 : f32
    %n13 = arith.addf %n10, %n12 : f32
    %n14 = arith.constant 1.625000e+00 : f32
    %n15 = arith.mulf %a3, %n14 : f32
    %n16 = arith.addf %n13, %n15 : f32
    %n17 = arith.constant 2.000000e+00 : f32
    %n18 = arith.mulf %a4, %n17 : f32
    %n19 = arith.subf %n16, %n18 : f32
    %n20 = arith.mulf %n19, %a5 : f32
    linalg.yield %n20 : f32
  } -> tensor<512x512xf32>
  %e2 = tensor.empty() : tensor<512xf32>
  %z2 = arith.constant 0xFF800000 : f32
  %f2 = linalg.fill ins(%z2 : f32) outs(%e2 : tensor<512xf32>) -> tensor<512xf32>
  %t7 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%t5, %t6 : tensor<512x512xf32>, tensor<512xf32>) outs(%f2 : tensor<512xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %n2 = arith.subf %a0, %a1 : f32
    %r = arith.maximumf %acc, %n2 : f32
    linalg.yield %r : f32
  } -> tensor<512xf32>
  %e3 = tensor.empty() : tensor<200x1024xf32>
  %z3 = arith.constant 0.000000e+00 : f32
  %f3 = linalg.fill ins(%z3 : f32) outs(%e3 : tensor<200x1024xf32>) -> tensor<200x1024xf32>
  %t10 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0 * 2 + d2, d1 * 2 + d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%t8, %t9 : tensor<403x2051xf32>, tensor<5x5xf32>) outs(%f3 : tensor<200x1024xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %n2 = arith.mulf %a0, %a1 : f32
    %r = arith.addf %acc, %n2 : f32
    linalg.yield %r : f32
  } -> tensor<200x1024xf32>
  return %t2, %t7, %t10 : tensor<1048576xf32>, tensor<512xf32>, tensor<200x1024xf32>
}
// -----
// program 5: random-linalg seed=14871207630202690639: 3 computations (elementwise, stencil, reduction), i32, 4 inputs, 2 outputs, 3.1M points
func.func @program(%t0: tensor<1024x1024xi32>, %t1: tensor<1024x1024xi32>, %t2: tensor<1024x1024xi32>, %t5: tensor<1024xi32>) -> (tensor<1019x1022xi32>, tensor<1024xi32>) {
  %e0 = tensor.empty() : tensor<1024x1024xi32>
  %t3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t0, %t1, %t2 : tensor<1024x1024xi32>, tensor<1024x1024xi32>, tensor<1024x1024xi32>) outs(%e0 : tensor<1024x1024xi32>) {
  ^bb0(%a0: i32, %a1: i32, %a2: i32, %acc: i32):
    %n3 = arith.muli %a1, %a2 : i32
    %n4 = arith.addi %n3, %a0 : i32
    linalg.yield %n4 : i32
  } -> tensor<1024x1024xi32>
  %e1 = tensor.empty() : tensor<1019x1022xi32>
  %t4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 + 3, d1 + 2)>, affine_map<(d0, d1) -> (d0 + 1, d1 + 2)>, affine_map<(d0, d1) -> (d0 + 5, d1 + 2)>, affine_map<(d0, d1) -> (d0 + 3, d1 + 1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t3, %t3, %t3, %t3 : tensor<1024x1024xi32>, tensor<1024x1024xi32>, tensor<1024x1024xi32>, tensor<1024x1024xi32>) outs(%e1 : tensor<1019x1022xi32>) {
  ^bb0(%a0: i32, %a1: i32, %a2: i32, %a3: i32, %acc: i32):
    %n4 = arith.maxsi %a0, %a1 : i32
    %n5 = arith.maxsi %n4, %a2 : i32
    %n6 = arith.maxsi %n5, %a3 : i32
    linalg.yield %n6 : i32
  } -> tensor<1019x1022xi32>
  %e2 = tensor.empty() : tensor<1024xi32>
  %z2 = arith.constant 0 : i32
  %f2 = linalg.fill ins(%z2 : i32) outs(%e2 : tensor<1024xi32>) -> tensor<1024xi32>
  %t6 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%t3, %t5 : tensor<1024x1024xi32>, tensor<1024xi32>) outs(%f2 : tensor<1024xi32>) {
  ^bb0(%a0: i32, %a1: i32, %acc: i32):
    %n2 = arith.subi %a1, %a0 : i32
    %n3 = arith.constant 4 : i32
    %n4 = arith.addi %n2, %n3 : i32
    %r = arith.addi %acc, %n4 : i32
    linalg.yield %r : i32
  } -> tensor<1024xi32>
  return %t4, %t6 : tensor<1019x1022xi32>, tensor<1024xi32>
}
