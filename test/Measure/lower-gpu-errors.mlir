// What the GPU lowering refuses, with the reason at the op.
// RUN: tuner-opt --tuner-lower-gpu=format=isa -split-input-file -verify-diagnostics %s
// A target that is not a GPU, and options out of range, are errors at the
// module.
// RUN: not tuner-opt --tuner-lower-gpu="target=host" %s -split-input-file 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CPU
// RUN: not tuner-opt --tuner-lower-gpu="target=%S/Inputs/no-such-target.json" %s \
// RUN:   -split-input-file 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not tuner-opt --tuner-lower-gpu="format=elf" %s -split-input-file 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FORMAT
// CPU: error: --tuner-lower-gpu: the target 'host' is of kind 'cpu'; the GPU lowering needs a target of kind gpu
// MISSING: error: --tuner-lower-gpu: {{.*}}no-such-target.json
// FORMAT: error: --tuner-lower-gpu: format 'elf' is not one of isa, bin, fatbin

// A value read from device memory cannot be used by host code.
func.func @first(%a: memref<1024xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{the GPU lowering runs this op in a kernel, but host code uses its results}}
  %v = memref.load %a[%c0] : memref<1024xf32>
  return %v : f32
}

// -----

// Parallel loops with reductions are not mapped naively (a schedule must
// split them).
func.func @sum(%a: memref<1024xf32>, %out: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{the naive GPU mapping does not handle parallel loops with reductions}}
  %s = scf.parallel (%i) = (%c0) to (%c1024) step (%c1) init (%zero) -> f32 {
    %x = memref.load %a[%i] : memref<1024xf32>
    scf.reduce(%x : f32) {
    ^bb0(%l: f32, %r: f32):
      %t = arith.addf %l, %r : f32
      scf.reduce.return %t : f32
    }
  }
  memref.store %s, %out[] : memref<f32>
  return
}

// -----

// A kernel's own buffers need static shapes (they become stack or shared
// memory).
func.func @scratch(%a: memref<64xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{the GPU lowering needs static shapes for buffers allocated inside a kernel}}
    %tmp = memref.alloc(%n) : memref<?xf32>
    memref.copy %a, %tmp : memref<64xf32> to memref<?xf32>
    gpu.terminator
  }
  return
}
