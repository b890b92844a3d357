// Affine nests under other control flow: an outermost affine.for inside
// scf.for or under scf.if is a nest the space transforms (its legality is
// its own, whatever runs around it); one the tuner cannot model is left as
// it is, with a warning that says why: under affine.parallel, holding scf
// loops or conditionals, or under an scf.if whose condition depends on the
// data (the random inputs would decide whether it runs at all).
// RUN: tuner-opt %s --tuner-extract-space="function=steps output=-" -o /dev/null | FileCheck %s --check-prefix=STEPS
// RUN: tuner-opt %s --tuner-extract-space="function=under_if output=-" -o /dev/null | FileCheck %s --check-prefix=IF
// RUN: tuner-opt %s --tuner-extract-space="function=data_if output=%t.json" -verify-diagnostics -o /dev/null
// RUN: FileCheck %s --check-prefix=DATA < %t.json
// RUN: not tuner-opt %s --tuner-extract-space="function=par output=-" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PAR
// RUN: not tuner-opt %s --tuner-extract-space="function=inner_scf output=-" -o /dev/null 2>&1 | FileCheck %s --check-prefix=INNER

// STEPS: "name": "nest_0.tile.l0"
// STEPS: "name": "nest_0.order"
// IF: "name": "nest_0.tile.l0"
// IF: "name": "nest_0.order"
// DATA-NOT: "nest_0.
// DATA: "name": "nest_1.tile.l0"
// DATA-NOT: "nest_0.
// PAR: warning: affine nest nest_0 is left as it is: it is inside affine.parallel, whose loop the dependence analysis of the nest would count as one of its own
// PAR: error: function @par has no loop nest the tuner can transform: its 1 affine nest(s) are left as they are (see the warnings)
// INNER: warning: affine nest nest_0 is left as it is: it holds scf.for, which the tuner does not model (only affine.for and affine.if nest in an affine nest)
// INNER: error: function @inner_scf has no loop nest the tuner can transform

func.func @steps(%a: memref<32x32xf32>, %b: memref<32x32xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  scf.for %t = %c0 to %c4 step %c1 {
    affine.for %i = 0 to 32 {
      affine.for %j = 0 to 32 {
        %v = affine.load %a[%j, %i] : memref<32x32xf32>
        %w = affine.load %b[%i, %j] : memref<32x32xf32>
        %s = arith.addf %v, %w : f32
        affine.store %s, %b[%i, %j] : memref<32x32xf32>
      }
    }
  }
  return
}

func.func @under_if(%a: memref<32x32xf32>, %b: memref<32x32xf32>, %flag: i1) {
  scf.if %flag {
    affine.for %i = 0 to 32 {
      affine.for %j = 0 to 32 {
        %v = affine.load %a[%j, %i] : memref<32x32xf32>
        affine.store %v, %b[%i, %j] : memref<32x32xf32>
      }
    }
  }
  return
}

func.func @data_if(%a: memref<32x32xf32>, %b: memref<32x32xf32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %x = memref.load %a[%c0, %c0] : memref<32x32xf32>
  %p = arith.cmpf ogt, %x, %zero : f32
  scf.if %p {
    // expected-warning @+1 {{affine nest nest_0 is left as it is: it is under an scf.if whose condition depends on the data, so the random inputs of a measurement decide whether it runs at all}}
    affine.for %i = 0 to 32 {
      affine.for %j = 0 to 32 {
        %v = affine.load %a[%j, %i] : memref<32x32xf32>
        affine.store %v, %b[%i, %j] : memref<32x32xf32>
      }
    }
  }
  affine.for %i = 0 to 32 {
    affine.for %j = 0 to 32 {
      %v = affine.load %b[%i, %j] : memref<32x32xf32>
      %w = arith.addf %v, %v : f32
      affine.store %w, %b[%i, %j] : memref<32x32xf32>
    }
  }
  return
}

func.func @par(%a: memref<32x32xf32>, %b: memref<32x32xf32>) {
  affine.parallel (%i) = (0) to (32) {
    affine.for %j = 0 to 32 {
      %v = affine.load %a[%j, %i] : memref<32x32xf32>
      affine.store %v, %b[%i, %j] : memref<32x32xf32>
    }
  }
  return
}

func.func @inner_scf(%a: memref<32x32xf32>, %b: memref<32x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  affine.for %i = 0 to 32 {
    scf.for %j = %c0 to %c32 step %c1 {
      %v = memref.load %a[%j, %i] : memref<32x32xf32>
      memref.store %v, %b[%i, %j] : memref<32x32xf32>
    }
  }
  return
}
