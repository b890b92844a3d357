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
  auto fail = [&](llvm::Error error) {
    lastError = llvm::toString(std::move(error));
    for (Observation &observation : observations)
      observation.failure = "model_error";
    return observations;
  };
  if (!predictor) {
    llvm::Expected<CostModel::ProgramPredictor> created =
        model.forProgram(tree, space);
    if (!created)
      return fail(created.takeError());
    predictor.emplace(std::move(*created));
  }
  llvm::Expected<std::vector<double>> speedups = predictor->predict(configs);
  if (!speedups)
    return fail(speedups.takeError());
  predicted += configs.size();
  for (auto [observation, speedup] : llvm::zip(observations, *speedups)) {
    observation.ok = true;
    observation.value = speedup;
  }
  return observations;
}
