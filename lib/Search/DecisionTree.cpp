//===- DecisionTree.cpp - Schedules as a tree of decisions ----------------===//

#include "tuner/Search/DecisionTree.h"

#include "llvm/ADT/STLExtras.h"

#include <cmath>
#include <map>

using namespace tuner;

namespace {

/// `k` of `items`, evenly spaced, keeping the first and the last.
template <typename T> std::vector<T> thin(const std::vector<T> &items, size_t k) {
  if (items.size() <= k || k == 0)
    return items;
  if (k == 1)
    return {items.back()};
  std::vector<T> result;
  size_t last = size_t(-1);
  for (size_t i = 0; i < k; ++i) {
    size_t index = size_t(std::llround(double(i) * (items.size() - 1) / (k - 1)));
    if (index != last)
      result.push_back(items[index]);
    last = index;
  }
  return result;
}

/// The values a decision offers for one parameter.
std::vector<ParamValue> offeredValues(const Parameter &parameter,
                                      unsigned limit) {
  std::optional<uint64_t> size = parameter.domainSize();
  std::vector<ParamValue> values;
  if (!size) {
    // A real range: evenly spaced points (in log space when asked).
    for (unsigned i = 0; i < limit; ++i) {
      double t = limit == 1 ? 0 : double(i) / (limit - 1);
      double v = parameter.logScale
                     ? std::exp(std::log(parameter.lower) +
                                t * (std::log(parameter.upper) -
                                     std::log(parameter.lower)))
                     : parameter.lower + t * (parameter.upper - parameter.lower);
      values.push_back(ParamValue::real(v));
    }
    return values;
  }
  // Enumerating a huge integer range only to thin it would be wasteful.
  uint64_t n = *size;
  constexpr uint64_t kEnumerable = 4096;
  if (n > kEnumerable || n > 4 * uint64_t(limit)) {
    limit = unsigned(std::min<uint64_t>(limit, kEnumerable));
    for (unsigned i = 0; i < limit; ++i)
      values.push_back(parameter.valueAt(
          limit == 1 ? 0 : uint64_t(std::llround(double(i) * (n - 1) / (limit - 1)))));
  } else {
    for (uint64_t i = 0; i < n; ++i)
      values.push_back(parameter.valueAt(i));
    values = thin(values, limit);
  }
  // The default (no transformation) is always offered.
  ParamValue fallback = parameter.fallbackValue();
  if (!llvm::is_contained(values, fallback)) {
    values.push_back(fallback);
    llvm::sort(values);
  }
  return values;
}

/// `thin`, but the default value always stays.
std::vector<ParamValue> thinKeepingDefault(const std::vector<ParamValue> &values,
                                           size_t limit,
                                           const ParamValue &fallback) {
  std::vector<ParamValue> others;
  for (const ParamValue &value : values)
    if (value != fallback)
      others.push_back(value);
  std::vector<ParamValue> result =
      thin(others, limit > 1 ? limit - 1 : 1);
  result.push_back(fallback);
  llvm::sort(result);
  return result;
}

/// The cartesian product of per-parameter values, thinned to `limit`.
std::vector<std::vector<ParamValue>>
product(const std::vector<std::vector<ParamValue>> &perParameter,
        unsigned limit) {
  std::vector<std::vector<ParamValue>> result = {{}};
  for (const std::vector<ParamValue> &values : perParameter) {
    std::vector<std::vector<ParamValue>> next;
    next.reserve(result.size() * values.size());
    for (const std::vector<ParamValue> &prefix : result)
      for (const ParamValue &value : values) {
        next.push_back(prefix);
        next.back().push_back(value);
      }
    result = std::move(next);
  }
  return thin(result, limit);
}

/// Decision levels in the order of the Tiramisu search tree.
enum Stage { Fusion, Order, Tiling, RegisterTiling, Unrolling, VectorParallel, Other };

Stage stageOf(const Parameter &parameter) {
  switch (parameter.role) {
  case ParamRole::Fuse:
    return Fusion;
  case ParamRole::Order:
    return Order;
  // Skewing is decided with the tile sizes: a skewed band is only worth it
  // tiled, and its tiles are only legal skewed, so neither decision is
  // feasible without the other (the space's constraints say so).
  case ParamRole::Skew:
  case ParamRole::Tile:
  case ParamRole::GpuBlockTile:
  case ParamRole::GpuThreadTile:
  case ParamRole::GpuReductionTile:
    return Tiling;
  case ParamRole::RegisterTile:
    return RegisterTiling;
  case ParamRole::Unroll:
    return Unrolling;
  // How a convolution is computed is decided with its vectorization: a
  // rewritten convolution is vectorized (by its consumer's vectorization
  // when it is fused), and a direct one only when its tiles are 1-D
  // convolutions, so neither decision is feasible without the other (the
  // space's constraints say so).
  case ParamRole::Convolution:
  case ParamRole::Vectorize:
  case ParamRole::Parallel:
  case ParamRole::Lowering:
  case ParamRole::Distribute:
  case ParamRole::Partial:
    return VectorParallel;
  case ParamRole::None:
  case ParamRole::Knob:
  case ParamRole::Alternatives:
  case ParamRole::GpuPromote:
  case ParamRole::GpuVectorWidth:
    return Other;
  }
  return Other;
}

const char *stageName(Stage stage) {
  switch (stage) {
  case Fusion:
    return "fusion";
  case Order:
    return "loop order";
  case Tiling:
    return "tiling";
  case RegisterTiling:
    return "register tiling";
  case Unrolling:
    return "unrolling";
  case VectorParallel:
    return "vectorization and parallelization";
  case Other:
    return "choice";
  }
  return "choice";
}

} // namespace

llvm::Expected<DecisionTree>
DecisionTree::build(const Space &space, const DecisionTreeOptions &options) {
  if (options.tileValues < 2 || options.maxChildren < 2)
    return llvm::createStringError(
        "decision tree: at least 2 tile values and 2 children per decision");
  DecisionTree tree;
  tree.space = std::make_shared<const Space>(space);

  // A fusion that the untransformed consumer cannot take (it needs the
  // consumer's tile loops or its scf.forall) is decided with the
  // consumer's vectorization and parallelization, after its tiles: decided
  // first, it would never be a feasible child.
  Config root = space.defaultConfig();
  auto fusibleAtRoot = [&](size_t i) {
    Config fused = root;
    fused[i] = ParamValue::boolean(true);
    llvm::Error error = space.check(fused);
    bool ok = !error;
    llvm::consumeError(std::move(error));
    return ok;
  };

  // Parameters grouped by (stage, nest), nests in order of appearance;
  // fusion and role-less parameters are decided one at a time.
  std::map<std::pair<Stage, size_t>, std::vector<size_t>> groups;
  std::map<std::string, size_t> nestOrder;
  size_t single = 0;
  for (size_t i = 0; i < space.size(); ++i) {
    const Parameter &parameter = space[i];
    Stage stage = stageOf(parameter);
    std::string nest = parameter.nest;
    if (parameter.role == ParamRole::Fuse && !parameter.consumer.empty() &&
        space[i].kind == ParamKind::Boolean && !fusibleAtRoot(i)) {
      stage = VectorParallel;
      nest = parameter.consumer;
    }
    size_t key;
    if (stage == Fusion || stage == Other || nest.empty())
      key = nestOrder.size() + (++single) * 1000000;
    else
      key = nestOrder.emplace(nest, nestOrder.size()).first->second;
    groups[{stage, key}].push_back(i);
  }

  // Tile sizes worth a node: cache tiles of at least 8 (smaller ones only
  // add loop overhead), register tiles of at most 16 per loop; "not tiled"
  // (the default) always.
  auto tileFilter = [](Stage stage, const ParamValue &value,
                       const ParamValue &fallback) {
    if (value == fallback || !value.isInteger())
      return true;
    return stage == Tiling ? value.getInteger() >= 8 : value.getInteger() <= 16;
  };
  for (auto &[key, parameters] : groups) {
    Decision decision;
    const Parameter &first = space[parameters.front()];
    decision.name = (parameters.size() == 1 || first.nest.empty())
                        ? first.name
                        : first.nest + " " + stageName(key.first);
    decision.parameters = parameters;
    std::vector<std::vector<ParamValue>> perParameter;
    for (size_t index : parameters) {
      unsigned limit = key.first == Tiling || key.first == RegisterTiling
                           ? options.tileValues
                           : options.maxChildren;
      std::vector<ParamValue> values = offeredValues(space[index], ~0u >> 1);
      if (key.first == Tiling || key.first == RegisterTiling) {
        ParamValue fallback = space[index].fallbackValue();
        std::vector<ParamValue> kept;
        for (const ParamValue &value : values)
          if (tileFilter(key.first, value, fallback))
            kept.push_back(value);
        values = std::move(kept);
      }
      perParameter.push_back(thinKeepingDefault(values, limit,
                                                space[index].fallbackValue()));
    }
    decision.choices = product(perParameter, options.maxChildren);
    tree.decisions.push_back(std::move(decision));
  }
  return tree;
}

std::vector<Config> DecisionTree::children(const Config &node,
                                           size_t level) const {
  std::vector<Config> result;
  const Decision &decision = decisions[level];
  for (const std::vector<ParamValue> &choice : decision.choices) {
    Config child = node;
    for (auto [index, value] : llvm::zip(decision.parameters, choice))
      child[index] = value;
    if (llvm::Error error = space->check(child)) {
      llvm::consumeError(std::move(error));
      continue;
    }
    result.push_back(std::move(child));
  }
  return result;
}
