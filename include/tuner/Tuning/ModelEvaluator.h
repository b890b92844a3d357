//===- ModelEvaluator.h - The cost model as an Evaluator --------*- C++ -*-===//
//
// Scores configs of one program with the learned cost model: one batched
// prediction per call (all children of a search frontier at once), the
// predicted speedup as the observation's value. Used by the model-guided
// strategies; never touches the machine.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_TUNING_MODELEVALUATOR_H
#define TUNER_TUNING_MODELEVALUATOR_H

#include "tuner/CostModel/CostModel.h"
#include "tuner/Search/Strategy.h"

namespace tuner {

class ModelEvaluator : public Evaluator {
public:
  /// Scores with `predictor` (CostModel::forProgram: the extractor and the
  /// untransformed schedule's scores serve every batch); what it refers to
  /// must outlive the evaluator.
  explicit ModelEvaluator(CostModel::ProgramPredictor predictor)
      : predictor(std::move(predictor)) {}

  /// Configs the model cannot score (e.g. one the space cannot plan) come
  /// back not ok, with failure "model_error" and the reason in lastError;
  /// the others of their batch are still scored.
  std::vector<Observation> evaluate(llvm::ArrayRef<Config> configs) override;

  /// How the model sees `configs` (CostModel::ProgramPredictor::represent),
  /// for adapting it to the function.
  llvm::Expected<std::vector<std::vector<float>>>
  represent(llvm::ArrayRef<Config> configs) const {
    return predictor.represent(configs);
  }

  /// Configs scored, and configs the model could not score.
  size_t predictions() const { return predicted; }
  size_t failures() const { return failed; }
  const std::string &getLastError() const { return lastError; }

private:
  CostModel::ProgramPredictor predictor;
  size_t predicted = 0, failed = 0;
  std::string lastError;
};

} // namespace tuner

#endif // TUNER_TUNING_MODELEVALUATOR_H
