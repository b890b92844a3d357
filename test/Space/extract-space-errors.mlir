// RUN: tuner-opt %s -split-input-file -verify-diagnostics --tuner-extract-space="target=%S/Inputs/avx512-4core.json output=%t.json"

// expected-error@+1 {{no function with linalg ops or affine loop nests to tune}}
module {
  func.func @nothing(%a: f32) -> f32 {
    return %a : f32
  }
}

// -----

// expected-error@+2 {{several functions could be tuned ('f', 'g'): choose one with the 'function' option}}
module {
  func.func @f(%a: memref<8xf32>) {
    %c = arith.constant 1.0 : f32
    linalg.fill ins(%c : f32) outs(%a : memref<8xf32>)
    return
  }
  func.func @g(%a: memref<8xf32>) {
    %c = arith.constant 2.0 : f32
    linalg.fill ins(%c : f32) outs(%a : memref<8xf32>)
    return
  }
}
