//===- Autotune.cpp - Tune a function by measurement ----------------------===//
//
// A thin driver of the tuning core (lib/Tuning): the pass reads its options
// into FunctionTuning (search problem, strategy, measurer, evaluator,
// database recorder and session for one function), runs it, applies the
// best verified schedule, and reports.
//
//===----------------------------------------------------------------------===//

#include "tuner/Database/Database.h"
#include "tuner/Passes/PassUtils.h"
#include "tuner/Passes/Passes.h"
#include "tuner/Schedule/ApplySchedule.h"
#include "tuner/Schedule/TransformExtension.h"
#include "tuner/Support/Format.h"
#include "tuner/Tuning/FunctionTuning.h"

#include "mlir/Dialect/Transform/IR/TransformDialect.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/ToolOutputFile.h"

namespace tuner {
#define GEN_PASS_DEF_TUNERAUTOTUNE
#include "tuner/Passes/Passes.h.inc"
} // namespace tuner

using namespace mlir;
using namespace tuner;

namespace {

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
  FailureOr<std::optional<db::Database>> openDatabase();
  LogicalResult writeSchedule(llvm::StringRef script);
  void writeSummary(llvm::StringRef name, Location loc, const Space &space,
                    const FunctionTuning &tuning, bool applied,
                    const SpecializedFunction *dynamic,
                    llvm::json::Array atShapes);
  /// Measures the chosen schedule at every shape set after the first
  /// (verified against the untransformed function there); fails, at the
  /// function, when it is not correct at one of them.
  LogicalResult checkAtShapes(const SpecializedFunction &function,
                              ModuleOp module, llvm::StringRef script,
                              const MeasureOptions &options,
                              llvm::json::Array &results);
};

LogicalResult TunerAutotunePass::checkOptions() {
  ModuleOp module = getOperation();
  llvm::Expected<const StrategyInfo &> known = findStrategy(strategy);
  if (!known) {
    emitError(module, "", known.takeError());
    return failure();
  }
  if (budget == 0 && timeBudget <= 0)
    return module.emitError() << "the search needs a limit: set 'budget' "
                                 "(candidates) or 'time-budget' (seconds)";
  if (timeBudget < 0)
    return module.emitError() << "'time-budget' must not be negative (got "
                              << shortNumber(timeBudget) << ")";
  if (repetitions < 5)
    return module.emitError() << "'repetitions' must be at least 5 (got "
                              << repetitions.getValue()
                              << "): the median of fewer runs is noise";
  if (beamWidth == 0 || topK == 0 || mctsIterations == 0)
    return module.emitError()
           << "'beam-width', 'top-k' and 'mcts-iterations' must be positive";
  if (timeout <= 0)
    return module.emitError() << "'timeout' must be positive (got "
                              << shortNumber(timeout) << ")";
  if (!parseModelCorrection(modelCorrection))
    return module.emitError()
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

LogicalResult TunerAutotunePass::writeSchedule(llvm::StringRef script) {
  std::error_code ec;
  llvm::ToolOutputFile file(scheduleOutput, ec, llvm::sys::fs::OF_Text);
  if (ec)
    return getOperation().emitError()
           << "cannot write '" << scheduleOutput << "': " << ec.message();
  file.os() << script;
  file.keep();
  return success();
}

void TunerAutotunePass::runOnOperation() {
  ModuleOp module = getOperation();
  if (failed(checkOptions()))
    return signalPassFailure();
  FailureOr<TunableFunction> tunable = prepareFunction(
      module, functionName, target, readSpaceOptions(*this), shapes);
  if (failed(tunable))
    return signalPassFailure();
  func::FuncOp func = tunable->func;
  if (!spaceFile.empty()) {
    FailureOr<Space> fromFile = readSpaceFile(func, spaceFile);
    if (failed(fromFile))
      return signalPassFailure();
    llvm::Expected<Space> narrowed = narrowSpace(tunable->space, *fromFile);
    if (!narrowed) {
      emitError(func,
                "the space '" + spaceFile + "' does not narrow the space of @" +
                    func.getSymName(),
                narrowed.takeError());
      return signalPassFailure();
    }
    tunable->space = std::move(*narrowed);
  }
  FailureOr<std::optional<db::Database>> opened = openDatabase();
  if (failed(opened))
    return signalPassFailure();

  FunctionTuningOptions options;
  options.strategy = strategy;
  options.model = model;
  options.defaultModel = TUNER_DEFAULT_MODEL;
  options.strategyOptions = {
      seed,        beamWidth,       topK, mctsIterations,
      *parseModelCorrection(modelCorrection), diverseTopK, strategySettings};
  options.budget = {budget, timeBudget};
  options.measure.repetitions = repetitions;
  options.measure.timeoutSeconds = timeout;
  options.measure.jobs = jobs;
  options.measure.pinCore = pinCore;
  // checkOptions has parsed it.
  options.measure.scalarValues = llvm::cantFail(parseScalarValues(scalars));
  options.database = *opened ? &**opened : nullptr;
  bool interactive = llvm::errs().is_displayed();
  if (interactive)
    options.progress = [](const TuningResult &result) {
      llvm::errs() << llvm::formatv(
          "\rautotune: {0} candidates ({1} measured), best {2:F2}x   ",
          result.history.size(), result.evaluated,
          result.best ? result.best->value : 0.0);
      llvm::errs().flush();
    };
  // A dynamic function is measured at the first sizes given, through a
  // static wrapper that calls it (the code timed is the code emitted).
  OwningOpRef<ModuleOp> wrapped;
  ModuleOp measured = module;
  MeasureOptions measureOptions = options.measure;
  if (tunable->specialized) {
    FailureOr<OwningOpRef<ModuleOp>> built =
        buildShapeWrapperModule(module, tunable->specialized->analyzed());
    if (failed(built))
      return signalPassFailure();
    wrapped = std::move(*built);
    measured = *wrapped;
    options.entryPoint = shapeWrapperName(func.getSymName());
    options.shapes = tunable->specialized->shapes.front().str();
    options.measure =
        measureOptionsAt(*tunable->specialized, 0, std::move(options.measure));
  }
  llvm::Expected<std::unique_ptr<FunctionTuning>> tuning =
      FunctionTuning::create(measured, func, tunable->tree, tunable->space,
                             std::move(options));
  if (!tuning) {
    emitError(func, "", tuning.takeError());
    return signalPassFailure();
  }
  (*tuning)->run();
  if (interactive)
    llvm::errs() << "\n";
  for (const std::string &warning : (*tuning)->warnings())
    func.emitWarning() << warning;

  // Applying a schedule replaces the module's body: `func` is only valid
  // until then.
  std::string name = func.getSymName().str();
  Location loc = func.getLoc();
  llvm::Expected<std::string> script = (*tuning)->chosenScript();
  if (!script) {
    emitError(func, "cannot build the schedule", script.takeError());
    return signalPassFailure();
  }
  bool applied = (*tuning)->improved();
  // The best candidate of a dynamic function, verified (and timed) at the
  // other sizes given, applied or not.
  llvm::json::Array atShapes;
  const std::optional<Observation> &best =
      (*tuning)->getSession().getResult().best;
  if (tunable->specialized && best && !best->schedule.empty() &&
      failed(checkAtShapes(*tunable->specialized, module, best->schedule,
                           measureOptions, atShapes)))
    return signalPassFailure();
  if (applied && failed(applyTransformScript(module, *script)))
    return signalPassFailure();
  if (!scheduleOutput.empty() && failed(writeSchedule(*script)))
    return signalPassFailure();
  writeSummary(name, loc, tunable->space, **tuning, applied,
               tunable->specialized.get(), std::move(atShapes));
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

void TunerAutotunePass::writeSummary(llvm::StringRef name, Location loc,
                                     const Space &space,
                                     const FunctionTuning &tuning, bool applied,
                                     const SpecializedFunction *dynamic,
                                     llvm::json::Array atShapes) {
  const TuningSession &session = tuning.getSession();
  const ProgramSearch &search = tuning.getSearch();
  const Measurement &base = tuning.getMeasurer().baseline();
  const TuningResult &result = session.getResult();
  unsigned failed = session.failureCount();

  // At the function's location, without printing the whole function.
  InFlightDiagnostic remark = mlir::emitRemark(loc);
  remark << "autotune @" << name << ": baseline "
         << formatSeconds(base.medianSeconds);
  if (result.best)
    remark << ", best " << formatSeconds(result.best->medianSeconds)
           << llvm::formatv(" ({0:F2}x)", result.best->value);
  remark << "; " << result.history.size() << " candidates ("
         << result.evaluated << " measured, "
         << result.history.size() - result.evaluated << " from the database), "
         << failed << " failed";
  if (failed)
    remark << " (" << session.describeFailures() << ")";
  if (dynamic)
    remark << "; at shapes=" << dynamic->shapes.front().str();
  remark << llvm::formatv("; {0:F1} s of search; ", result.seconds)
         << (applied ? "the best schedule was applied"
                     : "no candidate beat the untransformed function, which "
                       "is kept");
  remark.report();

  if (summaryOutput.empty())
    return;
  // The session's account, with the function's own fields.
  llvm::json::Object summary = session.summary(space);
  if (llvm::json::Object *best = summary.getObject("best")) {
    (*best)["speedup"] = result.best->value;
    (*best)["applied"] = applied;
  }
  summary["function"] = name.str();
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
  if (llvm::Error err = writeJSONFile(summaryOutput, std::move(summary)))
    emitError(getOperation(), "cannot write the summary", std::move(err));
}

} // namespace
