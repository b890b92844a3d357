//===- Neighbourhood.cpp - Each parameter's own topology ------------------===//

#include "tuner/Search/Neighbourhood.h"

#include <algorithm>
#include <cmath>
#include <functional>

using namespace tuner;

namespace {

bool isPrime(int64_t n) {
  if (n < 2)
    return false;
  for (int64_t d = 2; d * d <= n; ++d)
    if (n % d == 0)
      return false;
  return true;
}

/// Whether `a` and `b` are one prime factor apart.
bool primeApart(int64_t a, int64_t b) {
  if (a <= 0 || b <= 0 || a == b)
    return false;
  int64_t lo = std::min(a, b), hi = std::max(a, b);
  return hi % lo == 0 && isPrime(hi / lo);
}

void addUnique(std::vector<ParamValue> &values, ParamValue value,
               const ParamValue &from) {
  if (value == from || llvm::is_contained(values, value))
    return;
  values.push_back(std::move(value));
}

} // namespace

Neighbourhood::Neighbourhood(const ChainOfTrees &chain) : chain(chain) {}

std::vector<ParamValue> Neighbourhood::steps(size_t i,
                                             const ParamValue &value) const {
  const Parameter &parameter = getSpace()[i];
  std::vector<ParamValue> result;
  switch (parameter.kind) {
  case ParamKind::Ordinal: {
    std::optional<uint64_t> index = parameter.indexOf(value);
    if (!index)
      break;
    uint64_t size = parameter.values.size();
    if (*index > 0)
      addUnique(result, parameter.values[*index - 1], value);
    if (*index + 1 < size)
      addUnique(result, parameter.values[*index + 1], value);
    if (value.isInteger())
      for (const ParamValue &other : parameter.values)
        if (other.isInteger() &&
            primeApart(value.getInteger(), other.getInteger()))
          addUnique(result, other, value);
    break;
  }
  case ParamKind::Integer: {
    if (!value.isInteger())
      break;
    int64_t v = value.getInteger();
    auto add = [&](int64_t w) {
      if (w >= int64_t(parameter.lower) && w <= int64_t(parameter.upper))
        addUnique(result, ParamValue::integer(w), value);
    };
    add(v - 1);
    add(v + 1);
    if (parameter.logScale && v > 0) {
      add(v / 2);
      add(v * 2);
    }
    break;
  }
  case ParamKind::Real: {
    if (!value.isReal())
      break;
    double v = value.getReal();
    if (parameter.logScale && v > 0 && parameter.lower > 0) {
      double step = (std::log(parameter.upper) - std::log(parameter.lower)) / 20;
      for (double w : {std::exp(std::log(v) - step), std::exp(std::log(v) + step)})
        addUnique(result,
                  ParamValue::real(std::clamp(w, parameter.lower, parameter.upper)),
                  value);
    } else {
      double step = (parameter.upper - parameter.lower) / 20;
      for (double w : {v - step, v + step})
        addUnique(result,
                  ParamValue::real(std::clamp(w, parameter.lower, parameter.upper)),
                  value);
    }
    break;
  }
  case ParamKind::Boolean:
    if (value.isBoolean())
      result.push_back(ParamValue::boolean(!value.getBoolean()));
    break;
  case ParamKind::Categorical:
    for (const ParamValue &other : parameter.values)
      addUnique(result, other, value);
    break;
  case ParamKind::Permutation: {
    if (!value.isPermutation())
      break;
    const ParamValue::Permutation &order = value.getPermutation();
    for (size_t a = 0; a < order.size(); ++a)
      for (size_t b = a + 1; b < order.size(); ++b) {
        ParamValue::Permutation swapped = order;
        std::swap(swapped[a], swapped[b]);
        ParamValue candidate = ParamValue::permutation(std::move(swapped));
        if (parameter.contains(candidate))
          addUnique(result, std::move(candidate), value);
      }
    // A list of allowed orders that no single swap connects: every other
    // allowed order is a neighbour, as for a categorical.
    if (result.empty())
      for (const ParamValue::Permutation &other :
           parameter.allowedPermutations)
        addUnique(result, ParamValue::permutation(other), value);
    break;
  }
  }
  return result;
}

std::vector<Config> Neighbourhood::neighbours(const Config &config) const {
  std::vector<Config> result;
  for (size_t i = 0; i < config.size(); ++i)
    for (ParamValue &step : steps(i, config[i])) {
      Config next = config;
      next[i] = std::move(step);
      if (feasible(next))
        result.push_back(std::move(next));
    }
  return result;
}

ParamValue Neighbourhood::walk(size_t i, const ParamValue &value, double q,
                               std::mt19937_64 &rng, unsigned maxSteps) const {
  ParamValue current = value;
  std::uniform_real_distribution<double> unit(0, 1);
  for (unsigned step = 0; step < maxSteps; ++step) {
    std::vector<ParamValue> next = steps(i, current);
    if (next.empty())
      break;
    current = next[std::uniform_int_distribution<size_t>(0, next.size() - 1)(rng)];
    if (unit(rng) >= q)
      break;
  }
  return current;
}

std::optional<Config> Neighbourhood::mutate(const Config &config, double rate,
                                            double q, std::mt19937_64 &rng,
                                            unsigned attempts) const {
  if (config.size() == 0)
    return std::nullopt;
  std::uniform_real_distribution<double> unit(0, 1);
  for (unsigned attempt = 0; attempt < attempts; ++attempt) {
    Config next = config;
    size_t forced =
        std::uniform_int_distribution<size_t>(0, config.size() - 1)(rng);
    for (size_t i = 0; i < config.size(); ++i)
      if (i == forced || unit(rng) < rate)
        next[i] = walk(i, config[i], q, rng);
    if (!(next == config) && feasible(next))
      return next;
  }
  return std::nullopt;
}

namespace {

/// Candidates beyond which a repair gives up.
constexpr size_t kMaxRepairCandidates = 4096;
/// Domains up to this size offer every value to a repair; larger ones their
/// steps.
constexpr uint64_t kRepairDomain = 32;

} // namespace

std::vector<Config> Neighbourhood::repairs(const Config &config,
                                           llvm::ArrayRef<size_t> fixed,
                                           unsigned maxChanges) const {
  if (feasible(config))
    return {config};
  const Space &space = getSpace();
  // The parameters a repair may change: those the violated constraints read.
  std::vector<size_t> free;
  for (const Constraint &constraint : space.getConstraints()) {
    if (constraint.evaluate(config))
      continue;
    for (size_t p : constraint.getParameters())
      if (!llvm::is_contained(fixed, p) && !llvm::is_contained(free, p) &&
          space[p].kind != ParamKind::Real)
        free.push_back(p);
  }
  std::sort(free.begin(), free.end());
  std::vector<std::vector<ParamValue>> choices;
  for (size_t p : free) {
    std::optional<uint64_t> size = space[p].domainSize();
    std::vector<ParamValue> values;
    if (size && *size <= kRepairDomain) {
      for (uint64_t k = 0; k < *size; ++k)
        if (ParamValue value = space[p].valueAt(k); !(value == config[p]))
          values.push_back(std::move(value));
    } else {
      values = steps(p, config[p]);
    }
    choices.push_back(std::move(values));
  }

  std::vector<Config> result;
  size_t tried = 0;
  // Every way to change `changes` of the free parameters, recursively.
  std::function<void(size_t, unsigned, Config &)> visit =
      [&](size_t from, unsigned left, Config &candidate) {
        if (tried >= kMaxRepairCandidates)
          return;
        if (left == 0) {
          ++tried;
          if (feasible(candidate))
            result.push_back(candidate);
          return;
        }
        for (size_t k = from; k < free.size(); ++k) {
          ParamValue saved = candidate[free[k]];
          for (const ParamValue &value : choices[k]) {
            candidate[free[k]] = value;
            visit(k + 1, left - 1, candidate);
          }
          candidate[free[k]] = std::move(saved);
        }
      };
  for (unsigned changes = 1; changes <= maxChanges && result.empty();
       ++changes) {
    Config candidate = config;
    visit(0, changes, candidate);
  }
  return result;
}

std::optional<Config> Neighbourhood::move(const Config &config,
                                          std::mt19937_64 &rng,
                                          unsigned attempts) const {
  if (config.size() == 0)
    return std::nullopt;
  // The parameters that can move at all (many have a single value).
  std::vector<std::vector<ParamValue>> allSteps;
  std::vector<size_t> movable;
  for (size_t i = 0; i < config.size(); ++i) {
    allSteps.push_back(steps(i, config[i]));
    if (!allSteps.back().empty())
      movable.push_back(i);
  }
  if (movable.empty())
    return std::nullopt;
  for (unsigned attempt = 0; attempt < attempts; ++attempt) {
    size_t i = movable[std::uniform_int_distribution<size_t>(0, movable.size() -
                                                                    1)(rng)];
    const std::vector<ParamValue> &next = allSteps[i];
    Config moved = config;
    moved[i] =
        next[std::uniform_int_distribution<size_t>(0, next.size() - 1)(rng)];
    if (feasible(moved))
      return moved;
    std::vector<Config> repaired = repairs(moved, {i});
    if (!repaired.empty())
      return std::move(repaired[std::uniform_int_distribution<size_t>(
          0, repaired.size() - 1)(rng)]);
  }
  return std::nullopt;
}
