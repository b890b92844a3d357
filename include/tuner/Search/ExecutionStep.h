//===- ExecutionStep.h - Measuring the model's best schedules ---*- C++ -*-===//
//
// The last step of the model-guided strategies (Tiramisu §5): of the
// schedules the model scored, the best predicted are compiled and measured,
// and the best measured wins. This is what corrects the model's error.
//
// Measurements arrive in batches, and each batch says how wrong the model
// was about the schedules in it. Before proposing the next batch, the step
// can use them (ModelCorrection) by modelling the model's log error on this
// function, log measured - log predicted, as a Gaussian process over the
// candidates, conditioned on the errors measured so far, and ranking the
// schedules not yet measured by
//
//   log predicted + posterior mean of the error (+ kExploration * its
//   posterior standard deviation, with the errors' process alone)
//
// (an upper confidence bound). The first batch is the model's best either
// way. The process's covariance is a sum of terms, each one way the model
// can be wrong about one function:
//
// - errors (`gp`): the model's errors are not independent. The schedules it
//   ranks highest tend to be variations of one schedule (other tile sizes,
//   another unroll factor), and when it misjudges that schedule it
//   misjudges all of them. This term's covariance falls with the distance
//   between configs, so schedules like the ones measured inherit their
//   errors, and schedules unlike any measured one keep the benefit of the
//   doubt: a family of schedules the measurements refuted is not measured
//   k times over.
// - adaptation (`adapt`): the model is retrained on this function, in
//   closed form. Three terms: a constant (the model is off by a factor on
//   this function), a multiple of the log prediction measured from the
//   mean of the model's best k (it over- or under-states how much
//   schedules differ here: its log predictions need a scale), and a linear
//   function of what each input of the model's last layer adds to a
//   schedule's log prediction (ScheduleRepresentation: the posterior mean
//   is that of a last layer whose weights are each rescaled by Bayesian
//   regression on the measurements, the trained weights the prior mean).
//   Unlike the first term, these carry what
//   one measurement says to every candidate, near or far.
//
// Each term is scaled so that its prior variance, averaged over the
// candidates, is the variance given to it (kOffsetVariance and so on), and
// the posterior is exact: at most top-k measurements.
//
// Diversity acts before any measurement: with it, a schedule is proposed
// only if it is at least kMinDistance from every schedule proposed before
// (by `distance`: another structural decision, or tile sizes and unroll
// factors a factor of 16 apart in all), so that the k measurements test k
// different guesses of the model rather than one guess with k unroll
// factors. When fewer than k schedules are that far apart, the best of the
// rest fill the k.
//
// Seeds act on what the model misjudges. A few schedules derived from the
// target rather than searched (analytic micro-kernels, see
// tuner/Space/AnalyticConfigs.h) are measured first, beside the top k and
// not counted in it: a program whose schedules the model ranks poorly (a
// prime size, say) still gets the schedule its shape calls for, and the
// result is never worse than that default. A model candidate that is a
// seed's schedule is measured once, as the seed, and the top k takes the
// next candidate in its place.
//
// Strata act on what the model cannot see. When the space has parameters
// the model has no features for (skewing, today), schedules that differ
// only in them get the same kind of prediction whatever they do, and the
// model's order says nothing about which value is better. The candidates
// are then split into strata by those parameters' values; the first
// measurements are each stratum's best predicted schedule, and the rest go
// to the strata in the order of the best speedup measured in them (each
// in the model's order), so that every value is tried and measurements,
// not the model, decide between them.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_SEARCH_EXECUTIONSTEP_H
#define TUNER_SEARCH_EXECUTIONSTEP_H

#include "tuner/Search/Strategies.h"

#include <unordered_map>
#include <unordered_set>

namespace tuner {

class ExecutionStep {
public:
  /// Measures at most `topK` schedules; with a `correction`, re-ranks the
  /// ones not yet measured after every batch of measurements (otherwise
  /// proposes in the model's order); with `diverse`, skips schedules near
  /// one proposed before while others are left.
  ExecutionStep(unsigned topK, ModelCorrection correction, bool diverse,
                ScheduleHash hash);

  /// How the model sees configs, for the adapted last layer (without it,
  /// the adaptation has only the offset and the scale).
  void setRepresentation(ScheduleRepresentation represent) {
    this->represent = std::move(represent);
  }

  /// Shares the measurements among the strata `stratum` tells apart (see
  /// the file comment); null: one stratum.
  void setStrata(std::function<uint64_t(const Config &)> stratum) {
    this->stratum = std::move(stratum);
  }

  /// Schedules proposed first, in order, beside the `topK` (repeats by the
  /// schedule hash dropped); call before setCandidates, which drops the
  /// candidates that are seeds.
  void setSeeds(std::vector<Config> seeds);

  /// The model's predicted speedups of the schedules it scored; schedules
  /// with a non-positive prediction (failures) and repeats are dropped.
  void setCandidates(std::vector<std::pair<Config, double>> predicted);

  /// Up to `count` schedules never proposed: the seeds not yet proposed,
  /// then the best (corrected) predictions until `topK` of them have been
  /// proposed.
  std::vector<Config> propose(size_t count);

  /// With a correction, records the measured speedups (failed candidates
  /// count as kFailedSpeedup) of proposed schedules.
  void observe(llvm::ArrayRef<Observation> observations);

  /// The prediction of candidate `config` corrected by the posterior mean
  /// of the model's error (its model prediction before any measurement or
  /// without a correction; 0 for a config that is no candidate).
  double correctedPrediction(const Config &config) const;
  /// The posterior standard deviation of the model's log error at
  /// candidate `config`.
  double uncertainty(const Config &config) const;
  /// Whether the candidates have representations (the correction adapts
  /// the model and it could say how it sees them).
  bool hasRepresentations() const { return !representationByHash.empty(); }
  /// Why the model could not say how it sees the candidates (empty if it
  /// could or was not asked).
  const std::string &representationError() const { return whyNoRepresentation; }

  /// How far apart two configs of one space are: the sum over parameters of
  /// 0 for equal values, |log2(a / b)| / 4 (at most 1) for positive
  /// integers, 1 otherwise. A structural decision (fusion, loop order,
  /// vectorization, parallelization) counts fully; tile sizes and unroll
  /// factors a factor of 2 apart count a quarter, which makes variations of
  /// one schedule near each other and other schedules far.
  static double distance(const Config &a, const Config &b);

  /// What a failed measurement counts as.
  static constexpr double kFailedSpeedup = 0.1;
  /// Prior covariance of the log errors at configs d apart, the errors
  /// term: kErrorVariance * exp(-d / kCorrelationLength). The variance is
  /// that of the shipped model's log errors within programs (mean absolute
  /// log error about 0.7); the errors of configs one parameter apart are
  /// correlated by one half. With the adaptation, the term keeps half.
  static constexpr double kErrorVariance = 0.5;
  static constexpr double kCorrelationLength = 1.4427; // 1 / ln 2
  /// The adaptation's terms: a constant log error (the model off by a
  /// factor of about e = 2.7 on this function, one standard deviation), a
  /// multiple of the log prediction (its scale off by about 20 %) and the
  /// refitted last layer. The first batch is the model's best schedules,
  /// whose log predictions are alike, so it cannot tell a wrong offset from
  /// a wrong scale; the offset, the simpler explanation, gets the larger
  /// prior, and the scale shows once the measurements spread.
  static constexpr double kOffsetVariance = 1.0;
  static constexpr double kScaleVariance = 0.05;
  static constexpr double kLastLayerVariance = 0.25;
  /// Variance of a measured log error around the process (timing noise and
  /// what the distance does not explain).
  static constexpr double kNoiseVariance = 0.05;
  /// Weight of the posterior standard deviation in the ranking, with the
  /// errors' process alone. With the adaptation the posterior mean ranks
  /// alone: its doubt is largest for the schedules least like the measured
  /// ones in the model's eyes, and measuring those first lost in replays
  /// (README, "Learning during tuning").
  static constexpr double kExploration = 1.0;
  /// With diversity: how far a proposed schedule is from every earlier one.
  static constexpr double kMinDistance = 1.0;

private:
  /// What the covariance reads of a candidate.
  struct Point {
    const Config *config;
    double logPredicted;
    /// Empty without representations.
    llvm::ArrayRef<float> representation;
  };
  struct Measured {
    Config config;
    double logPredicted;
    std::vector<float> representation;
    double logError;
    Point point() const { return {&config, logPredicted, representation}; }
  };
  /// The candidate `config` as a point (not a candidate: prediction 1).
  Point pointOf(const Config &config) const;
  /// Prior covariance of the errors at `a` and `b`.
  double covariance(const Point &a, const Point &b) const;
  /// Refreshes `weights` and `inverse` after new measurements.
  void condition();
  /// Posterior mean and standard deviation of the log error at `point`.
  std::pair<double, double> posterior(const Point &point) const;
  /// With the adaptation: asks the model for the candidates'
  /// representations and scales the adaptation's terms to the candidates.
  void prepareAdaptation();

  unsigned topK;
  ModelCorrection correction;
  bool diverse;
  ScheduleHash hash;
  std::function<uint64_t(const Config &)> stratum;
  ScheduleRepresentation represent;
  /// Variances of the covariance's terms (0: the term is off), each
  /// divided by the mean over the candidates of what it multiplies.
  double errorVariance = 0, offsetVariance = 0, scaleWeight = 0,
         lastLayerWeight = 0;
  /// The log prediction the scale multiplies is taken from this one.
  double scaleCenter = 0;
  /// Weight of the posterior standard deviation in the ranking.
  double exploration = 0;
  std::unordered_map<uint64_t, std::vector<float>> representationByHash;
  std::string whyNoRepresentation;
  /// The best speedup measured in each stratum (0: only failures).
  std::unordered_map<uint64_t, double> stratumBest;
  /// The seeds, and how many of them have been proposed.
  std::vector<Config> seeds;
  size_t seedsProposed = 0;
  std::unordered_set<uint64_t> seedHashes;
  /// Candidates in the model's order (best first), not yet proposed.
  std::vector<std::pair<Config, double>> pending;
  std::unordered_map<uint64_t, double> predictedByHash;
  /// The schedules proposed so far (distinct: `pending` holds each once).
  std::vector<Config> proposed;
  std::vector<Measured> measured;
  /// (K + noise I)^-1 r and (K + noise I)^-1 of the measured configs.
  std::vector<double> weights;
  std::vector<std::vector<double>> inverse;
};

/// A strategy that searches with the cost model once, at its first
/// proposal, then has the schedules it scored measured through an
/// ExecutionStep (beam search with the model, MCTS).
class ModelGuidedStrategy : public Strategy {
public:
  std::vector<Config> propose(size_t count) final;
  void observe(llvm::ArrayRef<Observation> observations) final;

protected:
  explicit ModelGuidedStrategy(const ExecutionOptions &options)
      : execution(options.topK, options.correct, options.diverse,
                  options.hash) {
    execution.setStrata(options.stratum);
    execution.setRepresentation(options.represent);
    execution.setSeeds(options.seeds);
  }
  /// The whole search against the model: every schedule scored, with its
  /// predicted speedup (the untransformed program left out).
  virtual std::vector<std::pair<Config, double>> searchWithModel() = 0;

private:
  bool searched = false;
  ExecutionStep execution;
};

} // namespace tuner

#endif // TUNER_SEARCH_EXECUTIONSTEP_H
