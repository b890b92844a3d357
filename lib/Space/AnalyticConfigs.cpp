//===- AnalyticConfigs.cpp - Schedules derived from the target ------------===//

#include "tuner/Space/AnalyticConfigs.h"
#include "tuner/Analysis/Convolution.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <map>
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

/// Whether some read of `comp` indexes a dimension by a sum of loops (a
/// convolution's window).
bool readsWindows(const Computation &comp) {
  return llvm::any_of(comp.accesses, [&](const Access &access) {
    return !access.isWrite &&
           llvm::any_of(access.matrix, [&](const std::vector<int64_t> &row) {
             size_t loops = std::min(row.size(), comp.loopIds.size());
             return llvm::count_if(llvm::make_range(row.begin(),
                                                    row.begin() + loops),
                                   [](int64_t c) { return c != 0; }) > 1;
           });
  });
}

/// The write access of `comp`, or null.
const Access *writeOf(const Computation &comp) {
  const Access *write = nullptr;
  for (const Access &access : comp.accesses)
    if (access.isWrite)
      write = &access;
  return write;
}

/// The band positions of `comp`'s parallel loops, other than `rows` and
/// `columns`, that its largest read (in elements; not of the buffer it
/// writes) does not depend on: a convolution's filters. None when that read
/// fits in `l1Bytes` (it stays in cache in any order: a broadcast bias).
std::vector<int> inputFreeLoops(const ProgramTree &tree,
                                const Computation &comp,
                                const std::vector<int> &band, int rows,
                                int columns, int64_t l1Bytes) {
  const Access *write = writeOf(comp);
  const Access *largest = nullptr;
  int64_t largestSize = -1;
  for (const Access &access : comp.accesses) {
    if (access.isWrite || access.bufferId < 0 ||
        size_t(access.bufferId) >= tree.buffers.size() ||
        (write && access.bufferId == write->bufferId))
      continue;
    int64_t size = 1;
    for (int64_t extent : tree.buffers[access.bufferId].shape)
      size *= std::max<int64_t>(1, extent);
    if (size > largestSize) {
      largest = &access;
      largestSize = size;
    }
  }
  std::vector<int> loops;
  int64_t bytes = std::max(1u, elementTypeBytes(comp.elementType));
  if (!largest || !largest->isAffine || largestSize * bytes <= l1Bytes)
    return loops;
  for (size_t p = 0; p < band.size(); ++p) {
    const Loop &loop = tree.loops[band[p]];
    if (int(p) == rows || int(p) == columns || loop.isReduction ||
        !loop.isParallel)
      continue;
    auto it = llvm::find(comp.loopIds, band[p]);
    if (it == comp.loopIds.end())
      continue;
    size_t column = size_t(it - comp.loopIds.begin());
    if (llvm::all_of(largest->matrix, [&](const std::vector<int64_t> &row) {
          return column >= row.size() || row[column] == 0;
        }))
      loops.push_back(int(p));
  }
  return loops;
}

int64_t clampTo(int64_t value, int64_t extent) {
  return std::max<int64_t>(1, std::min(value, extent));
}

/// The value of ordinal `parameter` nearest `wanted` in log scale (ties: the
/// smaller), at most `atMost`, or nullopt when its domain holds no such
/// positive integers.
std::optional<ParamValue> nearest(const Parameter &parameter, int64_t wanted,
                                  int64_t atMost = INT64_MAX) {
  std::optional<ParamValue> best;
  double bestDistance = 0;
  for (const ParamValue &value : parameter.values) {
    if (!value.isInteger() || value.getInteger() <= 0 ||
        value.getInteger() > atMost)
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
    const Access *write = writeOf(comp);
    if (!write || write->matrix.size() < 2 || band.size() < 3)
      continue;
    // A convolution (a window: an output loop plus a kernel loop) gets a
    // streaming plan instead.
    if (readsWindows(comp) || convolutionInfo(comp.opName))
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

std::vector<StencilPlan> tuner::stencilPlans(const ProgramTree &tree,
                                             const Target &target,
                                             unsigned variant) {
  std::set<std::string> contractions;
  for (const MicroKernelPlan &plan : microKernelPlans(tree, target, 0))
    contractions.insert(plan.nest);
  auto nestOf = [&](int computation) -> const LoopNest * {
    if (computation < 0 || size_t(computation) >= tree.computations.size())
      return nullptr;
    int nest = tree.computations[computation].nestId;
    if (nest < 0 || size_t(nest) >= tree.nests.size())
      return nullptr;
    return &tree.nests[nest];
  };
  std::vector<StencilPlan> plans;
  // Per plan: its computation, rows and columns (band positions), band, and
  // the loops its order puts inside the rows.
  struct Loops {
    const Computation *comp;
    int rows, columns;
    std::vector<int> band, inner;
  };
  std::vector<Loops> planLoops;
  for (const LoopNest &nest : tree.nests) {
    if (nest.source != NestSource::Linalg || nest.computationIds.size() != 1 ||
        contractions.count(nest.name))
      continue;
    const Computation &comp = tree.computations[nest.computationIds.front()];
    // A fill of a contraction's accumulator stays as the micro-kernel seeds
    // had it.
    bool feedsContraction =
        llvm::any_of(tree.edges, [&](const ProducerConsumerEdge &edge) {
          const LoopNest *consumer = nestOf(edge.consumer);
          return edge.producer == comp.id && consumer &&
                 contractions.count(consumer->name);
        });
    if (feedsContraction)
      continue;
    std::vector<int> band = tree.bandOf(nest.id);
    const Access *write = writeOf(comp);
    if (!write || write->matrix.empty() || band.empty())
      continue;
    bool convolution = bool(convolutionInfo(comp.opName));
    bool allParallel = llvm::all_of(band, [&](int loop) {
      return tree.loops[loop].isParallel && !tree.loops[loop].isReduction;
    });
    if (!convolution && !allParallel)
      continue;
    // The output's contiguous dimension carries the vectors, the one
    // before it the rows.
    size_t rank = write->matrix.size();
    int j = onlyLoopOf(*write, rank - 1, comp, band);
    if (j < 0 || tree.loops[band[j]].isReduction)
      continue;
    int i = rank >= 2 ? onlyLoopOf(*write, rank - 2, comp, band) : -1;
    if (i == j || (i >= 0 && tree.loops[band[i]].isReduction))
      i = -1;

    unsigned bytes = std::max(1u, elementTypeBytes(comp.elementType));
    int64_t lanes = std::max(1u, target.vectorLanes(bytes));
    const Loop &columns = tree.loops[band[j]];
    // Four vectors: enough independent FMA chains to hide their latency
    // in a decomposed convolution's accumulator row, few enough registers.
    int64_t vector = clampTo(4 * lanes, columns.extent);
    StencilPlan plan;
    plan.nest = nest.name;
    plan.convolution = convolution;
    plan.tile.assign(band.size(), 1);
    plan.rtile.assign(band.size(), 1);
    // The reductions (a convolution's channels and kernel window) stay
    // whole, inside the tile.
    for (size_t p = 0; p < band.size(); ++p)
      if (tree.loops[band[p]].isReduction)
        plan.tile[p] = plan.rtile[p] = tree.loops[band[p]].extent;
    plan.rtile[j] = vector;
    if (variant == 0) {
      plan.tile[j] = vector;
    } else {
      plan.tile[j] = columns.extent;
      if (i >= 0) {
        // Whole rows, as many as take half of L2; at least eight tiles
        // per core over the parallel loops (the others tiled by 1).
        const Loop &rows = tree.loops[band[i]];
        int64_t l2 = int64_t(std::max<uint64_t>(target.l2Bytes, 64 * 1024));
        int64_t height =
            clampTo(l2 / (2 * columns.extent * int64_t(bytes)), rows.extent);
        int64_t others = 1;
        for (size_t p = 0; p < band.size(); ++p)
          if (int(p) != i && int(p) != j && !tree.loops[band[p]].isReduction)
            others *= std::max<int64_t>(1, tree.loops[band[p]].extent);
        int64_t cores = std::max(1u, target.cores);
        auto tiles = [&](int64_t h) {
          return others * ((rows.extent + h - 1) / h);
        };
        while (height > 1 && tiles(height) < 8 * cores)
          height = (height + 1) / 2;
        plan.tile[i] = height;
      }
    }
    planLoops.push_back(
        {&comp, i, j, band, inputFreeLoops(tree, comp, band, i, j,
                                        int64_t(target.l1dBytes))});
    plans.push_back(std::move(plan));
  }
  // A nest that streams a planned nest's output (through an edge on which
  // that one can be fused into it) and has no input-free loop of its own
  // takes its loops that index the output dimensions the producer's
  // input-free loops write.
  for (Loops &consumer : planLoops) {
    if (!consumer.inner.empty())
      continue;
    for (const ProducerConsumerEdge &edge : tree.edges) {
      if (edge.consumer != consumer.comp->id || !edge.viaTensor ||
          edge.throughWindows)
        continue;
      const Loops *producer = nullptr;
      for (const Loops &other : planLoops)
        if (other.comp->id == edge.producer)
          producer = &other;
      const Access *written = producer ? writeOf(*producer->comp) : nullptr;
      if (!written || producer->inner.empty())
        continue;
      for (const Access &read : consumer.comp->accesses) {
        if (read.isWrite || read.bufferId != edge.bufferId)
          continue;
        for (size_t d = 0; d < written->matrix.size(); ++d) {
          int from = onlyLoopOf(*written, d, *producer->comp, producer->band);
          if (from < 0 || !llvm::is_contained(producer->inner, from))
            continue;
          int to = onlyLoopOf(read, d, *consumer.comp, consumer.band);
          if (to >= 0 && to != consumer.rows && to != consumer.columns &&
              tree.loops[consumer.band[to]].isParallel &&
              !tree.loops[consumer.band[to]].isReduction &&
              !llvm::is_contained(consumer.inner, to))
            consumer.inner.push_back(to);
        }
      }
    }
    llvm::sort(consumer.inner);
  }
  // Other parallel loops outermost, then the rows, the input-free loops,
  // the columns and the reductions (each group in band order).
  for (size_t n = 0; n < plans.size(); ++n) {
    StencilPlan &plan = plans[n];
    const Loops &loops = planLoops[n];
    const std::vector<int> &band = loops.band;
    auto isOuter = [&](int p) {
      return p != loops.rows && p != loops.columns &&
             !tree.loops[band[p]].isReduction &&
             !llvm::is_contained(loops.inner, p);
    };
    for (int p = 0; p < int(band.size()); ++p)
      if (isOuter(p))
        plan.order.push_back(p);
    if (loops.rows >= 0)
      plan.order.push_back(loops.rows);
    for (int p : loops.inner)
      plan.order.push_back(p);
    plan.order.push_back(loops.columns);
    for (int p = 0; p < int(band.size()); ++p)
      if (tree.loops[band[p]].isReduction)
        plan.order.push_back(p);
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
    // The init of a contraction is computed in that contraction's tiles; a
    // nest that feeds no contraction gets a streaming plan instead
    // (stencilPlans).
    bool feedsContraction = false;
    for (const ProducerConsumerEdge &edge : tree.edges) {
      if (tree.computations[edge.producer].nestId != nest.id)
        continue;
      const LoopNest &consumer =
          tree.nests[tree.computations[edge.consumer].nestId];
      if (!isContraction(consumer.name))
        continue;
      feedsContraction = true;
      if (edge.viaTensor && edge.intoInit && plan.fuseInto.empty())
        plan.fuseInto = consumer.name;
    }
    if (!feedsContraction)
      continue;
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
    auto set = [&](size_t index, ParamValue value) {
      if (!parameters[index].contains(value))
        return false;
      changed |= config[index] != value;
      config[index] = std::move(value);
      return true;
    };
    // Tile parameter `index` from the plan's values per band position.
    auto setTile = [&](size_t index, const std::vector<int64_t> &tiles) {
      const Parameter &parameter = parameters[index];
      size_t position = size_t(std::max<int64_t>(parameter.loop, 0));
      if (position < tiles.size())
        if (auto value = nearest(parameter, tiles[position]))
          set(index, *value);
    };
    std::vector<MicroKernelPlan> contractions =
        microKernelPlans(tree, target, variant);
    for (const MicroKernelPlan &plan : contractions) {
      for (size_t index = 0; index < parameters.size(); ++index) {
        const Parameter &parameter = parameters[index];
        if (parameter.nest != plan.nest)
          continue;
        switch (parameter.role) {
        case ParamRole::Tile: {
          // At least one register tile as the space offers it (7 rows are
          // offered as 8), and a multiple of it where one is near.
          size_t position = size_t(std::max<int64_t>(parameter.loop, 0));
          if (position < plan.tile.size()) {
            int64_t step =
                registerTile(space, parameter, plan.rtile[position]);
            int64_t wanted = plan.tile[position];
            if (wanted >= plan.rtile[position])
              wanted = std::max(wanted, step);
            if (auto value = nearestMultiple(parameter, wanted, step))
              set(index, *value);
          }
          break;
        }
        case ParamRole::RegisterTile:
          setTile(index, plan.rtile);
          break;
        case ParamRole::Order:
          if (int64_t(plan.order.size()) == parameter.permutationSize)
            set(index, ParamValue::permutation(plan.order));
          break;
        case ParamRole::Vectorize:
        case ParamRole::Parallel:
          set(index, ParamValue::boolean(true));
          break;
        case ParamRole::Lowering:
          set(index, ParamValue::string("outerproduct"));
          break;
        case ParamRole::Distribute:
          set(index, ParamValue::string("outer"));
          break;
        case ParamRole::Unroll:
          set(index, ParamValue::integer(1));
          break;
        // Partial row tiles run the full micro-kernel on zeros.
        case ParamRole::Partial:
          set(index, ParamValue::string("pad"));
          break;
        default:
          break;
        }
      }
    }
    for (const CompanionPlan &plan :
         companionPlans(tree, target, contractions)) {
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
        switch (parameter.role) {
        case ParamRole::Tile:
          setTile(index, plan.tile);
          break;
        case ParamRole::RegisterTile:
          setTile(index, plan.rtile);
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
    std::set<std::string> streamed;
    for (const StencilPlan &plan :
         stencilPlans(tree, target, std::min(variant, 1u))) {
      streamed.insert(plan.nest);
      // The register tiles at most the cache tiles as snapped (1000
      // columns are offered 50-column tiles, not 64); a loop left whole
      // stays whole.
      std::map<int64_t, int64_t> snapped;
      for (size_t index = 0; index < parameters.size(); ++index) {
        const Parameter &parameter = parameters[index];
        if (parameter.nest != plan.nest || parameter.role != ParamRole::Tile)
          continue;
        setTile(index, plan.tile);
        if (config[index].isInteger())
          snapped[parameter.loop] = config[index].getInteger();
      }
      for (size_t index = 0; index < parameters.size(); ++index) {
        const Parameter &parameter = parameters[index];
        if (parameter.nest != plan.nest)
          continue;
        size_t position = size_t(std::max<int64_t>(parameter.loop, 0));
        switch (parameter.role) {
        case ParamRole::RegisterTile:
          if (position < plan.rtile.size()) {
            auto tile = snapped.find(parameter.loop);
            int64_t limit = tile == snapped.end() ? INT64_MAX : tile->second;
            if (auto value = nearest(parameter, plan.rtile[position], limit))
              set(index, *value);
          }
          break;
        case ParamRole::Vectorize:
        case ParamRole::Parallel:
          set(index, ParamValue::boolean(true));
          break;
        // One scf.forall over all the tiles: the cores share them whatever
        // the outermost loop's extent (box_blur's 3 channels).
        case ParamRole::Distribute:
          set(index, ParamValue::string("all"));
          break;
        case ParamRole::Unroll:
          set(index, ParamValue::integer(1));
          break;
        case ParamRole::Convolution:
          if (plan.convolution)
            set(index, ParamValue::string("decompose"));
          break;
        case ParamRole::Order:
          if (int64_t(plan.order.size()) == parameter.permutationSize)
            set(index, ParamValue::permutation(plan.order));
          break;
        default:
          break;
        }
      }
    }
    // Producers computed inside their consumers' tiles (a producer in at
    // most one consumer: the first the space offers).
    std::set<std::string> fused;
    for (size_t index = 0; index < parameters.size(); ++index) {
      const Parameter &parameter = parameters[index];
      if (parameter.role == ParamRole::Fuse &&
          streamed.count(parameter.producer) &&
          streamed.count(parameter.consumer) &&
          fused.insert(parameter.producer).second)
        set(index, ParamValue::boolean(true));
    }
    if (!changed)
      break;
    if (seen.insert(config).second)
      configs.push_back(std::move(config));
  }
  return configs;
}
