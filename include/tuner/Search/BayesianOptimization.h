//===- BayesianOptimization.h - The bo strategy's options -------*- C++ -*-===//
//
// Bayesian optimization as BaCO does it, with Kernel Tuner's acquisition
// portfolios (the `bo` strategy; see lib/Search/BayesianOptimization.cpp).
// Its settings come as StrategyOptions::settings; unit tests and clients
// that build it themselves use BayesianOptions directly.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_SEARCH_BAYESIANOPTIMIZATION_H
#define TUNER_SEARCH_BAYESIANOPTIMIZATION_H

#include "tuner/Search/GaussianProcess.h"
#include "tuner/Search/Strategy.h"

namespace tuner {

/// The acquisition functions of Bayesian optimization: BaCO's expected
/// improvement, and Kernel Tuner's probability of improvement, confidence
/// bound and its two portfolios of the three.
enum class Acquisition {
  ExpectedImprovement,
  ProbabilityOfImprovement,
  LowerConfidenceBound,
  /// Each round, every acquisition function still in play proposes; one
  /// that keeps proposing what another does is skipped in favour of the
  /// one with the best discounted observations (Kernel Tuner's "multi").
  Multi,
  /// Each round, every function still in play proposes a distinct config;
  /// one whose discounted observations stay worse than the mean is
  /// skipped, one that stays better is kept alone ("advanced multi").
  AdvancedMulti,
};

/// "ei", "poi", "lcb", "multi", "advanced-multi".
llvm::StringRef stringifyAcquisition(Acquisition acquisition);
std::optional<Acquisition> parseAcquisition(llvm::StringRef text);

/// Where bo's initial configs (after the problem's seeds) come from.
enum class InitialDesign {
  /// Uniform feasible samples (BaCO).
  Uniform,
  /// With a model prior, every second one is the cost model's best unseen
  /// pick, the others uniform samples.
  Mixed,
  /// With a model prior, the cost model's best unseen picks, in its order.
  Model,
};
/// "uniform", "mixed", "model".
llvm::StringRef stringifyInitialDesign(InitialDesign design);

/// The knobs of Bayesian optimization (the `bo` strategy); each is a key of
/// StrategyOptions::settings (see bayesianOptimizationSettings()).
struct BayesianOptions {
  uint64_t seed = 1;
  /// Uniform feasible samples before the model proposes ("initial"); 0:
  /// the number of parameters plus one, at most a fifth of `budget` (and
  /// at least 5) when the budget is known.
  unsigned initial = 0;
  /// Evaluations the run may make (StrategyOptions::budget); 0: unknown.
  size_t budget = 0;
  Acquisition acquisition = Acquisition::ExpectedImprovement;
  /// The exploration factor, in standard deviations of the modelled
  /// objective ("exploration": a number >= 0, "cv", or "auto"): unset with
  /// contextualVariance false means auto, i.e. 0 for expected improvement
  /// (BaCO) and Kernel Tuner's contextual variance for the others.
  std::optional<double> exploration;
  bool contextualVariance = false;
  PermutationDistance permutationDistance = PermutationDistance::Spearman;
  /// The random-forest model of hidden constraints ("feasibility-model").
  bool feasibilityModel = true;
  /// BaCO's minimum probability of feasibility: each proposal draws its
  /// limit uniformly from {0, 0.1, ..., 1} times this.
  double feasibilityThreshold = 0.1;
  /// The cost model's predicted log speedup as the prior mean, when the
  /// problem has a model ("model-prior").
  bool modelPrior = true;
  /// The prior mean's weight ("prior-weight"): fixed at 1, or learned from
  /// the observations (the least-squares slope of the observed log values
  /// on the predicted ones, shrunk towards 1 by two pseudo-observations and
  /// kept in [0, 2]), so that a cost model that ranks a function's configs
  /// badly is discounted instead of followed.
  bool learnPriorWeight = false;
  /// How the initial configs after the seeds are chosen
  /// ("initial-design"); unset: Model when the problem has a model prior
  /// and a decision tree (an MLIR function's space), Uniform otherwise.
  std::optional<InitialDesign> initialDesign;
  /// With a model prior on a program's space ("model-candidates"): the
  /// cost model's best schedules, found by Monte Carlo tree search over the
  /// decision tree with the model as the value (the list `mcts` measures
  /// the top of), join every proposal's candidate pool and the model
  /// picks of the initial design; 0: none.
  unsigned modelCandidates = 64;
  /// The nodes that tree search expands ("model-search-iterations").
  unsigned modelSearchIterations = 200;
  /// TuRBO's trust region on a discrete space ("trust-region"): the model
  /// proposes only configs that differ from the best observed one in at
  /// most `radius` parameters; the radius starts at half the parameters
  /// that have more than one value,
  /// grows by one after 2 improving proposals in a row, halves after
  /// max(4, parameters) proposals in a row that did not improve, and when it
  /// reaches 0 (or nothing unseen is left inside) the region opens to the
  /// whole space and shrinks again from there.
  bool trustRegion = false;
  /// Uniform feasible samples scored by the acquisition per proposal (a
  /// space with at most this many configs is scored whole instead), and
  /// how many of the best, with the best observed, start a local search.
  unsigned candidates = 1000;
  unsigned localSearchStarts = 10;
  /// The portfolios: proposals in a row that make an acquisition function
  /// a candidate for skipping (or for promotion), the discount of older
  /// observations (unset: 0.65 for multi, 0.75 for advanced multi), and
  /// the margin around the mean that counts as worse or better.
  unsigned skipThreshold = 5;
  std::optional<double> discount;
  double requiredImprovement = 0.1;
};

/// The acquisition functions on a posterior N(mean, sd^2) of an objective to
/// maximize, against the best observed value `best` plus the exploration
/// factor `exploration` (all in the same units): expected improvement
/// (g Phi(g / sd) + sd phi(g / sd) with g = mean - best - exploration),
/// probability of improvement (Phi(g / sd)), and the confidence bound
/// (mean + exploration * sd: Kernel Tuner's lower confidence bound of a
/// minimized objective, mirrored).
double expectedImprovement(double mean, double sd, double best,
                           double exploration);
double probabilityOfImprovement(double mean, double sd, double best,
                                double exploration);
double confidenceBound(double mean, double sd, double exploration);

/// The settings `bo` reads, with their meaning.
llvm::ArrayRef<StrategySetting> bayesianOptimizationSettings();
/// `options.settings` read as BaCO options (the seed from options.seed);
/// the error names the key and says what values it takes.
llvm::Expected<BayesianOptions>
parseBayesianOptions(const StrategyOptions &options);

/// Bayesian optimization as BaCO does it (see BayesianOptimization.cpp):
/// a Gaussian process on the log of the objective, an acquisition function
/// optimized by multi-start local search over the space's neighbourhood,
/// a random forest that learns the hidden constraints, batches by kriging
/// believer. Uses `problem.model` as the prior mean when it is set and
/// `options.modelPrior`. What `problem` points to must outlive it.
std::unique_ptr<Strategy>
createBayesianOptimization(const SearchProblem &problem,
                           const BayesianOptions &options);

} // namespace tuner

#endif // TUNER_SEARCH_BAYESIANOPTIMIZATION_H
