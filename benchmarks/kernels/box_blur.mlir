// box blur (Halide's blur): a separable 3x3 box filter on a 3-channel image,
// in two stages,
//   bx[c][y][x]  = (in[c][y][x] + in[c][y][x + 1] + in[c][y][x + 2]) / 3
//   out[c][y][x] = (bx[c][y][x] + bx[c][y + 1][x] + bx[c][y + 2][x]) / 3
// (no padding: the input carries a 2-pixel halo). Two element-wise
// linalg.generic ops; the horizontal stage is the producer a schedule may
// fuse into the vertical one. Each shifted read is a tensor.extract_slice
// window: linalg infers loop bounds from the first operand that indexes a
// loop directly, so a shifted map such as (c, y, x + 1) beside an unshifted
// one on the same halo'd tensor would not verify.
//
// shape: in 3x2050x2050 -> out 3x2048x2048 (C=3 H=W=2048), bx 3x2050x2048
// flops: 3*3*2050*2048 + 3*3*2048*2048
//   (2 adds and 1 divide per point of each stage: 3*C*(H+2)*W + 3*C*H*W)
#id = affine_map<(c, y, x) -> (c, y, x)>
func.func @box_blur(%in: tensor<3x2050x2050xf32>) -> tensor<3x2048x2048xf32> {
  %three = arith.constant 3.0 : f32
  %x0 = tensor.extract_slice %in[0, 0, 0] [3, 2050, 2048] [1, 1, 1]
      : tensor<3x2050x2050xf32> to tensor<3x2050x2048xf32>
  %x1 = tensor.extract_slice %in[0, 0, 1] [3, 2050, 2048] [1, 1, 1]
      : tensor<3x2050x2050xf32> to tensor<3x2050x2048xf32>
  %x2 = tensor.extract_slice %in[0, 0, 2] [3, 2050, 2048] [1, 1, 1]
      : tensor<3x2050x2050xf32> to tensor<3x2050x2048xf32>
  %e0 = tensor.empty() : tensor<3x2050x2048xf32>
  %bx = linalg.generic {indexing_maps = [#id, #id, #id, #id],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x0, %x1, %x2
          : tensor<3x2050x2048xf32>, tensor<3x2050x2048xf32>,
            tensor<3x2050x2048xf32>)
      outs(%e0 : tensor<3x2050x2048xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %o: f32):
    %ab = arith.addf %a, %b : f32
    %abc = arith.addf %ab, %c : f32
    %r = arith.divf %abc, %three : f32
    linalg.yield %r : f32
  } -> tensor<3x2050x2048xf32>
  %y0 = tensor.extract_slice %bx[0, 0, 0] [3, 2048, 2048] [1, 1, 1]
      : tensor<3x2050x2048xf32> to tensor<3x2048x2048xf32>
  %y1 = tensor.extract_slice %bx[0, 1, 0] [3, 2048, 2048] [1, 1, 1]
      : tensor<3x2050x2048xf32> to tensor<3x2048x2048xf32>
  %y2 = tensor.extract_slice %bx[0, 2, 0] [3, 2048, 2048] [1, 1, 1]
      : tensor<3x2050x2048xf32> to tensor<3x2048x2048xf32>
  %e1 = tensor.empty() : tensor<3x2048x2048xf32>
  %by = linalg.generic {indexing_maps = [#id, #id, #id, #id],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%y0, %y1, %y2
          : tensor<3x2048x2048xf32>, tensor<3x2048x2048xf32>,
            tensor<3x2048x2048xf32>)
      outs(%e1 : tensor<3x2048x2048xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %o: f32):
    %ab = arith.addf %a, %b : f32
    %abc = arith.addf %ab, %c : f32
    %r = arith.divf %abc, %three : f32
    linalg.yield %r : f32
  } -> tensor<3x2048x2048xf32>
  return %by : tensor<3x2048x2048xf32>
}
