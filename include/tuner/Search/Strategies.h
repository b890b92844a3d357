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
  /// Re-rank the schedules still to measure by what the measurements so
  /// far say of the model (see ExecutionStep); off by default.
  ModelCorrection correct = ModelCorrection::None;
  /// Measure schedules far apart (see ExecutionStep).
  bool diverse = false;
  ScheduleHash hash;
  /// See SearchProblem::stratum.
  std::function<uint64_t(const Config &)> stratum;
  /// See SearchProblem::represent.
  ScheduleRepresentation represent;
  /// Measured first, beside the top k (feasible configs; see
  /// ExecutionStep::setSeeds).
  std::vector<Config> seeds;
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

//===----------------------------------------------------------------------===//
// Sample-efficient black-box strategies. Each reads its knobs from
// StrategyOptions::settings (README, "Search your own space"); a malformed
// or unknown setting is an error that names it. Each *Settings() lists the
// keys for the registry.
//===----------------------------------------------------------------------===//

/// OpEvo's topology-aware evolution: a population seeded with uniform
/// feasible samples, fitness-proportional recombination of the top configs
/// and q-random-walk mutation on each parameter's own topology
/// (Neighbourhood); never proposes a config twice. Settings: `population`
/// (λ, the parents and the initial samples, default 8), `q` (the walk's
/// continuation probability, the mutation rate, in [0, 1], default 0.3),
/// `restart` (observations without a new best after which a new population
/// starts from uniform samples; 0, the default, never).
llvm::Expected<std::unique_ptr<Strategy>>
createEvolution(const SearchProblem &problem, const StrategyOptions &options);
llvm::ArrayRef<StrategySetting> evolutionSettings();

/// Kernel Tuner's simulated annealing over the Neighbourhood's moves, with
/// restarts. Settings: `temperature` (T0, default 0.1), `min-temperature`
/// (default 0.001), `alpha` (the cooling factor, in (0, 1), default
/// 0.995), `schedule` (the evaluations over which T falls from T0 to the
/// minimum, after which the search restarts hot; default 100), `max-stuck`
/// (free moves over known configs in a row before a new start, default
/// 100), `starts` (a start is the best of this many uniform samples,
/// default 8).
llvm::Expected<std::unique_ptr<Strategy>>
createAnnealing(const SearchProblem &problem, const StrategyOptions &options);
llvm::ArrayRef<StrategySetting> annealingSettings();

/// Kernel Tuner's genetic algorithm: rank-based Beta(1, 2.5) parent
/// selection, crossover, mutation to a neighbour. Settings: `population`
/// (default 8; Kernel Tuner's is 20), `mutation-chance` (a child mutates with chance 1 in this,
/// default 10), `crossover` (uniform, single-point, two-point or
/// disruptive-uniform; default uniform).
llvm::Expected<std::unique_ptr<Strategy>>
createGeneticSearch(const SearchProblem &problem,
                    const StrategyOptions &options);
llvm::ArrayRef<StrategySetting> geneticSearchSettings();

/// One strategy of a portfolio and the name it goes by.
struct PortfolioMember {
  std::string name;
  std::unique_ptr<Strategy> strategy;
};

struct PortfolioOptions {
  /// Results the area-under-the-curve credit looks back over (OpenTuner's
  /// window).
  unsigned window = 500;
  /// Weight of the exploration term (OpenTuner's C).
  double exploration = 0.05;
  uint64_t seed = 1;
  /// Identifies configs across members (Config::hash when unset).
  ScheduleHash hash;
};

/// OpenTuner's AUC bandit over `members` (at least one): each proposal
/// goes to the member with the best credit for recent new bests plus an
/// exploration term; every member observes every result; a config is
/// never proposed twice, whichever member offers it.
std::unique_ptr<Strategy> createPortfolio(std::vector<PortfolioMember> members,
                                          const PortfolioOptions &options);

/// The portfolio over registered strategies. Settings: `members` (strategy
/// names separated by commas or '+', default defaultPortfolioMembers()), `window` (default 500), `exploration`
/// (default 0.05), and `<member>.<key>` for a member's own setting `key`.
llvm::Expected<std::unique_ptr<Strategy>>
createPortfolio(const SearchProblem &problem, const StrategyOptions &options);
llvm::ArrayRef<StrategySetting> portfolioSettings();

/// random, evolution, annealing and genetic, and bo when it is registered.
std::vector<std::string> defaultPortfolioMembers();

} // namespace tuner

#endif // TUNER_SEARCH_STRATEGIES_H
