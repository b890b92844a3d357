// Replay-table kernel: a 5-point 2-D stencil (one heat-equation step) on a
// 1024x1024 grid with a 1-point halo, each neighbour a tensor.extract_slice
// window of the input.
#id = affine_map<(i, j) -> (i, j)>
func.func @stencil(%in: tensor<1026x1026xf32>) -> tensor<1024x1024xf32> {
  %alpha = arith.constant 0.6 : f32
  %beta = arith.constant 0.1 : f32
  %c = tensor.extract_slice %in[1, 1] [1024, 1024] [1, 1]
      : tensor<1026x1026xf32> to tensor<1024x1024xf32>
  %n = tensor.extract_slice %in[0, 1] [1024, 1024] [1, 1]
      : tensor<1026x1026xf32> to tensor<1024x1024xf32>
  %s = tensor.extract_slice %in[2, 1] [1024, 1024] [1, 1]
      : tensor<1026x1026xf32> to tensor<1024x1024xf32>
  %w = tensor.extract_slice %in[1, 0] [1024, 1024] [1, 1]
      : tensor<1026x1026xf32> to tensor<1024x1024xf32>
  %e = tensor.extract_slice %in[1, 2] [1024, 1024] [1, 1]
      : tensor<1026x1026xf32> to tensor<1024x1024xf32>
  %empty = tensor.empty() : tensor<1024x1024xf32>
  %out = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id, #id],
                         iterator_types = ["parallel", "parallel"]}
      ins(%c, %n, %s, %w, %e
          : tensor<1024x1024xf32>, tensor<1024x1024xf32>,
            tensor<1024x1024xf32>, tensor<1024x1024xf32>,
            tensor<1024x1024xf32>)
      outs(%empty : tensor<1024x1024xf32>) {
  ^bb0(%vc: f32, %vn: f32, %vs: f32, %vw: f32, %ve: f32, %o: f32):
    %ns = arith.addf %vn, %vs : f32
    %nsw = arith.addf %ns, %vw : f32
    %sum = arith.addf %nsw, %ve : f32
    %b = arith.mulf %beta, %sum : f32
    %a = arith.mulf %alpha, %vc : f32
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1024x1024xf32>
  return %out : tensor<1024x1024xf32>
}
