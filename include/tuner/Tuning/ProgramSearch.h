//===- ProgramSearch.h - The search problem of a program's space -*- C++ -*-===//
//
// What a strategy needs to search the space of an MLIR function (a
// ProgramTree and the Space built from it): the space's chain, the decision
// tree of its schedules, a schedule hash (configs that mean one schedule are
// scored and measured once), and, for the model-guided strategies, the cost
// model as an evaluator. A model-guided strategy without a usable model
// falls back to beam search by execution, saying why; a strategy that only
// uses a model when there is one (bo, as its prior) runs without it.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_TUNING_PROGRAMSEARCH_H
#define TUNER_TUNING_PROGRAMSEARCH_H

#include "tuner/Analysis/ProgramTree.h"
#include "tuner/CostModel/CostModel.h"
#include "tuner/Schedule/SchedulePlan.h"
#include "tuner/Search/DecisionTree.h"
#include "tuner/Search/Strategy.h"
#include "tuner/Tuning/ModelEvaluator.h"

#include <memory>
#include <optional>

namespace tuner {

class ProgramSearch {
public:
  /// Prepares strategy `strategy` over `space` of `tree` (both must outlive
  /// the result). A model-guided strategy (or one that uses a model, like
  /// bo) loads the cost model at `modelPath`; with an empty `modelPath`, the
  /// one at `defaultModelPath` if it exists. A model that is missing
  /// (default only), or that cannot score this program, makes a
  /// model-guided strategy fall back to "beam-exec" with the reason in
  /// getFallbackReason(), and leaves one that only uses it without a model. Fails on an unknown strategy, a model file that
  /// cannot be read, and a space without a decision tree.
  static llvm::Expected<std::unique_ptr<ProgramSearch>>
  create(const ProgramTree &tree, const Space &space,
         llvm::StringRef strategy, llvm::StringRef modelPath,
         llvm::StringRef defaultModelPath);

  /// The strategy to run (the one asked for, or its fallback).
  llvm::StringRef getStrategy() const { return strategy; }
  /// Why a model-guided strategy fell back; empty when it did not.
  llvm::StringRef getFallbackReason() const { return fallbackReason; }
  /// The cost model as an evaluator, when a model-guided strategy runs.
  ModelEvaluator *getModel() const { return model.get(); }
  const ChainOfTrees &getChain() const { return chain; }
  /// The plans of the configs scored, hashed and measured in this search,
  /// each computed once.
  PlanCache &getPlans() const { return *plans; }

  /// Schedules the model-guided strategies measure first, beside their top
  /// k (SearchProblem::seeds), e.g. analyticConfigs of the program.
  void setSeeds(std::vector<Config> configs) { seeds = std::move(configs); }

  /// The problem to hand to createStrategy.
  SearchProblem problem() const;
  /// createStrategy(getStrategy(), problem(), options).
  llvm::Expected<std::unique_ptr<Strategy>>
  createStrategy(const StrategyOptions &options) const;

private:
  ProgramSearch(const ProgramTree &tree, const Space &space,
                ChainOfTrees chain)
      : chain(std::move(chain)),
        plans(std::make_unique<PlanCache>(tree, space)) {}

  ChainOfTrees chain;
  std::unique_ptr<PlanCache> plans;
  std::optional<DecisionTree> decisions;
  std::optional<CostModel> costModel;
  std::unique_ptr<ModelEvaluator> model;
  std::string strategy;
  std::string fallbackReason;
  std::vector<Config> seeds;
};

} // namespace tuner

#endif // TUNER_TUNING_PROGRAMSEARCH_H
