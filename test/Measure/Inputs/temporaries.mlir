// Three chained elementwise maps over 512x512 f32: two 1 MiB temporaries
// that the lowered function allocates and frees on every call.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @chain(%x: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %c = arith.constant 2.0 : f32
  %e0 = tensor.empty() : tensor<512x512xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<512x512xf32>) outs(%e0 : tensor<512x512xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.mulf %in, %c : f32
    linalg.yield %r : f32
  } -> tensor<512x512xf32>
  %e1 = tensor.empty() : tensor<512x512xf32>
  %b = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %x : tensor<512x512xf32>, tensor<512x512xf32>) outs(%e1 : tensor<512x512xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %r = arith.addf %in, %in2 : f32
    linalg.yield %r : f32
  } -> tensor<512x512xf32>
  %e2 = tensor.empty() : tensor<512x512xf32>
  %d = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b, %a : tensor<512x512xf32>, tensor<512x512xf32>) outs(%e2 : tensor<512x512xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %r = arith.subf %in, %in2 : f32
    linalg.yield %r : f32
  } -> tensor<512x512xf32>
  return %d : tensor<512x512xf32>
}
