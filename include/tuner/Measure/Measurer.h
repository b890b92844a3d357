//===- Measurer.h - Measure candidates against a baseline -------*- C++ -*-===//
//
// The measurement protocol of DESIGN.md: the untransformed module is lowered
// (buildCpuLoweringPipeline), compiled to native code at -O3 for the host and
// run once in a child process (`tuner-run`) to give the baseline time and
// outputs; every candidate then goes through the same pipeline and harness,
// on the same deterministic random inputs, and is verified against the
// baseline's outputs before its time counts.
//
//   auto measurer = Measurer::create(module, "matmul", Target::host());
//   if (!measurer) ...;
//   std::vector<Measurement> results = (*measurer)->measureAll(candidates);
//
// Lowering runs in-process in a private MLIRContext per candidate (a crash in
// a pass is caught and reported as compile_failed); the native compiler and
// the harness run in child processes with time (and memory) limits. A batch
// (measureAll) is compiled with one clang call per compile job, into shared
// objects holding several candidates under distinct symbol names, and run
// in one harness process (a fresh one for the rest after a candidate that
// crashes or hangs): the results and failure classes are each candidate's
// own, as if it had been measured alone.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_MEASURE_MEASURER_H
#define TUNER_MEASURE_MEASURER_H

#include "tuner/Measure/GpuLowering.h"
#include "tuner/Measure/Harness.h"
#include "tuner/Measure/Lowering.h"
#include "tuner/Support/Measurement.h"
#include "tuner/Target/Target.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace func {
class FuncOp;
} // namespace func
} // namespace mlir

namespace tuner {

/// Per-call times below this are too short for a schedule to matter: a
/// repetition calls the function many times (MeasureOptions::
/// minRepetitionSeconds) so the time is precise, but the call itself, the
/// argument set-up and the timer's resolution (tens of nanoseconds) are then
/// a large part of it, and a "speedup" mostly measures them.
constexpr double kShortestMeaningfulSeconds = 1e-6;

struct MeasureOptions {
  /// Timed repetitions per candidate (at least 5 for the protocol).
  unsigned repetitions = 5;
  /// Each repetition calls the function until it lasts this long.
  double minRepetitionSeconds = 0.02;
  /// CPU targets: each candidate is timed this many times (its repetitions
  /// each time), each round in a harness process of its own over the whole
  /// batch, and the least median of the undisturbed timings counts
  /// (isBetterTiming); a crash or hang in any round is the candidate's
  /// result. On the shared 2-core VMs every function one harness process
  /// times can run 1.3-2x slower than in the next process, and the host
  /// has slow spells of 0.25-12 s (a 256-KiB read over 1.15x its best in a
  /// fifth of the probes): both cover whole timings, so the median of one
  /// timing's repetitions cannot see them, and both only ever slow a
  /// timing down. GPU candidates are timed once (CUDA events).
  unsigned rounds = 2;
  /// CPU targets: every harness process that times candidates times the
  /// baseline first, and a candidate's speedup is the geometric mean over
  /// the rounds of the baseline's time over its own in the same process
  /// (pairedSpeedup), so that what slows a whole process or a spell of the
  /// host down cancels in the ratio. Costs one timing of the baseline per
  /// process. Off: the baseline's time from create() over the candidate's
  /// kept time.
  bool pairedBaseline = true;
  /// Wall-clock limit for one harness run (call, warm-up and repetitions).
  double timeoutSeconds = 60;
  /// Wall-clock limit for the native compiler on one candidate. A
  /// candidate that exceeds it is compile_failed. A group of n candidates
  /// compiled in one call gets this much times 1 + (n - 1) / 4; past that,
  /// each of its members is compiled alone with its own limit.
  double compileTimeoutSeconds = 300;
  /// A candidate whose LLVM IR is larger than this many bytes is compiled
  /// alone, never in a group: its -O3 can take minutes (a fully unrolled
  /// convolution tile is 17-20 MB), and in a group it would hold up the
  /// others and, past the group's limit, make every member compile again.
  size_t compileAloneBytes = size_t(4) << 20;
  /// Data-segment limit of the harness in MiB (0: none).
  unsigned memoryLimitMB = 8192;
  /// Compile jobs of measureAll (0: one per hardware thread): this many
  /// threads lower its candidates, each compiling what it lowered with one
  /// clang call, and compile alone the members of a group that is still
  /// compiling when they run out of work.
  unsigned jobs = 0;
  CpuLoweringOptions lowering;
  /// Pin the harness to this core (-1: no pinning; pinning also confines
  /// OpenMP to that core).
  int pinCore = -1;
  /// Seed of the random inputs.
  uint64_t seed = 1;
  /// Values of scalar arguments by argument number; the others get
  /// defaultScalarValue.
  std::map<unsigned, double> scalarValues;
  /// A timing during which other processes kept more than this many cores
  /// busy, on average, is taken again (after a pause), up to
  /// `contentionRetries` times; the least disturbed one is kept.
  double maxForeignLoad = kMaxForeignLoad;
  unsigned contentionRetries = 3;
  /// Length of the longest reduction a schedule may reorder, for the float
  /// tolerance; 0 estimates it from the original module.
  int64_t reductionLength = 0;
  /// Keep the work directory and every candidate's files.
  bool keepFiles = false;
  /// Parent of the work directory (empty: the system temporary directory).
  std::string workDirectory;
  /// The native compiler (empty: clang-22 on PATH, then
  /// /usr/lib/llvm-22/bin/clang, then clang).
  std::string clangPath;
  /// The harness (empty: tuner-run next to the running executable, then on
  /// PATH).
  std::string harnessPath;
  /// GPU targets: the CUDA toolkit whose ptxas compiles the kernels.
  std::string cudaToolkitPath = "/usr/local/cuda";
  /// GPU targets: the project's CUDA runtime (the mgpu* functions) that
  /// shared objects link (empty: libTunerCudaRuntime.so in the lib folder
  /// beside the harness's bin folder).
  std::string cudaRuntimePath;
};

/// Where a Measurer's time went, summed over its candidates (the baseline
/// included). Compile times are summed over the threads that compile in
/// parallel; the harness's own phases come from its reports.
struct MeasureStats {
  /// In-process lowering to LLVM IR (parse, pass pipeline, translation).
  double lowerSeconds = 0;
  /// The native compiler (clang -O3 and its link), wall time per call.
  double clangSeconds = 0;
  unsigned clangCalls = 0;
  /// Harness processes, wall time from start to exit.
  double harnessSeconds = 0;
  unsigned harnessRuns = 0;
  /// Inside the harness: start-up and input generation, the verification
  /// call, the warm-up (calibration), the timed repetitions.
  double inputSeconds = 0, firstCallSeconds = 0, warmupSeconds = 0,
         timedSeconds = 0;
  /// Timings taken again because of foreign load, and the pauses before.
  unsigned retries = 0;
  double pauseSeconds = 0;
  /// Comparing outputs with the baseline's.
  double verifySeconds = 0;

  MeasureStats &operator+=(const MeasureStats &other);
};

/// The harness a Measurer with `options` runs: options.harnessPath, else
/// tuner-run next to the running executable, else on PATH; empty when none
/// is found. Long runs resolve it once, at their start: a rebuild that
/// replaces the running executable hides its folder from later lookups.
std::string findHarness(const MeasureOptions &options);

class Measurer {
public:
  /// Checks that `function` in `original` can be fed by the harness (static
  /// shapes, supported element types, memref/tensor arguments only), then
  /// lowers, compiles and measures the module as is: the baseline. Fails with
  /// a message if the inputs are unusable or the baseline itself does not
  /// compile, crashes, times out or gives outputs the harness cannot read.
  /// Measurements run on this machine: a CPU `target` must describe the host
  /// CPU. For a GPU target (`target.isGpu()`), candidates go through the GPU
  /// lowering (buildGpuLoweringPipeline for the target's chip, cubins
  /// through ptxas) into shared objects that link the project's CUDA runtime
  /// and run in `tuner-run --gpu`; the outputs every candidate is verified
  /// against come from the CPU lowering of the untransformed function (same
  /// inputs, one call), and the baseline time from the untransformed
  /// function mapped naively onto the GPU (itself verified).
  static llvm::Expected<std::unique_ptr<Measurer>>
  create(mlir::ModuleOp original, llvm::StringRef function,
         const Target &target, MeasureOptions options = {});
  /// Removes the work directory unless keepFiles.
  ~Measurer();
  Measurer(const Measurer &) = delete;
  Measurer &operator=(const Measurer &) = delete;

  /// The untransformed module's measurement (speedup 1).
  const Measurement &baseline() const { return baselineMeasurement; }
  /// Measures one candidate: a module holding the same function with the
  /// same signature (top-level transform-dialect ops, e.g. a schedule left
  /// in the file, are ignored). Never fails: problems are statuses.
  Measurement measure(mlir::ModuleOp candidate);
  /// Compiles all candidates (`jobs` threads, one shared object and one
  /// clang call per thread), then runs them one after the other in one
  /// harness process (inputs generated once), so that no compilation
  /// disturbs a timing. A candidate that crashes or hangs is classified as
  /// such and the others still run; results are as if each candidate had
  /// been measured alone.
  std::vector<Measurement>
  measureAll(llvm::ArrayRef<mlir::ModuleOp> candidates);

  const HarnessSpec &spec() const { return harnessSpec; }
  /// The reduction length the float tolerance is computed for.
  int64_t reductionLength() const { return reduction; }
  llvm::StringRef workDirectory() const { return workDir; }
  /// The rounds each function is timed in: MeasureOptions::rounds on a
  /// CPU, one on a GPU (CUDA events).
  unsigned timingRounds() const { return lowerForGpu ? 1 : options.rounds; }
  /// Whether candidates' speedups come from timings paired with the
  /// baseline's in each harness process (MeasureOptions::pairedBaseline on
  /// a CPU).
  bool pairsBaseline() const { return pairedBaseline != nullptr; }
  /// Where this measurer's time went so far.
  const MeasureStats &stats() const { return measureStats; }

private:
  struct Compiled;
  struct Lowered;
  struct CompileGroup;
  Measurer() = default;
  llvm::Error initialize(mlir::ModuleOp original, llvm::StringRef function,
                         const Target &target);
  /// Compiles and runs the original module (serialized in `text`) as
  /// `stem` with the current pipeline; its outputs go to `outputs`.
  /// `keep`: keep it compiled as pairedBaseline.
  llvm::Expected<Measurement> runOriginal(const std::string &text,
                                          llvm::StringRef stem,
                                          std::string &outputs,
                                          bool keep = false);
  /// The text of `candidate` without top-level transform ops.
  std::string serialize(mlir::ModuleOp candidate) const;
  /// Lowers serialized modules to LLVM IR and compiles them into shared
  /// objects on `jobs` threads: each lowers candidates from a shared queue
  /// and compiles those it lowered with one clang call (or, when that
  /// fails, one call per candidate, so that a failure is its own
  /// candidate's); a thread left without work compiles the members of a
  /// group still compiling alone, and the first to finish wins.
  /// `limitSize`: hold them to the lowering's size limit
  /// (CpuLoweringOptions::maxOps; never the original).
  std::vector<Compiled> compileAll(llvm::ArrayRef<std::string> texts,
                                   llvm::ArrayRef<std::string> stems,
                                   bool limitSize = true) const;
  /// Lowers one serialized module to LLVM IR, its exported symbols renamed
  /// after `stem`. Thread-safe.
  Lowered lower(const std::string &moduleText, const std::string &stem,
                bool limitSize) const;
  /// What compiling `member` gives before it is compiled: its stem, the
  /// symbol the harness calls, and its lowering error if any.
  Compiled uncompiled(const Lowered &member) const;
  /// Compiles one lowered candidate into <stem>.so within the
  /// per-candidate limit (killed early when `cancel` is set).
  Compiled compileAlone(const Lowered &member,
                        const std::atomic<bool> *cancel) const;
  /// Compiles `group`'s members with one clang call, then alone what is
  /// left when that call did not win.
  void compileGroupCall(CompileGroup &group) const;
  /// Compiles members of `group` alone until none is left or the group's
  /// call has won.
  void compileMembersAlone(CompileGroup &group) const;
  /// Runs clang on `ir` into <stem>.so within `timeoutSeconds` (killed
  /// early when `cancel` is set); the error message when it fails.
  std::optional<std::string> runClang(const std::string &ir,
                                      const std::string &stem, bool usesOpenMP,
                                      double timeoutSeconds,
                                      const std::atomic<bool> *cancel = nullptr) const;
  /// Runs compiled candidates in MeasureOptions::rounds rounds (CPU; one
  /// on a GPU) and keeps each one's best timing (isBetterTiming); fills
  /// `outputs`, from the first round, for the successful ones.
  std::vector<Measurement> runAll(llvm::ArrayRef<const Compiled *> batch,
                                  std::vector<std::string> &outputs) const;
  /// One round: runs compiled candidates in harness processes (one for all
  /// of them; a fresh one for the rest after a candidate that crashed or
  /// hung), each timed again when other processes disturbed its timing
  /// (see MeasureOptions::maxForeignLoad). Round 0 writes and reads the
  /// outputs; later rounds only time (their files are named `.rN`).
  /// With `pairWith` (the baseline), every process times it first (after
  /// the candidates without OpenMP when it uses OpenMP) and
  /// `pairedTimings[i]` is its timing in the process that timed candidate
  /// i (unset when none; a process the baseline itself ends is run again
  /// without it).
  std::vector<Measurement>
  runRound(llvm::ArrayRef<const Compiled *> batch,
           std::vector<std::string> &outputs, unsigned round,
           const Compiled *pairWith = nullptr,
           std::vector<std::optional<Measurement>> *pairedTimings =
               nullptr) const;
  /// `name` in the work directory.
  std::string pathFor(llvm::StringRef name) const;
  /// Removes the files of candidates `stems` unless keepFiles.
  void removeFiles(llvm::ArrayRef<std::string> stems) const;
  std::string newStem();

  MeasureOptions options;
  Target target;
  mlir::DialectRegistry registry;
  HarnessSpec harnessSpec;
  std::string functionName;
  /// The function type of the original, printed: candidates must match it.
  std::string signature;
  /// The same with tensors as memrefs: GPU candidates must match it.
  std::string gpuSignature;
  int64_t reduction = 1;
  std::string workDir, specPath, clang, libomp, harness;
  std::string baselineOutputs;
  Measurement baselineMeasurement;
  /// The compiled baseline every round times beside the candidates (CPU
  /// with MeasureOptions::pairedBaseline; null otherwise).
  std::unique_ptr<Compiled> pairedBaseline;
  unsigned nextCandidate = 0;
  mutable MeasureStats measureStats;
  /// GPU target: candidates are lowered for the GPU and run on it (false
  /// only while the CPU reference of a GPU target is computed).
  bool lowerForGpu = false;
  GpuLoweringOptions gpuLowering;
  /// The CUDA runtime GPU shared objects link (empty if none was found: the
  /// mgpu* symbols stay undefined and the harness reports it).
  std::string cudaRuntime;
  /// Guards measureStats while candidates compile in parallel.
  mutable std::mutex statsMutex;
};

/// The harness spec for `function`: one buffer per argument (compared if it
/// is a memref, since the function may write it) and one out-param per
/// result (compared). A scalar argument is a rank-0 buffer holding
/// `scalarValues[i]` (keyed by argument number), else defaultScalarValue; a
/// scalar result is a compared rank-0 out-param. Fails, naming the argument
/// or result, on dynamic shapes, non-identity layouts, memory spaces other
/// than integer ones (a GPU address space), element types the harness
/// cannot fill, and values given for arguments that are not scalars or do
/// not fit their type.
llvm::Expected<HarnessSpec>
buildHarnessSpec(mlir::func::FuncOp function, uint64_t seed,
                 const std::map<unsigned, double> &scalarValues = {});

/// Parses "arg0=2.5,arg3=7" (scalar argument values by argument number).
llvm::Expected<std::map<unsigned, double>>
parseScalarValues(llvm::StringRef text);

/// The longest reduction under `root`: the largest product of static
/// reduction-loop extents over linalg ops; without linalg ops, the largest
/// static trip count of any loop (a generous stand-in). At least 1.
int64_t estimateReductionLength(mlir::Operation *root);

} // namespace tuner

#endif // TUNER_MEASURE_MEASURER_H
