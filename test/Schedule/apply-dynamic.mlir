// A schedule tuned at one size, applied to the dynamic function, is correct
// at every size: tiles that do not divide (peeled scf.for tiles, versioned
// scf.forall tiles), the fill fused into the parallel tiles, a vectorized
// 4x16 micro-kernel, unrolling. Built at 64x40x48 and run, through the
// tuner's own lowering, at 64x40x48, 37x5x3, 1x1x1 and 100x129x67 against
// the untransformed function: each line counts the elements that differ.
// RUN: tuner-opt %s --tuner-apply="function=mm shapes=arg0=64x40,arg1=40x48 config=%S/Inputs/matmul-dynamic.json schedule-output=%t.schedule.mlir" > %t.tuned.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.tuned.mlir
// RUN: tuner-opt %t.tuned.mlir --tuner-lower-cpu | mlir-runner -e main -entry-point-result=void -shared-libs=%c_runner_utils,%runner_utils,%mlir_lib_dir/libomp.so | FileCheck %s --check-prefix=EXEC
//
// Stock mlir-opt replays the schedule on the dynamic function.
// RUN: %mlir_opt %s --load-dialect-plugin=%tuner_plugin --transform-preload-library=transform-library-paths=%t.schedule.mlir --transform-interpreter > %t.replayed.mlir
// RUN: diff %t.tuned.mlir %t.replayed.mlir
//
// Without sizes, the dynamic function cannot be analyzed.
// RUN: not tuner-opt %s --tuner-apply="function=mm config=%S/Inputs/matmul-dynamic.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSING

// IR-LABEL: func.func @mm(%arg0: tensor<?x?xf32>, %arg1: tensor<?x?xf32>) -> tensor<?x?xf32>
// IR:         scf.forall
// IR:           scf.if
// IR:             vector.fma {{.*}} : vector<16xf32>

// EXEC:      0
// EXEC-NEXT: 0
// EXEC-NEXT: 0
// EXEC-NEXT: 0

// MISSING: error: argument #0 of @mm has dynamic type 'tensor<?x?xf32>': give the sizes to tune for with the shapes option, e.g. shapes=arg0=<d0>x<d1>

func.func @mm(%A: tensor<?x?xf32>, %B: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %A, %c0 : tensor<?x?xf32>
  %n = tensor.dim %B, %c1 : tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %C = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %R = linalg.matmul ins(%A, %B : tensor<?x?xf32>, tensor<?x?xf32>) outs(%C : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %R : tensor<?x?xf32>
}

// The untransformed function, to compare with.
func.func private @reference(%A: tensor<?x?xf32>, %B: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %A, %c0 : tensor<?x?xf32>
  %n = tensor.dim %B, %c1 : tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %C = tensor.generate %m, %n {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<?x?xf32>
  %R = linalg.matmul ins(%A, %B : tensor<?x?xf32>, tensor<?x?xf32>) outs(%C : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %R : tensor<?x?xf32>
}

// Small integers: every sum is exact, whatever the order.
func.func private @input(%rows: index, %cols: index, %seed: index) -> tensor<?x?xf32> {
  %t = tensor.generate %rows, %cols {
  ^bb0(%i: index, %j: index):
    %c7 = arith.constant 7 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %a = arith.muli %i, %c7 : index
    %b = arith.muli %j, %c3 : index
    %s = arith.addi %a, %b : index
    %s2 = arith.addi %s, %seed : index
    %r = arith.remui %s2, %c5 : index
    %ri = arith.index_cast %r : index to i32
    %f = arith.sitofp %ri : i32 to f32
    %c2 = arith.constant 2.0 : f32
    %v = arith.subf %f, %c2 : f32
    tensor.yield %v : f32
  } : tensor<?x?xf32>
  return %t : tensor<?x?xf32>
}

// Prints the number of elements where @mm and @reference differ at M x K x N.
func.func private @check(%m: index, %k: index, %n: index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %A = func.call @input(%m, %k, %c1) : (index, index, index) -> tensor<?x?xf32>
  %B = func.call @input(%k, %n, %c2) : (index, index, index) -> tensor<?x?xf32>
  %got = func.call @mm(%A, %B) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %want = func.call @reference(%A, %B) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %zero = arith.constant 0 : i64
  %init = tensor.from_elements %zero : tensor<i64>
  %count = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%got, %want : tensor<?x?xf32>, tensor<?x?xf32>) outs(%init : tensor<i64>) {
  ^bb0(%g: f32, %w: f32, %acc: i64):
    %ne = arith.cmpf une, %g, %w : f32
    %one = arith.extui %ne : i1 to i64
    %sum = arith.addi %acc, %one : i64
    linalg.yield %sum : i64
  } -> tensor<i64>
  %value = tensor.extract %count[] : tensor<i64>
  vector.print %value : i64
  return
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c37 = arith.constant 37 : index
  %c40 = arith.constant 40 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  %c67 = arith.constant 67 : index
  %c100 = arith.constant 100 : index
  %c129 = arith.constant 129 : index
  func.call @check(%c64, %c40, %c48) : (index, index, index) -> ()
  func.call @check(%c37, %c5, %c3) : (index, index, index) -> ()
  func.call @check(%c1, %c1, %c1) : (index, index, index) -> ()
  func.call @check(%c100, %c129, %c67) : (index, index, index) -> ()
  return
}
