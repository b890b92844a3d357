// The lowering's size limit (max-ops): right after the vector lowering,
// which unrolls each n-D vector op into one op per 1-D row, a module that
// holds more operations than the limit fails with an error that says how
// many it holds; within the limit, or with no limit (0, the default), it
// lowers as before. The function below adds vector<64x1xf32> values: 64
// one-lane rows per op once unrolled.
// RUN: not tuner-opt --tuner-lower-cpu="max-ops=100" %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OVER
// RUN: tuner-opt --tuner-lower-cpu="max-ops=100000" %s | FileCheck %s
// RUN: tuner-opt --tuner-lower-cpu %s | FileCheck %s

// OVER: error: the module holds {{[0-9]+}} operations once its vectors are unrolled into rows, more than the limit of 100 (max-ops): too large to compile in reasonable time
// CHECK-LABEL: llvm.func @one_lane_rows(
// CHECK-COUNT-64: llvm.fadd
func.func @one_lane_rows(%a: memref<64x1xf32>, %b: memref<64x1xf32>) {
  %c0 = arith.constant 0 : index
  %f0 = arith.constant 0.0 : f32
  %x = vector.transfer_read %a[%c0, %c0], %f0 : memref<64x1xf32>, vector<64x1xf32>
  %y = vector.transfer_read %b[%c0, %c0], %f0 : memref<64x1xf32>, vector<64x1xf32>
  %s = arith.addf %x, %y : vector<64x1xf32>
  vector.transfer_write %s, %a[%c0, %c0] : vector<64x1xf32>, memref<64x1xf32>
  return
}
