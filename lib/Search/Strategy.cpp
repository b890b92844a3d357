//===- Strategy.cpp - The tuning loop and the strategy registry -----------===//

#include "tuner/Search/Strategy.h"
#include "tuner/Search/BayesianOptimization.h"
#include "tuner/Search/Neighbourhood.h"
#include "tuner/Search/Strategies.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <chrono>

using namespace tuner;

Strategy::~Strategy() = default;

llvm::StringRef tuner::modelCorrectionName(ModelCorrection correction) {
  switch (correction) {
  case ModelCorrection::None:
    return "none";
  case ModelCorrection::Errors:
    return "gp";
  case ModelCorrection::Adapt:
    return "adapt";
  case ModelCorrection::AdaptAndErrors:
    return "adapt+gp";
  }
  llvm_unreachable("unknown model correction");
}

std::optional<ModelCorrection>
tuner::parseModelCorrection(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<ModelCorrection>>(name)
      .Cases({"none", "false"}, ModelCorrection::None)
      .Cases({"gp", "true"}, ModelCorrection::Errors)
      .Case("adapt", ModelCorrection::Adapt)
      .Case("adapt+gp", ModelCorrection::AdaptAndErrors)
      .Default(std::nullopt);
}

Observation Observation::failure(Config config, Status status,
                                 std::string message) {
  Observation observation;
  observation.config = std::move(config);
  observation.status = status;
  observation.message = std::move(message);
  return observation;
}
Observation Observation::measured(Config config,
                                  const Measurement &measurement,
                                  std::string schedule) {
  Observation observation;
  observation.config = std::move(config);
  observation.schedule = std::move(schedule);
  observation.status = measurement.status;
  observation.message = measurement.message;
  observation.foreignLoad = measurement.foreignLoad;
  if (!measurement.ok())
    return observation;
  observation.value = measurement.speedup;
  observation.objective = measurement.medianSeconds;
  observation.minSeconds = measurement.minSeconds;
  observation.medianSeconds = measurement.medianSeconds;
  observation.maxSeconds = measurement.maxSeconds;
  observation.repetitions = measurement.repetitions;
  return observation;
}

Evaluator::~Evaluator() = default;

std::vector<Config> tuner::feasibleSeeds(const SearchProblem &problem) {
  std::vector<Config> result;
  if (problem.seeds.empty() || !problem.chain)
    return result;
  const Space &space = problem.chain->getSpace();
  Config defaults = space.defaultConfig();
  Neighbourhood neighbourhood(*problem.chain);
  for (const Config &seed : problem.seeds) {
    if (seed.size() != space.size())
      continue;
    std::vector<size_t> decisions;
    for (size_t i = 0; i < seed.size(); ++i)
      if (seed[i] != defaults[i])
        decisions.push_back(i);
    std::vector<Config> repaired = neighbourhood.repairs(seed, decisions);
    if (repaired.empty())
      repaired = neighbourhood.repairs(seed, {});
    if (repaired.empty() || llvm::is_contained(result, repaired.front()))
      continue;
    result.push_back(std::move(repaired.front()));
  }
  return result;
}

namespace {

/// The execution step's part of `options`.
ExecutionOptions executionOptions(const SearchProblem &problem,
                                  const StrategyOptions &options) {
  ExecutionOptions execution;
  execution.topK = options.topK;
  execution.correct = options.modelCorrection;
  execution.diverse = options.diverseTopK;
  execution.hash = problem.hash;
  execution.stratum = problem.stratum;
  execution.represent = problem.represent;
  execution.seeds = feasibleSeeds(problem);
  return execution;
}

BeamSearchOptions beamOptions(const SearchProblem &problem,
                              const StrategyOptions &options) {
  BeamSearchOptions beam;
  static_cast<ExecutionOptions &>(beam) = executionOptions(problem, options);
  beam.width = options.beamWidth;
  return beam;
}

MonteCarloOptions monteCarloOptions(const SearchProblem &problem,
                                    const StrategyOptions &options) {
  MonteCarloOptions mcts;
  static_cast<ExecutionOptions &>(mcts) = executionOptions(problem, options);
  mcts.iterations = options.mctsIterations;
  mcts.seed = options.seed;
  return mcts;
}

using Created = llvm::Expected<std::unique_ptr<Strategy>>;

const StrategyInfo kStrategies[] = {
    {"random", "uniform samples of the feasible configs", false, false,
     [](const SearchProblem &p, const StrategyOptions &o) -> Created {
       return createRandomSearch(*p.chain, o.seed);
     }},
    {"exhaustive", "every feasible config once", false, false,
     [](const SearchProblem &p, const StrategyOptions &) -> Created {
       return createExhaustiveSearch(*p.chain);
     }},
    {"beam", "beam search guided by the cost model, its top k measured (BSM)",
     true, true,
     [](const SearchProblem &p, const StrategyOptions &o) -> Created {
       return createModelBeamSearch(*p.tree, *p.model, beamOptions(p, o));
     }},
    {"beam-exec", "beam search measuring every node (BSE)", true, false,
     [](const SearchProblem &p, const StrategyOptions &o) -> Created {
       return createExecutionBeamSearch(*p.tree, beamOptions(p, o));
     }},
    {"mcts", "Monte Carlo tree search guided by the cost model, its top k "
             "measured",
     true, true,
     [](const SearchProblem &p, const StrategyOptions &o) -> Created {
       return createMonteCarloTreeSearch(*p.tree, *p.model,
                                         monteCarloOptions(p, o));
     }},
    {"bo",
     "Bayesian optimization (BaCO): a Gaussian process with typed kernels, "
     "expected improvement, learned hidden constraints; the cost model as "
     "its prior mean when there is one",
     false, false,
     [](const SearchProblem &p, const StrategyOptions &o) -> Created {
       return createBayesianOptimization(
           p, llvm::cantFail(parseBayesianOptions(o)));
     },
     bayesianOptimizationSettings(),
     [](const StrategyOptions &o) {
       llvm::Expected<BayesianOptions> parsed = parseBayesianOptions(o);
       return parsed ? llvm::Error::success() : parsed.takeError();
     },
     /*usesModel=*/true},
    {"evolution",
     "OpEvo: fitness-proportional recombination and q-random-walk mutation "
     "on each parameter's topology",
     false, false, createEvolution, evolutionSettings()},
    {"annealing", "Kernel Tuner's simulated annealing over neighbour moves",
     false, false, createAnnealing, annealingSettings()},
    {"genetic", "Kernel Tuner's genetic algorithm", false, false,
     createGeneticSearch, geneticSearchSettings()},
    {"portfolio",
     "OpenTuner's AUC bandit sharing the budget between strategies (random, "
     "evolution, annealing, genetic and bo by default)",
     false, false,
     [](const SearchProblem &p, const StrategyOptions &o) -> Created {
       return createPortfolio(p, o);
     },
     portfolioSettings(), nullptr, /*usesModel=*/true},
};

} // namespace

llvm::ArrayRef<StrategyInfo> tuner::strategyRegistry() { return kStrategies; }

std::vector<std::string> tuner::strategyNames() {
  std::vector<std::string> names;
  for (const StrategyInfo &info : strategyRegistry())
    names.push_back(info.name);
  return names;
}

llvm::Expected<const StrategyInfo &> tuner::findStrategy(llvm::StringRef name) {
  for (const StrategyInfo &info : strategyRegistry())
    if (name == info.name)
      return info;
  return llvm::createStringError("unknown strategy '" + name + "' (known: " +
                                 llvm::join(strategyNames(), ", ") + ")");
}

llvm::Error
tuner::parseStrategySetting(llvm::StringRef text,
                            std::map<std::string, std::string> &settings) {
  auto [key, value] = text.split('=');
  key = key.trim();
  value = value.trim();
  if (!text.contains('='))
    return llvm::createStringError("strategy setting '" + text +
                                   "' is not of the form key=value");
  if (key.empty())
    return llvm::createStringError("strategy setting '" + text +
                                   "' has no key before '='");
  if (!settings.emplace(key.str(), value.str()).second)
    return llvm::createStringError("strategy setting '" + key +
                                   "' is given twice");
  return llvm::Error::success();
}

llvm::Error
tuner::parseStrategySettings(llvm::StringRef text,
                             std::map<std::string, std::string> &settings) {
  if (text.trim().empty())
    return llvm::Error::success();
  llvm::SmallVector<llvm::StringRef> items;
  text.split(items, ',');
  for (llvm::StringRef item : items)
    if (llvm::Error error = parseStrategySetting(item, settings))
      return error;
  return llvm::Error::success();
}

llvm::Error tuner::checkStrategySettings(const StrategyInfo &info,
                                         const StrategyOptions &options) {
  for (const auto &entry : options.settings) {
    bool known = llvm::any_of(info.settings, [&](const StrategySetting &s) {
      // "<member>.<key>": any key with a dot, for the strategy to check.
      if (llvm::StringRef(s.key).starts_with("<member>."))
        return llvm::StringRef(entry.first).contains('.');
      return entry.first == s.key;
    });
    if (known)
      continue;
    if (info.settings.empty())
      return llvm::createStringError("strategy '" + llvm::Twine(info.name) +
                                     "' has no settings (got '" + entry.first +
                                     "')");
    std::vector<std::string> keys;
    for (const StrategySetting &setting : info.settings)
      keys.push_back(setting.key);
    return llvm::createStringError("strategy '" + llvm::Twine(info.name) +
                                   "' has no setting '" + entry.first +
                                   "' (known: " + llvm::join(keys, ", ") + ")");
  }
  if (info.checkSettings)
    return info.checkSettings(options);
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<Strategy>>
tuner::createStrategy(llvm::StringRef name, const SearchProblem &problem,
                      const StrategyOptions &options) {
  llvm::Expected<const StrategyInfo &> info = findStrategy(name);
  if (!info)
    return info.takeError();
  if (!problem.chain)
    return llvm::createStringError("strategy '" + name +
                                   "': the problem has no space");
  if (info->needsTree && !problem.tree)
    return llvm::createStringError(
        "strategy '" + name +
        "' walks the schedules of a program (an MLIR function's space), "
        "which this space is not; use random or exhaustive");
  if (info->needsModel && !problem.model)
    return llvm::createStringError("strategy '" + name +
                                   "' needs a cost model that can score the "
                                   "program");
  if (name == "exhaustive") {
    const ChainOfTrees &chain = *problem.chain;
    if (chain.hasRealParameters())
      return llvm::createStringError(
          "the exhaustive strategy cannot enumerate real-valued parameters");
    if (!chain.isExact())
      return llvm::createStringError(
          "the exhaustive strategy cannot enumerate this space: it is too "
          "large to enumerate (size " +
          chain.countString() + ")");
  }
  if (llvm::Error error = checkStrategySettings(*info, options))
    return std::move(error);
  return info->create(problem, options);
}

TuningResult
tuner::runTuningLoop(Strategy &strategy, Evaluator &evaluator,
                     const Budget &budget, size_t batch,
                     std::function<void(const TuningResult &)> progress) {
  using Clock = std::chrono::steady_clock;
  Clock::time_point start = Clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  TuningResult result;
  batch = std::max<size_t>(batch, 1);
  while (true) {
    if (budget.seconds > 0 && elapsed() >= budget.seconds)
      break;
    size_t want = batch;
    if (budget.evaluations > 0) {
      if (result.history.size() >= budget.evaluations)
        break;
      want = std::min(want, budget.evaluations - result.history.size());
    }
    std::vector<Config> configs = strategy.propose(want);
    if (configs.empty())
      break;
    std::vector<Observation> observations = evaluator.evaluate(configs);
    if (evaluator.fatalError()) {
      result.error = *evaluator.fatalError();
      break;
    }
    strategy.observe(observations);
    for (Observation &observation : observations) {
      if (!observation.cached)
        ++result.evaluated;
      if (observation.ok() &&
          (!result.best || observation.value > result.best->value))
        result.best = observation;
      result.history.push_back(std::move(observation));
    }
    result.seconds = elapsed();
    if (progress)
      progress(result);
  }
  result.seconds = elapsed();
  return result;
}
