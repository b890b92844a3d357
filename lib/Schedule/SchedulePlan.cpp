//===- SchedulePlan.cpp - What a Config says about each loop nest ---------===//

#include "tuner/Schedule/SchedulePlan.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/xxhash.h"

#include <map>
#include <numeric>

using namespace tuner;

//===----------------------------------------------------------------------===//
// NestPlan
//===----------------------------------------------------------------------===//

static bool anyNonZero(llvm::ArrayRef<int64_t> sizes) {
  return llvm::any_of(sizes, [](int64_t s) { return s != 0; });
}

bool NestPlan::isTiled() const { return anyNonZero(tile); }
bool NestPlan::isRegisterTiled() const { return anyNonZero(rtile); }

bool NestPlan::isInterchanged() const {
  for (auto [i, v] : llvm::enumerate(order))
    if (v != int64_t(i))
      return true;
  return false;
}

bool NestPlan::padsPartialTiles() const {
  if (!vectorize)
    return false;
  return llvm::any_of(forallPositions(), [&](size_t p) {
    return tile[p] != 0 && extents[p] % tile[p] != 0;
  });
}

bool NestPlan::hasRemainderTiles() const {
  if (!vectorize)
    return false;
  for (size_t p = 0; p < extents.size(); ++p) {
    int64_t outer = tile[p] != 0 ? tile[p] : extents[p];
    if ((tile[p] != 0 && extents[p] % tile[p] != 0) ||
        (rtile[p] != 0 && outer % rtile[p] != 0))
      return true;
  }
  return false;
}

std::vector<size_t> NestPlan::forallPositions() const {
  std::vector<size_t> positions;
  if (!parallel || source != NestSource::Linalg)
    return positions;
  if (distributeOuter) {
    for (int64_t p : order)
      if (tile[p] != 0 && !isReduction[p])
        return {size_t(p)};
    return positions;
  }
  for (size_t p = 0; p < tile.size(); ++p)
    if (tile[p] != 0 && !isReduction[p])
      positions.push_back(p);
  return positions;
}

std::vector<size_t> NestPlan::tileLoopPositions() const {
  std::vector<size_t> distributed = forallPositions();
  std::vector<size_t> positions;
  for (int64_t p : order)
    if (tile[p] != 0 && !llvm::is_contained(distributed, size_t(p)))
      positions.push_back(p);
  return positions;
}

std::vector<size_t> NestPlan::registerLoopPositions() const {
  std::vector<size_t> positions;
  for (int64_t p : order)
    if (rtile[p] != 0)
      positions.push_back(p);
  return positions;
}

std::vector<size_t> NestPlan::fusionPositions() const {
  if (parallel)
    return forallPositions();
  std::vector<size_t> positions;
  for (size_t p : tileLoopPositions()) {
    if (isReduction[p])
      break;
    positions.push_back(p);
  }
  return positions;
}

int NestPlan::unrolledPosition() const {
  if (unroll <= 1 || order.empty())
    return -1;
  if (source == NestSource::Affine)
    return int(order.back());
  std::vector<size_t> registerLoops = registerLoopPositions();
  if (!registerLoops.empty())
    return int(registerLoops.back());
  std::vector<size_t> tileLoops = tileLoopPositions();
  return tileLoops.empty() ? -1 : int(tileLoops.back());
}

int NestPlan::parallelPosition() const {
  if (!parallel || source != NestSource::Affine || order.empty())
    return -1;
  for (int64_t p : order)
    if (tile[p] != 0)
      return int(p);
  return int(order.front());
}

bool NestPlan::isUntouched() const {
  if (fusedInto >= 0)
    return false;
  if (source == NestSource::Affine)
    return !isTiled() && !isInterchanged() && unroll == 1 && !parallel && !skew;
  return !isTiled() && !isRegisterTiled() && !vectorize && unroll == 1 &&
         producers.empty() && convolution == ConvolutionStrategy::Direct;
}

int64_t NestPlan::innermostTile(size_t p) const {
  if (rtile[p] != 0)
    return rtile[p];
  return tile[p] != 0 ? tile[p] : extents[p];
}

NestPlan NestPlan::im2colContraction(const ConvolutionInfo &info) const {
  NestPlan contraction = *this;
  size_t depth = info.im2colLoops.size();
  contraction.band.assign(depth, -1);
  contraction.extents.assign(depth, 1);
  contraction.isReduction.assign(depth, false);
  contraction.tile.assign(depth, 0);
  contraction.rtile.assign(depth, 0);
  contraction.producers.clear();
  std::vector<size_t> first(depth, order.size());
  for (auto [group, loops] : llvm::enumerate(info.im2colLoops)) {
    int64_t extent = 1, cache = 1, inner = 1;
    for (size_t p : loops) {
      if (p >= extents.size())
        continue;
      extent *= extents[p];
      cache *= tile[p] != 0 ? tile[p] : extents[p];
      inner *= innermostTile(p);
      contraction.isReduction[group] =
          contraction.isReduction[group] || isReduction[p];
      auto at = llvm::find(order, int64_t(p));
      first[group] = std::min(first[group], size_t(at - order.begin()));
    }
    contraction.extents[group] = extent;
    contraction.tile[group] = cache < extent ? cache : 0;
    contraction.rtile[group] = inner < cache ? inner : 0;
  }
  contraction.order.resize(depth);
  std::iota(contraction.order.begin(), contraction.order.end(), 0);
  llvm::sort(contraction.order, [&](int64_t a, int64_t b) {
    return std::make_pair(first[a], a) < std::make_pair(first[b], b);
  });
  return contraction;
}

std::vector<int64_t>
NestPlan::decomposeUnitTiles(const ConvolutionInfo &info) const {
  std::vector<int64_t> sizes(extents.size(), 0);
  for (size_t p : info.decomposeUnitLoops)
    if (p < extents.size() && innermostTile(p) > 1)
      sizes[p] = 1;
  return sizes;
}

//===----------------------------------------------------------------------===//
// SchedulePlan
//===----------------------------------------------------------------------===//

int SchedulePlan::hostOf(int nestId) const {
  int host = nestId;
  // Bounded: planSchedule rejects cycles, but a hand-made plan may have one.
  for (size_t steps = 0;
       steps <= nests.size() && host >= 0 && size_t(host) < nests.size() &&
       nests[host].fusedInto >= 0;
       ++steps)
    host = nests[host].fusedInto;
  return host;
}

namespace {
/// Byte sink for the structural hash.
class HashBuilder {
public:
  void add(int64_t v) {
    for (int i = 0; i < 8; ++i)
      bytes.push_back(uint8_t(uint64_t(v) >> (8 * i)));
  }
  /// The positions and their sizes.
  void addPositions(llvm::ArrayRef<size_t> positions,
                    llvm::ArrayRef<int64_t> sizes) {
    add(int64_t(positions.size()));
    for (size_t p : positions) {
      add(int64_t(p));
      add(sizes[p]);
    }
  }
  uint64_t finish() const { return llvm::xxh3_64bits(bytes); }

private:
  std::vector<uint8_t> bytes;
};
} // namespace

uint64_t SchedulePlan::hash() const {
  HashBuilder h;
  h.add(int64_t(nests.size()));
  for (const NestPlan &plan : nests) {
    h.add(plan.fusedInto);
    // A fused nest runs inside its host: its own settings are not used,
    // but for how a convolution is computed (nothing added when directly,
    // so that hashes of schedules without the parameter stay what they
    // were).
    if (plan.fusedInto >= 0) {
      if (plan.convolution != ConvolutionStrategy::Direct)
        for (char c : stringifyConvolutionStrategy(plan.convolution))
          h.add(c);
      continue;
    }
    if (plan.isUntouched()) {
      h.add(0);
      continue;
    }
    h.add(1);
    h.add(plan.unroll);
    if (plan.source == NestSource::Affine) {
      // Interchange, tiling and parallelization apply to the whole band.
      h.add(plan.parallel);
      for (size_t p = 0; p < plan.order.size(); ++p) {
        h.add(plan.order[p]);
        h.add(plan.tile[p]);
      }
      // Only a skewed nest adds anything, so that other hashes stay what
      // they were.
      if (plan.skew) {
        h.add(int64_t(plan.skewTile.size()));
        for (size_t p = plan.order.size(); p < plan.skewTile.size(); ++p)
          h.add(plan.skewTile[p]);
      }
      continue;
    }
    // Linalg: only the generated loops and their order matter.
    h.addPositions(plan.forallPositions(), plan.tile);
    h.addPositions(plan.tileLoopPositions(), plan.tile);
    h.addPositions(plan.registerLoopPositions(), plan.rtile);
    h.add(plan.vectorize);
    // The default lowering adds nothing, so that hashes of schedules
    // without the parameter stay what they were.
    if (plan.vectorize && plan.lowering != "outerproduct")
      for (char c : plan.lowering)
        h.add(c);
    // Likewise peeled partial tiles, and padding that pads nothing.
    if (plan.padPartial && plan.padsPartialTiles())
      for (char c : llvm::StringRef("pad"))
        h.add(c);
    // Likewise the direct convolution.
    if (plan.convolution != ConvolutionStrategy::Direct)
      for (char c : stringifyConvolutionStrategy(plan.convolution))
        h.add(c);
    h.add(int64_t(plan.producers.size()));
    for (int producer : plan.producers)
      h.add(producer);
  }
  return h.finish();
}

//===----------------------------------------------------------------------===//
// planSchedule
//===----------------------------------------------------------------------===//

namespace {

constexpr llvm::StringLiteral kContractionLowerings[] = {
    "outerproduct", "dot", "parallelarith"};

llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Reads the parameters of a config one by one into the plan.
class PlanReader {
public:
  PlanReader(const ProgramTree &tree, const Space &space, const Config &config)
      : tree(tree), space(space), config(config) {}

  llvm::Expected<SchedulePlan> read() {
    if (auto err = space.check(config))
      return std::move(err);
    if (auto err = initPlans())
      return std::move(err);
    if (auto err = readConfig())
      return std::move(err);
    if (auto err = checkFusion())
      return std::move(err);
    if (auto err = checkConvolutions())
      return std::move(err);
    return std::move(plan);
  }

private:
  llvm::Error initPlans() {
    for (auto [index, nest] : llvm::enumerate(tree.nests)) {
      NestPlan nestPlan;
      nestPlan.nestId = int(index);
      nestPlan.source = nest.source;
      for (int loopId : tree.bandOf(nest.id)) {
        if (loopId < 0 || size_t(loopId) >= tree.loops.size())
          return error("nest '" + nest.name + "' has an invalid band loop id " +
                       llvm::Twine(loopId));
        const Loop &loop = tree.loops[loopId];
        nestPlan.band.push_back(loopId);
        nestPlan.extents.push_back(loop.extent);
        nestPlan.isReduction.push_back(loop.isReduction);
      }
      size_t depth = nestPlan.extents.size();
      nestPlan.tile.assign(depth, 0);
      nestPlan.rtile.assign(depth, 0);
      nestPlan.order.resize(depth);
      std::iota(nestPlan.order.begin(), nestPlan.order.end(), 0);
      for (int loopId : nest.skewBand) {
        if (loopId < 0 || size_t(loopId) >= tree.loops.size())
          return error("nest '" + nest.name +
                       "' has an invalid skew band loop id " +
                       llvm::Twine(loopId));
        nestPlan.skewBand.push_back(loopId);
        nestPlan.skewExtents.push_back(tree.loops[loopId].extent);
      }
      nestPlan.skewTile.assign(nestPlan.skewBand.size(), 0);
      nestByName[nest.name] = index;
      plan.nests.push_back(std::move(nestPlan));
    }
    return llvm::Error::success();
  }

  const std::string &nameOf(const NestPlan &nestPlan) const {
    return tree.nests[nestPlan.nestId].name;
  }

  /// The nest `name` that parameter `p` refers to as its `what` (nest,
  /// producer or consumer).
  llvm::Expected<NestPlan *> nestOf(const Parameter &p, llvm::StringRef name,
                                    llvm::StringRef what) {
    if (name.empty())
      return error("parameter '" + p.name + "' has no '" + what +
                   "' attribute");
    auto it = nestByName.find(name.str());
    if (it == nestByName.end())
      return error("parameter '" + p.name + "' names nest '" + name +
                   "', which function @" + tree.functionName +
                   " does not have");
    return &plan.nests[it->second];
  }

  /// The band position `p` refers to, checked against `nestPlan`.
  llvm::Expected<size_t> loopOf(const Parameter &p, const NestPlan &nestPlan) {
    if (p.loop < 0 || uint64_t(p.loop) >= nestPlan.extents.size())
      return error("parameter '" + p.name +
                   "' needs a 'loop' attribute in [0, " +
                   llvm::Twine(nestPlan.extents.size()) + ") for nest '" +
                   nameOf(nestPlan) + "'");
    return size_t(p.loop);
  }

  static llvm::Error typeError(const Parameter &p, const ParamValue &v,
                               llvm::StringRef expected) {
    return error("parameter '" + p.name + "': value " + v.str() + " is not " +
                 expected);
  }

  /// A tile size of a loop of an affine nest's skew band: the band's
  /// positions go to `tile` as well.
  llvm::Error readSkewTile(const Parameter &p, const ParamValue &v,
                           NestPlan &nestPlan) {
    if (!v.isInteger())
      return typeError(p, v, "an integer");
    size_t loop = p.loop;
    int64_t extent = nestPlan.skewExtents[loop];
    if (v.getInteger() < 1 || v.getInteger() > extent)
      return error("parameter '" + p.name + "': tile size " + v.str() +
                   " is outside [1, " + llvm::Twine(extent) +
                   "] (the loop's extent)");
    int64_t size = v.getInteger() == extent ? 0 : v.getInteger();
    nestPlan.skewTile[loop] = size;
    if (loop < nestPlan.tile.size())
      nestPlan.tile[loop] = size;
    return llvm::Error::success();
  }

  llvm::Error readFuse(const Parameter &p, const ParamValue &v) {
    if (!v.isBoolean())
      return typeError(p, v, "a boolean");
    if (!v.getBoolean())
      return llvm::Error::success();
    llvm::Expected<NestPlan *> producer = nestOf(p, p.producer, "producer");
    if (!producer)
      return producer.takeError();
    llvm::Expected<NestPlan *> consumer = nestOf(p, p.consumer, "consumer");
    if (!consumer)
      return consumer.takeError();
    if ((*producer)->fusedInto >= 0)
      return error("parameter '" + p.name + "' = true: nest '" +
                   nameOf(**producer) + "' is already fused by '" +
                   (*producer)->fuseParameter + "'");
    if (*producer == *consumer)
      return error("parameter '" + p.name +
                   "' = true: a nest cannot be fused into itself");
    (*producer)->fusedInto = (*consumer)->nestId;
    (*producer)->fuseParameter = p.name;
    (*consumer)->producers.push_back((*producer)->nestId);
    return llvm::Error::success();
  }

  /// Reads the value of a parameter of a per-nest role (not Fuse).
  llvm::Error readNestParameter(const Parameter &p, const ParamValue &v) {
    llvm::Expected<NestPlan *> planOr = nestOf(p, p.nest, "nest");
    if (!planOr)
      return planOr.takeError();
    NestPlan &nestPlan = **planOr;
    bool isLinalg = nestPlan.source == NestSource::Linalg;
    switch (p.role) {
    case ParamRole::Tile:
      if (!isLinalg && p.loop >= 0 &&
          uint64_t(p.loop) < nestPlan.skewExtents.size())
        return readSkewTile(p, v, nestPlan);
      [[fallthrough]];
    case ParamRole::RegisterTile: {
      llvm::Expected<size_t> loop = loopOf(p, nestPlan);
      if (!loop)
        return loop.takeError();
      if (!v.isInteger())
        return typeError(p, v, "an integer");
      int64_t extent = nestPlan.extents[*loop];
      if (v.getInteger() < 1 || v.getInteger() > extent)
        return error("parameter '" + p.name + "': tile size " + v.str() +
                     " is outside [1, " + llvm::Twine(extent) +
                     "] (the loop's extent)");
      bool registerTile = p.role == ParamRole::RegisterTile;
      if (registerTile && !isLinalg)
        return error("parameter '" + p.name +
                     "': register tiles apply to linalg nests only");
      (registerTile ? nestPlan.rtile : nestPlan.tile)[*loop] =
          v.getInteger() == extent ? 0 : v.getInteger();
      return llvm::Error::success();
    }
    case ParamRole::Order:
      if (!v.isPermutation() ||
          v.getPermutation().size() != nestPlan.extents.size())
        return typeError(p, v,
                         "a permutation of the nest's " +
                             std::to_string(nestPlan.extents.size()) +
                             " loops");
      nestPlan.order = v.getPermutation();
      return llvm::Error::success();
    case ParamRole::Unroll:
      if (!v.isInteger() || v.getInteger() < 1)
        return typeError(p, v, "a positive integer");
      nestPlan.unroll = v.getInteger();
      return llvm::Error::success();
    case ParamRole::Vectorize:
      if (!v.isBoolean())
        return typeError(p, v, "a boolean");
      if (v.getBoolean() && !isLinalg)
        return error("parameter '" + p.name +
                     "' = true: vectorization applies to linalg nests only");
      nestPlan.vectorize = v.getBoolean();
      return llvm::Error::success();
    case ParamRole::Parallel:
      if (!v.isBoolean())
        return typeError(p, v, "a boolean");
      nestPlan.parallel = v.getBoolean();
      return llvm::Error::success();
    case ParamRole::Distribute:
      if (!v.isString() || (v.getString() != "all" && v.getString() != "outer"))
        return typeError(p, v, "\"all\" or \"outer\"");
      if (!isLinalg)
        return error("parameter '" + p.name +
                     "': distribution choices apply to linalg nests only");
      nestPlan.distributeOuter = v.getString() == "outer";
      return llvm::Error::success();
    case ParamRole::Skew:
      if (!v.isBoolean())
        return typeError(p, v, "a boolean");
      if (v.getBoolean() && nestPlan.skewBand.size() < 2)
        return error("parameter '" + p.name + "' = true: nest '" +
                     nameOf(nestPlan) +
                     "' has no band that skewing makes fully permutable");
      nestPlan.skew = v.getBoolean();
      return llvm::Error::success();
    case ParamRole::Lowering:
      if (!v.isString() || !llvm::is_contained(kContractionLowerings,
                                               llvm::StringRef(v.getString())))
        return typeError(p, v,
                         "a contraction lowering (\"outerproduct\", \"dot\" "
                         "or \"parallelarith\")");
      if (!isLinalg)
        return error("parameter '" + p.name +
                     "': contraction lowerings apply to linalg nests only");
      nestPlan.lowering = v.getString();
      return llvm::Error::success();
    case ParamRole::Convolution:
      return readConvolution(p, v, nestPlan);
    case ParamRole::Partial:
      if (!v.isString() || (v.getString() != "peel" && v.getString() != "pad"))
        return typeError(p, v, "\"peel\" or \"pad\"");
      if (!isLinalg)
        return error("parameter '" + p.name +
                     "': padding partial tiles applies to linalg nests only");
      nestPlan.padPartial = v.getString() == "pad";
      return llvm::Error::success();
    case ParamRole::None:
    case ParamRole::Fuse:
    case ParamRole::Knob:
    case ParamRole::Alternatives:
    case ParamRole::GpuBlockTile:
    case ParamRole::GpuThreadTile:
    case ParamRole::GpuReductionTile:
    case ParamRole::GpuPromote:
    case ParamRole::GpuVectorWidth:
      break;
    }
    llvm_unreachable("readParameter dispatches only per-nest roles here");
  }

  /// Reads the value `v` of parameter `p` into the plan, by `p`'s role.
  llvm::Error readParameter(const Parameter &p, const ParamValue &v) {
    switch (p.role) {
    case ParamRole::None:
      return error("parameter '" + p.name +
                   "' has no 'role' attribute: the schedule builder does "
                   "not know what it controls");
    case ParamRole::Knob:
    case ParamRole::Alternatives:
      return error("parameter '" + p.name + "' has role '" +
                   stringifyParamRole(p.role) +
                   "', which only a Transform script's transform.tune ops "
                   "read: the schedule builder does not know what it "
                   "controls");
    case ParamRole::Fuse:
      return readFuse(p, v);
    case ParamRole::GpuBlockTile:
    case ParamRole::GpuThreadTile:
    case ParamRole::GpuReductionTile:
    case ParamRole::GpuPromote:
    case ParamRole::GpuVectorWidth:
      return error("parameter '" + p.name + "' has role '" +
                   stringifyParamRole(p.role) +
                   "' of a GPU space: its schedule is built by "
                   "buildGpuTransformScript (tuner/Schedule/GpuSchedule.h)");
    case ParamRole::Tile:
    case ParamRole::RegisterTile:
    case ParamRole::Order:
    case ParamRole::Unroll:
    case ParamRole::Vectorize:
    case ParamRole::Parallel:
    case ParamRole::Lowering:
    case ParamRole::Distribute:
    case ParamRole::Skew:
    case ParamRole::Convolution:
    case ParamRole::Partial:
      return readNestParameter(p, v);
    }
    llvm_unreachable("unknown ParamRole");
  }

  /// The op of a linalg nest (its one computation's), or "".
  llvm::StringRef opOf(const NestPlan &nestPlan) const {
    const LoopNest &nest = tree.nests[nestPlan.nestId];
    if (nest.computationIds.size() != 1)
      return "";
    return tree.computations[nest.computationIds.front()].opName;
  }

  llvm::Error readConvolution(const Parameter &p, const ParamValue &v,
                              NestPlan &nestPlan) {
    std::optional<ConvolutionStrategy> strategy =
        v.isString() ? parseConvolutionStrategy(v.getString()) : std::nullopt;
    if (!strategy)
      return typeError(p, v,
                       "a convolution strategy (\"direct\", \"im2col\" or "
                       "\"decompose\")");
    if (*strategy != ConvolutionStrategy::Direct) {
      llvm::StringRef op = opOf(nestPlan);
      std::optional<ConvolutionInfo> info = convolutionInfo(op);
      if (nestPlan.source != NestSource::Linalg || !info ||
          !info->supports(*strategy))
        return error("parameter '" + p.name + "' = " + v.str() + ": nest '" +
                     nameOf(nestPlan) + "' (" +
                     (op.empty() ? llvm::StringRef("not one linalg op") : op) +
                     ") cannot be computed by " +
                     stringifyConvolutionStrategy(*strategy) +
                     " (see tuner/Analysis/Convolution.h for the ops that "
                     "can)");
      convolutionParameters[nestPlan.nestId] = p.name;
    }
    nestPlan.convolution = *strategy;
    return llvm::Error::success();
  }

  /// An im2col copy is tiled like the contraction that reads it, through
  /// maps with floordiv and mod: a tile of merged loops must not wrap
  /// around an inner loop (e.g. a tile of oh*ow that covers part of two
  /// rows). In each group, the innermost tiled loop must divide its extent
  /// and the loops outside it must have tiles of 1, unless it is the
  /// group's outermost loop.
  llvm::Error checkConvolutions() {
    for (NestPlan &nestPlan : plan.nests) {
      if (nestPlan.convolution != ConvolutionStrategy::Im2col ||
          nestPlan.fusedInto >= 0)
        continue;
      std::optional<ConvolutionInfo> info = convolutionInfo(opOf(nestPlan));
      if (!info)
        continue;
      for (const std::vector<size_t> &group : info->im2colLoops) {
        auto tileOf = [&](size_t p) {
          return nestPlan.tile[p] != 0 ? nestPlan.tile[p]
                                       : nestPlan.extents[p];
        };
        size_t i = group.size();
        while (i > 0 && tileOf(group[i - 1]) == nestPlan.extents[group[i - 1]])
          --i;
        if (i <= 1)
          continue;
        size_t inner = group[i - 1];
        bool aligned = nestPlan.extents[inner] % tileOf(inner) == 0;
        for (size_t j = 0; j + 1 < i; ++j)
          aligned = aligned && tileOf(group[j]) == 1;
        if (aligned)
          continue;
        std::string loops, tiles;
        for (size_t j = 0; j < group.size(); ++j) {
          loops += (j ? ", " : "") + std::to_string(group[j]);
          tiles += (j ? ", " : "") + std::to_string(tileOf(group[j]));
        }
        return error("parameter '" +
                     convolutionParameters[nestPlan.nestId] +
                     "' = \"im2col\": nest '" + nameOf(nestPlan) +
                     "' merges loops [" + loops + "] into one loop of the "
                     "contraction, and their tile sizes [" + tiles +
                     "] would cut the im2col copy across an inner loop: the "
                     "innermost tiled loop of the group must have a tile "
                     "that divides its extent, and the loops outside it "
                     "tiles of 1");
      }
    }
    return llvm::Error::success();
  }

  llvm::Error readConfig() {
    for (size_t i = 0; i < space.size(); ++i)
      if (llvm::Error err = readParameter(space[i], config[i]))
        return err;
    // Unskewed, a band that skewing would make fully permutable is only
    // strip-mined along its outermost loop.
    for (NestPlan &nestPlan : plan.nests)
      if (!nestPlan.skew)
        for (size_t l = 1; l < nestPlan.skewTile.size(); ++l)
          if (nestPlan.skewTile[l] != 0)
            return error("nest '" + nameOf(nestPlan) + "': loop " +
                         llvm::Twine(l) +
                         " is tiled, which is legal only once the band is "
                         "skewed (skew = true)");
    // A register tile equal to its cache tile does not tile again.
    for (NestPlan &nestPlan : plan.nests)
      for (size_t l = 0; l < nestPlan.extents.size(); ++l) {
        int64_t cache =
            nestPlan.tile[l] ? nestPlan.tile[l] : nestPlan.extents[l];
        if (nestPlan.rtile[l] == cache)
          nestPlan.rtile[l] = 0;
      }
    return llvm::Error::success();
  }

  llvm::Error checkFusion() {
    for (NestPlan &nestPlan : plan.nests) {
      if (nestPlan.fusedInto < 0)
        continue;
      if (nestPlan.source != NestSource::Linalg ||
          plan.nests[nestPlan.fusedInto].source != NestSource::Linalg)
        return error("parameter '" + nestPlan.fuseParameter +
                     "' = true: only linalg nests can be fused");
      // The nest it ends up in (cycles are impossible in a producer/consumer
      // DAG, but a hand-written space could say otherwise).
      int host = nestPlan.fusedInto;
      for (size_t steps = 0; plan.nests[host].fusedInto >= 0; ++steps) {
        if (steps > plan.nests.size())
          return error("parameter '" + nestPlan.fuseParameter +
                       "' = true: the fusions form a cycle");
        host = plan.nests[host].fusedInto;
      }
    }
    for (NestPlan &nestPlan : plan.nests)
      llvm::sort(nestPlan.producers);
    return llvm::Error::success();
  }

  const ProgramTree &tree;
  const Space &space;
  const Config &config;
  SchedulePlan plan;
  std::map<std::string, size_t> nestByName;
  /// The conv parameter of each nest it set to a strategy but direct.
  std::map<int, std::string> convolutionParameters;
};

} // namespace

llvm::Expected<SchedulePlan> tuner::planSchedule(const ProgramTree &tree,
                                                 const Space &space,
                                                 const Config &config) {
  return PlanReader(tree, space, config).read();
}

llvm::Expected<std::shared_ptr<const SchedulePlan>>
PlanCache::get(const Config &config) {
  uint64_t key = config.hash();
  auto found = plans.find(key);
  // Equal hashes of unequal configs are planned anew, not confused.
  if (found != plans.end() && found->second.first == config) {
    ++hits;
    return found->second.second;
  }
  llvm::Expected<SchedulePlan> plan = planSchedule(tree, space, config);
  if (!plan)
    return plan.takeError();
  ++misses;
  auto shared = std::make_shared<const SchedulePlan>(std::move(*plan));
  if (found == plans.end())
    plans.emplace(key, std::make_pair(config, shared));
  return shared;
}
