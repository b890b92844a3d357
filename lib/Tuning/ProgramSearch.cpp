//===- ProgramSearch.cpp - The search problem of a program's space --------===//

#include "tuner/Tuning/ProgramSearch.h"
#include "tuner/Space/GpuSpace.h"
#include "tuner/Schedule/SchedulePlan.h"

using namespace tuner;

llvm::Expected<std::unique_ptr<ProgramSearch>>
ProgramSearch::create(const ProgramTree &tree, const Space &space,
                      llvm::StringRef strategy, llvm::StringRef modelPath,
                      llvm::StringRef defaultModelPath) {
  llvm::Expected<const StrategyInfo &> info = findStrategy(strategy);
  if (!info)
    return info.takeError();
  llvm::Expected<ChainOfTrees> chain = ChainOfTrees::build(space);
  if (!chain)
    return llvm::createStringError("cannot enumerate the search space: " +
                                   llvm::toString(chain.takeError()));
  std::unique_ptr<ProgramSearch> search(
      new ProgramSearch(tree, space, std::move(*chain)));
  search->strategy = strategy.str();
  if (!info->needsTree && !info->usesModel)
    return std::move(search);

  // A strategy that only uses a model (bo's tree search over it) wants the
  // tree too, except on a GPU space, which the model does not describe.
  if (info->needsTree || (info->usesModel && !isGpuSpace(space))) {
    llvm::Expected<DecisionTree> decisions = DecisionTree::build(space);
    if (decisions) {
      search->decisions.emplace(std::move(*decisions));
    } else if (info->needsTree) {
      return llvm::createStringError("cannot build the search tree: " +
                                     llvm::toString(decisions.takeError()));
    } else {
      // It goes on without the tree.
      llvm::consumeError(decisions.takeError());
    }
  }
  // The cost model describes CPU schedules only: a GPU space is searched by
  // measurement, without the model as a prior either.
  if (isGpuSpace(space)) {
    if (info->needsModel)
      return llvm::createStringError(
          "strategy '" + strategy.str() +
          "' ranks schedules with the cost model, which describes CPU "
          "schedules only: a GPU space is searched by measurement (bo, "
          "random, exhaustive, evolution, annealing, genetic, beam-exec)");
    return std::move(search);
  }
  if (!info->needsModel && !info->usesModel)
    return std::move(search);

  std::string path = modelPath.empty() ? defaultModelPath.str()
                                       : modelPath.str();
  llvm::Expected<std::optional<CostModel>> loaded =
      modelPath.empty()
          ? CostModel::loadIfExists(path)
          : llvm::Expected<std::optional<CostModel>>(CostModel::load(path));
  if (!loaded)
    return llvm::createStringError("cannot use the cost model: " +
                                   llvm::toString(loaded.takeError()));
  if (!*loaded) {
    search->fallbackReason = "no cost model at '" + path + "'";
  } else {
    search->costModel.emplace(std::move(**loaded));
    llvm::Expected<CostModel::ProgramPredictor> predictor =
        search->costModel->forProgram(tree, space);
    if (predictor) {
      predictor->usePlans(*search->plans);
      search->model = std::make_unique<ModelEvaluator>(std::move(*predictor));
      return std::move(search);
    }
    // E.g. more loop levels or accesses than the feature layout holds.
    search->fallbackReason = "the cost model cannot score this function (" +
                             llvm::toString(predictor.takeError()) + ")";
    search->costModel.reset();
  }
  // A strategy that only uses a model when there is one runs without it.
  if (!info->needsModel) {
    search->fallbackReason.clear();
    return std::move(search);
  }
  search->strategy = "beam-exec";
  return std::move(search);
}

SearchProblem ProgramSearch::problem() const {
  SearchProblem problem;
  problem.chain = &chain;
  problem.tree = decisions ? &*decisions : nullptr;
  problem.model = model.get();
  problem.seeds = seeds;
  // Configs that mean the same schedule are scored and measured once.
  PlanCache *cache = plans.get();
  // Parameters the model has no features for split the candidates into
  // strata that the execution step measures in turn.
  if (ModelEvaluator *evaluator = model.get()) {
    problem.represent = [evaluator](llvm::ArrayRef<Config> configs) {
      return evaluator->represent(configs);
    };
    std::vector<size_t> unseen;
    for (auto [i, parameter] :
         llvm::enumerate(chain.getSpace().getParameters()))
      if (!CostModel::describes(parameter.role))
        unseen.push_back(i);
    if (!unseen.empty())
      problem.stratum = [unseen](const Config &config) {
        uint64_t key = 0;
        for (size_t i : unseen)
          key = key * 1000003 + config[i].hash();
        return key;
      };
  }
  problem.hash = [cache](const Config &config) {
    llvm::Expected<std::shared_ptr<const SchedulePlan>> plan =
        cache->get(config);
    if (!plan) {
      llvm::consumeError(plan.takeError());
      return config.hash();
    }
    return (*plan)->hash();
  };
  return problem;
}

llvm::Expected<std::unique_ptr<Strategy>>
ProgramSearch::createStrategy(const StrategyOptions &options) const {
  return tuner::createStrategy(strategy, problem(), options);
}
