#id = affine_map<(d0, d1) -> (d0, d1)>
#n = affine_map<(d0, d1) -> (d0 + 1, d1 + 2)>
#w = affine_map<(d0, d1) -> (d0 + 2, d1 + 1)>
#c = affine_map<(d0, d1) -> (d0 + 2, d1 + 2)>
#e = affine_map<(d0, d1) -> (d0 + 2, d1 + 3)>
#s = affine_map<(d0, d1) -> (d0 + 3, d1 + 2)>
func.func @stencil(%A: tensor<260x260xf32>) -> tensor<256x256xf32> {
  %init = tensor.empty() : tensor<256x256xf32>
  %r = linalg.generic {indexing_maps = [#n, #w, #c, #e, #s, #id],
                       iterator_types = ["parallel", "parallel"]}
       ins(%A, %A, %A, %A, %A : tensor<260x260xf32>, tensor<260x260xf32>, tensor<260x260xf32>, tensor<260x260xf32>, tensor<260x260xf32>)
       outs(%init : tensor<256x256xf32>) {
  ^bb0(%n: f32, %w: f32, %c: f32, %e: f32, %s: f32, %o: f32):
    %a = arith.addf %n, %w : f32
    %b = arith.addf %a, %c : f32
    %d = arith.addf %b, %e : f32
    %x = arith.addf %d, %s : f32
    linalg.yield %x : f32
  } -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
