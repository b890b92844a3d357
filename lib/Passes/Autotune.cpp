//===- Autotune.cpp - Tune every function by measurement ------------------===//
//
// A thin driver of the tuning core (lib/Tuning): the pass selects the
// functions to tune, refuses (before measuring anything) those with nothing
// to tune, reads its options into one FunctionTuning per function (search
// problem, strategy, measurer, evaluator, database recorder and session),
// runs them one after the other with their share of the budget, applies the
// best verified schedules, and reports per function and for the module.
//
//===----------------------------------------------------------------------===//

#include "tuner/Analysis/DeadWork.h"
#include "tuner/Analysis/ProgramAnalysis.h"
#include "tuner/Database/Database.h"
#include "tuner/Passes/PassUtils.h"
#include "tuner/Passes/Passes.h"
#include "tuner/Schedule/ApplySchedule.h"
#include "tuner/Schedule/TransformExtension.h"
#include "tuner/Space/AnalyticConfigs.h"
#include "tuner/Space/ChainOfTrees.h"
#include "tuner/Support/Format.h"
#include "tuner/Tuning/FunctionTuning.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

#include <chrono>
#include <cmath>

namespace tuner {
#define GEN_PASS_DEF_TUNERAUTOTUNE
#include "tuner/Passes/Passes.h.inc"
} // namespace tuner

using namespace mlir;
using namespace tuner;

namespace {

/// What became of one function.
struct FunctionOutcome {
  enum class Kind { Tuned, Skipped, Failed };
  Kind kind = Kind::Skipped;
  std::string name;
  /// Tuned: the schedule to apply (when `applied`), its speedup (1 when the
  /// function is kept) and the summary JSON.
  std::string script;
  bool applied = false;
  double speedup = 1.0;
  llvm::json::Object summary;
  /// Skipped or failed: why.
  std::string reason;
};

/// A function ready to be tuned: what its FunctionTuning refers to, at a
/// stable address.
struct Prepared {
  TunableFunction tunable;
  std::size_t outcome; // Index into the outcomes.
};

struct TunerAutotunePass
    : tuner::impl::TunerAutotuneBase<TunerAutotunePass> {
  using TunerAutotuneBase::TunerAutotuneBase;
  template <typename PassT>
  friend SpaceOptions tuner::readSpaceOptions(const PassT &pass);

  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<transform::TransformDialect>();
    registerTunerDialectExtensions(registry);
    registerShapeDialects(registry);
  }

  void runOnOperation() override;

private:
  LogicalResult checkOptions();
  /// Parses 'strategy-options' into `settings`.
  llvm::Error
  readStrategyOptions(std::map<std::string, std::string> &settings) const {
    settings.clear();
    return parseStrategySettings(strategyOptions, settings);
  }

  std::map<std::string, std::string> strategySettings;
  /// The target the spaces are built for (the analytic seeds' too).
  std::optional<Target> spaceTarget;
  FailureOr<std::optional<db::Database>> openDatabase();
  LogicalResult writeSchedule(llvm::StringRef path, llvm::StringRef script);
  /// Analysis, dead work and the space of `func`, before anything is
  /// measured: the function to tune, or failure after a diagnostic with
  /// `severity` (the reason in `outcome`).
  FailureOr<TunableFunction> prepare(func::FuncOp func, const Target &target,
                                     DiagnosticSeverity severity,
                                     FunctionOutcome &outcome);
  /// Tunes one prepared function within `budget`.
  void tune(ModuleOp module, TunableFunction &tunable, Budget budget,
            db::Database *database, FunctionOutcome &outcome);
  llvm::json::Object summarize(llvm::StringRef name, const Space &space,
                               const FunctionTuning &tuning, bool applied,
                               llvm::ArrayRef<std::string> warnings,
                               const SpecializedFunction *dynamic,
                               llvm::json::Array atShapes);
  /// Measures the chosen schedule at every shape set after the first
  /// (verified against the untransformed function there); fails, at the
  /// function, when it is not correct at one of them.
  LogicalResult checkAtShapes(const SpecializedFunction &function,
                              ModuleOp module, llvm::StringRef script,
                              const MeasureOptions &options,
                              llvm::json::Array &results);
  void reportModule(ModuleOp module, llvm::ArrayRef<FunctionOutcome> outcomes,
                    std::size_t refusedByAnalysis);
};

LogicalResult TunerAutotunePass::checkOptions() {
  ModuleOp module = getOperation();
  llvm::Expected<const StrategyInfo &> known = findStrategy(strategy);
  if (!known) {
    emitError(module, "", known.takeError());
    return failure();
  }
  if (budget == 0 && timeBudget <= 0)
    return moduleError(module) << "the search needs a limit: set 'budget' "
                                 "(candidates) or 'time-budget' (seconds)";
  if (timeBudget < 0)
    return moduleError(module) << "'time-budget' must not be negative (got "
                              << shortNumber(timeBudget) << ")";
  if (repetitions < 5)
    return moduleError(module) << "'repetitions' must be at least 5 (got "
                              << repetitions.getValue()
                              << "): the median of fewer runs is noise";
  if (rounds == 0)
    return moduleError(module) << "'rounds' must be at least 1";
  if (beamWidth == 0 || topK == 0 || mctsIterations == 0)
    return moduleError(module)
           << "'beam-width', 'top-k' and 'mcts-iterations' must be positive";
  if (timeout <= 0)
    return moduleError(module) << "'timeout' must be positive (got "
                              << shortNumber(timeout) << ")";
  if (!(compileTimeout > 0))
    return moduleError(module) << "'compile-timeout' must be positive (got "
                              << shortNumber(compileTimeout) << ")";
  if (budgetSplit != "per-function" && budgetSplit != "shared")
    return moduleError(module)
           << "'budget-split' must be per-function or shared (got '"
           << budgetSplit.getValue() << "')";
  if (!parseModelCorrection(modelCorrection))
    return moduleError(module)
           << "'model-correction' must be none, gp, adapt or adapt+gp (got '"
           << modelCorrection.getValue() << "')";
  if (llvm::Error error = readStrategyOptions(strategySettings)) {
    emitError(module, "'strategy-options'", std::move(error));
    return failure();
  }
  StrategyOptions options;
  options.settings = strategySettings;
  if (llvm::Error error = checkStrategySettings(*known, options)) {
    emitError(module, "'strategy-options'", std::move(error));
    return failure();
  }
  if (auto values = parseScalarValues(scalars); !values) {
    emitError(module, "'scalars'", values.takeError());
    return failure();
  }
  return success();
}

FailureOr<std::optional<db::Database>> TunerAutotunePass::openDatabase() {
  if (database == "none")
    return std::optional<db::Database>();
  FailureOr<db::Database> opened = openTuningDatabase(
      getOperation(), database, db::Database::Mode::ReadWrite);
  if (failed(opened))
    return failure();
  return std::optional<db::Database>(std::move(*opened));
}

LogicalResult TunerAutotunePass::writeSchedule(llvm::StringRef path,
                                              llvm::StringRef script) {
  std::error_code ec;
  llvm::ToolOutputFile file(path, ec, llvm::sys::fs::OF_Text);
  if (ec)
    return moduleError(getOperation())
           << "cannot write '" << path << "': " << ec.message();
  file.os() << script;
  file.keep();
  return success();
}

FailureOr<TunableFunction>
TunerAutotunePass::prepare(func::FuncOp func, const Target &target,
                           DiagnosticSeverity severity,
                           FunctionOutcome &outcome) {
  std::string name = "@" + func.getSymName().str();
  FailureOr<TunableFunction> tunable =
      prepareFunction(func, target, readSpaceOptions(*this), shapes, severity);
  if (failed(tunable)) {
    outcome.reason = "the tuner cannot model its IR";
    return failure();
  }

  // Work nothing observes cannot be timed: refuse the function when all of
  // it is dead, warn at the dead nests otherwise.
  std::vector<DeadNest> dead = findDeadNests(func);
  size_t nests = llvm::count_if(func.getBody().front(), [](Operation &op) {
    return isa<linalg::LinalgOp, affine::AffineForOp>(op);
  });
  if (!dead.empty() && dead.size() == nests) {
    for (const DeadNest &nest : dead)
      emitDiagnostic(nest.op->getLoc(), severity,
                     nest.reason +
                         ": its work is dead and cannot be measured");
    emitDiagnostic(func.getLoc(), severity,
                   name + " has no observable output (nothing it returns or "
                          "writes to its arguments depends on its loop "
                          "nests): nothing to tune");
    outcome.reason = "dead work: no output depends on its loop nests";
    return failure();
  }
  for (const DeadNest &nest : dead)
    mlir::emitWarning(nest.op->getLoc())
        << nest.reason << ": its work is dead; " << name
        << " is tuned for the rest of its work";

  // Nests that never run keep no parameter.
  for (const LoopNest &nest : tunable->tree.nests)
    if (std::optional<int> loop = zeroTripLoop(tunable->tree, nest)) {
      Operation *op = findNestOp(func, nest);
      mlir::emitWarning(op ? op->getLoc() : func.getLoc())
          << "this loop nest never runs (loop "
          << tunable->tree.loops[*loop].name
          << " has zero trips): nothing to tune in it";
    }

  if (!spaceFile.empty()) {
    FailureOr<Space> fromFile = readSpaceFile(func, spaceFile);
    if (failed(fromFile)) {
      outcome.reason = "its space file cannot be read";
      return failure();
    }
    llvm::Expected<Space> narrowed = narrowSpace(tunable->space, *fromFile);
    if (!narrowed) {
      emitError(func,
                "the space '" + spaceFile + "' does not narrow the space of " +
                    name,
                narrowed.takeError());
      outcome.reason = "the space file does not narrow its space";
      return failure();
    }
    tunable->space = std::move(*narrowed);
  }

  // A space of one config (or none) leaves nothing to search.
  llvm::Expected<ChainOfTrees> chain = ChainOfTrees::build(tunable->space);
  if (!chain) {
    emitDiagnostic(func.getLoc(), severity,
                   "cannot enumerate the search space of " + name + ": " +
                       llvm::toString(chain.takeError()));
    outcome.reason = "its space cannot be enumerated";
    return failure();
  }
  if (chain->count().ule(1)) {
    emitDiagnostic(func.getLoc(), severity,
                   name + " has nothing to tune: its space holds " +
                       (chain->count().isZero()
                            ? std::string("no config")
                            : std::string("only the untransformed schedule")) +
                       " (with these space options)");
    outcome.reason = "nothing to tune: its space has " +
                     chain->countString() + " config" +
                     (chain->count().isOne() ? "" : "s");
    return failure();
  }
  return tunable;
}

/// A copy of `module` without the functions `func` does not reference
/// (transitively).
static OwningOpRef<ModuleOp> isolate(ModuleOp module, func::FuncOp func) {
  OwningOpRef<ModuleOp> copy = module.clone();
  llvm::DenseSet<Operation *> kept;
  SmallVector<Operation *> worklist{
      copy->lookupSymbol<func::FuncOp>(func.getSymName())};
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!op || !kept.insert(op).second)
      continue;
    op->walk([&](Operation *nested) {
      if (std::optional<SymbolTable::UseRange> uses =
              SymbolTable::getSymbolUses(nested))
        for (const SymbolTable::SymbolUse &use : *uses)
          if (Operation *target = SymbolTable::lookupNearestSymbolFrom(
                  nested, use.getSymbolRef()))
            worklist.push_back(target);
    });
  }
  for (auto other :
       llvm::make_early_inc_range(copy->getOps<func::FuncOp>()))
    if (!kept.contains(other))
      other.erase();
  return copy;
}

void TunerAutotunePass::tune(ModuleOp module, TunableFunction &tunable,
                             Budget budget, db::Database *database,
                             FunctionOutcome &outcome) {
  func::FuncOp func = tunable.func;
  FunctionTuningOptions options;
  options.strategy = strategy;
  options.model = model;
  options.defaultModel = TUNER_DEFAULT_MODEL;
  options.strategyOptions = {
      seed,        beamWidth,       topK, mctsIterations,
      *parseModelCorrection(modelCorrection), diverseTopK, strategySettings};
  options.budget = budget;
  options.measure.repetitions = repetitions;
  options.measure.rounds = rounds;
  options.measure.pairedBaseline = pairedBaseline;
  options.measure.timeoutSeconds = timeout;
  options.measure.compileTimeoutSeconds = compileTimeout;
  options.measure.lowering.maxOps = maxLoweredOps;
  options.measure.jobs = jobs;
  options.measure.pinCore = pinCore;
  // checkOptions has parsed it.
  options.measure.scalarValues = llvm::cantFail(parseScalarValues(scalars));
  options.confirm = confirm;
  options.database = database;
  // Records are keyed by the function as it is in the user's module.
  options.workloadOf = func;
  if (spaceTarget && spaceTarget->isGpu())
    options.target = *spaceTarget;
  if (seeds > 0 && spaceTarget && !spaceTarget->isGpu())
    options.seeds =
        analyticConfigs(tunable.tree, tunable.space, *spaceTarget, seeds);
  bool interactive = llvm::errs().is_displayed();
  if (interactive)
    options.progress = [name = outcome.name](const TuningResult &result) {
      llvm::errs() << llvm::formatv(
          "\rautotune @{0}: {1} candidates ({2} measured), best {3:F2}x   ",
          name, result.history.size(), result.evaluated,
          result.best ? result.best->value : 0.0);
      llvm::errs().flush();
    };
  // Measured in a copy of the module that holds only the function and
  // the functions it references: another function the lowering cannot take
  // must not fail this one.
  OwningOpRef<ModuleOp> alone = isolate(module, func);
  // A dynamic function is measured at the first sizes given, through a
  // static wrapper that calls it (the code timed is the code emitted).
  OwningOpRef<ModuleOp> wrapped;
  ModuleOp measuredModule = *alone;
  MeasureOptions measureOptions = options.measure;
  if (tunable.specialized) {
    FailureOr<OwningOpRef<ModuleOp>> built =
        buildShapeWrapperModule(*alone, tunable.specialized->analyzed());
    if (failed(built)) {
      outcome.kind = FunctionOutcome::Kind::Failed;
      outcome.reason = "cannot build its measurement wrapper";
      return;
    }
    wrapped = std::move(*built);
    measuredModule = *wrapped;
    options.entryPoint = shapeWrapperName(func.getSymName());
    options.shapes = tunable.specialized->shapes.front().str();
    options.measure =
        measureOptionsAt(*tunable.specialized, 0, std::move(options.measure));
  }
  auto measured = measuredModule.lookupSymbol<func::FuncOp>(func.getSymName());
  llvm::Expected<std::unique_ptr<FunctionTuning>> tuning =
      FunctionTuning::create(measuredModule, measured, tunable.tree,
                             tunable.space, std::move(options));
  if (!tuning) {
    std::string message = llvm::toString(tuning.takeError());
    mlir::emitError(func.getLoc()) << message;
    outcome.kind = FunctionOutcome::Kind::Failed;
    outcome.reason = message;
    return;
  }
  (*tuning)->run();
  if (interactive)
    llvm::errs() << "\n";
  for (const std::string &warning : (*tuning)->warnings())
    mlir::emitWarning(func.getLoc()) << warning;

  llvm::Expected<std::string> script = (*tuning)->chosenScript();
  if (!script) {
    std::string message = llvm::toString(script.takeError());
    mlir::emitError(func.getLoc())
        << "cannot build the schedule of @" << outcome.name << ": " << message;
    outcome.kind = FunctionOutcome::Kind::Failed;
    outcome.reason = "cannot build the schedule: " + message;
    return;
  }
  bool applied = (*tuning)->improved();
  // The best candidate of a dynamic function, verified (and timed) at the
  // other sizes given, applied or not.
  llvm::json::Array atShapes;
  const std::optional<Observation> &best =
      (*tuning)->getSession().getResult().best;
  if (tunable.specialized && best && !best->schedule.empty() &&
      failed(checkAtShapes(*tunable.specialized, *alone, best->schedule,
                           measureOptions, atShapes))) {
    outcome.kind = FunctionOutcome::Kind::Failed;
    outcome.reason = "its best schedule fails at another of the sizes given";
    return;
  }
  const TuningSession &session = (*tuning)->getSession();
  const TuningResult &result = session.getResult();
  const Measurement &base = (*tuning)->getMeasurer().baseline();
  unsigned failedCount = session.failureCount();

  std::vector<std::string> warnings;
  if (base.medianSeconds < kShortestMeaningfulSeconds) {
    warnings.push_back(
        "the untransformed function runs in " +
        formatSeconds(base.medianSeconds) +
        " per call, too short to time a schedule's effect (under " +
        formatSeconds(kShortestMeaningfulSeconds, 0) +
        ", the call and the timer dominate): the speedup is not meaningful");
  }

  // At the function's location, without printing the whole function.
  InFlightDiagnostic remark = mlir::emitRemark(func.getLoc());
  remark << "autotune @" << outcome.name << ": baseline "
         << formatSeconds(base.medianSeconds);
  if (result.best)
    remark << ", best " << formatSeconds(result.best->medianSeconds)
           << llvm::formatv(" ({0:F2}x)", result.best->value);
  remark << "; " << result.history.size() << " candidates ("
         << result.evaluated << " measured, "
         << result.history.size() - result.evaluated << " from the database), "
         << failedCount << " failed";
  if (failedCount)
    remark << " (" << session.describeFailures() << ")";
  if (tunable.specialized)
    remark << "; at shapes=" << tunable.specialized->shapes.front().str();
  if (const std::optional<Confirmation> &confirmed =
          session.getConfirmation()) {
    if (confirmed->error)
      remark << "; timing the best again failed after "
             << confirmed->entries.size() << " (" << *confirmed->error
             << "): the best is chosen by the timings there are";
    else {
      remark << "; " << confirmed->entries.size()
             << " of the best timed again, "
             << llvm::formatv("{0:F1} s", confirmed->seconds);
      size_t failedAgain =
          llvm::count_if(confirmed->entries, [](const Confirmation::Entry &e) {
            return !e.again.ok();
          });
      if (failedAgain)
        remark << " (" << failedAgain
               << " failed this time and cannot be chosen)";
      bool replaced = confirmed->before && result.best &&
                      confirmed->before->config.hash() !=
                          result.best->config.hash();
      if (confirmed->before)
        remark << (replaced ? ": another schedule is best (the search's "
                              "best was "
                            : ": the search's best stays best (it was ")
               << llvm::formatv("{0:F2}x", confirmed->before->value)
               << " when first timed)";
    }
  }
  remark << llvm::formatv("; {0:F1} s of search; ", result.seconds)
         << (applied ? "the best schedule was applied"
                     : "no candidate beat the untransformed function, which "
                       "is kept");
  for (const std::string &warning : warnings)
    remark << "; warning: " << warning;
  remark.report();

  outcome.kind = FunctionOutcome::Kind::Tuned;
  outcome.script = std::move(*script);
  outcome.applied = applied;
  outcome.speedup = applied ? result.best->value : 1.0;
  outcome.summary =
      summarize(outcome.name, tunable.space, **tuning, applied, warnings,
                tunable.specialized.get(), std::move(atShapes));
}

LogicalResult
TunerAutotunePass::checkAtShapes(const SpecializedFunction &function,
                                 ModuleOp module, llvm::StringRef script,
                                 const MeasureOptions &options,
                                 llvm::json::Array &results) {
  func::FuncOp func = function.original;
  for (size_t set = 1; set < function.shapes.size(); ++set) {
    std::string shapes = function.shapes[set].str();
    llvm::Expected<Measurement> result =
        measureScriptAt(module, function, set, script, options);
    if (!result)
      return mlir::emitError(func.getLoc())
             << llvm::toString(result.takeError());
    if (!result->ok())
      return mlir::emitError(func.getLoc())
             << "the best schedule, tuned at shapes="
             << function.shapes.front().str() << ", fails at shapes=" << shapes
             << " (" << statusName(result->status)
             << "): the function is left unchanged; " << result->message;
    results.push_back(llvm::json::Object{{"shapes", shapes},
                                         {"speedup", result->speedup},
                                         {"median_s", result->medianSeconds}});
  }
  return success();
}

llvm::json::Object
TunerAutotunePass::summarize(llvm::StringRef name, const Space &space,
                             const FunctionTuning &tuning,
                             bool applied,
                             llvm::ArrayRef<std::string> warnings,
                             const SpecializedFunction *dynamic,
                             llvm::json::Array atShapes) {
  const TuningSession &session = tuning.getSession();
  const ProgramSearch &search = tuning.getSearch();
  const Measurement &base = tuning.getMeasurer().baseline();
  const TuningResult &result = session.getResult();
  // The session's account, with the function's own fields.
  llvm::json::Object summary = session.summary(space);
  if (llvm::json::Object *best = summary.getObject("best")) {
    (*best)["speedup"] = result.best->value;
    (*best)["applied"] = applied;
  }
  summary["function"] = name.str();
  summary["status"] = "tuned";
  if (dynamic) {
    // Measured at the first set; the best schedule verified at the others.
    summary["shapes"] = dynamic->shapes.front().str();
    summary["verified_shapes"] = std::move(atShapes);
  }
  summary["seed"] = int64_t(seed);
  if (!strategySettings.empty()) {
    llvm::json::Object settings;
    for (const auto &[key, value] : strategySettings)
      settings[key] = value;
    summary["strategy_settings"] = std::move(settings);
  }
  summary["baseline"] = llvm::json::Object{{"median_s", base.medianSeconds},
                                           {"min_s", base.minSeconds},
                                           {"max_s", base.maxSeconds}};
  summary["measured"] = int64_t(result.evaluated);
  summary["space_size"] = search.getChain().countString();
  // Each config is planned once and its plan shared by the schedule hash,
  // the cost model and the schedule builder.
  summary["plans"] =
      llvm::json::Object{{"planned", int64_t(search.getPlans().planned())},
                         {"reused", int64_t(search.getPlans().reused())}};
  if (const ModelEvaluator *model = search.getModel()) {
    summary["model_correction"] =
        modelCorrectionName(*parseModelCorrection(modelCorrection));
    summary["diverse_top_k"] = bool(diverseTopK);
    // Schedules the cost model scored: what a search by execution over the
    // same tree would have had to measure.
    summary["model_predictions"] = int64_t(model->predictions());
  }
  llvm::json::Array warningList;
  for (const std::string &warning : warnings)
    warningList.push_back(warning);
  summary["warnings"] = std::move(warningList);
  return summary;
}

void TunerAutotunePass::reportModule(ModuleOp module,
                                     llvm::ArrayRef<FunctionOutcome> outcomes,
                                     std::size_t refusedByAnalysis) {
  size_t tuned = 0, failedCount = 0, skipped = refusedByAnalysis;
  double logSum = 0;
  for (const FunctionOutcome &outcome : outcomes) {
    switch (outcome.kind) {
    case FunctionOutcome::Kind::Tuned:
      ++tuned;
      logSum += std::log(outcome.speedup);
      break;
    case FunctionOutcome::Kind::Failed:
      ++failedCount;
      break;
    case FunctionOutcome::Kind::Skipped:
      ++skipped;
      break;
    }
  }
  std::optional<double> geomean;
  if (tuned)
    geomean = std::exp(logSum / double(tuned));
  // One line for the module when it had more than one function to consider.
  if (outcomes.size() + refusedByAnalysis > 1) {
    InFlightDiagnostic remark = mlir::emitRemark(moduleLocation(module));
    remark << "autotune: " << tuned << " function" << (tuned == 1 ? "" : "s")
           << " tuned, " << failedCount << " failed, " << skipped
           << " skipped";
    if (geomean)
      remark << llvm::formatv("; geometric-mean speedup {0:F2}x", *geomean);
    remark << " (budget-split=" << budgetSplit.getValue() << ")";
    remark.report();
  }

  if (summaryOutput.empty())
    return;
  // The single-function format (read by benchmarks/run.py and the tests'
  // scripts) stays at the top level when one function was tuned; every
  // function is listed under "functions", the module under "module".
  llvm::json::Object summary;
  llvm::json::Array functions;
  for (const FunctionOutcome &outcome : outcomes) {
    if (outcome.kind == FunctionOutcome::Kind::Tuned) {
      if (tuned == 1)
        for (const auto &[key, value] : outcome.summary)
          summary[key] = value;
      functions.push_back(llvm::json::Object(outcome.summary));
      continue;
    }
    functions.push_back(llvm::json::Object{
        {"function", outcome.name},
        {"status",
         outcome.kind == FunctionOutcome::Kind::Failed ? "failed" : "skipped"},
        {"reason", outcome.reason}});
  }
  summary["functions"] = std::move(functions);
  llvm::json::Object moduleSummary{
      {"tuned", int64_t(tuned)},
      {"failed", int64_t(failedCount)},
      {"skipped", int64_t(skipped)},
      {"budget_split", budgetSplit.getValue()}};
  moduleSummary["geomean_speedup"] =
      geomean ? llvm::json::Value(*geomean) : llvm::json::Value(nullptr);
  summary["module"] = std::move(moduleSummary);
  if (llvm::Error err = writeJSONFile(summaryOutput, std::move(summary)))
    emitError(module, "cannot write the summary", std::move(err));
}

void TunerAutotunePass::runOnOperation() {
  ModuleOp module = getOperation();
  if (failed(checkOptions()))
    return signalPassFailure();
  FailureOr<FunctionSelection> selection =
      selectFunctions(module, functionName);
  if (failed(selection))
    return signalPassFailure();
  FailureOr<Target> hostTarget = resolveTarget(module, target);
  if (failed(hostTarget))
    return signalPassFailure();
  spaceTarget = *hostTarget;
  if (hostTarget->isGpu()) {
    // GPU spaces are searched by measurement (the cost model is CPU-only):
    // bo by default, and the strategies that rank with the model refused.
    if (!strategy.hasValue())
      strategy = "bo";
    llvm::Expected<const StrategyInfo &> chosen = findStrategy(strategy);
    if (chosen && chosen->needsModel) {
      moduleError(module)
          << "strategy '" << strategy.getValue()
          << "' ranks schedules with the cost model, which describes CPU "
             "schedules only: a GPU target ('"
          << target.getValue()
          << "') is searched by measurement; use bo (the default for a GPU "
             "target), random, exhaustive, evolution, annealing, genetic or "
             "beam-exec";
      return signalPassFailure();
    }
    if (!chosen)
      llvm::consumeError(chosen.takeError());
  }
  size_t candidates = selection->functions.size();
  if (!spaceFile.empty() && candidates > 1) {
    mlir::emitError(selection->functions.front().getLoc())
        << "'space' narrows the space of one function, and the module has "
        << candidates << " to tune: name one with 'function'";
    return signalPassFailure();
  }
  // A refusal is an error when the user named the function or it is the
  // only candidate; among several, a warning, and the others are tuned.
  bool alone = candidates == 1 && selection->untunable.empty();
  DiagnosticSeverity severity = (!functionName.empty() || alone)
                                    ? DiagnosticSeverity::Error
                                    : DiagnosticSeverity::Warning;
  for (const Refusal &refusal : selection->untunable)
    mlir::emitWarning(refusal.loc) << refusal.message;

  // Every function is checked before anything is measured, so that the
  // shared budget is divided among the ones that are tuned.
  std::vector<FunctionOutcome> outcomes;
  std::vector<std::unique_ptr<Prepared>> prepared;
  for (func::FuncOp func : selection->functions) {
    FunctionOutcome &outcome = outcomes.emplace_back();
    outcome.name = func.getSymName().str();
    FailureOr<TunableFunction> tunable =
        prepare(func, *hostTarget, severity, outcome);
    if (succeeded(tunable))
      prepared.push_back(std::make_unique<Prepared>(
          Prepared{std::move(*tunable), outcomes.size() - 1}));
  }
  bool refusedIsError = severity == DiagnosticSeverity::Error &&
                        prepared.size() < selection->functions.size();
  if (prepared.empty()) {
    if (severity == DiagnosticSeverity::Warning)
      mlir::emitError(moduleLocation(module))
          << "no function of the module can be tuned ("
          << candidates + selection->untunable.size()
          << " skipped: see the warnings)";
    reportModule(module, outcomes, selection->untunable.size());
    return signalPassFailure();
  }

  FailureOr<std::optional<db::Database>> opened = openDatabase();
  if (failed(opened))
    return signalPassFailure();
  db::Database *database = *opened ? &**opened : nullptr;
  bool shared = budgetSplit == "shared" && prepared.size() > 1;
  if (shared && budget != 0 && budget < prepared.size()) {
    moduleError(module) << "'budget' (" << budget.getValue()
                        << " candidates) shared by " << prepared.size()
                        << " functions leaves some with none: raise it or "
                           "use budget-split=per-function";
    return signalPassFailure();
  }
  // The functions are tuned on the untransformed module, one after the
  // other; with a shared budget, each gets an even share of what is left.
  size_t evaluationsLeft = budget;
  double secondsLeft = timeBudget;
  for (auto [index, function] : llvm::enumerate(prepared)) {
    Budget share{budget, timeBudget};
    if (shared) {
      size_t remaining = prepared.size() - index;
      if (budget)
        share.evaluations = evaluationsLeft / remaining;
      if (timeBudget > 0)
        share.seconds = std::max(secondsLeft / double(remaining), 1e-3);
    }
    FunctionOutcome &outcome = outcomes[function->outcome];
    auto started = std::chrono::steady_clock::now();
    tune(module, function->tunable, share, database, outcome);
    if (shared && outcome.kind == FunctionOutcome::Kind::Tuned) {
      auto used = outcome.summary.getInteger("candidates");
      evaluationsLeft -= std::min<size_t>(evaluationsLeft, used.value_or(0));
    }
    secondsLeft -= std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - started)
                       .count();
  }

  // Applying a schedule replaces the module's body; a script finds its
  // function by name.
  bool ok = !refusedIsError;
  size_t tunedCount = 0;
  for (const FunctionOutcome &outcome : outcomes) {
    if (outcome.kind == FunctionOutcome::Kind::Failed)
      ok = false;
    if (outcome.kind != FunctionOutcome::Kind::Tuned)
      continue;
    ++tunedCount;
    if (outcome.applied && failed(applyTransformScript(module, outcome.script)))
      return signalPassFailure();
  }
  if (!scheduleOutput.empty()) {
    // One script per function: with several, each goes next to the path,
    // the function's name before its extension.
    for (const FunctionOutcome &outcome : outcomes) {
      if (outcome.kind != FunctionOutcome::Kind::Tuned)
        continue;
      std::string path = scheduleOutput;
      if (tunedCount > 1) {
        llvm::SmallString<128> named(llvm::sys::path::parent_path(path));
        llvm::sys::path::append(
            named, llvm::sys::path::stem(path) + "." + outcome.name +
                       llvm::sys::path::extension(path));
        path = std::string(named);
      }
      if (failed(writeSchedule(path, outcome.script)))
        return signalPassFailure();
    }
  }
  reportModule(module, outcomes, selection->untunable.size());
  if (!ok)
    signalPassFailure();
}

} // namespace
