//===- Strategies.h - Constructors of the built-in strategies ---*- C++ -*-===//

#ifndef TUNER_SEARCH_STRATEGIES_H
#define TUNER_SEARCH_STRATEGIES_H

#include "tuner/Search/DecisionTree.h"
#include "tuner/Search/Strategy.h"

#include <functional>

namespace tuner {

/// Uniform samples of the feasible configs (Chain-of-Trees), never the same
/// config twice; once sampling keeps hitting known configs of a small space,
/// the remaining ones are enumerated in random order.
std::unique_ptr<Strategy> createRandomSearch(const ChainOfTrees &chain,
                                             uint64_t seed);

/// Every feasible config once, in the chain's enumeration order.
std::unique_ptr<Strategy> createExhaustiveSearch(const ChainOfTrees &chain);

/// `configs`, in order (for clients that choose their configs themselves).
std::unique_ptr<Strategy> createListSearch(std::vector<Config> configs);

/// What the model-guided strategies' execution step measures of the
/// schedules they scored, and how configs are identified.
struct ExecutionOptions {
  /// How many of the best predicted schedules are measured at the end (the
  /// step that corrects the model's error).
  unsigned topK = 8;
  /// Re-rank the schedules still to measure by the model's errors on
  /// similar measured ones (see ExecutionStep); off by default.
  bool correct = false;
  /// Measure schedules far apart (see ExecutionStep).
  bool diverse = false;
  ScheduleHash hash;
  /// See SearchProblem::stratum.
  std::function<uint64_t(const Config &)> stratum;
};

/// The execution options apply to beam search with a model; beam search by
/// execution reads only `width` and `hash`.
struct BeamSearchOptions : ExecutionOptions {
  /// Partial schedules kept at each level.
  unsigned width = 8;
};

/// Beam search over the decision tree guided by the model (BSM, Tiramisu
/// §5): every node is scored by the model in one batch per level and the
/// `topK` best predicted schedules are then proposed for measurement
/// (optionally corrected by the measurements as they come in, see
/// ExecutionStep). `tree` and `model` must outlive it.
std::unique_ptr<Strategy>
createModelBeamSearch(const DecisionTree &tree, Evaluator &model,
                      const BeamSearchOptions &options);

/// Beam search over the decision tree by execution (BSE, the reference for
/// quality): every node is proposed, i.e. measured, and the beam keeps the
/// best measured. Only `width` and `hash` of the options apply.
std::unique_ptr<Strategy>
createExecutionBeamSearch(const DecisionTree &tree,
                          const BeamSearchOptions &options);

struct MonteCarloOptions : ExecutionOptions {
  /// Nodes expanded (each expansion scores all the node's children in one
  /// model batch).
  unsigned iterations = 200;
  /// Random completions of each expanded node, scored in one batch.
  unsigned rollouts = 8;
  /// UCT exploration constant (on values normalized to the best seen).
  double exploration = 1.4;
  uint64_t seed = 1;
};

/// Monte Carlo tree search (UCT) over the decision tree with the model's
/// prediction as a node's value; then proposes the `topK` best schedules
/// seen for measurement (optionally corrected by the measurements as they
/// come in, see ExecutionStep).
std::unique_ptr<Strategy> createMonteCarloTreeSearch(
    const DecisionTree &tree, Evaluator &model, const MonteCarloOptions &options);

} // namespace tuner

#endif // TUNER_SEARCH_STRATEGIES_H
