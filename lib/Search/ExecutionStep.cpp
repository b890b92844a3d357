//===- ExecutionStep.cpp - Measuring the model's best schedules -----------===//

#include "tuner/Search/ExecutionStep.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>
#include <unordered_set>

using namespace tuner;

ExecutionStep::ExecutionStep(unsigned topK, bool correct, bool diverse,
                             ScheduleHash hash)
    : topK(topK), correct(correct), diverse(diverse), hash(std::move(hash)) {
  if (!this->hash)
    this->hash = [](const Config &c) { return c.hash(); };
}

void ExecutionStep::setCandidates(
    std::vector<std::pair<Config, double>> predicted) {
  pending.clear();
  predictedByHash.clear();
  for (auto &[config, prediction] : predicted) {
    if (!(prediction > 0) || !std::isfinite(prediction))
      continue;
    if (!predictedByHash.emplace(hash(config), prediction).second)
      continue;
    pending.emplace_back(std::move(config), prediction);
  }
  std::stable_sort(pending.begin(), pending.end(),
                   [](const auto &a, const auto &b) { return a.second > b.second; });
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

double ExecutionStep::covariance(const Config &a, const Config &b) {
  return kErrorVariance * std::exp(-distance(a, b) / kCorrelationLength);
}

void ExecutionStep::condition() {
  // Gauss-Jordan inversion of K + noise I (symmetric positive definite:
  // the noise keeps it well conditioned; at most k x k).
  size_t n = measured.size();
  std::vector<std::vector<double>> a(n, std::vector<double>(2 * n, 0));
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < n; ++j)
      a[i][j] = covariance(measured[i].config, measured[j].config) +
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
ExecutionStep::posterior(const Config &config) const {
  size_t n = measured.size();
  std::vector<double> k(n);
  for (size_t i = 0; i < n; ++i)
    k[i] = covariance(config, measured[i].config);
  double mean = 0, explained = 0;
  for (size_t i = 0; i < n; ++i) {
    mean += k[i] * weights[i];
    for (size_t j = 0; j < n; ++j)
      explained += k[i] * inverse[i][j] * k[j];
  }
  return {mean, std::sqrt(std::max(0.0, kErrorVariance - explained))};
}

double ExecutionStep::correctedPrediction(const Config &config) const {
  auto it = predictedByHash.find(hash(config));
  if (it == predictedByHash.end())
    return 0;
  return it->second * std::exp(correct ? posterior(config).first : 0);
}

double ExecutionStep::uncertainty(const Config &config) const {
  return posterior(config).second;
}

std::vector<Config> ExecutionStep::propose(size_t count) {
  std::vector<Config> result;
  if (correct && !measured.empty()) {
    // Re-rank what is left by the corrected predictions (stable: the
    // model's order on ties).
    std::vector<std::pair<double, size_t>> order;
    order.reserve(pending.size());
    for (auto [i, candidate] : llvm::enumerate(pending)) {
      auto [mean, deviation] = posterior(candidate.first);
      order.push_back(
          {std::log(candidate.second) + mean + kExploration * deviation, i});
    }
    std::stable_sort(order.begin(), order.end(),
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
    std::stable_sort(keys.begin(), keys.end(), [&](uint64_t a, uint64_t b) {
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
  if (!correct)
    return;
  for (const Observation &observation : observations) {
    auto it = predictedByHash.find(hash(observation.config));
    if (it == predictedByHash.end())
      continue;
    double speedup = observation.ok() && observation.value > 0
                         ? observation.value
                         : kFailedSpeedup;
    measured.push_back(
        {observation.config, std::log(speedup) - std::log(it->second)});
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
