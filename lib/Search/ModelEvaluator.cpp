//===- ModelEvaluator.cpp - The cost model as an Evaluator ----------------===//

#include "tuner/Search/ModelEvaluator.h"

using namespace tuner;

std::vector<Observation>
ModelEvaluator::evaluate(llvm::ArrayRef<Config> configs) {
  std::vector<Observation> observations(configs.size());
  for (auto [observation, config] : llvm::zip(observations, configs))
    observation.config = config;
  if (configs.empty())
    return observations;
  llvm::Expected<std::vector<double>> speedups = predictor.predict(configs);
  if (speedups) {
    predicted += configs.size();
    for (auto [observation, speedup] : llvm::zip(observations, *speedups)) {
      observation.ok = true;
      observation.value = speedup;
    }
    return observations;
  }
  // One config the model cannot score fails its batch: score them one by
  // one, so that only such configs fail.
  llvm::consumeError(speedups.takeError());
  for (auto [observation, config] : llvm::zip(observations, configs)) {
    llvm::Expected<std::vector<double>> one = predictor.predict({config});
    if (!one) {
      lastError = llvm::toString(one.takeError());
      observation.failure = "model_error";
      ++failed;
      continue;
    }
    ++predicted;
    observation.ok = true;
    observation.value = one->front();
  }
  return observations;
}
