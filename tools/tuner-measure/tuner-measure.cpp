//===- tuner-measure.cpp - Measure modules against a baseline -------------===//
//
//   tuner-measure base.mlir [candidate.mlir ...] --function f [--json]
//
// Lowers, compiles and runs the baseline and every candidate with the Measure
// library, verifies each candidate's outputs against the baseline's and
// prints status, per-call times and speedup. Exits non-zero on bad input
// (unreadable or unparsable file, missing function, a function the harness
// cannot feed) or when the baseline itself fails; a failing candidate is a
// result, not an error.
//
//===----------------------------------------------------------------------===//

#include "tuner/Measure/Measurer.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tuner;
namespace cl = llvm::cl;

static cl::OptionCategory category("tuner-measure options");
static cl::opt<std::string> baselinePath(cl::Positional, cl::Required,
                                         cl::desc("<baseline.mlir>"),
                                         cl::cat(category));
static cl::list<std::string> candidatePaths(cl::Positional,
                                            cl::desc("[candidate.mlir ...]"),
                                            cl::cat(category));
static cl::opt<std::string> functionName("function", cl::Required,
                                         cl::desc("The function to measure"),
                                         cl::cat(category));
static cl::opt<unsigned> repetitions("repetitions",
                                     cl::desc("Timed repetitions"), cl::init(5),
                                     cl::cat(category));
static cl::opt<unsigned> rounds(
    "rounds",
    cl::desc("Times each candidate this many times, in rounds (a harness "
             "process each), and keeps the least median of the undisturbed "
             "timings (CPU targets; the host's slow spells only slow timings "
             "down)"),
    cl::init(2), cl::cat(category));
static cl::opt<bool> pairedBaseline(
    "paired-baseline",
    cl::desc("Time the baseline in every harness process beside the "
             "candidates and take each candidate's speedup from those pairs "
             "(geometric mean over the rounds), so that a slow process or "
             "spell of the host cancels (CPU targets; default on)"),
    cl::init(true), cl::cat(category));
static cl::opt<double>
    minTime("min-time", cl::desc("Seconds each repetition lasts at least"),
            cl::init(0.02), cl::cat(category));
static cl::opt<double> timeout("timeout",
                               cl::desc("Seconds one harness run may take"),
                               cl::init(60), cl::cat(category));
static cl::opt<double>
    compileTimeout("compile-timeout",
                   cl::desc("Seconds the native compiler may take per "
                            "candidate"),
                   cl::init(300), cl::cat(category));
static cl::opt<uint64_t> maxLoweredOps(
    "max-lowered-ops",
    cl::desc("A candidate whose module holds more operations than this once "
             "its vectors are unrolled into rows is compile_failed (0: no "
             "limit)"),
    cl::init(0), cl::cat(category));
static cl::opt<std::string>
    clangPath("clang",
              cl::desc("The native compiler (default: clang-22 on PATH, "
                       "/usr/lib/llvm-22/bin/clang, or clang on PATH)"),
              cl::value_desc("path"), cl::cat(category));
static cl::opt<uint64_t> compileAloneBytes(
    "compile-alone-bytes",
    cl::desc("Compile a candidate alone, not linked with others into one "
             "shared object, when its LLVM IR has more bytes than this"),
    cl::init(MeasureOptions().compileAloneBytes), cl::cat(category));
static cl::opt<unsigned>
    memoryLimit("memory-limit",
                cl::desc("Harness memory limit in MiB (0: none)"),
                cl::init(8192), cl::cat(category));
static cl::opt<unsigned> jobs("jobs",
                              cl::desc("Parallel compilations (0: all cores)"),
                              cl::init(0), cl::cat(category));
static cl::opt<bool> openmp("openmp",
                            cl::desc("Lower parallel loops to OpenMP"),
                            cl::init(true), cl::cat(category));
static cl::opt<int> core("core", cl::desc("Pin the harness to a core (-1: no)"),
                         cl::init(-1), cl::cat(category));
static cl::opt<uint64_t> seed("seed", cl::desc("Seed of the random inputs"),
                              cl::init(1), cl::cat(category));
static cl::opt<std::string>
    scalars("scalars",
            cl::desc("Values of scalar arguments, e.g. arg0=2.5,arg2=7 "
                     "(default: 1.5 for floats, 3 for integers, 1 for i1)"),
            cl::init(""), cl::cat(category));
static cl::opt<std::string> targetSpec("target",
                                       cl::desc("'host' or a target JSON file"),
                                       cl::init("host"), cl::cat(category));
static cl::opt<bool> keepFiles("keep-files",
                               cl::desc("Keep the work directory"),
                               cl::init(false), cl::cat(category));
static cl::opt<std::string> workDirectory(
    "work-directory",
    cl::desc("Create the work directory (shared objects, IR, outputs) in "
             "this folder (default: the system's temporary folder)"),
    cl::value_desc("dir"), cl::init(""), cl::cat(category));
static cl::opt<bool> json("json", cl::desc("Print JSON"), cl::init(false),
                          cl::cat(category));

/// "12.3 ms", "4.56 us", ...
static std::string formatSeconds(double seconds) {
  const char *unit = "s";
  double value = seconds;
  if (seconds < 1e-6) {
    unit = "ns";
    value = seconds * 1e9;
  } else if (seconds < 1e-3) {
    unit = "us";
    value = seconds * 1e6;
  } else if (seconds < 1) {
    unit = "ms";
    value = seconds * 1e3;
  }
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%.3f %s", value, unit);
  return text;
}

static void printRow(llvm::StringRef name, const Measurement &measurement,
                     bool isBaseline) {
  llvm::outs() << llvm::left_justify(name, 28) << " "
               << llvm::left_justify(statusName(measurement.status), 15);
  if (measurement.ok()) {
    llvm::outs() << "median " << formatSeconds(measurement.medianSeconds)
                 << "  min " << formatSeconds(measurement.minSeconds)
                 << "  max " << formatSeconds(measurement.maxSeconds) << "  ("
                 << measurement.repetitions << " reps)";
    if (!isBaseline)
      llvm::outs() << "  speedup "
                   << llvm::format("%.3fx", measurement.speedup);
  } else {
    llvm::outs() << measurement.message;
  }
  llvm::outs() << "\n";
}

static int error(const llvm::Twine &message) {
  llvm::errs() << "tuner-measure: " << message << "\n";
  return 1;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "tuner-measure: time modules against a baseline, verifying results\n");

  if (!clangPath.empty() && (llvm::sys::fs::is_directory(clangPath) ||
                             !llvm::sys::fs::can_execute(clangPath)))
    return error("--clang: '" + clangPath + "' is not an executable file");

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  MLIRContext context(registry);

  std::vector<std::string> paths = {baselinePath};
  paths.insert(paths.end(), candidatePaths.begin(), candidatePaths.end());
  std::vector<OwningOpRef<ModuleOp>> modules;
  for (const std::string &path : paths) {
    if (!llvm::sys::fs::exists(path))
      return error("cannot read '" + path + "': no such file");
    llvm::SourceMgr sourceMgr;
    SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
    OwningOpRef<ModuleOp> module =
        parseSourceFile<ModuleOp>(path, sourceMgr, ParserConfig(&context));
    if (!module)
      return error("cannot parse '" + path + "'");
    if (!isa_and_nonnull<func::FuncOp>(
            SymbolTable::lookupSymbolIn(*module, functionName)))
      return error("'" + path + "' has no func.func @" + functionName);
    modules.push_back(std::move(module));
  }

  llvm::Expected<Target> target = Target::resolve(targetSpec);
  if (!target)
    return error(llvm::toString(target.takeError()));
  MeasureOptions options;
  options.repetitions = repetitions;
  options.rounds = rounds;
  options.pairedBaseline = pairedBaseline;
  options.minRepetitionSeconds = minTime;
  options.timeoutSeconds = timeout;
  options.compileTimeoutSeconds = compileTimeout;
  options.compileAloneBytes = compileAloneBytes;
  options.clangPath = clangPath;
  options.memoryLimitMB = memoryLimit;
  options.jobs = jobs;
  options.lowering.openmp = openmp;
  options.lowering.maxOps = maxLoweredOps;
  options.pinCore = core;
  options.seed = seed;
  llvm::Expected<std::map<unsigned, double>> scalarValues =
      parseScalarValues(scalars);
  if (!scalarValues)
    return error(llvm::toString(scalarValues.takeError()));
  options.scalarValues = std::move(*scalarValues);
  options.keepFiles = keepFiles;
  options.workDirectory = workDirectory;

  llvm::Expected<std::unique_ptr<Measurer>> measurer =
      Measurer::create(*modules.front(), functionName, *target, options);
  if (!measurer)
    return error("'" + baselinePath +
                 "': " + llvm::toString(measurer.takeError()));
  std::vector<ModuleOp> candidates;
  for (size_t i = 1; i < modules.size(); ++i)
    candidates.push_back(*modules[i]);
  std::vector<Measurement> results = (*measurer)->measureAll(candidates);

  if (json) {
    auto entry = [](llvm::StringRef file, const Measurement &measurement) {
      llvm::json::Value value = measurement.toJSON();
      (*value.getAsObject())["file"] = file;
      return value;
    };
    llvm::json::Array candidateArray;
    for (size_t i = 0; i < results.size(); ++i)
      candidateArray.push_back(entry(candidatePaths[i], results[i]));
    llvm::json::Object report{
        {"function", functionName},
        {"reduction_length", (*measurer)->reductionLength()},
        {"baseline", entry(baselinePath, (*measurer)->baseline())},
        {"candidates", std::move(candidateArray)}};
    if (keepFiles)
      report["work_directory"] = (*measurer)->workDirectory();
    llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(std::move(report)))
                 << "\n";
    return 0;
  }
  llvm::outs() << "@" << functionName << ": " << repetitions
               << " repetitions of >= " << formatSeconds(minTime)
               << ((*measurer)->timingRounds() > 1
                       ? ", best of " +
                             std::to_string((*measurer)->timingRounds()) +
                             " rounds"
                       : std::string())
               << ((*measurer)->pairsBaseline()
                       ? ", speedups against the baseline timed beside them"
                       : std::string())
               << ", float tolerance for reductions of "
               << (*measurer)->reductionLength() << "\n";
  printRow(baselinePath + " (baseline)", (*measurer)->baseline(), true);
  for (size_t i = 0; i < results.size(); ++i)
    printRow(candidatePaths[i], results[i], false);
  if (keepFiles)
    llvm::outs() << "files kept in " << (*measurer)->workDirectory() << "\n";
  return 0;
}
