// A tuning run killed with SIGKILL loses no finished measurement, and the
// same command resumes it: measured configs are not measured again, and the
// run ends with the candidates it would have had without the kill.
// RUN: bash %S/Inputs/kill-and-resume.sh %s %t.db | FileCheck %s

// CHECK: killed after {{[2-5]}} measurements
// CHECK-NEXT: killed mid-run
// CHECK: 6 candidates ({{[1-4]}} measured, {{[2-5]}} from the database)
// CHECK-NEXT: after the rerun: 6 measurements
// CHECK-NOT: duplicate

func.func @add(%A: tensor<64x64xf32>, %B: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %r = linalg.add ins(%A, %B : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
