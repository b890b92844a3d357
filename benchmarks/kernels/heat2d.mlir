// heat2d: one explicit time step of the heat equation over a 2-D grid (the
// Tiramisu benchmark), 5-point stencil,
//   out[i][j] = alpha * in[i+1][j+1]
//             + beta * (in[i][j+1] + in[i+2][j+1] + in[i+1][j] + in[i+1][j+2])
// with alpha = 0.6, beta = 0.1; the input carries a 1-point halo.
//
// One time step per call (the caller iterates time), so the kernel is one
// element-wise linalg.generic on tensors. Each neighbour is a
// tensor.extract_slice window of the input: linalg infers loop bounds from
// the first operand that indexes a loop directly, so a shifted map such as
// (i, j + 1) on the halo'd input would make the i loop 6146 long.
//
// shape: in 6146x6146 -> out 6144x6144 (H = W = 6144)
// flops: 6*6144*6144
//   (4 adds and 2 multiplies per point)
#id = affine_map<(i, j) -> (i, j)>
func.func @heat2d(%in: tensor<6146x6146xf32>) -> tensor<6144x6144xf32> {
  %alpha = arith.constant 0.6 : f32
  %beta = arith.constant 0.1 : f32
  %c = tensor.extract_slice %in[1, 1] [6144, 6144] [1, 1]
      : tensor<6146x6146xf32> to tensor<6144x6144xf32>
  %n = tensor.extract_slice %in[0, 1] [6144, 6144] [1, 1]
      : tensor<6146x6146xf32> to tensor<6144x6144xf32>
  %s = tensor.extract_slice %in[2, 1] [6144, 6144] [1, 1]
      : tensor<6146x6146xf32> to tensor<6144x6144xf32>
  %w = tensor.extract_slice %in[1, 0] [6144, 6144] [1, 1]
      : tensor<6146x6146xf32> to tensor<6144x6144xf32>
  %e = tensor.extract_slice %in[1, 2] [6144, 6144] [1, 1]
      : tensor<6146x6146xf32> to tensor<6144x6144xf32>
  %empty = tensor.empty() : tensor<6144x6144xf32>
  %out = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id, #id],
                         iterator_types = ["parallel", "parallel"]}
      ins(%c, %n, %s, %w, %e
          : tensor<6144x6144xf32>, tensor<6144x6144xf32>,
            tensor<6144x6144xf32>, tensor<6144x6144xf32>,
            tensor<6144x6144xf32>)
      outs(%empty : tensor<6144x6144xf32>) {
  ^bb0(%vc: f32, %vn: f32, %vs: f32, %vw: f32, %ve: f32, %o: f32):
    %ns = arith.addf %vn, %vs : f32
    %nsw = arith.addf %ns, %vw : f32
    %nswe = arith.addf %nsw, %ve : f32
    %a = arith.mulf %alpha, %vc : f32
    %b = arith.mulf %beta, %nswe : f32
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<6144x6144xf32>
  return %out : tensor<6144x6144xf32>
}
