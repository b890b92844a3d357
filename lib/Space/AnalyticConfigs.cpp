//===- AnalyticConfigs.cpp - Schedules derived from the target ------------===//

#include "tuner/Space/AnalyticConfigs.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>
#include <set>

using namespace tuner;

namespace {

/// The band position of the only loop that indexes row `row` of `access`
/// (columns are the computation's loops), or -1.
int onlyLoopOf(const Access &access, size_t row, const Computation &comp,
               const std::vector<int> &band) {
  if (row >= access.matrix.size() || !access.isAffine)
    return -1;
  int found = -1;
  for (size_t column = 0; column < comp.loopIds.size(); ++column) {
    int64_t coefficient = access.matrix[row][column];
    if (coefficient == 0)
      continue;
    if (found >= 0 || coefficient != 1)
      return -1;
    auto it = llvm::find(band, comp.loopIds[column]);
    if (it == band.end())
      return -1;
    found = int(it - band.begin());
  }
  return found;
}

int64_t clampTo(int64_t value, int64_t extent) {
  return std::max<int64_t>(1, std::min(value, extent));
}

/// The value of ordinal `parameter` nearest `wanted` in log scale (ties: the
/// smaller), or nullopt when its domain holds no positive integers.
std::optional<ParamValue> nearest(const Parameter &parameter, int64_t wanted) {
  std::optional<ParamValue> best;
  double bestDistance = 0;
  for (const ParamValue &value : parameter.values) {
    if (!value.isInteger() || value.getInteger() <= 0)
      continue;
    double distance = std::fabs(std::log(double(value.getInteger())) -
                                std::log(double(wanted)));
    if (!best || distance < bestDistance - 1e-12) {
      best = value;
      bestDistance = distance;
    }
  }
  return best;
}

/// The value of ordinal `parameter` nearest `wanted` in log scale among the
/// multiples of `step` and the largest value (the extent: not tiled) within
/// a factor of two of `wanted`; else the nearest value. A cache tile that
/// is a multiple of its register tile leaves no remainder to peel inside it
/// (a 208-column tile of 32-column micro-kernels runs its last 16 columns
/// at half width); the extent leaves none that the extent does not force.
std::optional<ParamValue> nearestMultiple(const Parameter &parameter,
                                          int64_t wanted, int64_t step) {
  std::optional<ParamValue> best;
  double bestDistance = 0;
  int64_t largest = 0;
  for (const ParamValue &value : parameter.values)
    if (value.isInteger())
      largest = std::max(largest, value.getInteger());
  if (step > 1) {
    for (const ParamValue &value : parameter.values) {
      if (!value.isInteger() || value.getInteger() <= 0 ||
          (value.getInteger() % step != 0 && value.getInteger() != largest))
        continue;
      double distance = std::fabs(std::log(double(value.getInteger())) -
                                  std::log(double(wanted)));
      if (distance > std::log(2.0) + 1e-9)
        continue;
      if (!best || distance < bestDistance - 1e-12) {
        best = value;
        bestDistance = distance;
      }
    }
  }
  return best ? best : nearest(parameter, wanted);
}

/// The register tile the seed gives the loop of cache-tile parameter
/// `tile` (its nest's `rtile.l<loop>`, snapped to that parameter's domain);
/// `wanted` when the space has no such parameter.
int64_t registerTile(const Space &space, const Parameter &tile,
                     int64_t wanted) {
  std::optional<size_t> index =
      space.indexOf(tile.nest + ".rtile.l" + std::to_string(tile.loop));
  if (!index)
    return wanted;
  std::optional<ParamValue> value =
      nearest(space.getParameters()[*index], wanted);
  return value ? value->getInteger() : wanted;
}

} // namespace

std::vector<MicroKernelPlan> tuner::microKernelPlans(const ProgramTree &tree,
                                                     const Target &target,
                                                     unsigned variant) {
  std::vector<MicroKernelPlan> plans;
  for (const LoopNest &nest : tree.nests) {
    if (nest.source != NestSource::Linalg || nest.computationIds.size() != 1)
      continue;
    const Computation &comp = tree.computations[nest.computationIds.front()];
    std::vector<int> band = tree.bandOf(nest.id);
    const Access *write = nullptr;
    for (const Access &access : comp.accesses)
      if (access.isWrite)
        write = &access;
    if (!write || write->matrix.size() < 2 || band.size() < 3)
      continue;
    size_t rank = write->matrix.size();
    int j = onlyLoopOf(*write, rank - 1, comp, band);
    int i = onlyLoopOf(*write, rank - 2, comp, band);
    if (i < 0 || j < 0 || i == j)
      continue;
    const Loop &rows = tree.loops[band[i]], &columns = tree.loops[band[j]];
    if (rows.isReduction || columns.isReduction)
      continue;
    // The innermost reduction loop carries the k of the micro-kernel.
    int k = -1;
    for (size_t p = 0; p < band.size(); ++p)
      if (tree.loops[band[p]].isReduction)
        k = int(p);
    if (k < 0)
      continue;

    unsigned bytes = std::max(1u, elementTypeBytes(comp.elementType));
    int64_t lanes = std::max(1u, target.vectorLanes(bytes));
    int64_t registers = std::max(4u, target.numVectorRegisters);
    // MR x width accumulators, `width` vectors of B and one broadcast of A.
    int64_t width = variant >= 2 ? 1 : 2;
    int64_t mr = std::max<int64_t>(1, (registers - width - 1) / width);
    if (variant == 0)
      mr = std::max<int64_t>(1, mr / 2);
    int64_t nr = width * lanes;
    int64_t l1 = int64_t(std::max<uint64_t>(target.l1dBytes, 1024));
    int64_t l2 = int64_t(std::max<uint64_t>(target.l2Bytes, 2 * uint64_t(l1)));
    // A's MR x kc micro-panel, which every micro-tile of a row reuses, takes
    // a quarter of L1, and B's kc x NR micro-panel at most all of it.
    int64_t kc = clampTo(std::min(l1 / (4 * mr * bytes), l1 / (nr * bytes)),
                         tree.loops[band[k]].extent);
    // B's kc x nc block, which every row of a row tile reuses, takes a
    // quarter of L2.
    int64_t nc = clampTo(l2 / (4 * kc * bytes), columns.extent);
    // Eight row tiles per core, so that the cores stay balanced whatever
    // the last (partial) tile; at least one micro-kernel high.
    int64_t cores = std::max(1u, target.cores);
    int64_t mc = clampTo(std::max(mr, rows.extent / (8 * cores)), rows.extent);

    MicroKernelPlan plan;
    plan.nest = nest.name;
    // Other parallel loops (a batch) run one at a time around the kernel;
    // other reductions likewise, outside it.
    plan.tile.assign(band.size(), 1);
    plan.rtile.assign(band.size(), 1);
    plan.tile[i] = mc;
    plan.rtile[i] = std::min(mr, mc);
    plan.tile[j] = nc;
    plan.rtile[j] = std::min(nr, nc);
    plan.tile[k] = kc;
    plan.rtile[k] = 1;
    // Batch loops outermost (the cores share the first tiled one), then
    // the rows, the columns and the reductions.
    for (size_t p = 0; p < band.size(); ++p)
      if (!tree.loops[band[p]].isReduction && int(p) != i && int(p) != j)
        plan.order.push_back(int64_t(p));
    plan.order.push_back(i);
    plan.order.push_back(j);
    for (size_t p = 0; p < band.size(); ++p)
      if (tree.loops[band[p]].isReduction)
        plan.order.push_back(int64_t(p));
    plans.push_back(std::move(plan));
  }
  return plans;
}

std::vector<CompanionPlan>
tuner::companionPlans(const ProgramTree &tree, const Target &target,
                      const std::vector<MicroKernelPlan> &contractions) {
  std::vector<CompanionPlan> plans;
  if (contractions.empty())
    return plans;
  auto isContraction = [&](const std::string &name) {
    return llvm::any_of(contractions, [&](const MicroKernelPlan &plan) {
      return plan.nest == name;
    });
  };
  int64_t cores = std::max(1u, target.cores);
  for (const LoopNest &nest : tree.nests) {
    if (nest.source != NestSource::Linalg || nest.computationIds.size() != 1 ||
        isContraction(nest.name))
      continue;
    std::vector<int> band = tree.bandOf(nest.id);
    if (band.empty() || llvm::any_of(band, [&](int loop) {
          return tree.loops[loop].isReduction;
        }))
      continue;
    CompanionPlan plan;
    plan.nest = nest.name;
    // The init of a contraction: computed in that contraction's tiles.
    for (const ProducerConsumerEdge &edge : tree.edges) {
      if (!edge.viaTensor || !edge.intoInit ||
          tree.computations[edge.producer].nestId != nest.id)
        continue;
      const LoopNest &consumer =
          tree.nests[tree.computations[edge.consumer].nestId];
      if (isContraction(consumer.name)) {
        plan.fuseInto = consumer.name;
        break;
      }
    }
    // Row tiles over the outermost loop (eight per core), the contiguous
    // innermost loop in register tiles of four vectors.
    const Computation &comp = tree.computations[nest.computationIds.front()];
    unsigned bytes = std::max(1u, elementTypeBytes(comp.elementType));
    int64_t lanes = std::max(1u, target.vectorLanes(bytes));
    plan.tile.resize(band.size());
    plan.rtile.assign(band.size(), 1);
    for (size_t p = 0; p < band.size(); ++p)
      plan.tile[p] = tree.loops[band[p]].extent;
    int64_t outer = tree.loops[band.front()].extent;
    int64_t inner = tree.loops[band.back()].extent;
    plan.tile.front() = clampTo(outer / (8 * cores), outer);
    plan.rtile.back() = clampTo(4 * lanes, plan.tile.back());
    if (band.size() == 1)
      plan.rtile.back() = clampTo(4 * lanes, std::min(inner, plan.tile[0]));
    plans.push_back(std::move(plan));
  }
  return plans;
}

std::vector<Config> tuner::analyticConfigs(const ProgramTree &tree,
                                           const Space &space,
                                           const Target &target,
                                           unsigned count) {
  std::vector<Config> configs;
  std::set<Config> seen;
  const std::vector<Parameter> &parameters = space.getParameters();
  for (unsigned variant = 0; configs.size() < count && variant < 3;
       ++variant) {
    Config config = space.defaultConfig();
    bool changed = false;
    std::vector<MicroKernelPlan> contractions =
        microKernelPlans(tree, target, variant);
    for (const MicroKernelPlan &plan : contractions) {
      for (size_t index = 0; index < parameters.size(); ++index) {
        const Parameter &parameter = parameters[index];
        if (parameter.nest != plan.nest)
          continue;
        auto set = [&](ParamValue value) {
          if (!parameter.contains(value))
            return;
          changed |= config[index] != value;
          config[index] = std::move(value);
        };
        size_t position = size_t(std::max<int64_t>(parameter.loop, 0));
        switch (parameter.role) {
        case ParamRole::Tile:
          if (position < plan.tile.size()) {
            // At least one register tile as the space offers it (7 rows
            // are offered as 8).
            int64_t step =
                registerTile(space, parameter, plan.rtile[position]);
            int64_t wanted = plan.tile[position];
            if (wanted >= plan.rtile[position])
              wanted = std::max(wanted, step);
            if (auto value = nearestMultiple(parameter, wanted, step))
              set(*value);
          }
          break;
        case ParamRole::RegisterTile:
          if (position < plan.rtile.size())
            if (auto value = nearest(parameter, plan.rtile[position]))
              set(*value);
          break;
        case ParamRole::Order:
          if (int64_t(plan.order.size()) == parameter.permutationSize)
            set(ParamValue::permutation(plan.order));
          break;
        case ParamRole::Vectorize:
        case ParamRole::Parallel:
          set(ParamValue::boolean(true));
          break;
        case ParamRole::Lowering:
          set(ParamValue::string("outerproduct"));
          break;
        case ParamRole::Distribute:
          set(ParamValue::string("outer"));
          break;
        case ParamRole::Unroll:
          set(ParamValue::integer(1));
          break;
        // Partial row tiles run the full micro-kernel on zeros.
        case ParamRole::Partial:
          set(ParamValue::string("pad"));
          break;
        default:
          break;
        }
      }
    }
    for (const CompanionPlan &plan :
         companionPlans(tree, target, contractions)) {
      auto set = [&](size_t index, ParamValue value) {
        if (!parameters[index].contains(value))
          return false;
        changed |= config[index] != value;
        config[index] = std::move(value);
        return true;
      };
      bool fused = false;
      for (size_t index = 0; index < parameters.size() && !fused; ++index)
        if (!plan.fuseInto.empty() &&
            parameters[index].role == ParamRole::Fuse &&
            parameters[index].producer == plan.nest &&
            parameters[index].consumer == plan.fuseInto)
          fused = set(index, ParamValue::boolean(true));
      if (fused)
        continue;
      for (size_t index = 0; index < parameters.size(); ++index) {
        const Parameter &parameter = parameters[index];
        if (parameter.nest != plan.nest)
          continue;
        size_t position = size_t(std::max<int64_t>(parameter.loop, 0));
        switch (parameter.role) {
        case ParamRole::Tile:
          if (position < plan.tile.size())
            if (auto value = nearest(parameter, plan.tile[position]))
              set(index, *value);
          break;
        case ParamRole::RegisterTile:
          if (position < plan.rtile.size())
            if (auto value = nearest(parameter, plan.rtile[position]))
              set(index, *value);
          break;
        case ParamRole::Vectorize:
        case ParamRole::Parallel:
          set(index, ParamValue::boolean(true));
          break;
        case ParamRole::Distribute:
          set(index, ParamValue::string("outer"));
          break;
        default:
          break;
        }
      }
    }
    if (!changed)
      break;
    if (seen.insert(config).second)
      configs.push_back(std::move(config));
  }
  return configs;
}
