// heat3d: one explicit time step of the heat equation over a 3-D grid
// (PolyBench heat-3d's update, 7-point stencil); with c = in[i+1][j+1][k+1],
//   out[i][j][k] = 0.125 * (in[i+2][j+1][k+1] - 2 * c + in[i][j+1][k+1])
//                + 0.125 * (in[i+1][j+2][k+1] - 2 * c + in[i+1][j][k+1])
//                + 0.125 * (in[i+1][j+1][k+2] - 2 * c + in[i+1][j+1][k])
//                + c
// The input carries a 1-point halo.
//
// One time step per call (the caller iterates time), so the kernel is one
// element-wise linalg.generic on tensors. Each neighbour is a
// tensor.extract_slice window of the input: linalg infers loop bounds from
// the first operand that indexes a loop directly, so a shifted map such as
// (i, j + 1, k + 1) on the halo'd input would make the i loop 322 long.
//
// shape: in 322x322x322 -> out 320x320x320 (N = 320)
// flops: 15*320*320*320
//   (per axis: multiply by 2, subtract, add, multiply by 0.125; then 3 adds)
#id = affine_map<(i, j, k) -> (i, j, k)>
func.func @heat3d(%in: tensor<322x322x322xf32>) -> tensor<320x320x320xf32> {
  %two = arith.constant 2.0 : f32
  %eighth = arith.constant 0.125 : f32
  %c = tensor.extract_slice %in[1, 1, 1] [320, 320, 320] [1, 1, 1]
      : tensor<322x322x322xf32> to tensor<320x320x320xf32>
  %ip = tensor.extract_slice %in[2, 1, 1] [320, 320, 320] [1, 1, 1]
      : tensor<322x322x322xf32> to tensor<320x320x320xf32>
  %im = tensor.extract_slice %in[0, 1, 1] [320, 320, 320] [1, 1, 1]
      : tensor<322x322x322xf32> to tensor<320x320x320xf32>
  %jp = tensor.extract_slice %in[1, 2, 1] [320, 320, 320] [1, 1, 1]
      : tensor<322x322x322xf32> to tensor<320x320x320xf32>
  %jm = tensor.extract_slice %in[1, 0, 1] [320, 320, 320] [1, 1, 1]
      : tensor<322x322x322xf32> to tensor<320x320x320xf32>
  %kp = tensor.extract_slice %in[1, 1, 2] [320, 320, 320] [1, 1, 1]
      : tensor<322x322x322xf32> to tensor<320x320x320xf32>
  %km = tensor.extract_slice %in[1, 1, 0] [320, 320, 320] [1, 1, 1]
      : tensor<322x322x322xf32> to tensor<320x320x320xf32>
  %empty = tensor.empty() : tensor<320x320x320xf32>
  %out = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id, #id, #id,
                                          #id],
                         iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c, %ip, %im, %jp, %jm, %kp, %km
          : tensor<320x320x320xf32>, tensor<320x320x320xf32>,
            tensor<320x320x320xf32>, tensor<320x320x320xf32>,
            tensor<320x320x320xf32>, tensor<320x320x320xf32>,
            tensor<320x320x320xf32>)
      outs(%empty : tensor<320x320x320xf32>) {
  ^bb0(%vc: f32, %vip: f32, %vim: f32, %vjp: f32, %vjm: f32, %vkp: f32,
       %vkm: f32, %o: f32):
    %c2 = arith.mulf %two, %vc : f32
    %i0 = arith.subf %vip, %c2 : f32
    %i1 = arith.addf %i0, %vim : f32
    %di = arith.mulf %eighth, %i1 : f32
    %j0 = arith.subf %vjp, %c2 : f32
    %j1 = arith.addf %j0, %vjm : f32
    %dj = arith.mulf %eighth, %j1 : f32
    %k0 = arith.subf %vkp, %c2 : f32
    %k1 = arith.addf %k0, %vkm : f32
    %dk = arith.mulf %eighth, %k1 : f32
    %s0 = arith.addf %di, %dj : f32
    %s1 = arith.addf %s0, %dk : f32
    %r = arith.addf %s1, %vc : f32
    linalg.yield %r : f32
  } -> tensor<320x320x320xf32>
  return %out : tensor<320x320x320xf32>
}
