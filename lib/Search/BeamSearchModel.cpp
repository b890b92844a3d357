//===- BeamSearchModel.cpp - Beam search guided by the cost model (BSM) ---===//
//
// Tiramisu §5: the whole beam search runs against the cost model (one model
// batch per level of the decision tree); the best predicted schedules are
// then measured by the execution step, which corrects the model's error.
//
//===----------------------------------------------------------------------===//

#include "BeamSearchCommon.h"
#include "tuner/Search/ExecutionStep.h"

#include <unordered_set>

using namespace tuner;
using namespace tuner::beam;

namespace {

class ModelBeamSearch : public ModelGuidedStrategy {
public:
  ModelBeamSearch(const DecisionTree &tree, Evaluator &model,
                  const BeamSearchOptions &options)
      : ModelGuidedStrategy(withDefaults(options)),
        tree(tree), model(model), options(withDefaults(options)) {}

  llvm::StringRef getName() const override { return "beam"; }

private:
  std::vector<std::pair<Config, double>> searchWithModel() override {
    Config root = tree.root();
    std::unordered_set<uint64_t> seen{options.hash(root)};
    std::vector<Observation> rootScore = model.evaluate({root});
    std::vector<Scored> beam = {{root, scoreOf(rootScore.front())}};
    std::vector<std::pair<Config, double>> predicted;
    for (size_t level = 0; level < tree.depth(); ++level) {
      std::vector<Config> kids = expand(tree, beam, level, options.hash, seen);
      if (kids.empty())
        continue;
      // One batch of the model for the whole frontier.
      std::vector<Observation> scores = model.evaluate(kids);
      std::vector<Scored> pool = beam;
      for (auto [config, score] : llvm::zip(kids, scores)) {
        pool.push_back({config, scoreOf(score)});
        predicted.emplace_back(config, scoreOf(score));
      }
      keepBest(pool, options.width);
      beam = std::move(pool);
    }
    // The untransformed program is the baseline: never a finalist (the root
    // is never among the predicted).
    return predicted;
  }

  const DecisionTree &tree;
  Evaluator &model;
  BeamSearchOptions options;
};

} // namespace

std::unique_ptr<Strategy>
tuner::createModelBeamSearch(const DecisionTree &tree, Evaluator &model,
                             const BeamSearchOptions &options) {
  return std::make_unique<ModelBeamSearch>(tree, model, options);
}
