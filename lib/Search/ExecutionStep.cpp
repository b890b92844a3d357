//===- ExecutionStep.cpp - Measuring the model's best schedules -----------===//

#include "tuner/Search/ExecutionStep.h"
#include "tuner/Support/StableSort.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>
#include <unordered_set>

using namespace tuner;

ExecutionStep::ExecutionStep(unsigned topK, ModelCorrection correction,
                             bool diverse, ScheduleHash hash)
    : topK(topK), correction(correction), diverse(diverse),
      hash(std::move(hash)) {
  if (!this->hash)
    this->hash = [](const Config &c) { return c.hash(); };
  switch (correction) {
  case ModelCorrection::None:
    break;
  case ModelCorrection::Errors:
    errorVariance = kErrorVariance;
    exploration = kExploration;
    break;
  case ModelCorrection::Adapt:
    offsetVariance = kOffsetVariance;
    break;
  case ModelCorrection::AdaptAndErrors:
    errorVariance = kErrorVariance / 2;
    offsetVariance = kOffsetVariance;
    break;
  }
}

void ExecutionStep::setSeeds(std::vector<Config> configs) {
  seeds.clear();
  seedHashes.clear();
  seedsProposed = 0;
  for (Config &config : configs)
    if (seedHashes.insert(hash(config)).second)
      seeds.push_back(std::move(config));
}

void ExecutionStep::setCandidates(
    std::vector<std::pair<Config, double>> predicted) {
  pending.clear();
  predictedByHash.clear();
  for (auto &[config, prediction] : predicted) {
    if (!(prediction > 0) || !std::isfinite(prediction))
      continue;
    uint64_t key = hash(config);
    if (!predictedByHash.emplace(key, prediction).second)
      continue;
    // Measured as a seed (its prediction still says how wrong the model
    // was there).
    if (seedHashes.count(key))
      continue;
    pending.emplace_back(std::move(config), prediction);
  }
  stableSort(pending,
             [](const auto &a, const auto &b) { return a.second > b.second; });
  if (correction == ModelCorrection::Adapt ||
      correction == ModelCorrection::AdaptAndErrors)
    prepareAdaptation();
}

void ExecutionStep::prepareAdaptation() {
  representationByHash.clear();
  whyNoRepresentation.clear();
  scaleWeight = lastLayerWeight = 0;
  if (pending.empty())
    return;
  // Each term's weight makes its prior variance, averaged over the
  // candidates, the one given to it; a term that is zero on every
  // candidate stays off.
  // The scale acts around the model's best k, the first to be measured:
  // an error common to them is an offset, not a scale.
  size_t best = std::min<size_t>(std::max(topK, 1u), pending.size());
  scaleCenter = 0;
  for (size_t i = 0; i < best; ++i)
    scaleCenter += std::log(pending[i].second);
  scaleCenter /= double(best);
  double squares = 0;
  for (const auto &candidate : pending)
    squares += std::pow(std::log(candidate.second) - scaleCenter, 2);
  squares /= double(pending.size());
  if (squares > 1e-12)
    scaleWeight = kScaleVariance / squares;
  if (!represent)
    return;
  std::vector<Config> configs;
  configs.reserve(pending.size());
  for (const auto &candidate : pending)
    configs.push_back(candidate.first);
  llvm::Expected<std::vector<std::vector<float>>> representations =
      represent(configs);
  if (!representations) {
    whyNoRepresentation = llvm::toString(representations.takeError());
    return;
  }
  if (representations->size() != configs.size()) {
    whyNoRepresentation = "the model represented " +
                          std::to_string(representations->size()) + " of " +
                          std::to_string(configs.size()) + " candidates";
    return;
  }
  double norms = 0;
  for (const std::vector<float> &r : *representations)
    for (float v : r)
      norms += double(v) * double(v);
  norms /= double(configs.size());
  if (norms <= 1e-12)
    return;
  lastLayerWeight = kLastLayerVariance / norms;
  for (auto [config, r] : llvm::zip(configs, *representations))
    representationByHash.emplace(hash(config), std::move(r));
}

double ExecutionStep::distance(const Config &a, const Config &b) {
  double total = 0;
  size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    const ParamValue &x = a[i], &y = b[i];
    if (x == y)
      continue;
    if (x.isInteger() && y.isInteger() && x.getInteger() > 0 &&
        y.getInteger() > 0) {
      total += std::min(
          1.0, std::abs(std::log2(double(x.getInteger()) /
                                  double(y.getInteger()))) /
                   4);
      continue;
    }
    total += 1;
  }
  return total + double(std::max(a.size(), b.size()) - n);
}

ExecutionStep::Point ExecutionStep::pointOf(const Config &config) const {
  uint64_t key = hash(config);
  Point point{&config, 0, {}};
  auto predicted = predictedByHash.find(key);
  if (predicted != predictedByHash.end())
    point.logPredicted = std::log(predicted->second);
  auto represented = representationByHash.find(key);
  if (represented != representationByHash.end())
    point.representation = represented->second;
  return point;
}

double ExecutionStep::covariance(const Point &a, const Point &b) const {
  double k = offsetVariance + scaleWeight * (a.logPredicted - scaleCenter) *
                                 (b.logPredicted - scaleCenter);
  if (errorVariance > 0)
    k += errorVariance *
         std::exp(-distance(*a.config, *b.config) / kCorrelationLength);
  if (lastLayerWeight > 0 && !a.representation.empty() &&
      a.representation.size() == b.representation.size()) {
    double dot = 0;
    for (auto [x, y] : llvm::zip(a.representation, b.representation))
      dot += double(x) * double(y);
    k += lastLayerWeight * dot;
  }
  return k;
}

void ExecutionStep::condition() {
  // Gauss-Jordan inversion of K + noise I (symmetric positive definite:
  // the noise keeps it well conditioned; at most k x k).
  size_t n = measured.size();
  std::vector<std::vector<double>> a(n, std::vector<double>(2 * n, 0));
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < n; ++j)
      a[i][j] = covariance(measured[i].point(), measured[j].point()) +
                (i == j ? kNoiseVariance : 0);
    a[i][n + i] = 1;
  }
  for (size_t col = 0; col < n; ++col) {
    size_t pivot = col;
    for (size_t row = col + 1; row < n; ++row)
      if (std::abs(a[row][col]) > std::abs(a[pivot][col]))
        pivot = row;
    std::swap(a[col], a[pivot]);
    double diagonal = a[col][col];
    for (double &v : a[col])
      v /= diagonal;
    for (size_t row = 0; row < n; ++row) {
      if (row == col || a[row][col] == 0)
        continue;
      double factor = a[row][col];
      for (size_t k = 0; k < 2 * n; ++k)
        a[row][k] -= factor * a[col][k];
    }
  }
  inverse.assign(n, std::vector<double>(n));
  weights.assign(n, 0);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) {
      inverse[i][j] = a[i][n + j];
      weights[i] += inverse[i][j] * measured[j].logError;
    }
}

std::pair<double, double>
ExecutionStep::posterior(const Point &point) const {
  size_t n = measured.size();
  std::vector<double> k(n);
  for (size_t i = 0; i < n; ++i)
    k[i] = covariance(point, measured[i].point());
  double mean = 0, explained = 0;
  for (size_t i = 0; i < n; ++i) {
    mean += k[i] * weights[i];
    for (size_t j = 0; j < n; ++j)
      explained += k[i] * inverse[i][j] * k[j];
  }
  return {mean,
          std::sqrt(std::max(0.0, covariance(point, point) - explained))};
}

double ExecutionStep::correctedPrediction(const Config &config) const {
  auto it = predictedByHash.find(hash(config));
  if (it == predictedByHash.end())
    return 0;
  if (correction == ModelCorrection::None)
    return it->second;
  return it->second * std::exp(posterior(pointOf(config)).first);
}

double ExecutionStep::uncertainty(const Config &config) const {
  return posterior(pointOf(config)).second;
}

std::vector<Config> ExecutionStep::propose(size_t count) {
  std::vector<Config> result;
  while (result.size() < count && seedsProposed < seeds.size())
    result.push_back(seeds[seedsProposed++]);
  count -= result.size();
  if (correction != ModelCorrection::None && !measured.empty()) {
    // Re-rank what is left by the corrected predictions (stable: the
    // model's order on ties).
    std::vector<std::pair<double, size_t>> order;
    order.reserve(pending.size());
    for (auto [i, candidate] : llvm::enumerate(pending)) {
      auto [mean, deviation] = posterior(pointOf(candidate.first));
      order.push_back(
          {std::log(candidate.second) + mean + exploration * deviation, i});
    }
    stableSort(order,
               [](const auto &a, const auto &b) { return a.first > b.first; });
    std::vector<std::pair<Config, double>> reordered;
    reordered.reserve(pending.size());
    for (auto [score, i] : order)
      reordered.push_back(std::move(pending[i]));
    pending = std::move(reordered);
  }
  // Which of `pending` to propose, best first: with diversity, first those
  // far from every schedule proposed (this batch's included), then, if they
  // run out, the best of the rest.
  size_t wanted =
      std::min<size_t>(count, topK - std::min<size_t>(topK, proposed.size()));
  std::vector<bool> chosen(pending.size(), false);
  size_t picked = 0;
  std::vector<size_t> picks;
  auto choose = [&](size_t i) {
    chosen[i] = true;
    proposed.push_back(pending[i].first);
    picks.push_back(i);
    ++picked;
  };
  auto far = [&](const Config &config) {
    return llvm::all_of(proposed, [&](const Config &earlier) {
      return distance(config, earlier) >= kMinDistance;
    });
  };
  // The order to consider them in: the model's, or, with strata, first
  // the best of every stratum not proposed yet (strata in the order of
  // their best prediction), then the strata by the best speedup measured in
  // them (those still unmeasured last), each in the model's order.
  std::vector<size_t> order(pending.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  if (stratum) {
    std::vector<uint64_t> keys;
    std::unordered_map<uint64_t, std::vector<size_t>> members;
    for (size_t i = 0; i < pending.size(); ++i) {
      uint64_t key = stratum(pending[i].first);
      auto [it, inserted] = members.try_emplace(key);
      if (inserted)
        keys.push_back(key);
      it->second.push_back(i);
    }
    std::unordered_set<uint64_t> tried;
    for (const Config &config : proposed)
      tried.insert(stratum(config));
    order.clear();
    std::vector<bool> placed(pending.size(), false);
    for (uint64_t key : keys)
      if (!tried.count(key)) {
        order.push_back(members[key].front());
        placed[members[key].front()] = true;
      }
    auto best = [&](uint64_t key) {
      auto it = stratumBest.find(key);
      return it == stratumBest.end() ? -1.0 : it->second;
    };
    stableSort(keys, [&](uint64_t a, uint64_t b) {
      return best(a) > best(b);
    });
    for (uint64_t key : keys)
      for (size_t i : members[key])
        if (!placed[i])
          order.push_back(i);
  }
  for (size_t i : order)
    if (picked < wanted && (!diverse || far(pending[i].first)))
      choose(i);
  for (size_t i : order)
    if (picked < wanted && !chosen[i])
      choose(i);
  // In the order chosen (the model's, unless diversity or strata say
  // otherwise).
  if (!stratum)
    llvm::sort(picks);
  for (size_t i : picks)
    result.push_back(pending[i].first);
  std::vector<std::pair<Config, double>> left;
  left.reserve(pending.size() - picked);
  for (auto [i, candidate] : llvm::enumerate(pending))
    if (!chosen[i])
      left.push_back(std::move(candidate));
  pending = std::move(left);
  return result;
}

void ExecutionStep::observe(llvm::ArrayRef<Observation> observations) {
  if (stratum)
    for (const Observation &observation : observations) {
      double &best = stratumBest.try_emplace(stratum(observation.config), 0)
                         .first->second;
      if (observation.ok())
        best = std::max(best, observation.value);
    }
  // Only the correction reads the measured errors.
  if (correction == ModelCorrection::None)
    return;
  for (const Observation &observation : observations) {
    Point point = pointOf(observation.config);
    if (!predictedByHash.count(hash(observation.config)))
      continue;
    double speedup = observation.ok() && observation.value > 0
                         ? observation.value
                         : kFailedSpeedup;
    measured.push_back({observation.config, point.logPredicted,
                        std::vector<float>(point.representation.begin(),
                                           point.representation.end()),
                        std::log(speedup) - point.logPredicted});
  }
  condition();
}

std::vector<Config> ModelGuidedStrategy::propose(size_t count) {
  if (!searched) {
    execution.setCandidates(searchWithModel());
    searched = true;
  }
  return execution.propose(count);
}

void ModelGuidedStrategy::observe(llvm::ArrayRef<Observation> observations) {
  execution.observe(observations);
}
