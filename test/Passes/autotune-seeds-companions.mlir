// The analytic seeds of a program with element-wise nests beside its
// contractions (2mm: tmp = alpha * (A * B); D' = beta * D + tmp * C): the
// nests that compute a contraction's init (the fill of A * B, beta * D of
// the second product) are fused into that contraction's row tiles, and the
// others (alpha * (A * B)) run vectorized on all cores in row tiles of
// their own. With budget=2, exactly the two seeds are measured (each
// verified against the untransformed function by the harness); the tuned
// module runs with mlir-runner to the untransformed module's output, and
// stock mlir-opt replays the schedule.
// RUN: rm -f %t.db %t.db-wal %t.db-shm
// RUN: tuner-opt %s --tuner-autotune="function=mm2 budget=2 target=%S/../Space/Inputs/avx512-4core.json database=%t.db schedule-output=%t.schedule.mlir" -o %t.tuned.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: tuner-db --db %t.db export | sed -e 's/\\//g' | FileCheck %s --check-prefix=SEEDS
// RUN: FileCheck %s --check-prefix=SCRIPT < %t.schedule.mlir
// RUN: %mlir_opt %s --load-dialect-plugin=%tuner_plugin --transform-preload-library=transform-library-paths=%t.schedule.mlir --transform-interpreter=entry-point=__transform_main > %t.replayed.mlir
// RUN: tuner-opt %t.tuned.mlir > %t.tuned.canonical.mlir
// RUN: tuner-opt %t.replayed.mlir > %t.replayed.canonical.mlir
// RUN: diff %t.tuned.canonical.mlir %t.replayed.canonical.mlir
// RUN: %mlir_opt %s --one-shot-bufferize=bufferize-function-boundaries --convert-linalg-to-loops --scf-forall-to-for --convert-vector-to-scf --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-ub-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%c_runner_utils,%runner_utils | grep -v base@ > %t.reference.txt
// RUN: %mlir_opt %t.tuned.mlir --one-shot-bufferize=bufferize-function-boundaries --convert-linalg-to-loops --scf-forall-to-for --convert-vector-to-scf --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-ub-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%c_runner_utils,%runner_utils | grep -v base@ > %t.output.txt
// RUN: diff %t.reference.txt %t.output.txt
// RUN: FileCheck %s --check-prefix=EXEC < %t.output.txt

// REMARK: remark: autotune @mm2: {{.*}}; 2 candidates (2 measured, 0 from the database), 0 failed

// Both seeds: the fill and beta * D fused (their own schedules untouched),
// alpha * (A * B) vectorized and parallel in row tiles of 160 / (8 x 4
// cores) = 5 rows, 64 columns (four vectors) at a time.
// SEEDS-COUNT-2: "fill_0.vectorize":false,"fuse.fill_0.matmul_1":true,"fuse.generic_2.matmul_4":false,"fuse.generic_3.matmul_4":true,"fuse.matmul_1.generic_2":false,"generic_2.distribute":"outer","generic_2.order":[0,1],"generic_2.parallel":true,"generic_2.partial":"peel","generic_2.rtile.l0":1,"generic_2.rtile.l1":64,"generic_2.tile.l0":5,"generic_2.tile.l1":96,"generic_2.unroll":1,"generic_2.vectorize":true,"generic_3.distribute":"all",

// SCRIPT: // matmul_1: tile [{{[0-9]+}}, 0, 0], register tile [{{[0-9]+}}, 32, 1], fuse fill_0, vectorize, parallel (outer loop)
// SCRIPT: // generic_2: tile [5, 0], register tile [1, 64], vectorize, parallel (outer loop)
// SCRIPT: // matmul_4: tile [{{[0-9]+}}, 0, 0], register tile [{{[0-9]+}}, 32, 1], fuse generic_3, vectorize, parallel (outer loop)

// EXEC: {{^}}{{\[\[}}

func.func @mm2(%A: tensor<160x40xf32>, %B: tensor<40x96xf32>,
               %C: tensor<96x96xf32>, %D: tensor<160x96xf32>)
    -> tensor<160x96xf32> {
  %zero = arith.constant 0.0 : f32
  %alpha = arith.constant 1.5 : f32
  %beta = arith.constant 1.25 : f32
  %e0 = tensor.empty() : tensor<160x96xf32>
  %t0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<160x96xf32>)
      -> tensor<160x96xf32>
  %t1 = linalg.matmul ins(%A, %B : tensor<160x40xf32>, tensor<40x96xf32>)
                      outs(%t0 : tensor<160x96xf32>) -> tensor<160x96xf32>
  %t2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                         affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%t1 : tensor<160x96xf32>) outs(%e0 : tensor<160x96xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.mulf %alpha, %x : f32
    linalg.yield %s : f32
  } -> tensor<160x96xf32>
  %e1 = tensor.empty() : tensor<160x96xf32>
  %d1 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                         affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%D : tensor<160x96xf32>) outs(%e1 : tensor<160x96xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.mulf %beta, %x : f32
    linalg.yield %s : f32
  } -> tensor<160x96xf32>
  %r = linalg.matmul ins(%t2, %C : tensor<160x96xf32>, tensor<96x96xf32>)
                     outs(%d1 : tensor<160x96xf32>) -> tensor<160x96xf32>
  return %r : tensor<160x96xf32>
}

// Small integers ((7 i + 3 j) mod 5 - 2 and the like), scaled by 1.5 and
// 1.25: every product and sum is exact in f32, so any reordering of the
// reductions gives the same bits.
func.func @fill2d(%t: tensor<?x?xf32>, %a: index, %b: index) -> tensor<?x?xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%t : tensor<?x?xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ai = arith.muli %i, %a : index
    %bj = arith.muli %j, %b : index
    %s = arith.addi %ai, %bj : index
    %c5 = arith.constant 5 : index
    %m = arith.remui %s, %c5 : index
    %c2 = arith.constant 2 : index
    %v = arith.subi %m, %c2 : index
    %n = arith.index_cast %v : index to i64
    %f = arith.sitofp %n : i64 to f32
    linalg.yield %f : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %c40 = arith.constant 40 : index
  %c160 = arith.constant 160 : index
  %c96 = arith.constant 96 : index
  %ea = tensor.empty(%c160, %c40) : tensor<?x?xf32>
  %a = call @fill2d(%ea, %c7, %c3) : (tensor<?x?xf32>, index, index) -> tensor<?x?xf32>
  %eb = tensor.empty(%c40, %c96) : tensor<?x?xf32>
  %b = call @fill2d(%eb, %c3, %c7) : (tensor<?x?xf32>, index, index) -> tensor<?x?xf32>
  %ec = tensor.empty(%c96, %c96) : tensor<?x?xf32>
  %c = call @fill2d(%ec, %c7, %c7) : (tensor<?x?xf32>, index, index) -> tensor<?x?xf32>
  %ed = tensor.empty(%c160, %c96) : tensor<?x?xf32>
  %d = call @fill2d(%ed, %c3, %c3) : (tensor<?x?xf32>, index, index) -> tensor<?x?xf32>
  %A = tensor.cast %a : tensor<?x?xf32> to tensor<160x40xf32>
  %B = tensor.cast %b : tensor<?x?xf32> to tensor<40x96xf32>
  %C = tensor.cast %c : tensor<?x?xf32> to tensor<96x96xf32>
  %D = tensor.cast %d : tensor<?x?xf32> to tensor<160x96xf32>
  %R = call @mm2(%A, %B, %C, %D) : (tensor<160x40xf32>, tensor<40x96xf32>, tensor<96x96xf32>, tensor<160x96xf32>) -> tensor<160x96xf32>
  %u = tensor.cast %R : tensor<160x96xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
