// 2mm (PolyBench): two chained matrix multiplications,
//   tmp = alpha * (A * B);   D' = beta * D + tmp * C
// with alpha = 1.5 and beta = 1.2. Written as linalg.matmul for the two
// products and linalg.generic for the two scalings, so that a schedule can
// fuse the element-wise scalings into the products.
//
// shape: A 512x576, B 576x544, C 544x608, D 512x608 (NI=512 NK=576 NJ=544 NL=608)
// flops: 2*512*544*576 + 512*544 + 512*608 + 2*512*608*544
//   (2*NI*NJ*NK for A*B, NI*NJ for alpha, NI*NL for beta, 2*NI*NL*NJ for
//    tmp*C, whose adds into beta*D are counted in the product)
#map = affine_map<(i, j) -> (i, j)>
func.func @mm2(%A: tensor<512x576xf32>, %B: tensor<576x544xf32>,
               %C: tensor<544x608xf32>, %D: tensor<512x608xf32>)
    -> tensor<512x608xf32> {
  %zero = arith.constant 0.0 : f32
  %alpha = arith.constant 1.5 : f32
  %beta = arith.constant 1.2 : f32
  %e0 = tensor.empty() : tensor<512x544xf32>
  %t0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<512x544xf32>)
      -> tensor<512x544xf32>
  %t1 = linalg.matmul ins(%A, %B : tensor<512x576xf32>, tensor<576x544xf32>)
                      outs(%t0 : tensor<512x544xf32>) -> tensor<512x544xf32>
  %t2 = linalg.generic {indexing_maps = [#map, #map],
                        iterator_types = ["parallel", "parallel"]}
      ins(%t1 : tensor<512x544xf32>) outs(%e0 : tensor<512x544xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.mulf %alpha, %x : f32
    linalg.yield %s : f32
  } -> tensor<512x544xf32>
  %e1 = tensor.empty() : tensor<512x608xf32>
  %d1 = linalg.generic {indexing_maps = [#map, #map],
                        iterator_types = ["parallel", "parallel"]}
      ins(%D : tensor<512x608xf32>) outs(%e1 : tensor<512x608xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.mulf %beta, %x : f32
    linalg.yield %s : f32
  } -> tensor<512x608xf32>
  %r = linalg.matmul ins(%t2, %C : tensor<512x544xf32>, tensor<544x608xf32>)
                     outs(%d1 : tensor<512x608xf32>) -> tensor<512x608xf32>
  return %r : tensor<512x608xf32>
}
