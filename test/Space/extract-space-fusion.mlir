// Which producers may be fused. A row sum (a producer that accumulates)
// read by two consumers is not offered for fusion into either: the fused
// copies and the producer kept for the other reader would write the same
// accumulator (MLIR 22 then miscompiles or crashes). Its fill still fuses
// into it, and a second, elementwise producer with two readers still fuses,
// into its last reader only (MLIR 22's fusion segfaults on some schedules
// that fuse it into the earlier one, generic_3).
// RUN: tuner-opt %s --tuner-extract-space="output=-" -o /dev/null | grep -o '"name": "fuse[^"]*"' | FileCheck %s
// CHECK:      "name": "fuse.fill_0.generic_1"
// CHECK-NEXT: "name": "fuse.generic_2.generic_4"
// CHECK-NOT:  fuse

#row = affine_map<(i, j) -> (i, j)>
#red = affine_map<(i, j) -> (i)>
#id = affine_map<(i) -> (i)>
func.func @two_readers(%x: tensor<64x32xf32>, %y: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#row, #red], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x32xf32>) outs(%f : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %e2 = tensor.empty() : tensor<64xf32>
  %scaled = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%sum, %y : tensor<64xf32>, tensor<64xf32>) outs(%e2 : tensor<64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %e3 = tensor.empty() : tensor<64xf32>
  %plus = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%scaled : tensor<64xf32>) outs(%e3 : tensor<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %a : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %e4 = tensor.empty() : tensor<64xf32>
  %minus = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%scaled, %sum : tensor<64xf32>, tensor<64xf32>) outs(%e4 : tensor<64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.subf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  return %plus, %minus : tensor<64xf32>, tensor<64xf32>
}
