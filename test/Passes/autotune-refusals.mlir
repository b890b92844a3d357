// What cannot be tuned is refused before anything is measured, at the
// function or op it concerns: work nothing observes (a result not used, a
// local buffer nothing reads), a nest that never runs (zero trips), a
// function whose only work is linalg.pack / linalg.unpack. Among several
// functions each refusal is a warning; when none is left to tune, that is an
// error at the first function (never at file:0:0, never with the module
// printed after it).
// RUN: tuner-opt %s --tuner-autotune="database=none" -verify-diagnostics -o /dev/null
// RUN: not tuner-opt %s --tuner-autotune="database=none" -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LOCATED --implicit-check-not=":0:0:" --implicit-check-not="builtin.module"

// A function named with 'function' that cannot be tuned is an error.
// RUN: not tuner-opt %s --tuner-autotune="function=dead_result database=none" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NAMED-DEAD
// RUN: not tuner-opt %s --tuner-autotune="function=zero_trip database=none" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NAMED-ZERO
// RUN: not tuner-opt %s --tuner-autotune="function=unpacked database=none" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NAMED-UNPACK
// RUN: not tuner-opt %s --tuner-autotune="function=nothing database=none" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NAMED-MISSING

// LOCATED: autotune-refusals.mlir:{{[0-9]+}}:{{[0-9]+}}: error: no function of the module can be tuned (5 skipped: see the warnings)

// NAMED-DEAD: autotune-refusals.mlir:[[@LINE+12]]:8: error: the result of this op is not used: its work is dead and cannot be measured
// NAMED-DEAD: autotune-refusals.mlir:[[@LINE+8]]:1: error: @dead_result has no observable output
// NAMED-ZERO: autotune-refusals.mlir:[[@LINE+30]]:3: warning: this loop nest never runs (loop nest_0.d0 has zero trips): nothing to tune in it
// NAMED-ZERO: autotune-refusals.mlir:[[@LINE+26]]:1: error: @zero_trip has nothing to tune: its space holds only the untransformed schedule
// NAMED-UNPACK: autotune-refusals.mlir:[[@LINE+42]]:8: error: @unpacked has no loop nest the tuner models: linalg.unpack is not a structured linalg op (LinalgOp)
// NAMED-MISSING: error: no function named 'nothing' in the module (its functions: dead_result, dead_buffer, zero_trip, packed, unpacked, plain)

// expected-error@+2 {{no function of the module can be tuned (5 skipped: see the warnings)}}
// expected-remark@+1 {{autotune: 0 functions tuned, 0 failed, 5 skipped (budget-split=per-function)}}
func.func @dead_result(%a: tensor<256xf32>, %b: tensor<256xf32>) -> tensor<256xf32> {
  %e = tensor.empty() : tensor<256xf32>
  // expected-warning@+1 {{the result of this op is not used: its work is dead and cannot be measured}}
  %0 = linalg.add ins(%a, %b : tensor<256xf32>, tensor<256xf32>) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  return %a : tensor<256xf32>
}
// expected-warning@-6 {{@dead_result has no observable output (nothing it returns or writes to its arguments depends on its loop nests): nothing to tune}}

// expected-warning@+1 {{@dead_buffer has no observable output}}
func.func @dead_buffer(%a: memref<256xf32>) {
  %t = memref.alloc() : memref<256xf32>
  // expected-warning@+1 {{this op writes only buffers the function allocates itself and that nothing it returns or writes to its arguments reads: its work is dead and cannot be measured}}
  affine.for %i = 0 to 256 {
    %v = affine.load %a[%i] : memref<256xf32>
    affine.store %v, %t[%i] : memref<256xf32>
  }
  return
}

// expected-warning@+1 {{@zero_trip has nothing to tune: its space holds only the untransformed schedule (with these space options)}}
func.func @zero_trip(%a: memref<256xf32>) {
  %c = arith.constant 2.0 : f32
  // expected-warning@+1 {{this loop nest never runs (loop nest_0.d0 has zero trips): nothing to tune in it}}
  affine.for %i = 8 to 8 {
    affine.store %c, %a[%i] : memref<256xf32>
  }
  return
}

func.func @packed(%src: tensor<16x32xf32>, %dst: tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32> {
  // expected-warning@+1 {{@packed has no loop nest the tuner models: linalg.pack is not a structured linalg op (LinalgOp); the tuner tunes structured linalg ops and affine.for nests}}
  %0 = linalg.pack %src inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %dst : tensor<16x32xf32> -> tensor<2x4x8x8xf32>
  return %0 : tensor<2x4x8x8xf32>
}

func.func @unpacked(%src: tensor<2x4x8x8xf32>, %dst: tensor<16x32xf32>) -> tensor<16x32xf32> {
  // expected-warning@+1 {{@unpacked has no loop nest the tuner models: linalg.unpack is not a structured linalg op (LinalgOp)}}
  %0 = linalg.unpack %src inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %dst : tensor<2x4x8x8xf32> -> tensor<16x32xf32>
  return %0 : tensor<16x32xf32>
}

// A plain function (no linalg op, no loop) is not a candidate: no diagnostic.
func.func @plain(%x: f32) -> f32 {
  %y = arith.addf %x, %x : f32
  return %y : f32
}
