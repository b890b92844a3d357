//===- Strategy.cpp - The tuning loop and the strategy registry -----------===//

#include "tuner/Search/Strategy.h"
#include "tuner/Search/Strategies.h"

#include "llvm/ADT/StringExtras.h"

#include <chrono>

using namespace tuner;

Strategy::~Strategy() = default;

Observation Observation::failure(Config config, Status status,
                                 std::string message) {
  Observation observation;
  observation.config = std::move(config);
  observation.status = status;
  observation.message = std::move(message);
  return observation;
}
Evaluator::~Evaluator() = default;

std::vector<std::string> tuner::strategyNames() {
  return {"random", "exhaustive"};
}

llvm::Expected<std::unique_ptr<Strategy>>
tuner::createStrategy(llvm::StringRef name, const ChainOfTrees &chain,
                      uint64_t seed) {
  if (name == "random")
    return createRandomSearch(chain, seed);
  if (name == "exhaustive") {
    if (chain.hasRealParameters())
      return llvm::createStringError(
          "the exhaustive strategy cannot enumerate real-valued parameters");
    if (!chain.isExact())
      return llvm::createStringError(
          "the exhaustive strategy cannot enumerate this space: it is too "
          "large to enumerate (size " +
          chain.countString() + ")");
    return createExhaustiveSearch(chain);
  }
  return llvm::createStringError("unknown search strategy '" + name +
                                 "' (known: " +
                                 llvm::join(strategyNames(), ", ") + ")");
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
