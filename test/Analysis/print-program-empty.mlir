// RUN: tuner-opt --tuner-print-program %s -o /dev/null | FileCheck %s
// RUN: tuner-opt --tuner-print-program=format=json %s -o /dev/null | FileCheck %s --check-prefix=JSON

// CHECK: no function with linalg ops or affine loop nests
// JSON: []
func.func @scalar(%x: f32, %y: f32) -> f32 {
  %s = arith.addf %x, %y : f32
  return %s : f32
}
