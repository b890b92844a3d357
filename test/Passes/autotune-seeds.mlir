// The model-guided strategies measure the analytic micro-kernel schedules
// (seeds: register tiles shaped for the target's vector registers, cache
// tiles from its L1 and L2, the row tiles on all cores) first, beside their
// top k. Every extent here is prime, so no tile but 1 and the extent
// divides it: the seeds' tiles are the nearest sizes the space offers, and
// their partial row tiles padded to full ones (partial = "pad"; the other
// partial tiles peeled). With budget=2, exactly the two seeds are
// measured (each verified against the untransformed function by the
// harness); the tuned module runs with mlir-runner to the untransformed
// module's output, and stock mlir-opt replays the schedule.
// RUN: rm -f %t.db %t.db-wal %t.db-shm
// RUN: tuner-opt %s --tuner-autotune="function=mm budget=2 target=%S/../Space/Inputs/avx512-4core.json database=%t.db schedule-output=%t.schedule.mlir summary-output=%t.summary.json" -o %t.tuned.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: tuner-db --db %t.db export | sed -e 's/\\//g' | FileCheck %s --check-prefix=SEEDS
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
//
// Without seeds, beam search measures its top 1; with them, the seeds too.
// RUN: tuner-opt %s --tuner-autotune="function=mm strategy=beam top-k=1 seeds=0 database=none summary-output=%t.none.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=NONE < %t.none.json
// RUN: tuner-opt %s --tuner-autotune="function=mm strategy=beam top-k=1 database=none summary-output=%t.two.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=TWO < %t.two.json

// REMARK: remark: autotune @mm: {{.*}}; 2 candidates (2 measured, 0 from the database), 0 failed

// Half the 14 rows the 32 registers hold (7, offered as 8) by two vectors
// of 16 lanes, the reduction register-tiled by 1 and lowered to outer
// products; 67 / (8 x 4 cores) rows, offered as 8; kc = 256 and nc = 1024
// (a quarter of L1 and of L2) are beyond the extents (not tiled).
// SEEDS-DAG: "matmul_1.distribute":"outer","matmul_1.lowering":"outerproduct","matmul_1.order":[0,1,2],"matmul_1.parallel":true,"matmul_1.partial":"pad","matmul_1.rtile.l0":8,"matmul_1.rtile.l1":32,"matmul_1.rtile.l2":1,"matmul_1.tile.l0":8,"matmul_1.tile.l1":61,"matmul_1.tile.l2":53,"matmul_1.unroll":1,"matmul_1.vectorize":true
// All 14 rows: a 14 x 32 register tile in 16-row tiles.
// SEEDS-DAG: "matmul_1.rtile.l0":14,"matmul_1.rtile.l1":32,"matmul_1.rtile.l2":1,"matmul_1.tile.l0":16,

// EXEC: {{^}}{{\[\[}}106,   -53,   -2,   4,   -55,

// NONE: "candidates": 1,
// TWO: "candidates": 3,

func.func @mm(%A: tensor<67x53xf32>, %B: tensor<53x61xf32>) -> tensor<67x61xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<67x61xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<67x61xf32>) -> tensor<67x61xf32>
  %D = linalg.matmul ins(%A, %B : tensor<67x53xf32>, tensor<53x61xf32>)
                     outs(%C : tensor<67x61xf32>) -> tensor<67x61xf32>
  return %D : tensor<67x61xf32>
}

// Small integers ((7 i + 3 j) mod 5 - 2 and the like), whose products and
// sums f32 holds exactly: any reordering of the reduction gives the same
// bits.
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
  %c53 = arith.constant 53 : index
  %c61 = arith.constant 61 : index
  %c67 = arith.constant 67 : index
  %ea = tensor.empty(%c67, %c53) : tensor<?x?xf32>
  %a = call @fill2d(%ea, %c7, %c3) : (tensor<?x?xf32>, index, index) -> tensor<?x?xf32>
  %eb = tensor.empty(%c53, %c61) : tensor<?x?xf32>
  %b = call @fill2d(%eb, %c3, %c7) : (tensor<?x?xf32>, index, index) -> tensor<?x?xf32>
  %A = tensor.cast %a : tensor<?x?xf32> to tensor<67x53xf32>
  %B = tensor.cast %b : tensor<?x?xf32> to tensor<53x61xf32>
  %D = call @mm(%A, %B) : (tensor<67x53xf32>, tensor<53x61xf32>) -> tensor<67x61xf32>
  %u = tensor.cast %D : tensor<67x61xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
