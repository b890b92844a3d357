//===- Passes.td - The tuner's passes ----------------------*- tablegen -*-===//
//
// Every pass of the tuner. Passes are thin drivers over the libraries: they
// read options, call Analysis / Space / Schedule, and report diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_PASSES
#define TUNER_PASSES

include "mlir/Pass/PassBase.td"

/// Options that shape the search space; shared by every pass that builds
/// one, so that a space means the same everywhere.
defvar TunerSpaceOptions = [
    Option<"functionName", "function", "std::string", /*default=*/"\"\"",
           "Function to work on (default: every function with loop nests for "
           "tuner-autotune, else the only one)">,
    Option<"shapes", "shapes", "std::string", /*default=*/"\"\"",
           "Sizes to tune a function with dynamic shapes for: "
           "'arg0=64x48,arg1=48x32' (full static shapes by argument "
           "position), or '@file.json' holding a list of such sets (tuned "
           "at the first, verified at all)">,
    Option<"target", "target", "std::string", /*default=*/"\"host\"",
           "Target: 'host' or a target description JSON file">,
    Option<"tile", "tile", "bool", /*default=*/"true", "Tile loops">,
    Option<"registerTile", "register-tile", "bool", /*default=*/"true",
           "Second, register-level tiling">,
    Option<"interchange", "interchange", "bool", /*default=*/"true",
           "Choose the loop order">,
    Option<"unroll", "unroll", "bool", /*default=*/"true", "Unroll">,
    Option<"vectorize", "vectorize", "bool", /*default=*/"true", "Vectorize">,
    Option<"parallelize", "parallelize", "bool", /*default=*/"true",
           "Run outer loops on all cores">,
    Option<"fuse", "fuse", "bool", /*default=*/"true",
           "Fuse producers into consumers">,
    Option<"maxTileCandidates", "max-tile-candidates", "unsigned",
           /*default=*/"10", "Tile sizes tried per loop">,
    Option<"partialTiles", "partial-tiles", "bool", /*default=*/"true",
           "Offer tile sizes that do not divide the extent (peeled) and "
           "register tiles shaped for the vector registers">,
    Option<"contractionLowering", "contraction-lowering", "bool",
           /*default=*/"true",
           "Offer how vectorized contractions are lowered">,
    Option<"distribution", "distribute", "bool", /*default=*/"true",
           "Offer which tiled parallel loops run on all cores">,
    Option<"skew", "skew", "bool", /*default=*/"true",
           "Offer skewing (time tiling, wavefronts) for affine bands that "
           "are not fully permutable">,
    Option<"convolution", "convolution", "bool", /*default=*/"true",
           "Offer how convolutions are computed (direct, im2col, "
           "decomposed into 1-D convolutions)">,
];

def TunerPrintProgram : Pass<"tuner-print-program", "mlir::ModuleOp"> {
  let summary = "Print the ProgramTree (loops, computations, accesses) of "
                "each function";
  let description = [{
    Prints, for every function that holds linalg ops or affine loop nests,
    the tree the cost model and the search space see: loops with extent,
    bounds and iterator kind; computations with their written buffer, access
    matrices and operation counts; and producer/consumer edges. The IR is not
    changed.
  }];
  let options = [
    Option<"format", "format", "std::string", /*default=*/"\"text\"",
           "Output format: text or json">,
    Option<"shapes", "shapes", "std::string", /*default=*/"\"\"",
           "Sizes to analyze the functions with dynamic shapes at: "
           "'arg0=64x48,arg1=48x32' (full static shapes by argument "
           "position), or '@file.json' holding a list of such sets (tuned "
           "at the first, verified at all)">,
  ];
}

def TunerExtractSpace : Pass<"tuner-extract-space", "mlir::ModuleOp"> {
  let summary = "Extract the schedule search space of a function";
  let description = [{
    Builds the typed, constrained space of schedules (tiling, interchange,
    unrolling, fusion, vectorization, parallelization) of one function and
    writes it as JSON and, optionally, as a Transform-dialect script of
    `transform.tune.knob` ops. With `from-knobs`, the space is instead read
    from the knobs of a user's transform script. The IR is not changed.
  }];
  let options = [
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "Where to write the space as JSON ('-': standard output)">,
    Option<"knobsOutput", "knobs-output", "std::string", /*default=*/"\"\"",
           "Also write the space as transform.tune.knob ops to this file">,
    Option<"fromKnobs", "from-knobs", "std::string", /*default=*/"\"\"",
           "Read the space from the transform.tune.knob ops of this script">,
    Option<"constraints", "constraints", "std::string", /*default=*/"\"\"",
           "With from-knobs: JSON file holding a list of constraints">,
  ] # TunerSpaceOptions;
}

def TunerApply : Pass<"tuner-apply", "mlir::ModuleOp"> {
  let summary = "Apply a schedule configuration to a function";
  let description = [{
    Reads a configuration (one value per parameter, JSON), checks it against
    the function's space, turns it into a Transform-dialect script and
    applies that script in-process. The script can also be written to a file
    and replayed with stock `mlir-opt --transform-interpreter`. A config
    outside the space, violating a constraint or failing to apply is reported
    with the parameter and value at fault, and the module is left untouched.

    With `knobs-script`, the user's script is applied instead, each of its
    `transform.tune.knob` ops set from the config (its space is the one its
    knobs declare, plus `constraints`). With `knobs-script` and `space`, the
    space file (e.g. saved by `--tuner-extract-space` with `from-knobs`) must
    declare the knobs' parameters (same names, kinds and domains) and checks
    the config instead, with its own defaults and constraints.
  }];
  let options = [
    Option<"config", "config", "std::string", /*default=*/"\"\"",
           "JSON file with one value per parameter (a parameter left out "
           "takes its default)">,
    Option<"spaceFile", "space", "std::string", /*default=*/"\"\"",
           "JSON file of the space the config belongs to (default: the "
           "function's space built with the default options; with "
           "knobs-script: the space the knobs declare)">,
    Option<"functionName", "function", "std::string", /*default=*/"\"\"",
           "Function to transform (default: the only one with loop nests)">,
    Option<"shapes", "shapes", "std::string", /*default=*/"\"\"",
           "Sizes to build the space of a function with dynamic shapes at (the space the config belongs to): "
           "'arg0=64x48,arg1=48x32' (full static shapes by argument "
           "position), or '@file.json' holding a list of such sets (tuned "
           "at the first, verified at all)">,
    Option<"scheduleOutput", "schedule-output", "std::string",
           /*default=*/"\"\"",
           "Also write the generated Transform-dialect script to this file">,
    Option<"knobsScript", "knobs-script", "std::string", /*default=*/"\"\"",
           "Apply this user script, its transform.tune.knob ops set from "
           "the config, instead of a generated schedule">,
    Option<"constraints", "constraints", "std::string", /*default=*/"\"\"",
           "With knobs-script and no space file: JSON file holding a list "
           "of constraints">,
    Option<"target", "target", "std::string", /*default=*/"\"host\"",
           "Target: 'host' or a target description JSON file">,
  ];
}

def TunerCheckSpace : Pass<"tuner-check-space", "mlir::ModuleOp"> {
  let summary = "Check that sampled configs of a function's space apply";
  let description = [{
    The property test of the space: for each function with loop nests (or
    the one named), builds its space, draws `samples` configs uniformly
    (Chain-of-Trees, as the random strategy does), turns each into a
    schedule and applies it to a copy of the module, verifying the result.
    A function with dynamic shapes is analyzed at the sizes of `shapes` and
    its schedules are applied to it as it is. Nothing is lowered or
    measured. Prints one line per function to the
    output (`check-space @f: size S, N samples (D distinct), F failed`) and,
    for each config that fails to apply, a line `apply-failed @f <config
    JSON>: <error>`. A function the tuner refuses prints `refused @f:
    <reason>`. The pass fails when some config failed to apply; the IR is not
    changed.
  }];
  let options = [
    Option<"samples", "samples", "unsigned", /*default=*/"20",
           "Configs drawn per function">,
    Option<"seed", "seed", "uint64_t", /*default=*/"1",
           "Seed of the sampler">,
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "Where to write the report ('-': standard output)">,
  ] # TunerSpaceOptions;
}

def TunerAutotune : Pass<"tuner-autotune", "mlir::ModuleOp"> {
  let summary = "Tune the schedule of every function by measurement and "
                "apply the best";
  let description = [{
    Tunes every function of the module with loop nests (or the one named by
    `function`), one after the other. For each, extracts the function's
    search space, lets a search strategy propose
    configs, applies each one, compiles, runs, verifies and times it against
    the untransformed function (measured in the same session), records every
    measurement in the tuning database, and rewrites the function with the
    best verified config. A rerun of the same command resumes: configs already
    in the database are not measured again. Emits a summary remark (baseline
    time, best time, speedup, candidates tried and failed by class) and, on an
    interactive terminal, a progress line; with several functions, a remark
    on the module: how many were tuned, failed and skipped, and the
    geometric-mean speedup. A function with nothing to tune (an empty space,
    dead work, IR the tuner does not model) is skipped with a warning when
    other functions are tuned, an error when it was named; a function whose
    tuning fails (its baseline cannot be measured) is an error, and the
    others are still tuned.
  }];
  let options = [
    Option<"strategy", "strategy", "std::string", /*default=*/"\"mcts\"",
           "Search strategy: beam (with the cost model), mcts (with the "
           "cost model), beam-exec (every node measured), bo (Bayesian "
           "optimization, the cost model as its prior), random, "
           "exhaustive, evolution, annealing, genetic, portfolio">,
    Option<"strategyOptions", "strategy-options", "std::string",
           /*default=*/"\"\"",
           "Settings of the strategy as key=value,key=value (e.g. "
           "'acquisition=ei,initial=8' for bo); a key the strategy does "
           "not read is an error">,
    Option<"model", "model", "std::string", /*default=*/"\"\"",
           "Cost model file for beam and mcts (default: the shipped model)">,
    Option<"beamWidth", "beam-width", "unsigned", /*default=*/"8",
           "Partial schedules kept per level by beam and beam-exec">,
    Option<"topK", "top-k", "unsigned", /*default=*/"8",
           "Best predicted schedules measured at the end of beam and mcts">,
    Option<"mctsIterations", "mcts-iterations", "unsigned",
           /*default=*/"200", "Nodes MCTS expands">,
    Option<"modelCorrection", "model-correction", "std::string",
           /*default=*/"\"none\"",
           "Before each batch of the top-k measurements of beam and mcts, "
           "re-rank the schedules still to measure by what the measurements "
           "so far say of the model: none (the plain top k), gp (the "
           "model's errors on similar measured schedules), adapt (the model "
           "adapted to the function: offset, scale and last layer refitted) "
           "or adapt+gp">,
    Option<"seeds", "seeds", "unsigned", /*default=*/"2",
           "Analytic schedules (micro-kernels sized from the target's "
           "registers and caches, for contractions) that beam and mcts "
           "measure first, beside their top k (0: none)">,
    Option<"diverseTopK", "diverse-top-k", "bool", /*default=*/"false",
           "Measure, of the schedules beam and mcts rank best, only ones at "
           "least one structural decision (or a factor of 16 in tile sizes "
           "and unroll factors) apart while there are such">,
    Option<"confirm", "confirm", "unsigned", /*default=*/"0",
           "After the search, time its best N distinct schedules again, "
           "side by side in one batch (then the leader while it is one not "
           "timed again, up to N more), and apply the best by each "
           "schedule's latest timing; the new timings supersede the "
           "search's in the database (0: apply the best of the search's own "
           "timings). Among many candidates timed once, the best is also "
           "the luckiest timing">,
    Option<"spaceFile", "space", "std::string", /*default=*/"\"\"",
           "Search this narrowed copy of the function's space instead (a "
           "JSON file, e.g. written by tuner-extract-space with some "
           "parameters' values removed; the function's constraints still "
           "apply)">,
    Option<"budget", "budget", "unsigned", /*default=*/"32",
           "Candidates to measure (0: no limit; then set time-budget)">,
    Option<"timeBudget", "time-budget", "double", /*default=*/"0",
           "Seconds to spend searching (0: no limit)">,
    Option<"budgetSplit", "budget-split", "std::string",
           /*default=*/"\"per-function\"",
           "How several functions share 'budget' and 'time-budget': "
           "per-function (each function gets all of it) or shared (the "
           "module gets it, each function an even share of what is left)">,
    Option<"seed", "seed", "uint64_t", /*default=*/"1",
           "Seed of the search: the same seed proposes the same candidates">,
    Option<"database", "database", "std::string", /*default=*/"\"\"",
           "Tuning database (default: the per-user database; 'none': keep "
           "no records)">,
    Option<"scheduleOutput", "schedule-output", "std::string",
           /*default=*/"\"\"",
           "Write the best schedule as a Transform-dialect script here">,
    Option<"summaryOutput", "summary-output", "std::string",
           /*default=*/"\"\"", "Write the summary as JSON here">,
    Option<"repetitions", "repetitions", "unsigned", /*default=*/"5",
           "Timed repetitions per candidate (at least 5)">,
    Option<"rounds", "rounds", "unsigned", /*default=*/"2",
           "CPU targets: times each candidate this many times, in rounds "
           "(a harness process each), and keeps the least median of the "
           "undisturbed timings (the host's slow spells only slow timings "
           "down)">,
    Option<"pairedBaseline", "paired-baseline", "bool", /*default=*/"true",
           "CPU targets: time the baseline in every harness process beside "
           "the candidates and take each candidate's speedup from those "
           "pairs (geometric mean over the rounds)">,
    Option<"timeout", "timeout", "double", /*default=*/"20",
           "Seconds a candidate may run before it counts as a timeout">,
    Option<"compileTimeout", "compile-timeout", "double", /*default=*/"300",
           "Seconds the native compiler may take per candidate (a batch "
           "compiled in one call: per member) before it counts as "
           "compile_failed">,
    Option<"maxLoweredOps", "max-lowered-ops", "uint64_t",
           /*default=*/"::tuner::CpuLoweringOptions::candidateMaxOps",
           "Most operations a candidate's module may hold once its vectors "
           "are unrolled into rows; a larger one counts as compile_failed "
           "before clang sees it (0: no limit; the untransformed function "
           "is never limited)">,
    Option<"jobs", "jobs", "unsigned", /*default=*/"0",
           "Candidates compiled in parallel (0: one per core)">,
    Option<"pinCore", "pin-core", "int", /*default=*/"-1",
           "Pin timed runs to this core (-1: no pinning)">,
    Option<"scalars", "scalars", "std::string", /*default=*/"\"\"",
           "Values of scalar arguments in the measurements, e.g. "
           "arg0=2.5,arg2=7 (default: 1.5 for floats, 3 for integers, "
           "1 for i1)">,
  ] # TunerSpaceOptions;
}

def TunerApplyBest : Pass<"tuner-apply-best", "mlir::ModuleOp"> {
  let summary = "Apply the best recorded schedule of each tuned function";
  let description = [{
    Like MetaSchedule's "apply history best": for every function with loop
    nests (or the one named), looks up the best verified measurement of that
    workload on this machine in the tuning database that was made in the
    space the function has now (built with the pass's space options: the
    record's space fingerprint must match; a record of database schema 1,
    without one, must have a config that reads in the space) and applies its
    config. Functions without a record are left as they are, with a remark;
    a function whose records were all made in another space is an error, and
    the module is left unchanged. The database is only read.
  }];
  let options = [
    Option<"database", "database", "std::string", /*default=*/"\"\"",
           "Tuning database (default: the per-user database)">,
  ] # TunerSpaceOptions;
}

def TunerImportTable : Pass<"tuner-import-table", "mlir::ModuleOp"> {
  let summary = "Record a replay table's measurements in the tuning database "
                "as the autotune pass would have";
  let description = [{
    Reads a replay table (JSON lines {"config", "time", "status"}, as
    benchmarks/strategies/record_tables.py writes them once decompressed)
    of the function's space (or of the narrowed copy in `space`, as the
    autotune pass's `space=` reads it) and records each row in the tuning
    database, keyed as `--tuner-autotune` on this machine keys its own
    records: the function's workload hash, this machine's fingerprint and
    the space's fingerprint. A later autotune run with the same space
    options then recalls every config of the table instead of measuring
    it, and measures only the baseline: strategies can be compared through
    the pass itself (its cost model, seeds and options) without measuring
    again. The recorded times have no speedup: a recalling run divides its
    own baseline by them. A row whose config is already recorded in that
    space is skipped, so importing twice adds nothing. A malformed row is
    an error naming the table and the line, and nothing is recorded.
  }];
  let options = [
    Option<"table", "table", "std::string", /*default=*/"\"\"",
           "Replay table to import (JSON lines, not compressed)">,
    Option<"spaceFile", "space", "std::string", /*default=*/"\"\"",
           "The narrowed space the table was recorded in, as given to "
           "tuner-autotune's 'space' (default: the function's space)">,
    Option<"database", "database", "std::string", /*default=*/"\"\"",
           "Tuning database to write (default: the per-user database)">,
  ] # TunerSpaceOptions;
}

def TunerLowerGpu : Pass<"tuner-lower-gpu", "mlir::ModuleOp"> {
  let summary = "Lower linalg or GPU-scheduled IR to host LLVM IR with an "
                "embedded NVIDIA GPU binary, as the tuner measures it";
  let description = [{
    Runs the GPU lowering pipeline (tuner/Measure/GpuLowering.h) on the
    module: IR whose computations a GPU schedule put in `gpu.launch` ops, or
    an untransformed linalg function, which is mapped naively onto the GPU
    (the baseline). The result is in the LLVM dialect: host functions taking
    memref descriptors of device buffers (results as out-params, a C
    interface `_mlir_ciface_<name>`), kernels compiled to PTX (`format=isa`)
    or cubin (`format=bin`, through the toolkit's ptxas) in `gpu.binary`
    ops; `mlir-translate --mlir-to-llvmir` gives host LLVM IR with the binary
    embedded and calls to MLIR's `mgpu*` runtime functions. The chip and
    features come from `target` (a description of kind gpu) when given.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "Target description JSON file of kind gpu (its chip and PTX "
           "features override chip and features)">,
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "NVVM chip">,
    Option<"features", "features", "std::string", /*default=*/"\"+ptx80\"",
           "NVVM target features">,
    Option<"format", "format", "std::string", /*default=*/"\"bin\"",
           "Embedded binary: isa (PTX), bin (cubin) or fatbin">,
    Option<"optLevel", "opt-level", "unsigned", /*default=*/"3",
           "Optimization level of the NVVM target (0-3)">,
    Option<"toolkit", "toolkit", "std::string",
           /*default=*/"\"/usr/local/cuda\"",
           "CUDA toolkit whose bin/ptxas compiles cubins">,
  ];
}

#endif // TUNER_PASSES
