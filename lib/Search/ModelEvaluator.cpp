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
  if (!speedups) {
    lastError = llvm::toString(speedups.takeError());
    for (Observation &observation : observations)
      observation.failure = "model_error";
    return observations;
  }
  predicted += configs.size();
  for (auto [observation, speedup] : llvm::zip(observations, *speedups)) {
    observation.ok = true;
    observation.value = speedup;
  }
  return observations;
}
