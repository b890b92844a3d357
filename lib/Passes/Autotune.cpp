//===- Autotune.cpp - Tune a function by measurement ----------------------===//
//
// A thin driver of the tuning core (lib/Tuning): the function's program and
// space (Analysis, Space), the strategy (Search, through ProgramSearch), the
// measuring evaluator and the database recorder run in one TuningSession;
// the pass then applies the best verified schedule and reports.
//
//===----------------------------------------------------------------------===//

#include "tuner/Analysis/WorkloadHash.h"
#include "tuner/Database/Database.h"
#include "tuner/Passes/PassUtils.h"
#include "tuner/Passes/Passes.h"
#include "tuner/Schedule/ApplySchedule.h"
#include "tuner/Schedule/ScheduleBuilder.h"
#include "tuner/Schedule/TransformExtension.h"
#include "tuner/Tuning/MeasuringEvaluator.h"
#include "tuner/Tuning/ProgramSearch.h"
#include "tuner/Tuning/TuningSession.h"

#include "mlir/Dialect/Transform/IR/TransformDialect.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/ToolOutputFile.h"

#include <cstdio>

namespace tuner {
#define GEN_PASS_DEF_TUNERAUTOTUNE
#include "tuner/Passes/Passes.h.inc"
} // namespace tuner

using namespace mlir;
using namespace tuner;

namespace {

/// Milliseconds with three significant digits, for messages.
std::string formatTime(double seconds) {
  if (seconds >= 1)
    return llvm::formatv("{0:F3} s", seconds).str();
  if (seconds >= 1e-3)
    return llvm::formatv("{0:F3} ms", seconds * 1e3).str();
  return llvm::formatv("{0:F3} us", seconds * 1e6).str();
}

/// A number as a user wrote it: 0, 2.5, 1e-06.
std::string shortNumber(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", value);
  return text;
}

struct TunerAutotunePass
    : tuner::impl::TunerAutotuneBase<TunerAutotunePass> {
  using TunerAutotuneBase::TunerAutotuneBase;
  template <typename PassT>
  friend SpaceOptions tuner::readSpaceOptions(const PassT &pass);

  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<transform::TransformDialect>();
    registerTunerDialectExtensions(registry);
  }

  void runOnOperation() override;

private:
  LogicalResult checkOptions();
  FailureOr<std::optional<db::Database>> openDatabase();
  LogicalResult writeSchedule(llvm::StringRef script);
  void writeSummary(llvm::StringRef name, Location loc, const Space &space,
                    const Measurer &measurer, const TuningSession &session,
                    bool applied, const ProgramSearch &search);
};

LogicalResult TunerAutotunePass::checkOptions() {
  ModuleOp module = getOperation();
  if (!findStrategy(strategy))
    return module.emitError()
           << "unknown strategy '" << strategy.getValue()
           << "' (known: " << llvm::join(strategyNames(), ", ") << ")";
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

  FailureOr<TunableFunction> tunable =
      prepareFunction(module, functionName, target, readSpaceOptions(*this));
  if (failed(tunable))
    return signalPassFailure();
  func::FuncOp func = tunable->func;

  llvm::Expected<std::unique_ptr<ProgramSearch>> search =
      ProgramSearch::create(tunable->tree, tunable->space, strategy, model,
                            TUNER_DEFAULT_MODEL);
  if (!search) {
    emitError(func, "", search.takeError());
    return signalPassFailure();
  }
  if (!(*search)->getFallbackReason().empty())
    func.emitWarning() << (*search)->getFallbackReason()
                       << ": searching with measurements only (strategy "
                       << (*search)->getStrategy() << ") instead of "
                       << strategy.getValue();
  StrategyOptions strategyOptions;
  strategyOptions.seed = seed;
  strategyOptions.beamWidth = beamWidth;
  strategyOptions.topK = topK;
  strategyOptions.mctsIterations = mctsIterations;
  strategyOptions.modelCorrection = modelCorrection;
  strategyOptions.diverseTopK = diverseTopK;
  llvm::Expected<std::unique_ptr<Strategy>> proposer =
      (*search)->createStrategy(strategyOptions);
  if (!proposer) {
    emitError(func, "", proposer.takeError());
    return signalPassFailure();
  }

  FailureOr<std::optional<db::Database>> opened = openDatabase();
  if (failed(opened))
    return signalPassFailure();
  db::Database *records = *opened ? &**opened : nullptr;

  // Measurements happen here, so they are keyed by this machine.
  Target host = Target::host();
  std::string workload = workloadHash(func);
  if (records)
    if (llvm::Error err = records->addWorkload(
            {workload, func.getSymName().str(), canonicalIR(func)})) {
      emitError(module, "cannot write to the tuning database",
                std::move(err));
      return signalPassFailure();
    }

  MeasureOptions measureOptions;
  measureOptions.repetitions = repetitions;
  measureOptions.timeoutSeconds = timeout;
  measureOptions.jobs = jobs;
  measureOptions.pinCore = pinCore;
  llvm::Expected<std::unique_ptr<Measurer>> measurer =
      Measurer::create(module, func.getSymName(), host, measureOptions);
  if (!measurer) {
    emitError(func, "cannot measure the untransformed function",
              measurer.takeError());
    return signalPassFailure();
  }

  MeasuringEvaluator evaluator(module, tunable->tree, tunable->space,
                               **measurer);
  std::optional<DatabaseRecorder> recorder;
  if (records)
    recorder.emplace(*records, tunable->space,
                     DatabaseRecorder::Keys{
                         workload, host.fingerprint(),
                         (*proposer)->getName().str(), Objective::Speedup,
                         (*measurer)->baseline().medianSeconds});
  SessionOptions sessionOptions;
  sessionOptions.budget = {budget, timeBudget};
  sessionOptions.batch = jobs ? jobs : std::max(1u, host.cores);
  sessionOptions.recorder = recorder ? &*recorder : nullptr;
  bool interactive = llvm::errs().is_displayed();
  if (interactive)
    sessionOptions.progress = [](const TuningResult &result) {
      llvm::errs() << llvm::formatv(
          "\rautotune: {0} candidates ({1} measured), best {2:F2}x   ",
          result.history.size(), result.evaluated,
          result.best ? result.best->value : 0.0);
      llvm::errs().flush();
    };
  TuningSession session(**proposer, evaluator, std::move(sessionOptions));
  const TuningResult &result = session.run();
  if (interactive)
    llvm::errs() << "\n";
  if (recorder && !recorder->getError().empty())
    func.emitWarning() << "the tuning database could not record every "
                          "measurement: "
                       << recorder->getError();
  if (const ModelEvaluator *scorer = (*search)->getModel();
      scorer && scorer->failures())
    func.emitWarning() << "the cost model could not score "
                       << scorer->failures() << " of "
                       << scorer->failures() + scorer->predictions()
                       << " schedules, which the search treated as failed "
                          "(the last: "
                       << scorer->getLastError() << ")";

  // Applying a schedule replaces the module's body: `func` is only valid
  // until then.
  std::string name = func.getSymName().str();
  Location loc = func.getLoc();

  // Apply the best verified config if it beats the untransformed function;
  // its script was built once, when it was evaluated (a record of an older
  // tuner may lack it).
  bool applied = false;
  Config chosen = tunable->space.defaultConfig();
  std::string script;
  if (result.best && result.best->value > 1.0) {
    chosen = result.best->config;
    script = result.best->schedule;
  }
  if (script.empty()) {
    llvm::Expected<std::string> built =
        buildTransformScript(tunable->tree, tunable->space, chosen);
    if (!built) {
      emitError(func, "cannot build the schedule", built.takeError());
      return signalPassFailure();
    }
    script = std::move(*built);
  }
  if (result.best && result.best->value > 1.0) {
    if (failed(applyTransformScript(module, script)))
      return signalPassFailure();
    applied = true;
  }
  if (!scheduleOutput.empty() && failed(writeSchedule(script)))
    return signalPassFailure();
  writeSummary(name, loc, tunable->space, **measurer, session, applied,
               **search);
}

void TunerAutotunePass::writeSummary(llvm::StringRef name, Location loc,
                                     const Space &space,
                                     const Measurer &measurer,
                                     const TuningSession &session,
                                     bool applied,
                                     const ProgramSearch &search) {
  const Measurement &base = measurer.baseline();
  const TuningResult &result = session.getResult();
  unsigned failed = session.failureCount();

  // At the function's location, without printing the whole function.
  InFlightDiagnostic remark = mlir::emitRemark(loc);
  remark << "autotune @" << name << ": baseline "
         << formatTime(base.medianSeconds);
  if (result.best)
    remark << ", best " << formatTime(result.best->medianSeconds)
           << llvm::formatv(" ({0:F2}x)", result.best->value);
  remark << "; " << result.history.size() << " candidates ("
         << result.evaluated << " measured, "
         << result.history.size() - result.evaluated << " from the database), "
         << failed << " failed";
  if (failed)
    remark << " (" << session.describeFailures() << ")";
  remark << llvm::formatv("; {0:F1} s of search; ", result.seconds)
         << (applied ? "the best schedule was applied"
                     : "no candidate beat the untransformed function, which "
                       "is kept");
  remark.report();

  if (summaryOutput.empty())
    return;
  llvm::json::Object failureCounts;
  for (const auto &[status, count] : session.getFailures())
    failureCounts[statusName(status)] = int64_t(count);
  llvm::json::Value best = nullptr;
  if (result.best) {
    best = llvm::json::Object{
        {"median_s", result.best->medianSeconds},
        {"min_s", result.best->minSeconds},
        {"speedup", result.best->value},
        {"applied", applied},
        {"config", result.best->config.toJSON(space)}};
  }
  llvm::json::Object summary{
      {"function", name.str()},
      // The strategy that ran (beam-exec when beam or mcts had no model).
      {"strategy", search.getStrategy().str()},
      {"seed", int64_t(seed)},
      {"baseline",
       llvm::json::Object{{"median_s", base.medianSeconds},
                          {"min_s", base.minSeconds},
                          {"max_s", base.maxSeconds}}},
      {"best", std::move(best)},
      {"candidates", int64_t(result.history.size())},
      {"measured", int64_t(result.evaluated)},
      {"failed", std::move(failureCounts)},
      {"search_seconds", result.seconds},
      {"space_size", search.getChain().countString()},
  };
  if (const ModelEvaluator *model = search.getModel()) {
    summary["model_correction"] = bool(modelCorrection);
    summary["diverse_top_k"] = bool(diverseTopK);
    // Schedules the cost model scored: what a search by execution over the
    // same tree would have had to measure.
    summary["model_predictions"] = int64_t(model->predictions());
  }
  if (llvm::Error err = writeJSONFile(summaryOutput, std::move(summary)))
    emitError(getOperation(), "cannot write the summary", std::move(err));
}

} // namespace
