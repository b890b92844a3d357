//===- ModelEvaluator.h - The cost model as an Evaluator --------*- C++ -*-===//
//
// Scores configs of one program with the learned cost model: one batched
// prediction per call (all children of a search frontier at once), the
// predicted speedup as the observation's value. Used by the model-guided
// strategies; never touches the machine.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_SEARCH_MODELEVALUATOR_H
#define TUNER_SEARCH_MODELEVALUATOR_H

#include "tuner/CostModel/CostModel.h"
#include "tuner/Search/Strategy.h"

#include <optional>

namespace tuner {

class ModelEvaluator : public Evaluator {
public:
  /// `model`, `tree` and `space` must outlive the evaluator.
  ModelEvaluator(const CostModel &model, const ProgramTree &tree,
                 const Space &space)
      : model(model), tree(tree), space(space) {}

  /// Configs the model cannot score (e.g. a program beyond the feature
  /// maxima) come back not ok, with failure "model_error" and the reason in
  /// lastError.
  std::vector<Observation> evaluate(llvm::ArrayRef<Config> configs) override;

  size_t predictions() const { return predicted; }
  const std::string &getLastError() const { return lastError; }

private:
  const CostModel &model;
  const ProgramTree &tree;
  const Space &space;
  /// Made on the first batch and kept: the extractor and the untransformed
  /// schedule's scores serve every batch.
  std::optional<CostModel::ProgramPredictor> predictor;
  size_t predicted = 0;
  std::string lastError;
};

} // namespace tuner

#endif // TUNER_SEARCH_MODELEVALUATOR_H
