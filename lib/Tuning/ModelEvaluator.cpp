//===- ModelEvaluator.cpp - The cost model as an Evaluator ----------------===//

#include "tuner/Tuning/ModelEvaluator.h"

using namespace tuner;

std::vector<Observation>
ModelEvaluator::evaluate(llvm::ArrayRef<Config> configs) {
  std::vector<Observation> observations(configs.size());
  for (auto [observation, config] : llvm::zip(observations, configs)) {
    observation.config = config;
    observation.status = Status::ModelError;
  }
  if (configs.empty())
    return observations;
  llvm::Expected<std::vector<double>> speedups = predictor.predict(configs);
  if (speedups) {
    predicted += configs.size();
    for (auto [observation, speedup] : llvm::zip(observations, *speedups)) {
      observation.status = Status::Ok;
      observation.value = observation.objective = speedup;
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
      observation.message = lastError;
      ++failed;
      continue;
    }
    ++predicted;
    observation.status = Status::Ok;
    observation.value = observation.objective = one->front();
  }
  return observations;
}
