//===- BayesianOptimization.cpp - BaCO-style Bayesian optimization --------===//
//
// The `bo` strategy (BaCO §3-4, with Kernel Tuner's acquisition portfolios):
//
// 1. An initial design of uniform feasible samples of the Chain-of-Trees
//    (BaCO's parameters + 1, at most a fifth of the budget, at least 5),
//    opened by the problem's seeds (schedules derived from the target, as
//    BaCO and OpenTuner take a user's known-good configs), which come on
//    top of the samples. On an MLIR function's space with a cost model, the
//    design is the model's own best schedules instead (found by Monte Carlo
//    tree search over the decision tree with the model as the value, the
//    list `mcts` measures the top of), and that list also joins every
//    proposal's candidate pool: uniform samples of a large space rarely
//    come near what the model knows, and the measurements then correct
//    the model where it is wrong.
// 2. Then, per proposal: a Gaussian process (GaussianProcess.h) fitted to
//    the successful observations, the objective modelled in log space:
//    values that are all positive (speedups, maximized positive objectives)
//    as log(value), values that are all negative (a minimized positive
//    objective, negated into the value) as -log(-value), anything else as
//    is; each of these is increasing in the value, so a higher model is
//    always better. With a cost model in the problem (an MLIR function's
//    space) the model's predicted log speedup is the prior mean and the
//    process models the residual; the targets are standardized.
// 3. The acquisition (expected improvement by default, of a noise-free
//    evaluation as BaCO does; the exploration factor in standard deviations)
//    is maximized by multi-start local search: uniform samples of the chain
//    are scored, the best of them and the best observed configs start hill
//    climbs over the Neighbourhood (one parameter one step, a permutation
//    one swap); a space small enough is scored whole instead.
// 4. Hidden constraints: once a config failed, a random forest
//    (FeasibilityForest.h) predicts the probability of feasibility; the
//    acquisition is multiplied by it (a confidence bound adds its log), and
//    candidates below BaCO's random feasibility limit are dropped.
// 5. Never an infeasible config (the chain's constraints), never one
//    proposed or observed before (by the problem's schedule hash). Configs
//    proposed and not yet observed count as observed at the model's mean
//    (kriging believer), so that batches spread out.
//
//===----------------------------------------------------------------------===//

#include "tuner/Search/BayesianOptimization.h"
#include "tuner/Search/FeasibilityForest.h"
#include "tuner/Search/GaussianProcess.h"
#include "tuner/Search/Neighbourhood.h"
#include "tuner/Search/Strategies.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

using namespace tuner;

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

llvm::StringRef tuner::stringifyInitialDesign(InitialDesign design) {
  switch (design) {
  case InitialDesign::Uniform:
    return "uniform";
  case InitialDesign::Mixed:
    return "mixed";
  case InitialDesign::Model:
    return "model";
  }
  llvm_unreachable("unknown initial design");
}

llvm::StringRef tuner::stringifyAcquisition(Acquisition acquisition) {
  switch (acquisition) {
  case Acquisition::ExpectedImprovement:
    return "ei";
  case Acquisition::ProbabilityOfImprovement:
    return "poi";
  case Acquisition::LowerConfidenceBound:
    return "lcb";
  case Acquisition::Multi:
    return "multi";
  case Acquisition::AdvancedMulti:
    return "advanced-multi";
  }
  return "ei";
}

std::optional<Acquisition> tuner::parseAcquisition(llvm::StringRef text) {
  for (Acquisition acquisition :
       {Acquisition::ExpectedImprovement, Acquisition::ProbabilityOfImprovement,
        Acquisition::LowerConfidenceBound, Acquisition::Multi,
        Acquisition::AdvancedMulti})
    if (text == stringifyAcquisition(acquisition))
      return acquisition;
  return std::nullopt;
}

/// The design stringifyInitialDesign names `text`.
static std::optional<InitialDesign> parseInitialDesign(llvm::StringRef text) {
  for (InitialDesign design :
       {InitialDesign::Uniform, InitialDesign::Mixed, InitialDesign::Model})
    if (text == stringifyInitialDesign(design))
      return design;
  return std::nullopt;
}

static const StrategySetting kBayesianSettings[] = {
    {"initial", "uniform samples before the model proposes, beside the "
                "problem's seeds (default: parameters + 1, at most max(5, "
                "budget / 5))"},
    {"acquisition", "ei (default), poi, lcb, multi or advanced-multi"},
    {"exploration", "exploration factor in standard deviations: a number "
                    ">= 0, cv (contextual variance) or auto (default: 0 "
                    "for ei, cv otherwise)"},
    {"permutation-distance", "spearman (default), kendall or hamming"},
    {"feasibility-model", "learn hidden constraints from failures: true "
                          "(default) or false"},
    {"feasibility-threshold", "BaCO's minimum probability of feasibility, "
                              "in [0, 1] (default 0.1)"},
    {"model-prior", "the cost model's prediction as the prior mean when "
                    "there is one: true (default) or false"},
    {"initial-design", "uniform, mixed or model: with a model prior, every "
                       "second (mixed) or every (model) initial config is "
                       "the cost model's best unseen pick (default: model "
                       "on an MLIR function's space with a model prior, "
                       "uniform otherwise)"},
    {"model-candidates", "with a model prior on an MLIR function's space, "
                         "the model's best schedules by tree search that "
                         "join every candidate pool (default 64, 0: none)"},
    {"model-search-iterations", "nodes that tree search over the model "
                                "expands (default 200)"},
    {"prior-weight", "the model prior's weight: fixed (default, 1) or "
                     "learned from the observations"},
    {"trust-region", "propose only near the best observed config, in a "
                     "region that grows on improvements and shrinks on "
                     "failures (TuRBO): true or false (default)"},
    {"candidates", "random configs scored per proposal (default 1000)"},
    {"local-search-starts", "of them, how many start a local search "
                            "(default 10)"},
    {"skip-threshold", "multi, advanced-multi: rounds before an "
                       "acquisition function is skipped (default 5)"},
    {"discount", "multi, advanced-multi: discount of older observations, "
                 "in (0, 1] (default 0.65 multi, 0.75 advanced-multi)"},
    {"required-improvement", "advanced-multi: margin around the mean that "
                             "counts as worse or better, in [0, 1) "
                             "(default 0.1)"},
};

llvm::ArrayRef<StrategySetting> tuner::bayesianOptimizationSettings() {
  return kBayesianSettings;
}

namespace {

llvm::Error badValue(llvm::StringRef key, llvm::StringRef value,
                     llvm::StringRef expected) {
  return llvm::createStringError("strategy 'bo': setting '" + key + "=" +
                                 value + "': expected " + expected);
}

llvm::Expected<unsigned> readCount(llvm::StringRef key, llvm::StringRef value,
                                   unsigned minimum) {
  unsigned result = 0;
  if (value.getAsInteger(10, result) || result < minimum || result > 1000000)
    return badValue(key, value,
                    "an integer in [" + std::to_string(minimum) + ", 1000000]");
  return result;
}

llvm::Expected<double> readNumber(llvm::StringRef key, llvm::StringRef value,
                                  double lower, double upper, bool lowerOpen,
                                  bool upperOpen, llvm::StringRef range) {
  double result = 0;
  if (value.getAsDouble(result) || !std::isfinite(result) ||
      (lowerOpen ? result <= lower : result < lower) ||
      (upperOpen ? result >= upper : result > upper))
    return badValue(key, value, "a number in " + range.str());
  return result;
}

/// A setting with two named values: true for `yes`, false for `no`.
llvm::Expected<bool> readChoice(llvm::StringRef key, llvm::StringRef value,
                                llvm::StringRef yes, llvm::StringRef no) {
  if (value == yes)
    return true;
  if (value == no)
    return false;
  return badValue(key, value, (no + " or " + yes).str());
}

llvm::Expected<bool> readBool(llvm::StringRef key, llvm::StringRef value) {
  if (value == "true" || value == "1")
    return true;
  if (value == "false" || value == "0")
    return false;
  return badValue(key, value, "true or false");
}

} // namespace

llvm::Expected<BayesianOptions>
tuner::parseBayesianOptions(const StrategyOptions &strategyOptions) {
  BayesianOptions options;
  options.seed = strategyOptions.seed;
  options.budget = strategyOptions.budget;
  for (const auto &[keyText, valueText] : strategyOptions.settings) {
    llvm::StringRef key = keyText, value = valueText;
    auto assign = [](auto &field, auto expected) -> llvm::Error {
      if (!expected)
        return expected.takeError();
      field = *expected;
      return llvm::Error::success();
    };
    llvm::Error error = llvm::Error::success();
    if (key == "initial") {
      error = assign(options.initial, readCount(key, value, 1));
    } else if (key == "acquisition") {
      std::optional<Acquisition> acquisition = parseAcquisition(value);
      if (!acquisition)
        error =
            badValue(key, value, "one of ei, poi, lcb, multi, advanced-multi");
      else
        options.acquisition = *acquisition;
    } else if (key == "exploration") {
      if (value == "cv") {
        options.contextualVariance = true;
      } else if (value != "auto") {
        double factor = 0;
        if (value.getAsDouble(factor) || !std::isfinite(factor) || factor < 0 ||
            factor > 100)
          error = badValue(key, value, "a number in [0, 100], cv or auto");
        else
          options.exploration = factor;
      }
    } else if (key == "permutation-distance") {
      std::optional<PermutationDistance> distance =
          parsePermutationDistance(value);
      if (!distance)
        error = badValue(key, value, "one of spearman, kendall, hamming");
      else
        options.permutationDistance = *distance;
    } else if (key == "feasibility-model") {
      error = assign(options.feasibilityModel, readBool(key, value));
    } else if (key == "feasibility-threshold") {
      error = assign(options.feasibilityThreshold,
                     readNumber(key, value, 0, 1, false, false, "[0, 1]"));
    } else if (key == "model-prior") {
      error = assign(options.modelPrior, readBool(key, value));
    } else if (key == "initial-design") {
      options.initialDesign = parseInitialDesign(value);
      if (!options.initialDesign)
        error = badValue(key, value, "one of uniform, mixed, model");
    } else if (key == "model-candidates") {
      error = assign(options.modelCandidates, readCount(key, value, 0));
    } else if (key == "model-search-iterations") {
      error = assign(options.modelSearchIterations, readCount(key, value, 1));
    } else if (key == "prior-weight") {
      error = assign(options.learnPriorWeight,
                     readChoice(key, value, "learned", "fixed"));
    } else if (key == "trust-region") {
      error = assign(options.trustRegion, readBool(key, value));
    } else if (key == "candidates") {
      error = assign(options.candidates, readCount(key, value, 1));
    } else if (key == "local-search-starts") {
      error = assign(options.localSearchStarts, readCount(key, value, 0));
    } else if (key == "skip-threshold") {
      error = assign(options.skipThreshold, readCount(key, value, 1));
    } else if (key == "discount") {
      double discount = 0;
      error =
          assign(discount, readNumber(key, value, 0, 1, true, false, "(0, 1]"));
      if (!error)
        options.discount = discount;
    } else if (key == "required-improvement") {
      error = assign(options.requiredImprovement,
                     readNumber(key, value, 0, 1, false, true, "[0, 1)"));
    } else {
      std::vector<std::string> keys;
      for (const StrategySetting &setting : kBayesianSettings)
        keys.push_back(setting.key);
      error =
          llvm::createStringError("strategy 'bo' has no setting '" + key +
                                  "' (known: " + llvm::join(keys, ", ") + ")");
    }
    if (error)
      return std::move(error);
  }
  return options;
}

//===----------------------------------------------------------------------===//
// The strategy
//===----------------------------------------------------------------------===//

static double normalCdf(double u) {
  return 0.5 * std::erfc(-u / std::sqrt(2.0));
}
static double normalPdf(double u) {
  return std::exp(-0.5 * u * u) / std::sqrt(2 * M_PI);
}

double tuner::expectedImprovement(double mean, double sd, double best,
                                  double exploration) {
  sd = std::max(sd, 1e-9);
  double gain = mean - best - exploration;
  return gain * normalCdf(gain / sd) + sd * normalPdf(gain / sd);
}

double tuner::probabilityOfImprovement(double mean, double sd, double best,
                                       double exploration) {
  return normalCdf((mean - best - exploration) / std::max(sd, 1e-9));
}

double tuner::confidenceBound(double mean, double sd, double exploration) {
  return mean + exploration * sd;
}

namespace {

constexpr size_t kMinInitial = 5, kBudgetShare = 5;

/// The initial design when the user set none: BaCO's parameters + 1,
/// capped by a fraction of a known budget so that a small budget leaves
/// the model most of its evaluations.
unsigned defaultInitialCount(size_t parameters, size_t budget) {
  size_t design = parameters + 1;
  if (budget)
    design = std::min(design,
                      std::max<size_t>(kMinInitial, budget / kBudgetShare));
  return unsigned(std::max<size_t>(design, 1));
}

/// How observation values become the modelled objective (increasing).
enum class Transform { Log, NegatedLog, Identity };

double applyTransform(Transform transform, double value) {
  switch (transform) {
  case Transform::Log:
    return std::log(value);
  case Transform::NegatedLog:
    return -std::log(-value);
  case Transform::Identity:
    return value;
  }
  return value;
}

llvm::StringRef stringifyTransform(Transform transform) {
  switch (transform) {
  case Transform::Log:
    return "log";
  case Transform::NegatedLog:
    return "-log(-value)";
  case Transform::Identity:
    return "identity";
  }
  return "identity";
}

constexpr double kMinusInfinity = -std::numeric_limits<double>::infinity();

/// Descending by value, ties by ascending index: a strict, deterministic
/// order (values are never NaN).
bool before(double a, size_t indexA, double b, size_t indexB) {
  return a != b ? a > b : indexA < indexB;
}

/// One evaluated config.
struct Record {
  Config config;
  Eigen::RowVectorXd point;
  bool ok = false;
  double value = 0;
  /// From the initial design (the contextual variance's reference).
  bool initial = false;
};

/// A config scored by the model for the current proposal: the posterior in
/// standard deviations of the modelled objective, and its feasibility.
struct Scored {
  Config config;
  double mean = 0, sd = 1, feasibility = 1;
  /// Parameters that differ from the trust region's center.
  unsigned distance = 0;
};

/// One round of a portfolio: what each acquisition function proposed.
struct PortfolioEntry {
  unsigned function;
  uint64_t key;
  /// Multi: the function whose proposal this one repeated.
  std::optional<unsigned> duplicateOf;
};

class BayesianOptimization : public Strategy {
public:
  BayesianOptimization(const SearchProblem &problem, BayesianOptions options)
      : chain(*problem.chain), problem(problem), options(options),
        neighbourhood(chain),
        encoding(chain.getSpace(), options.permutationDistance),
        process(encoding), rng(options.seed) {
    initialCount = options.initial ? options.initial
                                   : defaultInitialCount(
                                         chain.getSpace().size(),
                                         options.budget);
    seeds = feasibleSeeds(problem);
    initialCount += seeds.size();
    usePrior = problem.model && options.modelPrior;
    design = options.initialDesign.value_or(
        usePrior && problem.tree ? InitialDesign::Model
                                 : InitialDesign::Uniform);
    // The region's size counts the parameters that can vary (a narrowed
    // space keeps the others at one value).
    for (const Parameter &parameter : chain.getSpace().getParameters())
      parameterCount += parameter.domainSize() != std::optional<uint64_t>(1);
    parameterCount = std::max(parameterCount, 1u);
    radius = initialRadius();
    if (options.acquisition == Acquisition::Multi ||
        options.acquisition == Acquisition::AdvancedMulti) {
      functions = {Acquisition::ExpectedImprovement,
                   Acquisition::ProbabilityOfImprovement,
                   Acquisition::LowerConfidenceBound};
      skipped.assign(functions.size(), false);
      functionValues.resize(functions.size());
      duplicateWindows.resize(functions.size());
      worseCounts.assign(functions.size(), 0);
      betterCounts.assign(functions.size(), 0);
      discount = options.discount.value_or(
          options.acquisition == Acquisition::Multi ? 0.65 : 0.75);
    }
    enumerateSmallSpace();
  }

  llvm::StringRef getName() const override { return "bo"; }

  std::vector<Config> propose(size_t count) override {
    std::vector<Config> result;
    while (result.size() < count) {
      std::optional<Config> next = proposeOne();
      if (!next)
        break;
      markProposed(*next);
      result.push_back(std::move(*next));
    }
    return result;
  }

  void observe(llvm::ArrayRef<Observation> observations) override {
    for (const Observation &observation : observations) {
      uint64_t key = scheduleKey(observation.config);
      seen.insert(key);
      auto it = llvm::find_if(pending, [&](const Config &config) {
        return scheduleKey(config) == key;
      });
      bool initial = false;
      if (it != pending.end()) {
        initial = initialKeys.count(key);
        pending.erase(it);
      }
      Record record;
      record.config = observation.config;
      record.point = encoding.encode(observation.config);
      record.ok = observation.ok() && std::isfinite(observation.value);
      record.value = observation.value;
      record.initial = initial;
      if (record.ok) {
        bool improved = !bestValue ||
                        record.value > *bestValue + 1e-3 * std::abs(*bestValue);
        if (options.trustRegion && !initial && bestValue)
          updateTrustRegion(improved);
        if (!bestValue || record.value > *bestValue)
          bestValue = record.value;
      } else if (options.trustRegion && !initial && bestValue) {
        updateTrustRegion(false);
      }
      outcomes[key] =
          record.ok ? std::optional<double>(record.value) : std::nullopt;
      records.push_back(std::move(record));
      dirty = true;
    }
    settleRounds();
  }

  llvm::json::Object statistics() const override {
    llvm::json::Object stats{
        {"acquisition", stringifyAcquisition(options.acquisition).str()},
        {"initial_samples", int64_t(initialProposed)},
        {"initial_seeds", int64_t(seedProposals)},
        {"model_proposals", int64_t(modelProposals)},
        {"random_proposals", int64_t(randomProposals)},
        {"objective_transform", stringifyTransform(transform).str()},
        {"model_prior", usePrior},
        {"feasibility_model", options.feasibilityModel},
        {"steered_from_predicted_failures", int64_t(steered)},
    };
    if (options.learnPriorWeight)
      stats["prior_weight"] = priorWeight;
    stats["initial_design"] = stringifyInitialDesign(design).str();
    if (design != InitialDesign::Uniform)
      stats["initial_model_picks"] = int64_t(modelPicks);
    // Where the list applies (a model prior on a program's space).
    if (modelTop && usePrior && problem.tree)
      stats["model_candidates"] = int64_t(modelTop->size());
    if (options.trustRegion) {
      stats["trust_region_radius"] = int64_t(radius);
      stats["trust_region_restarts"] = int64_t(regionRestarts);
    }
    if (!functions.empty()) {
      llvm::json::Array inPlay;
      for (size_t f = 0; f < functions.size(); ++f)
        if (!skipped[f] && (!single || *single == f))
          inPlay.push_back(stringifyAcquisition(functions[f]).str());
      stats["acquisitions_in_play"] = std::move(inPlay);
    }
    return stats;
  }

private:
  //===--------------------------------------------------------------------===//
  // Identity and sampling
  //===--------------------------------------------------------------------===//

  uint64_t scheduleKey(const Config &config) const {
    return problem.hash ? problem.hash(config) : config.hash();
  }

  void markProposed(const Config &config) {
    uint64_t key = scheduleKey(config);
    seen.insert(key);
    pending.push_back(config);
    if (proposedCount < initialCount)
      initialKeys.insert(key);
    ++proposedCount;
  }

  /// A space small enough is scored whole rather than sampled.
  void enumerateSmallSpace() {
    if (chain.hasRealParameters() || !chain.isExact())
      return;
    llvm::APInt size = chain.count();
    if (size.getActiveBits() > 32 ||
        size.getZExtValue() > std::max<uint64_t>(options.candidates, 1))
      return;
    wholeSpace.emplace();
    for (uint64_t i = 0, e = size.getZExtValue(); i < e; ++i) {
      wholeSpace->push_back(chain.at(llvm::APInt(size.getBitWidth(), i)));
      wholeSpaceKeys.push_back(scheduleKey(wholeSpace->back()));
    }
  }

  /// A uniform feasible config not seen before; nullopt when none is left
  /// (or sampling keeps meeting known configs of a space too large to
  /// enumerate).
  std::optional<Config> sampleUnseen() {
    if (!wholeSpace) {
      for (int attempt = 0; attempt < 64; ++attempt) {
        llvm::Expected<Config> config = chain.sample(rng);
        if (!config) {
          llvm::consumeError(config.takeError());
          return std::nullopt;
        }
        if (!seen.count(scheduleKey(*config)))
          return std::move(*config);
      }
      // Sampling stalls: the rest of a space small enough to enumerate.
      if (!remaining)
        enumerateRemaining();
    }
    const std::vector<Config> &space = wholeSpace ? *wholeSpace : *remaining;
    const std::vector<uint64_t> &keys =
        wholeSpace ? wholeSpaceKeys : remainingKeys;
    std::vector<size_t> unseen;
    for (size_t i = 0; i < space.size(); ++i)
      if (!seen.count(keys[i]))
        unseen.push_back(i);
    if (unseen.empty())
      return std::nullopt;
    return space[unseen[std::uniform_int_distribution<size_t>(0, unseen.size() -
                                                                     1)(rng)]];
  }

  /// The configs not seen yet of a space of at most 2^20 configs (none of a
  /// larger one).
  void enumerateRemaining() {
    remaining.emplace();
    if (chain.hasRealParameters() || !chain.isExact())
      return;
    llvm::APInt size = chain.count();
    if (size.getActiveBits() > 32 || size.getZExtValue() > (1u << 20))
      return;
    for (uint64_t i = 0, e = size.getZExtValue(); i < e; ++i) {
      Config config = chain.at(llvm::APInt(size.getBitWidth(), i));
      uint64_t key = scheduleKey(config);
      if (!seen.count(key)) {
        remaining->push_back(std::move(config));
        remainingKeys.push_back(key);
      }
    }
  }

  //===--------------------------------------------------------------------===//
  // Trust region (TuRBO on a discrete space)
  //===--------------------------------------------------------------------===//

  unsigned initialRadius() const {
    return std::max(1u, (parameterCount + 1) / 2);
  }

  /// Books one observed model proposal: grows the region after improving
  /// ones, shrinks it after failing ones, and opens it when it vanishes.
  void updateTrustRegion(bool improved) {
    if (improved) {
      trustFailures = 0;
      if (++trustSuccesses >= kTrustSuccesses) {
        radius = std::min(parameterCount, radius + 1);
        trustSuccesses = 0;
      }
      return;
    }
    trustSuccesses = 0;
    if (++trustFailures < std::max(kTrustFailures, parameterCount))
      return;
    trustFailures = 0;
    radius /= 2;
    if (radius == 0)
      openTrustRegion();
  }

  void openTrustRegion() {
    radius = parameterCount;
    trustSuccesses = trustFailures = 0;
    ++regionRestarts;
  }

  /// The trust region restricts this proposal (a center is set and the
  /// region is not the whole space).
  bool trustActive() const {
    return options.trustRegion && trustCenter && radius < parameterCount;
  }

  /// The best observed config (ties: the earliest) as the region's center.
  void setTrustCenter() {
    trustCenter.reset();
    if (!options.trustRegion)
      return;
    const Record *bestRecord = nullptr;
    for (const Record &record : records)
      if (record.ok && (!bestRecord || record.value > bestRecord->value))
        bestRecord = &record;
    if (bestRecord)
      trustCenter = bestRecord->config;
  }

  //===--------------------------------------------------------------------===//
  // Proposals
  //===--------------------------------------------------------------------===//

  std::optional<Config> proposeOne() {
    if (proposedCount < initialCount) {
      // The seeds first (those not already seen, e.g. recalled).
      while (seedsTried < seeds.size()) {
        const Config &seed = seeds[seedsTried++];
        if (!seen.count(scheduleKey(seed))) {
          ++seedProposals;
          return seed;
        }
      }
      // The cost model's best unseen pick: every initial config (model) or
      // every second (mixed).
      bool pick = design == InitialDesign::Model ||
                  (design == InitialDesign::Mixed && proposedCount % 2 == 1);
      if (pick && usePrior)
        if (std::optional<Config> config = modelPick()) {
          ++initialProposed;
          ++modelPicks;
          return config;
        }
      std::optional<Config> config = sampleUnseen();
      if (config)
        ++initialProposed;
      return config;
    }
    bool anyOk = llvm::any_of(records, [](const Record &r) { return r.ok; });
    if (!anyOk) {
      // BaCO samples on until one config succeeds: there is nothing to model.
      std::optional<Config> config = sampleUnseen();
      if (config)
        ++randomProposals;
      return config;
    }
    prepareModel();
    std::optional<Config> config =
        functions.empty() ? optimizeAcquisition(options.acquisition, {})
                          : nextFromPortfolio();
    if (config) {
      ++modelProposals;
      return config;
    }
    config = sampleUnseen();
    if (config)
      ++randomProposals;
    return config;
  }

  /// `options.candidates` uniform samples of the space (fewer if sampling
  /// fails).
  std::vector<Config> uniformPool() {
    std::vector<Config> pool;
    for (unsigned i = 0; i < options.candidates; ++i) {
      llvm::Expected<Config> config = chain.sample(rng);
      if (!config) {
        llvm::consumeError(config.takeError());
        break;
      }
      pool.push_back(std::move(*config));
    }
    return pool;
  }

  /// The cost model's best schedules by tree search over the program's
  /// decision tree (see BayesianOptions::modelCandidates), best first; the
  /// search runs once, on the first call. Empty without a model prior or a
  /// tree.
  const std::vector<Config> &modelTopList() {
    if (modelTop)
      return *modelTop;
    modelTop.emplace();
    if (!usePrior || !problem.tree || options.modelCandidates == 0 ||
        wholeSpace)
      return *modelTop;
    MonteCarloOptions search;
    search.topK = options.modelCandidates;
    search.iterations = options.modelSearchIterations;
    search.seed = options.seed;
    search.hash = problem.hash;
    search.stratum = problem.stratum;
    RememberingModel model(*this);
    std::unique_ptr<Strategy> mcts =
        createMonteCarloTreeSearch(*problem.tree, model, search);
    for (Config &config : mcts->propose(options.modelCandidates))
      if (chain.contains(config))
        modelTop->push_back(std::move(config));
    return *modelTop;
  }

  /// The unseen config the cost model ranks best: its tree search's list
  /// first, then `candidates` uniform samples (drawn and ranked once).
  std::optional<Config> modelPick() {
    if (!modelRanking) {
      modelRanking = modelTopList();
      std::vector<Config> pool = wholeSpace ? *wholeSpace : uniformPool();
      std::vector<double> priors = priorsOf(pool);
      std::vector<size_t> order(pool.size());
      std::iota(order.begin(), order.end(), 0);
      std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return before(priors[a], a, priors[b], b);
      });
      for (size_t i : order)
        modelRanking->push_back(pool[i]);
    }
    for (const Config &config : *modelRanking)
      if (!seen.count(scheduleKey(config)))
        return config;
    return std::nullopt;
  }

  /// Keeps the cost model's predictions of `configs` as priors: the log
  /// speedup, 0 where it could not score one.
  void remember(llvm::ArrayRef<Config> configs,
                llvm::ArrayRef<Observation> predicted) {
    for (size_t i = 0; i < configs.size(); ++i) {
      double prior = 0;
      if (i < predicted.size() && predicted[i].ok() &&
          predicted[i].value > 0 && std::isfinite(predicted[i].value))
        prior = std::log(predicted[i].value);
      priorCache[configs[i].hash()] = prior;
    }
  }

  /// The cost model as the tree search sees it: every prediction it asks
  /// for is also kept as a prior, so that none is asked for twice.
  class RememberingModel : public Evaluator {
  public:
    explicit RememberingModel(BayesianOptimization &owner) : owner(owner) {}
    std::vector<Observation>
    evaluate(llvm::ArrayRef<Config> configs) override {
      std::vector<Observation> predicted =
          owner.problem.model->evaluate(configs);
      owner.remember(configs, predicted);
      return predicted;
    }

  private:
    BayesianOptimization &owner;
  };

  /// The cost model's predicted log speedups of `configs` (0 where it
  /// cannot score one), scored in one batch and remembered.
  std::vector<double> priorsOf(llvm::ArrayRef<Config> configs) {
    std::vector<double> priors(configs.size(), 0);
    if (!usePrior)
      return priors;
    std::vector<Config> missing;
    std::unordered_set<uint64_t> asked;
    for (const Config &config : configs) {
      uint64_t key = config.hash();
      if (!priorCache.count(key) && asked.insert(key).second)
        missing.push_back(config);
    }
    if (!missing.empty())
      remember(missing, problem.model->evaluate(missing));
    for (size_t i = 0; i < configs.size(); ++i)
      priors[i] = priorCache[configs[i].hash()];
    return priors;
  }

  /// Refits the model after new observations, then conditions it on the
  /// configs still pending at its own predictions (kriging believer).
  void prepareModel() {
    if (dirty) {
      fitModel();
      trainForest();
      dirty = false;
    }
    // Condition on the pending configs at the fitted model's means.
    Eigen::MatrixXd points = fittedPoints;
    Eigen::VectorXd targets = fittedTargets;
    if (!pending.empty()) {
      process.setData(fittedPoints, fittedTargets);
      Eigen::MatrixXd pendingPoints(pending.size(), encoding.width());
      for (size_t i = 0; i < pending.size(); ++i)
        pendingPoints.row(i) = encoding.encode(pending[i]);
      Eigen::VectorXd mean, variance;
      process.predict(pendingPoints, mean, variance);
      points.conservativeResize(points.rows() + pendingPoints.rows(),
                                Eigen::NoChange);
      points.bottomRows(pendingPoints.rows()) = pendingPoints;
      targets.conservativeResize(targets.size() + mean.size());
      targets.tail(mean.size()) = mean;
    }
    process.setData(std::move(points), std::move(targets));
  }

  void fitModel() {
    std::vector<const Record *> ok;
    for (const Record &record : records)
      if (record.ok)
        ok.push_back(&record);
    bool allPositive =
        llvm::all_of(ok, [](const Record *r) { return r->value > 0; });
    bool allNegative =
        llvm::all_of(ok, [](const Record *r) { return r->value < 0; });
    transform = allPositive   ? Transform::Log
                : allNegative ? Transform::NegatedLog
                              : Transform::Identity;
    // A predicted log speedup is a prior of log speedups only.
    priorActive = usePrior && transform == Transform::Log;

    size_t n = ok.size();
    std::vector<Config> configs;
    for (const Record *record : ok)
      configs.push_back(record->config);
    std::vector<double> priors =
        priorActive ? priorsOf(configs) : std::vector<double>(n, 0);
    Eigen::VectorXd observed(n);
    for (size_t i = 0; i < n; ++i)
      observed(i) = applyTransform(transform, ok[i]->value);
    priorWeight = 1;
    if (priorActive && options.learnPriorWeight)
      priorWeight = learnedPriorWeight(observed, priors);
    for (double &prior : priors)
      prior *= priorWeight;
    Eigen::VectorXd residual(n);
    fittedPoints.resize(n, encoding.width());
    for (size_t i = 0; i < n; ++i) {
      fittedPoints.row(i) = ok[i]->point;
      residual(i) = observed(i) - priors[i];
    }
    center = residual.mean();
    double variance =
        n > 1 ? (residual.array() - center).square().sum() / double(n) : 0;
    scale = variance > 1e-24 ? std::sqrt(variance) : 1;
    fittedTargets = (residual.array() - center) / scale;
    best = kMinusInfinity;
    for (size_t i = 0; i < n; ++i)
      best = std::max(best, fittedTargets(i) + priors[i] / scale);
    process.setData(fittedPoints, fittedTargets);
    // BaCO refits from many starts; once the model has some data, a full
    // multi-start fit whenever the data grew by a fifth since the last one
    // and a refinement of the last fit in between keep the cost of a
    // proposal low (a few full fits in a run of hundreds of evaluations).
    bool multiStart = !lastTheta || n <= kFullFitPoints ||
                      double(n) >= kFullFitGrowth * double(lastFullFitSize);
    if (multiStart)
      lastFullFitSize = n;
    lastTheta = process.fit(rng, lastTheta, multiStart);
  }

  /// The least-squares slope of the observed objective on the prior (both
  /// centered), shrunk towards 1 by kPriorPseudoPoints points of average
  /// leverage, in [0, kMaxPriorWeight].
  static double learnedPriorWeight(const Eigen::VectorXd &observed,
                                   const std::vector<double> &priors) {
    size_t n = priors.size();
    if (n == 0)
      return 1;
    Eigen::VectorXd p = Eigen::Map<const Eigen::VectorXd>(priors.data(), n);
    Eigen::VectorXd pc = p.array() - p.mean();
    Eigen::VectorXd yc = observed.array() - observed.mean();
    double spp = pc.squaredNorm(), spy = pc.dot(yc);
    if (!(spp > 1e-12))
      return 1;
    double shrink = kPriorPseudoPoints * spp / double(n);
    double weight = (spy + shrink) / (spp + shrink);
    return std::clamp(weight, 0.0, kMaxPriorWeight);
  }

  void trainForest() {
    forestActive = false;
    if (!options.feasibilityModel)
      return;
    bool anyFailed =
        llvm::any_of(records, [](const Record &r) { return !r.ok; });
    if (!anyFailed)
      return;
    Eigen::MatrixXd points(records.size(), encoding.width());
    std::vector<bool> feasible(records.size());
    for (size_t i = 0; i < records.size(); ++i) {
      points.row(i) = records[i].point;
      feasible[i] = records[i].ok;
    }
    forest.train(points, feasible, rng());
    forestActive = true;
  }

  /// Scores `configs` not scored for this proposal yet (one model batch).
  void score(llvm::ArrayRef<Config> configs) {
    std::vector<Config> fresh;
    for (const Config &config : configs)
      if (scoredIndex.emplace(config.hash(), scored.size() + fresh.size())
              .second)
        fresh.push_back(config);
    if (fresh.empty())
      return;
    Eigen::MatrixXd points(fresh.size(), encoding.width());
    for (size_t i = 0; i < fresh.size(); ++i)
      points.row(i) = encoding.encode(fresh[i]);
    Eigen::VectorXd mean, variance;
    process.predict(points, mean, variance);
    std::vector<double> priors =
        priorActive ? priorsOf(fresh) : std::vector<double>(fresh.size(), 0);
    Eigen::RowVectorXd center;
    if (trustCenter)
      center = encoding.encode(*trustCenter);
    for (size_t i = 0; i < fresh.size(); ++i) {
      Scored entry;
      if (trustCenter)
        for (size_t p = 0; p < encoding.parameters(); ++p)
          entry.distance +=
              encoding.distance(p, points.row(i).data(), center.data()) > 0;
      entry.config = std::move(fresh[i]);
      entry.mean = mean(i) + priorWeight * priors[i] / scale;
      entry.sd = std::sqrt(variance(i));
      entry.feasibility =
          forestActive ? forest.probability(Eigen::RowVectorXd(points.row(i)))
                       : 1;
      scored.push_back(std::move(entry));
    }
  }

  /// The acquisition of a scored config, without and with feasibility.
  double rawAcquisition(Acquisition function, const Scored &entry) const {
    switch (function) {
    case Acquisition::ExpectedImprovement:
      return expectedImprovement(entry.mean, entry.sd, best, exploration);
    case Acquisition::ProbabilityOfImprovement:
      return probabilityOfImprovement(entry.mean, entry.sd, best, exploration);
    case Acquisition::LowerConfidenceBound:
      return confidenceBound(entry.mean, entry.sd, exploration);
    case Acquisition::Multi:
    case Acquisition::AdvancedMulti:
      break;
    }
    llvm_unreachable("a portfolio is not an acquisition function");
  }

  double acquisition(Acquisition function, const Scored &entry) const {
    if (trustActive() && entry.distance > radius)
      return kMinusInfinity;
    if (forestActive && entry.feasibility < feasibilityLimit)
      return kMinusInfinity;
    double raw = rawAcquisition(function, entry);
    if (!forestActive)
      return raw;
    if (function == Acquisition::LowerConfidenceBound)
      return entry.feasibility > 0 ? raw + std::log(entry.feasibility)
                                   : kMinusInfinity;
    return raw * entry.feasibility;
  }

  /// Kernel Tuner's contextual variance: the mean predicted deviation,
  /// relative to the improvement over the initial design and to the same
  /// deviation after the initial design.
  double contextualVariance(double meanSd) {
    if (!initialSd)
      initialSd = std::max(meanSd, 1e-9);
    double improvement = meanInitialCost() / std::max(bestCost(), 1e-300);
    if (!std::isfinite(improvement) || improvement <= 0)
      improvement = 1;
    return (meanSd / improvement) / *initialSd;
  }

  /// The cost (lower is better, positive) of an observed value in the
  /// current model's units: exp(-(objective - center) / scale).
  double cost(double value) const {
    return std::exp(-(applyTransform(transform, value) - center) / scale);
  }
  double bestCost() const {
    double result = std::numeric_limits<double>::infinity();
    for (const Record &record : records)
      if (record.ok)
        result = std::min(result, cost(record.value));
    return result;
  }
  double meanInitialCost() const {
    double sum = 0;
    size_t count = 0;
    for (const Record &record : records)
      if (record.ok && record.initial) {
        sum += cost(record.value);
        ++count;
      }
    if (count == 0)
      for (const Record &record : records)
        if (record.ok) {
          sum += cost(record.value);
          ++count;
        }
    return count ? sum / double(count) : 1;
  }

  /// Starts a proposal (or a round of a portfolio): scores the candidate
  /// pool, draws the feasibility limit and sets the exploration factor.
  void startProposal() {
    scored.clear();
    scoredIndex.clear();
    setTrustCenter();
    if (wholeSpace) {
      std::vector<Config> unseen;
      for (size_t i = 0; i < wholeSpace->size(); ++i)
        if (!seen.count(wholeSpaceKeys[i]))
          unseen.push_back((*wholeSpace)[i]);
      score(unseen);
    } else {
      std::vector<Config> pool = uniformPool();
      // Inside a trust region uniform samples rarely fall: half as many
      // again are mutations of its center, each parameter moved with
      // probability radius / parameters.
      if (trustActive())
        for (unsigned i = 0; i < options.candidates / 2; ++i)
          if (std::optional<Config> config = neighbourhood.mutate(
                  *trustCenter, double(radius) / double(parameterCount), 0.5,
                  rng))
            pool.push_back(std::move(*config));
      // The cost model's own best schedules, which uniform samples of a
      // large space rarely come near.
      for (const Config &config : modelTopList())
        if (!seen.count(scheduleKey(config)))
          pool.push_back(config);
      score(pool);
    }
    poolSize = scored.size();
    // BaCO: the limit is uniform over {0, 0.1, ..., 1} times the threshold,
    // so that no region is cut off forever.
    feasibilityLimit = options.feasibilityThreshold * 0.1 *
                       double(std::uniform_int_distribution<int>(0, 10)(rng));
    // Auto: BaCO's plain expected improvement, Kernel Tuner's contextual
    // variance for its acquisition functions.
    bool useCv = options.contextualVariance ||
                 (!options.exploration &&
                  options.acquisition != Acquisition::ExpectedImprovement);
    if (useCv) {
      double meanSd = 0;
      for (size_t i = 0; i < poolSize; ++i)
        meanSd += scored[i].sd / double(std::max<size_t>(poolSize, 1));
      exploration = poolSize ? contextualVariance(meanSd) : 0;
    } else {
      exploration = options.exploration.value_or(0);
    }
  }

  /// The best config by `function`'s acquisition that is neither seen nor
  /// in `exclude`, after local searches from the best of the pool and the
  /// best observed configs. Assumes startProposal.
  std::optional<Config>
  searchAcquisition(Acquisition function,
                    const std::unordered_set<uint64_t> &exclude) {
    auto valueOf = [&](size_t i) { return acquisition(function, scored[i]); };
    if (!wholeSpace) {
      std::vector<size_t> starts(poolSize);
      std::iota(starts.begin(), starts.end(), 0);
      std::sort(starts.begin(), starts.end(), [&](size_t a, size_t b) {
        return before(valueOf(a), a, valueOf(b), b);
      });
      starts.resize(std::min<size_t>(starts.size(), options.localSearchStarts));
      // BaCO also starts from the best observed configs.
      std::vector<const Record *> ok;
      for (const Record &record : records)
        if (record.ok)
          ok.push_back(&record);
      std::sort(ok.begin(), ok.end(), [&](const Record *a, const Record *b) {
        return before(a->value, size_t(a - records.data()), b->value,
                      size_t(b - records.data()));
      });
      std::vector<Config> bestObserved;
      for (size_t i = 0; i < std::min<size_t>(3, ok.size()); ++i)
        bestObserved.push_back(ok[i]->config);
      score(bestObserved);
      if (options.localSearchStarts > 0)
        for (const Config &config : bestObserved)
          starts.push_back(scoredIndex.at(config.hash()));
      for (size_t start : starts)
        climb(function, start);
    }
    std::vector<size_t> order(scored.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return before(valueOf(a), a, valueOf(b), b);
    });
    std::optional<size_t> chosen;
    for (size_t i : order) {
      if (valueOf(i) == kMinusInfinity)
        break;
      uint64_t key = scheduleKey(scored[i].config);
      if (!seen.count(key) && !exclude.count(key)) {
        chosen = i;
        break;
      }
    }
    if (!chosen && trustActive()) {
      // Nothing unseen left inside the region: open it.
      openTrustRegion();
      return searchAcquisition(function, exclude);
    }
    if (!chosen)
      return std::nullopt;
    if (forestActive) {
      // What the acquisition alone would have proposed: a config the forest
      // predicts to fail, avoided.
      std::optional<size_t> plain;
      double plainValue = kMinusInfinity;
      for (size_t i = 0; i < scored.size(); ++i) {
        double value = rawAcquisition(function, scored[i]);
        if (value > plainValue) {
          uint64_t key = scheduleKey(scored[i].config);
          if (seen.count(key) || exclude.count(key))
            continue;
          plainValue = value;
          plain = i;
        }
      }
      if (plain && *plain != *chosen && scored[*plain].feasibility < 0.5)
        ++steered;
    }
    return scored[*chosen].config;
  }

  /// Hill climbing on `function` from scored config `index`: to the best
  /// neighbour while it improves.
  void climb(Acquisition function, size_t index) {
    for (unsigned step = 0; step < 64; ++step) {
      Config current = scored[index].config;
      double value = acquisition(function, scored[index]);
      std::vector<Config> next = neighbourhood.neighbours(current);
      score(next);
      size_t bestIndex = index;
      double bestValue = value;
      for (const Config &config : next) {
        size_t i = scoredIndex.at(config.hash());
        double candidate = acquisition(function, scored[i]);
        if (candidate >
            bestValue + 1e-12 * std::max(1.0, std::abs(bestValue))) {
          bestValue = candidate;
          bestIndex = i;
        }
      }
      if (bestIndex == index)
        return;
      index = bestIndex;
    }
  }

  std::optional<Config>
  optimizeAcquisition(Acquisition function,
                      const std::unordered_set<uint64_t> &exclude) {
    startProposal();
    return searchAcquisition(function, exclude);
  }

  //===--------------------------------------------------------------------===//
  // Kernel Tuner's portfolios (multi, advanced multi)
  //===--------------------------------------------------------------------===//

  std::optional<Config> nextFromPortfolio() {
    while (!queue.empty()) {
      Config config = std::move(queue.front());
      queue.pop_front();
      if (!seen.count(scheduleKey(config)))
        return config;
    }
    std::vector<size_t> active;
    for (size_t f = 0; f < functions.size(); ++f)
      if (!skipped[f] && (!single || *single == f))
        active.push_back(f);
    if (active.size() == 1) {
      // One function left: plain Bayesian optimization with it.
      return optimizeAcquisition(functions[active.front()], {});
    }
    // One round: the pool and the model are shared by the functions.
    startProposal();
    std::vector<PortfolioEntry> round;
    std::unordered_set<uint64_t> taken;
    std::vector<Config> proposals;
    for (size_t f : active) {
      bool advanced = options.acquisition == Acquisition::AdvancedMulti;
      std::optional<Config> config = searchAcquisition(
          functions[f], advanced ? taken : std::unordered_set<uint64_t>());
      if (!config)
        continue;
      uint64_t key = scheduleKey(*config);
      PortfolioEntry entry{unsigned(f), key, std::nullopt};
      if (taken.count(key)) {
        for (const PortfolioEntry &other : round)
          if (other.key == key && !other.duplicateOf)
            entry.duplicateOf = other.function;
      } else {
        taken.insert(key);
        proposals.push_back(std::move(*config));
      }
      round.push_back(entry);
    }
    if (proposals.empty())
      return std::nullopt;
    rounds.push_back(std::move(round));
    for (size_t i = 1; i < proposals.size(); ++i)
      queue.push_back(std::move(proposals[i]));
    return std::move(proposals.front());
  }

  double discountedSum(const std::vector<double> &costs) const {
    double sum = 0;
    for (size_t i = 0; i < costs.size(); ++i)
      sum += costs[i] * std::pow(discount, double(costs.size() - 1 - i));
    return sum;
  }

  /// Books every round whose proposals have all been observed.
  void settleRounds() {
    while (!rounds.empty()) {
      const std::vector<PortfolioEntry> &round = rounds.front();
      bool complete = llvm::all_of(round, [&](const PortfolioEntry &entry) {
        return outcomes.count(entry.key);
      });
      if (!complete)
        return;
      for (const PortfolioEntry &entry : round)
        functionValues[entry.function].push_back(
            outcomes[entry.key].value_or(std::nan("")));
      if (options.acquisition == Acquisition::Multi)
        settleMulti(round);
      else
        settleAdvanced(round);
      rounds.pop_front();
    }
  }

  /// The costs of a function's observations; a failure costs `failure`.
  std::vector<double> costsOf(size_t function, double failure) const {
    std::vector<double> costs;
    for (double value : functionValues[function])
      costs.push_back(std::isnan(value) ? failure : cost(value));
    return costs;
  }

  void settleMulti(const std::vector<PortfolioEntry> &round) {
    size_t window = options.skipThreshold;
    std::vector<int> duplicate(functions.size(), 0);
    for (const PortfolioEntry &entry : round)
      if (entry.duplicateOf) {
        duplicate[entry.function] = 1;
        duplicate[*entry.duplicateOf] = 1;
      }
    for (const PortfolioEntry &entry : round) {
      std::deque<int> &flags = duplicateWindows[entry.function];
      flags.push_back(duplicate[entry.function]);
      while (flags.size() > window)
        flags.pop_front();
    }
    std::vector<size_t> candidates;
    for (size_t f = 0; f < functions.size(); ++f) {
      const std::deque<int> &flags = duplicateWindows[f];
      if (!skipped[f] &&
          size_t(std::accumulate(flags.begin(), flags.end(), 0)) >= window)
        candidates.push_back(f);
    }
    if (candidates.size() < 2)
      return;
    // Kernel Tuner counts a failure at the initial design's mean.
    double failure = meanInitialCost();
    size_t keep = candidates.front();
    double keepScore = std::numeric_limits<double>::infinity();
    for (size_t f : candidates) {
      double sum = discountedSum(costsOf(f, failure));
      if (sum < keepScore) {
        keepScore = sum;
        keep = f;
      }
    }
    for (size_t f : candidates) {
      if (f == keep)
        duplicateWindows[f].clear();
      else
        skipped[f] = true;
    }
  }

  void settleAdvanced(const std::vector<PortfolioEntry> &) {
    // A failure counts at the median of the successful observations.
    std::vector<double> okCosts;
    for (const Record &record : records)
      if (record.ok)
        okCosts.push_back(cost(record.value));
    double failure = 1;
    if (!okCosts.empty()) {
      std::sort(okCosts.begin(), okCosts.end());
      size_t half = okCosts.size() / 2;
      failure = okCosts.size() % 2 ? okCosts[half]
                                   : 0.5 * (okCosts[half - 1] + okCosts[half]);
    }
    std::vector<double> sums(functions.size(), 0);
    double mean = 0;
    size_t active = 0;
    for (size_t f = 0; f < functions.size(); ++f) {
      sums[f] = discountedSum(costsOf(f, failure));
      if (!skipped[f]) {
        mean += sums[f];
        ++active;
      }
    }
    mean /= double(std::max<size_t>(active, 1));
    double factor = options.requiredImprovement;
    for (size_t f = 0; f < functions.size(); ++f) {
      if (skipped[f])
        continue;
      if (sums[f] > mean * (1 + factor))
        ++worseCounts[f];
      else if (sums[f] < mean * (1 - factor))
        ++betterCounts[f];
    }
    // Skip the worst (ties: the larger discounted cost), else promote the
    // best to the only function.
    std::optional<size_t> worst;
    for (size_t f = 0; f < functions.size(); ++f)
      if (!skipped[f] && worseCounts[f] >= options.skipThreshold &&
          (!worst || worseCounts[f] > worseCounts[*worst] ||
           (worseCounts[f] == worseCounts[*worst] && sums[f] > sums[*worst])))
        worst = f;
    if (worst) {
      skipped[*worst] = true;
      std::fill(worseCounts.begin(), worseCounts.end(), 0);
      std::fill(betterCounts.begin(), betterCounts.end(), 0);
      return;
    }
    std::optional<size_t> bestFunction;
    for (size_t f = 0; f < functions.size(); ++f)
      if (!skipped[f] && betterCounts[f] >= options.skipThreshold &&
          (!bestFunction || betterCounts[f] > betterCounts[*bestFunction] ||
           (betterCounts[f] == betterCounts[*bestFunction] &&
            sums[f] < sums[*bestFunction])))
        bestFunction = f;
    if (bestFunction)
      single = *bestFunction;
  }

  //===--------------------------------------------------------------------===//
  // State
  //===--------------------------------------------------------------------===//

  const ChainOfTrees &chain;
  SearchProblem problem;
  BayesianOptions options;
  Neighbourhood neighbourhood;
  ConfigEncoding encoding;
  GaussianProcess process;
  FeasibilityForest forest;
  std::mt19937_64 rng;

  unsigned initialCount = 0;
  size_t proposedCount = 0, initialProposed = 0, modelProposals = 0,
         randomProposals = 0, steered = 0;
  std::unordered_set<uint64_t> seen, initialKeys;
  std::vector<Config> pending;
  std::vector<Record> records;
  std::unordered_map<uint64_t, std::optional<double>> outcomes;
  std::optional<std::vector<Config>> wholeSpace;
  std::vector<uint64_t> wholeSpaceKeys;
  /// What was left when sampling stalled (see sampleUnseen).
  std::optional<std::vector<Config>> remaining;
  std::vector<uint64_t> remainingKeys;

  // The fitted model.
  bool dirty = true, usePrior = false, priorActive = false,
       forestActive = false;
  Transform transform = Transform::Identity;
  double center = 0, scale = 1, best = 0;
  Eigen::MatrixXd fittedPoints;
  Eigen::VectorXd fittedTargets;
  std::optional<Eigen::VectorXd> lastTheta;
  size_t lastFullFitSize = 0;
  static constexpr size_t kFullFitPoints = 20;
  static constexpr double kFullFitGrowth = 1.2;
  std::unordered_map<uint64_t, double> priorCache;
  double priorWeight = 1;
  InitialDesign design = InitialDesign::Uniform;
  std::optional<std::vector<Config>> modelTop, modelRanking;
  size_t modelPicks = 0;
  /// The problem's seeds (feasibleSeeds), how many were considered and how
  /// many proposed.
  std::vector<Config> seeds;
  size_t seedsTried = 0, seedProposals = 0;
  static constexpr double kPriorPseudoPoints = 2, kMaxPriorWeight = 2;

  // The trust region.
  unsigned parameterCount = 0, radius = 0, trustSuccesses = 0,
           trustFailures = 0;
  size_t regionRestarts = 0;
  static constexpr unsigned kTrustSuccesses = 2, kTrustFailures = 4;
  std::optional<Config> trustCenter;
  std::optional<double> bestValue;

  // The current proposal.
  std::vector<Scored> scored;
  std::unordered_map<uint64_t, size_t> scoredIndex;
  size_t poolSize = 0;
  double feasibilityLimit = 0, exploration = 0;
  std::optional<double> initialSd;

  // Portfolios.
  std::vector<Acquisition> functions;
  std::vector<bool> skipped;
  std::optional<size_t> single;
  std::vector<std::vector<double>> functionValues;
  std::vector<std::deque<int>> duplicateWindows;
  std::vector<unsigned> worseCounts, betterCounts;
  double discount = 0.65;
  std::deque<std::vector<PortfolioEntry>> rounds;
  std::deque<Config> queue;
};

} // namespace

std::unique_ptr<Strategy>
tuner::createBayesianOptimization(const SearchProblem &problem,
                                  const BayesianOptions &options) {
  return std::make_unique<BayesianOptimization>(problem, options);
}
