//===- Autotune.cpp - Tune a schedule by measurement ----------------------===//
//
// The driver of the data flow in DESIGN.md: Analysis -> Space -> Search
// (Strategy proposes configs) -> Schedule (config -> script -> applied copy)
// -> Measure (lower, run, verify, time) -> Database (every measurement), and
// finally the best verified config applied to the module.
//
//===----------------------------------------------------------------------===//

#include "tuner/Analysis/WorkloadHash.h"
#include "tuner/Database/Database.h"
#include "tuner/Measure/Measurer.h"
#include "tuner/Passes/PassUtils.h"
#include "tuner/Passes/Passes.h"
#include "tuner/Schedule/ApplySchedule.h"
#include "tuner/Schedule/ScheduleBuilder.h"
#include "tuner/Schedule/TransformExtension.h"
#include "tuner/Schedule/SchedulePlan.h"
#include "tuner/Search/DecisionTree.h"
#include "tuner/Search/ModelEvaluator.h"
#include "tuner/Search/Strategies.h"
#include "tuner/Search/Strategy.h"
#include "tuner/Space/ChainOfTrees.h"

#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/IR/Diagnostics.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/ToolOutputFile.h"

#include <cstdio>
#include <map>

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


/// Evaluates configs by applying them to a copy of the module and measuring
/// the copy; reads known results from, and writes new ones to, the database.
class MeasuringEvaluator : public Evaluator {
public:
  MeasuringEvaluator(ModuleOp module, const TunableFunction &tunable,
                     Measurer &measurer, db::Database *database,
                     std::string workload, std::string target,
                     std::string strategy)
      : module(module), tunable(tunable), measurer(measurer),
        database(database), workload(std::move(workload)),
        target(std::move(target)), strategy(std::move(strategy)) {}

  std::vector<Observation> evaluate(llvm::ArrayRef<Config> configs) override {
    std::vector<Observation> observations(configs.size());
    std::vector<OwningOpRef<ModuleOp>> candidates;
    std::vector<size_t> candidateIndex;
    for (auto [i, config] : llvm::enumerate(configs)) {
      Observation &observation = observations[i];
      observation.config = config;
      if (recall(config, observation))
        continue;
      std::string message;
      OwningOpRef<ModuleOp> candidate = applyConfig(config, message);
      if (!candidate) {
        finish(observation,
               Measurement::failure(Status::ApplyFailed, message));
        continue;
      }
      candidateIndex.push_back(i);
      candidates.push_back(std::move(candidate));
    }
    std::vector<ModuleOp> modules;
    for (OwningOpRef<ModuleOp> &candidate : candidates)
      modules.push_back(*candidate);
    std::vector<Measurement> measurements = measurer.measureAll(modules);
    for (auto [index, measurement] : llvm::zip(candidateIndex, measurements))
      finish(observations[index], measurement);
    return observations;
  }

  /// The first database error met, if any (the run goes on without it).
  std::string databaseError;
  /// Failures by class, over everything evaluated or recalled.
  std::map<std::string, unsigned> failures;

private:
  /// Fills `observation` from the database when the config was measured
  /// before on this machine.
  bool recall(const Config &config, Observation &observation) {
    if (!database)
      return false;
    auto record = database->lookup(workload, target, config.hash());
    if (!record) {
      noteDatabaseError(record.takeError());
      return false;
    }
    if (!*record)
      return false;
    observation.cached = true;
    observation.status = (*record)->status;
    if (observation.ok() && (*record)->medianSeconds.value_or(0) <= 0)
      observation.status = Status::WrongResult;
    if (observation.ok()) {
      observation.medianSeconds = *(*record)->medianSeconds;
      observation.minSeconds =
          (*record)->minSeconds.value_or(observation.medianSeconds);
      // The speedup measured side by side with the baseline of the session
      // that measured it; times from two sessions are never divided.
      observation.value = (*record)->speedup.value_or(
          measurer.baseline().medianSeconds / observation.medianSeconds);
    }
    else
      observation.message = (*record)->message;
    if (!observation.ok())
      ++failures[statusName(observation.status).str()];
    return true;
  }

  /// A copy of the module transformed by `config`, or null with the reason.
  OwningOpRef<ModuleOp> applyConfig(const Config &config,
                                    std::string &message) {
    llvm::Expected<std::string> script =
        buildTransformScript(tunable.tree, tunable.space, config);
    if (!script) {
      message = llvm::toString(script.takeError());
      return nullptr;
    }
    OwningOpRef<ModuleOp> copy = module.clone();
    // A candidate that fails to apply is a result, not an error of the pass:
    // keep its diagnostics as the record's message.
    ScopedDiagnosticHandler capture(module.getContext(), [&](Diagnostic &d) {
      if (d.getSeverity() == DiagnosticSeverity::Error ||
          d.getSeverity() == DiagnosticSeverity::Note) {
        if (!message.empty())
          message += "; ";
        message += d.str();
      }
      return success();
    });
    // A transformation that crashes (an upstream bug on an odd schedule)
    // fails here too, with a diagnostic: applyTransformScript recovers.
    if (failed(applyTransformScript(*copy, *script)))
      return nullptr;
    return copy;
  }

  void finish(Observation &observation, const Measurement &measurement) {
    observation.status = measurement.status;
    observation.value = measurement.speedup;
    observation.medianSeconds = measurement.medianSeconds;
    observation.minSeconds = measurement.minSeconds;
    if (!observation.ok()) {
      observation.message = measurement.message;
      ++failures[statusName(measurement.status).str()];
    }
    if (!database)
      return;
    db::MeasurementRecord record;
    record.workloadHash = workload;
    record.target = target;
    std::string config;
    llvm::raw_string_ostream(config)
        << observation.config.toJSON(tunable.space);
    record.config = config;
    record.configHash = observation.config.hash();
    record.status = measurement.status;
    if (measurement.ok()) {
      record.minSeconds = measurement.minSeconds;
      record.medianSeconds = measurement.medianSeconds;
      record.maxSeconds = measurement.maxSeconds;
      record.repetitions = measurement.repetitions;
      record.speedup = measurement.speedup;
    }
    record.baselineMedianSeconds = measurer.baseline().medianSeconds;
    record.strategy = strategy;
    record.toolVersion = TUNER_VERSION_STRING;
    record.timestamp = db::unixNow();
    record.message = measurement.message.substr(0, 4000);
    record.spaceFingerprint = tunable.space.fingerprint();
    record.schedule = llvm::expectedToOptional(
                          buildTransformScript(tunable.tree, tunable.space,
                                               observation.config))
                          .value_or("");
    if (llvm::Error err = database->record(record))
      noteDatabaseError(std::move(err));
  }

  void noteDatabaseError(llvm::Error err) {
    std::string text = llvm::toString(std::move(err));
    if (databaseError.empty())
      databaseError = text;
  }

  ModuleOp module;
  const TunableFunction &tunable;
  Measurer &measurer;
  db::Database *database;
  std::string workload, target, strategy;
};

/// What the tree strategies refer to while they run.
struct TreeSearchState {
  std::optional<DecisionTree> tree;
  std::optional<CostModel> model;
  std::unique_ptr<ModelEvaluator> evaluator;
};

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
  /// The strategy named by the options; the model-guided ones load the cost
  /// model (falling back, with a warning, to beam-exec when there is none).
  FailureOr<std::unique_ptr<Strategy>>
  makeStrategy(const TunableFunction &tunable, const ChainOfTrees &chain,
               TreeSearchState &state);
  FailureOr<std::optional<db::Database>> openDatabase();
  void writeSummary(llvm::StringRef name, Location loc, const Space &space,
                    const Measurer &measurer,
                    const TuningResult &result,
                    const std::map<std::string, unsigned> &failures,
                    bool applied, llvm::StringRef spaceSize,
                    llvm::StringRef strategyUsed,
                    const ModelEvaluator *model);
};

/// Strategies that walk the decision tree.
const char *const kTreeStrategies[] = {"beam", "mcts", "beam-exec"};

LogicalResult TunerAutotunePass::checkOptions() {
  ModuleOp module = getOperation();
  std::vector<std::string> known(std::begin(kTreeStrategies),
                                 std::end(kTreeStrategies));
  for (const std::string &name : strategyNames())
    known.push_back(name);
  if (!llvm::is_contained(known, strategy.getValue()))
    return module.emitError()
           << "unknown strategy '" << strategy.getValue()
           << "' (known: " << llvm::join(known, ", ") << ")";
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

FailureOr<std::unique_ptr<Strategy>>
TunerAutotunePass::makeStrategy(const TunableFunction &tunable,
                                const ChainOfTrees &chain,
                                TreeSearchState &state) {
  func::FuncOp func = tunable.func;
  if (!llvm::is_contained(kTreeStrategies, strategy.getValue())) {
    llvm::Expected<std::unique_ptr<Strategy>> search =
        createStrategy(strategy, chain, seed);
    if (!search) {
      emitError(func, "", search.takeError());
      return failure();
    }
    return std::move(*search);
  }
  llvm::Expected<DecisionTree> tree = DecisionTree::build(tunable.space);
  if (!tree) {
    emitError(func, "cannot build the search tree", tree.takeError());
    return failure();
  }
  state.tree.emplace(std::move(*tree));
  // Configs that mean the same schedule are scored and measured once.
  const ProgramTree *programTree = &tunable.tree;
  const Space *space = &tunable.space;
  ScheduleHash hash = [programTree, space](const Config &config) {
    llvm::Expected<SchedulePlan> plan =
        planSchedule(*programTree, *space, config);
    if (!plan) {
      llvm::consumeError(plan.takeError());
      return config.hash();
    }
    return plan->hash();
  };

  std::string name = strategy;
  if (name != "beam-exec") {
    std::string path = model.empty() ? std::string(TUNER_DEFAULT_MODEL)
                                     : model.getValue();
    llvm::Expected<std::optional<CostModel>> loaded =
        model.empty() ? CostModel::loadIfExists(path)
                      : llvm::Expected<std::optional<CostModel>>(
                            CostModel::load(path));
    if (!loaded) {
      emitError(func, "cannot use the cost model", loaded.takeError());
      return failure();
    }
    if (!*loaded) {
      func.emitWarning() << "no cost model at '" << path
                         << "': searching with measurements only "
                            "(strategy beam-exec) instead of " << name;
      name = "beam-exec";
    } else {
      state.model.emplace(std::move(**loaded));
      llvm::Expected<CostModel::ProgramPredictor> predictor =
          state.model->forProgram(tunable.tree, tunable.space);
      if (predictor) {
        state.evaluator =
            std::make_unique<ModelEvaluator>(std::move(*predictor));
      } else {
        // E.g. more loop levels or accesses than the feature layout holds.
        func.emitWarning() << "the cost model cannot score this function ("
                           << llvm::toString(predictor.takeError())
                           << "): searching with measurements only "
                              "(strategy beam-exec) instead of "
                           << name;
        name = "beam-exec";
        state.model.reset();
      }
    }
  }
  if (name == "mcts") {
    MonteCarloOptions options;
    options.iterations = mctsIterations;
    options.topK = topK;
    options.correct = modelCorrection;
    options.diverse = diverseTopK;
    options.seed = seed;
    options.hash = hash;
    return createMonteCarloTreeSearch(*state.tree, *state.evaluator, options);
  }
  BeamSearchOptions options;
  options.width = beamWidth;
  options.topK = topK;
  options.correct = modelCorrection;
  options.diverse = diverseTopK;
  options.hash = hash;
  return createBeamSearch(*state.tree,
                          name == "beam" ? state.evaluator.get() : nullptr,
                          options);
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

void TunerAutotunePass::runOnOperation() {
  ModuleOp module = getOperation();
  if (failed(checkOptions()))
    return signalPassFailure();

  FailureOr<TunableFunction> tunable =
      prepareFunction(module, functionName, target, readSpaceOptions(*this));
  if (failed(tunable))
    return signalPassFailure();
  func::FuncOp func = tunable->func;

  llvm::Expected<ChainOfTrees> chain = ChainOfTrees::build(tunable->space);
  if (!chain) {
    emitError(func, "cannot enumerate the search space", chain.takeError());
    return signalPassFailure();
  }
  TreeSearchState treeSearch;
  FailureOr<std::unique_ptr<Strategy>> search =
      makeStrategy(*tunable, *chain, treeSearch);
  if (failed(search))
    return signalPassFailure();

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

  MeasuringEvaluator evaluator(module, *tunable, **measurer, records,
                               workload, host.fingerprint(),
                               (*search)->getName().str());
  bool interactive = llvm::errs().is_displayed();
  auto progress = [&](const TuningResult &result) {
    if (!interactive)
      return;
    llvm::errs() << llvm::formatv(
        "\rautotune: {0} candidates ({1} measured), best {2:F2}x   ",
        result.history.size(), result.evaluated,
        result.best ? result.best->value : 0.0);
    llvm::errs().flush();
  };
  unsigned batch = jobs ? jobs : std::max(1u, host.cores);
  TuningResult result =
      runTuningLoop(**search, evaluator, {budget, timeBudget}, batch, progress);
  if (interactive)
    llvm::errs() << "\n";
  if (!evaluator.databaseError.empty())
    func.emitWarning() << "the tuning database could not record every "
                          "measurement: "
                       << evaluator.databaseError;
  if (treeSearch.evaluator && treeSearch.evaluator->failures())
    func.emitWarning() << "the cost model could not score "
                       << treeSearch.evaluator->failures() << " of "
                       << treeSearch.evaluator->failures() +
                              treeSearch.evaluator->predictions()
                       << " schedules, which the search treated as failed "
                          "(the last: "
                       << treeSearch.evaluator->getLastError() << ")";

  // Applying a schedule replaces the module's body: `func` is only valid
  // until then.
  std::string name = func.getSymName().str();
  Location loc = func.getLoc();

  // Apply the best verified config if it beats the untransformed function.
  bool applied = false;
  Config chosen = tunable->space.defaultConfig();
  if (result.best && result.best->value > 1.0) {
    chosen = result.best->config;
    llvm::Expected<std::string> script =
        buildTransformScript(tunable->tree, tunable->space, chosen);
    if (!script) {
      emitError(func, "cannot rebuild the best schedule", script.takeError());
      return signalPassFailure();
    }
    if (failed(applyTransformScript(module, *script)))
      return signalPassFailure();
    applied = true;
  }
  if (!scheduleOutput.empty()) {
    llvm::Expected<std::string> script =
        buildTransformScript(tunable->tree, tunable->space, chosen);
    if (!script) {
      emitError(module, "cannot write the schedule", script.takeError());
      return signalPassFailure();
    }
    std::error_code ec;
    llvm::ToolOutputFile file(scheduleOutput, ec, llvm::sys::fs::OF_Text);
    if (ec) {
      module.emitError() << "cannot write '" << scheduleOutput
                         << "': " << ec.message();
      return signalPassFailure();
    }
    file.os() << *script;
    file.keep();
  }
  writeSummary(name, loc, tunable->space, **measurer, result,
               evaluator.failures, applied, chain->countString(),
               (*search)->getName(), treeSearch.evaluator.get());
}

void TunerAutotunePass::writeSummary(
    llvm::StringRef name, Location loc, const Space &space,
    const Measurer &measurer,
    const TuningResult &result,
    const std::map<std::string, unsigned> &failures, bool applied,
    llvm::StringRef spaceSize, llvm::StringRef strategyUsed,
    const ModelEvaluator *model) {
  const Measurement &base = measurer.baseline();
  unsigned failed = 0;
  for (const auto &entry : failures)
    failed += entry.second;

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
  if (failed) {
    remark << " (";
    llvm::interleaveComma(failures, remark, [&](const auto &entry) {
      remark << entry.second << " " << entry.first;
    });
    remark << ")";
  }
  remark << llvm::formatv("; {0:F1} s of search; ", result.seconds)
         << (applied ? "the best schedule was applied"
                     : "no candidate beat the untransformed function, which "
                       "is kept");
  remark.report();

  if (summaryOutput.empty())
    return;
  llvm::json::Object failureCounts;
  for (const auto &[name, count] : failures)
    failureCounts[name] = int64_t(count);
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
      {"strategy", strategyUsed.str()},
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
      {"space_size", spaceSize},
  };
  if (model) {
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
