// The 'shapes' option: parse errors, sizes that disagree with the type or
// with each other, and missing sizes, each at the argument or op at fault.
// RUN: tuner-opt %s --tuner-extract-space="output=/dev/null" -verify-diagnostics -o /dev/null
// RUN: not tuner-opt %s --tuner-extract-space="output=/dev/null shapes=arg0=16x8x2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=RANK
// RUN: not tuner-opt %s --tuner-extract-space="output=/dev/null shapes=arg0=16xN" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PARSE
// RUN: not tuner-opt %s --tuner-extract-space="output=/dev/null shapes=x0=16x8" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NAME
// RUN: not tuner-opt %s --tuner-extract-space="output=/dev/null shapes=arg0=16x0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not tuner-opt %s --tuner-extract-space="output=/dev/null shapes=@%t.missing.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FILE

// RANK: argument #0 of @scale has type 'tensor<?x512xf32>' (rank 2)
// PARSE: invalid 'shapes' option: shapes entry 'arg0=16xN': 'N' is not a size
// NAME: 'x0' does not name an argument (write arg<N>
// ZERO: arg0 has size 0; sizes must be positive
// FILE: cannot read the shapes file

// expected-error @+1 {{argument #0 of @scale has dynamic type 'tensor<?x512xf32>': give the sizes to tune for with the shapes option, e.g. shapes=arg0=<d0>x512}}
func.func @scale(%a: tensor<?x512xf32>) -> tensor<?x512xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<?x512xf32>) outs(%a : tensor<?x512xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %x : f32
    linalg.yield %s : f32
  } -> tensor<?x512xf32>
  return %r : tensor<?x512xf32>
}
