// stencil2d: one step of a 2-D 9-point stencil (radius 2 in a cross, the
// weights of a fourth-order Laplacian smoother) over a grid with a halo of
// two points, centred at in[i+3][j+3]:
//   out[i][j] = c0 * in[i+3][j+3]
//             + c1 * (in[i+2][j+3] + in[i+4][j+3] + in[i+3][j+2] + in[i+3][j+4])
//             + c2 * (in[i+1][j+3] + in[i+5][j+3] + in[i+3][j+1] + in[i+3][j+5])
// One linalg.generic whose inputs are the same tensor read at shifted
// offsets (the GPU space offers tiles for it; its shifted reads are not
// promoted to shared memory). Every read is at an offset of at least one
// (row 0 and column 0 of the input are not read): linalg infers a loop's
// bound from the first operand that indexes it directly, and an input read
// at (i, ...) would make the i loop 4101 long.
//
// shape: in 4101x4101 -> out 4096x4096
// flops: 11*4096*4096 (8 adds and 3 multiplies per point)
#id = affine_map<(i, j) -> (i, j)>
#c  = affine_map<(i, j) -> (i + 3, j + 3)>
#n1 = affine_map<(i, j) -> (i + 2, j + 3)>
#s1 = affine_map<(i, j) -> (i + 4, j + 3)>
#w1 = affine_map<(i, j) -> (i + 3, j + 2)>
#e1 = affine_map<(i, j) -> (i + 3, j + 4)>
#n2 = affine_map<(i, j) -> (i + 1, j + 3)>
#s2 = affine_map<(i, j) -> (i + 5, j + 3)>
#w2 = affine_map<(i, j) -> (i + 3, j + 1)>
#e2 = affine_map<(i, j) -> (i + 3, j + 5)>
func.func @stencil2d(%A: tensor<4101x4101xf32>) -> tensor<4096x4096xf32> {
  %c0 = arith.constant 0.5 : f32
  %c1 = arith.constant 0.16666667 : f32
  %c2 = arith.constant -0.04166667 : f32
  %init = tensor.empty() : tensor<4096x4096xf32>
  %r = linalg.generic {indexing_maps = [#c, #n1, #s1, #w1, #e1, #n2, #s2, #w2, #e2, #id],
                       iterator_types = ["parallel", "parallel"]}
       ins(%A, %A, %A, %A, %A, %A, %A, %A, %A
           : tensor<4101x4101xf32>, tensor<4101x4101xf32>, tensor<4101x4101xf32>,
             tensor<4101x4101xf32>, tensor<4101x4101xf32>, tensor<4101x4101xf32>,
             tensor<4101x4101xf32>, tensor<4101x4101xf32>, tensor<4101x4101xf32>)
       outs(%init : tensor<4096x4096xf32>) {
  ^bb0(%vc: f32, %vn1: f32, %vs1: f32, %vw1: f32, %ve1: f32,
       %vn2: f32, %vs2: f32, %vw2: f32, %ve2: f32, %o: f32):
    %a1 = arith.addf %vn1, %vs1 : f32
    %a2 = arith.addf %a1, %vw1 : f32
    %a3 = arith.addf %a2, %ve1 : f32
    %b1 = arith.addf %vn2, %vs2 : f32
    %b2 = arith.addf %b1, %vw2 : f32
    %b3 = arith.addf %b2, %ve2 : f32
    %t0 = arith.mulf %c0, %vc : f32
    %t1 = arith.mulf %c1, %a3 : f32
    %t2 = arith.mulf %c2, %b3 : f32
    %s = arith.addf %t0, %t1 : f32
    %r = arith.addf %s, %t2 : f32
    linalg.yield %r : f32
  } -> tensor<4096x4096xf32>
  return %r : tensor<4096x4096xf32>
}
