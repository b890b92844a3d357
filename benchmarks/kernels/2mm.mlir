// 2mm (PolyBench): two chained matrix multiplications,
//   tmp = alpha * (A * B);   D' = beta * D + tmp * C
// with alpha = 1.5 and beta = 1.2. Written as linalg.matmul for the two
// products and linalg.generic for the two scalings, so that a schedule can
// fuse the element-wise scalings into the products.
//
// shape: A 384x448, B 448x416, C 416x480, D 384x480 (NI=384 NK=448 NJ=416 NL=480)
// flops: 2*384*416*448 + 384*416 + 384*480 + 2*384*480*416
//   (2*NI*NJ*NK for A*B, NI*NJ for alpha, NI*NL for beta, 2*NI*NL*NJ for
//    tmp*C, whose adds into beta*D are counted in the product)
#map = affine_map<(i, j) -> (i, j)>
func.func @mm2(%A: tensor<384x448xf32>, %B: tensor<448x416xf32>,
               %C: tensor<416x480xf32>, %D: tensor<384x480xf32>)
    -> tensor<384x480xf32> {
  %zero = arith.constant 0.0 : f32
  %alpha = arith.constant 1.5 : f32
  %beta = arith.constant 1.2 : f32
  %e0 = tensor.empty() : tensor<384x416xf32>
  %t0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<384x416xf32>)
      -> tensor<384x416xf32>
  %t1 = linalg.matmul ins(%A, %B : tensor<384x448xf32>, tensor<448x416xf32>)
                      outs(%t0 : tensor<384x416xf32>) -> tensor<384x416xf32>
  %t2 = linalg.generic {indexing_maps = [#map, #map],
                        iterator_types = ["parallel", "parallel"]}
      ins(%t1 : tensor<384x416xf32>) outs(%e0 : tensor<384x416xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.mulf %alpha, %x : f32
    linalg.yield %s : f32
  } -> tensor<384x416xf32>
  %e1 = tensor.empty() : tensor<384x480xf32>
  %d1 = linalg.generic {indexing_maps = [#map, #map],
                        iterator_types = ["parallel", "parallel"]}
      ins(%D : tensor<384x480xf32>) outs(%e1 : tensor<384x480xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.mulf %beta, %x : f32
    linalg.yield %s : f32
  } -> tensor<384x480xf32>
  %r = linalg.matmul ins(%t2, %C : tensor<384x416xf32>, tensor<416x480xf32>)
                     outs(%d1 : tensor<384x480xf32>) -> tensor<384x480xf32>
  return %r : tensor<384x480xf32>
}
