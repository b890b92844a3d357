//===- FunctionTuning.cpp - Tune one MLIR function by measurement ---------===//

#include "tuner/Tuning/FunctionTuning.h"
#include "tuner/Analysis/WorkloadHash.h"
#include "tuner/Database/Database.h"
#include "tuner/Schedule/ScheduleBuilder.h"
#include "tuner/Target/Target.h"

using namespace tuner;

llvm::Expected<std::unique_ptr<FunctionTuning>>
FunctionTuning::create(mlir::ModuleOp module, mlir::func::FuncOp func,
                       const ProgramTree &tree, const Space &space,
                       FunctionTuningOptions options) {
  std::unique_ptr<FunctionTuning> tuning(new FunctionTuning(tree, space));
  tuning->requestedStrategy = options.strategy;
  llvm::Expected<std::unique_ptr<ProgramSearch>> search =
      ProgramSearch::create(tree, space, options.strategy, options.model,
                            options.defaultModel);
  if (!search)
    return search.takeError();
  tuning->search = std::move(*search);
  tuning->search->setSeeds(std::move(options.seeds));
  if (!options.strategyOptions.budget)
    options.strategyOptions.budget = options.budget.evaluations;
  llvm::Expected<std::unique_ptr<Strategy>> strategy =
      tuning->search->createStrategy(options.strategyOptions);
  if (!strategy)
    return strategy.takeError();
  tuning->strategy = std::move(*strategy);

  // Measurements happen here, so they are keyed by this machine (or by the
  // GPU it measures on).
  Target host = options.target ? *options.target : Target::host();
  mlir::func::FuncOp named = options.workloadOf ? options.workloadOf : func;
  std::string workload = workloadHash(named, options.shapes);
  if (options.database)
    if (llvm::Error error = options.database->addWorkload(
            {workload, named.getSymName().str(),
             canonicalIR(named, options.shapes)}))
      return llvm::createStringError("cannot write to the tuning database: " +
                                     llvm::toString(std::move(error)));
  llvm::Expected<std::unique_ptr<Measurer>> measurer = Measurer::create(
      module,
      options.entryPoint.empty() ? func.getSymName()
                                 : llvm::StringRef(options.entryPoint),
      host, options.measure);
  if (!measurer)
    return llvm::createStringError(
        "cannot measure the untransformed function: " +
        llvm::toString(measurer.takeError()));
  tuning->measurer = std::move(*measurer);
  tuning->evaluator = std::make_unique<MeasuringEvaluator>(
      module, tree, space, *tuning->measurer, &tuning->search->getPlans());
  if (options.database)
    tuning->recorder.emplace(
        *options.database, space,
        DatabaseRecorder::Keys{workload, host.fingerprint(),
                               tuning->strategy->getName().str(),
                               Objective::Speedup,
                               tuning->measurer->baseline().medianSeconds});

  SessionOptions session;
  session.budget = options.budget;
  session.batch = options.measure.jobs ? options.measure.jobs
                                       : std::max(1u, host.cores);
  session.recorder = tuning->recorder ? &*tuning->recorder : nullptr;
  session.progress = std::move(options.progress);
  session.confirm = options.confirm;
  tuning->session = std::make_unique<TuningSession>(
      *tuning->strategy, *tuning->evaluator, std::move(session));
  return std::move(tuning);
}

const TuningResult &FunctionTuning::run() { return session->run(); }

bool FunctionTuning::improved() const {
  const TuningResult &result = session->getResult();
  return result.best && result.best->value > 1.0;
}

Config FunctionTuning::chosenConfig() const {
  return improved() ? session->getResult().best->config
                    : space.defaultConfig();
}

llvm::Expected<std::string> FunctionTuning::chosenScript() const {
  if (improved() && !session->getResult().best->schedule.empty())
    return session->getResult().best->schedule;
  return buildTransformScript(tree, space, chosenConfig());
}

std::vector<std::string> FunctionTuning::warnings() const {
  std::vector<std::string> result;
  if (!search->getFallbackReason().empty())
    result.push_back(search->getFallbackReason().str() +
                     ": searching with measurements only (strategy " +
                     search->getStrategy().str() + ") instead of " +
                     requestedStrategy);
  if (recorder && !recorder->getError().empty())
    result.push_back("the tuning database could not record every "
                     "measurement: " +
                     recorder->getError());
  if (const ModelEvaluator *model = search->getModel(); model &&
                                                        model->failures())
    result.push_back(
        "the cost model could not score " + std::to_string(model->failures()) +
        " of " + std::to_string(model->failures() + model->predictions()) +
        " schedules, which the search treated as failed (the last: " +
        model->getLastError() + ")");
  return result;
}
