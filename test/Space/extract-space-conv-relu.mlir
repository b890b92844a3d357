// A convolution decomposed inside its consumer's tiles (a ReLU) is
// vectorized along the consumer's innermost tile of the output width: the
// space keeps that tile at least a register wide (16 f32 with AVX-512), as it
// does for a decomposition that is not fused.
// RUN: tuner-opt %s --tuner-extract-space="target=%S/Inputs/avx512-4core.json output=-" -o /dev/null | FileCheck %s

// CHECK: "constraints": [
// CHECK-DAG: "!fuse.conv_2d_nchw_fchw_1.generic_2 || conv_2d_nchw_fchw_1.conv != \"decompose\" || min(generic_2.tile.l3, generic_2.rtile.l3) >= 16"
// CHECK-DAG: "conv_2d_nchw_fchw_1.conv != \"decompose\" || min(conv_2d_nchw_fchw_1.tile.l3, conv_2d_nchw_fchw_1.rtile.l3) >= 16 || fuse.conv_2d_nchw_fchw_1.generic_2"
// CHECK: ]

#id = affine_map<(n, f, y, x) -> (n, f, y, x)>
func.func @conv_relu(%in: tensor<2x3x34x66xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<2x4x32x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x32x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x32x64xf32>) -> tensor<2x4x32x64xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<2x3x34x66xf32>, tensor<4x3x3x3xf32>) outs(%f : tensor<2x4x32x64xf32>) -> tensor<2x4x32x64xf32>
  %e2 = tensor.empty() : tensor<2x4x32x64xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<2x4x32x64xf32>) outs(%e2 : tensor<2x4x32x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %x, %zero : f32
    linalg.yield %m : f32
  } -> tensor<2x4x32x64xf32>
  return %r : tensor<2x4x32x64xf32>
}
