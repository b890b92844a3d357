// The analytic seeds of convolutions and stencils (no contraction here):
// vectorized along the output's contiguous dimension, the tiles on all
// cores, producers fused into their consumers, convolutions decomposed.
// Seed 1 tiles one row by four vectors (64 f32 with AVX-512), seed 2 whole
// rows (as many as half of L2 holds, fewer so that each of the 4 cores
// gets eight tiles) in register tiles of one row by four vectors. With
// budget=2 exactly the two seeds are measured, each verified against the
// untransformed function by the harness (a wrong result would be a failed
// candidate; the remark counts none).
// RUN: rm -f %t.db %t.db-wal %t.db-shm
// RUN: tuner-opt %s --tuner-autotune="function=conv_relu budget=2 target=%S/../Space/Inputs/avx512-4core.json database=%t.db" -o %t.conv.mlir 2>&1 | FileCheck %s --check-prefix=CONV-REMARK
// RUN: tuner-opt %s --tuner-autotune="function=blur budget=2 target=%S/../Space/Inputs/avx512-4core.json database=%t.db" -o %t.blur.mlir 2>&1 | FileCheck %s --check-prefix=BLUR-REMARK
// RUN: tuner-db --db %t.db export | sed -e 's/\\//g' | FileCheck %s --check-prefix=SEEDS

// CONV-REMARK: remark: autotune @conv_relu: {{.*}}; 2 candidates (2 measured, 0 from the database), 0 failed
// BLUR-REMARK: remark: autotune @blur: {{.*}}; 2 candidates (2 measured, 0 from the database), 0 failed

// Seed 1 of conv_relu: the bias fused into the convolution, the
// convolution decomposed inside the ReLU's tiles of one row by 64 columns
// (its channels and window whole), everything vectorized, on all cores.
// SEEDS-DAG: {"broadcast_0.distribute":"all",{{.*}}"broadcast_0.vectorize":true,"conv_2d_nchw_fchw_1.conv":"decompose",{{.*}}"conv_2d_nchw_fchw_1.rtile.l3":64,"conv_2d_nchw_fchw_1.rtile.l4":2,"conv_2d_nchw_fchw_1.rtile.l5":3,"conv_2d_nchw_fchw_1.rtile.l6":3,"conv_2d_nchw_fchw_1.tile.l1":1,"conv_2d_nchw_fchw_1.tile.l2":1,"conv_2d_nchw_fchw_1.tile.l3":64,{{.*}}"fuse.broadcast_0.conv_2d_nchw_fchw_1":true,"fuse.conv_2d_nchw_fchw_1.generic_2":true,"generic_2.distribute":"all",{{.*}}"generic_2.parallel":true,"generic_2.rtile.l1":1,"generic_2.rtile.l2":1,"generic_2.rtile.l3":64,"generic_2.tile.l1":1,"generic_2.tile.l2":1,"generic_2.tile.l3":64,"generic_2.unroll":1,"generic_2.vectorize":true}
// Seed 2: whole rows (128 columns) in register tiles of 64; 2 x 4 rows
// make fewer than 8 tiles per core at any height, so one row per tile.
// SEEDS-DAG: "generic_2.rtile.l3":64,"generic_2.tile.l1":1,"generic_2.tile.l2":1,"generic_2.tile.l3":128,"generic_2.unroll":1,"generic_2.vectorize":true}
// The blur: the first stage fused into the second through windows, both
// vectorized, on all cores, in tiles of one row by 64 columns, then of
// whole rows.
// SEEDS-DAG: {"fuse.generic_0.generic_1":true,{{.*}}"generic_1.distribute":"all","generic_1.order":[0,1,2],"generic_1.parallel":true,"generic_1.rtile.l0":1,"generic_1.rtile.l1":1,"generic_1.rtile.l2":64,"generic_1.tile.l0":1,"generic_1.tile.l1":1,"generic_1.tile.l2":64,"generic_1.unroll":1,"generic_1.vectorize":true}
// SEEDS-DAG: {"fuse.generic_0.generic_1":true,{{.*}}"generic_1.rtile.l2":64,"generic_1.tile.l0":1,"generic_1.tile.l1":1,"generic_1.tile.l2":128,"generic_1.unroll":1,"generic_1.vectorize":true}

// conv_relu of benchmarks/kernels, small: N=1 C=2 F=2 H=4 W=128 K=3.
#map = affine_map<(n, f, y, x) -> (n, f, y, x)>
func.func @conv_relu(%in: tensor<1x2x6x130xf32>, %w: tensor<2x2x3x3xf32>,
                     %bias: tensor<2xf32>) -> tensor<1x2x4x128xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x2x4x128xf32>
  %init = linalg.broadcast ins(%bias : tensor<2xf32>)
                           outs(%empty : tensor<1x2x4x128xf32>)
                           dimensions = [0, 2, 3]
  %conv = linalg.conv_2d_nchw_fchw
      {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x2x6x130xf32>, tensor<2x2x3x3xf32>)
      outs(%init : tensor<1x2x4x128xf32>) -> tensor<1x2x4x128xf32>
  %relu = linalg.generic {indexing_maps = [#map, #map],
                          iterator_types = ["parallel", "parallel", "parallel",
                                            "parallel"]}
      ins(%conv : tensor<1x2x4x128xf32>)
      outs(%empty : tensor<1x2x4x128xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x128xf32>
  return %relu : tensor<1x2x4x128xf32>
}

// box_blur of benchmarks/kernels, small: C=2 H=16 W=128, two stages, the
// second reading the first through shifted windows.
#id = affine_map<(c, y, x) -> (c, y, x)>
func.func @blur(%in: tensor<2x18x130xf32>) -> tensor<2x16x128xf32> {
  %three = arith.constant 3.0 : f32
  %x0 = tensor.extract_slice %in[0, 0, 0] [2, 18, 128] [1, 1, 1]
      : tensor<2x18x130xf32> to tensor<2x18x128xf32>
  %x1 = tensor.extract_slice %in[0, 0, 1] [2, 18, 128] [1, 1, 1]
      : tensor<2x18x130xf32> to tensor<2x18x128xf32>
  %x2 = tensor.extract_slice %in[0, 0, 2] [2, 18, 128] [1, 1, 1]
      : tensor<2x18x130xf32> to tensor<2x18x128xf32>
  %e0 = tensor.empty() : tensor<2x18x128xf32>
  %bx = linalg.generic {indexing_maps = [#id, #id, #id, #id],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x0, %x1, %x2
          : tensor<2x18x128xf32>, tensor<2x18x128xf32>, tensor<2x18x128xf32>)
      outs(%e0 : tensor<2x18x128xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %o: f32):
    %ab = arith.addf %a, %b : f32
    %abc = arith.addf %ab, %c : f32
    %r = arith.divf %abc, %three : f32
    linalg.yield %r : f32
  } -> tensor<2x18x128xf32>
  %y0 = tensor.extract_slice %bx[0, 0, 0] [2, 16, 128] [1, 1, 1]
      : tensor<2x18x128xf32> to tensor<2x16x128xf32>
  %y1 = tensor.extract_slice %bx[0, 1, 0] [2, 16, 128] [1, 1, 1]
      : tensor<2x18x128xf32> to tensor<2x16x128xf32>
  %y2 = tensor.extract_slice %bx[0, 2, 0] [2, 16, 128] [1, 1, 1]
      : tensor<2x18x128xf32> to tensor<2x16x128xf32>
  %e1 = tensor.empty() : tensor<2x16x128xf32>
  %by = linalg.generic {indexing_maps = [#id, #id, #id, #id],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%y0, %y1, %y2
          : tensor<2x16x128xf32>, tensor<2x16x128xf32>, tensor<2x16x128xf32>)
      outs(%e1 : tensor<2x16x128xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %o: f32):
    %ab = arith.addf %a, %b : f32
    %abc = arith.addf %ab, %c : f32
    %r = arith.divf %abc, %three : f32
    linalg.yield %r : f32
  } -> tensor<2x16x128xf32>
  return %by : tensor<2x16x128xf32>
}
