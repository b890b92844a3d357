//===- Features.cpp - What the cost model sees of a schedule --------------===//

#include "tuner/CostModel/Features.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/xxhash.h"

#include <cmath>
#include <map>

using namespace tuner;
using namespace tuner::features;

//===----------------------------------------------------------------------===//
// The layout
//===----------------------------------------------------------------------===//

namespace {
struct Spec {
  const char *key;
  FeatureKind kind;
  const char *description;
};

constexpr FeatureKind Boolean = FeatureKind::Boolean;
constexpr FeatureKind Numeric = FeatureKind::Numeric;

const Spec kLoopSpecs[] = {
#define TUNER_LOOP_FEATURE(Name, key, kind, description)                       \
  {key, kind, description},
#include "tuner/CostModel/Features.def"
};
const Spec kWrittenShapeSpec =
#define TUNER_WRITTEN_SHAPE_FEATURE(Name, key, kind, description)              \
  {key, kind, description};
#include "tuner/CostModel/Features.def"
    const Spec kComputationSpecs[] = {
#define TUNER_COMPUTATION_FEATURE(Name, key, kind, description)                \
  {key, kind, description},
#include "tuner/CostModel/Features.def"
};
const Spec kScheduleSpecs[] = {
#define TUNER_SCHEDULE_FEATURE(Name, key, kind, description)                   \
  {key, kind, description},
#include "tuner/CostModel/Features.def"
};
const Spec kAccessSpecs[] = {
#define TUNER_ACCESS_FEATURE(Name, key, kind, description)                     \
  {key, kind, description},
#include "tuner/CostModel/Features.def"
};
const Spec kAccessMatrixSpec =
#define TUNER_ACCESS_MATRIX_FEATURE(Name, key, kind, description)              \
  {key, kind, description};
#include "tuner/CostModel/Features.def"

    struct MaximumSpec {
  const char *key;
  unsigned value;
  const char *description;
};
const MaximumSpec kMaxima[] = {
#define TUNER_FEATURE_MAXIMUM(Name, key, value, description)                   \
  {key, value, description},
#include "tuner/CostModel/Features.def"
};

static_assert(std::size(kLoopSpecs) == kNumLoopFeatures);
static_assert(std::size(kComputationSpecs) == kNumComputationFeatures);
static_assert(std::size(kScheduleSpecs) == kNumScheduleFeatures);
static_assert(std::size(kAccessSpecs) == kNumAccessFeatures);

FeatureInfo info(std::string name, const Spec &spec) {
  return {std::move(name), spec.kind, spec.description};
}

std::vector<FeatureInfo> buildFeatureList() {
  std::vector<FeatureInfo> list;
  list.reserve(kNumFeatures);
  for (unsigned level = 0; level < kMaxLoopLevels; ++level)
    for (const Spec &spec : kLoopSpecs)
      list.push_back(info(llvm::formatv("loop{0}.{1}", level, spec.key), spec));
  for (unsigned dim = 0; dim < kMaxBufferRank; ++dim)
    list.push_back(info(llvm::formatv("{0}{1}", kWrittenShapeSpec.key, dim),
                        kWrittenShapeSpec));
  for (const Spec &spec : kComputationSpecs)
    list.push_back(info(spec.key, spec));
  for (const Spec &spec : kScheduleSpecs)
    list.push_back(info(spec.key, spec));
  for (unsigned slot = 0; slot < kMaxAccesses; ++slot) {
    for (const Spec &spec : kAccessSpecs)
      list.push_back(
          info(llvm::formatv("access{0}.{1}", slot, spec.key), spec));
    for (unsigned row = 0; row < kMaxBufferRank; ++row)
      for (unsigned column = 0; column < kMatrixColumns; ++column) {
        std::string columnName = column == kMaxLoopLevels
                                     ? std::string("const")
                                     : "c" + std::to_string(column);
        list.push_back(
            info(llvm::formatv("access{0}.{1}{2}.{3}", slot,
                               kAccessMatrixSpec.key, row, columnName),
                 kAccessMatrixSpec));
      }
  }
  return list;
}
} // namespace

const std::vector<FeatureInfo> &tuner::featureList() {
  static const std::vector<FeatureInfo> list = buildFeatureList();
  return list;
}

std::vector<std::pair<std::string, unsigned>> tuner::featureMaxima() {
  std::vector<std::pair<std::string, unsigned>> maxima;
  for (const MaximumSpec &spec : kMaxima)
    maxima.emplace_back(spec.key, spec.value);
  return maxima;
}

const std::string &tuner::featureLayoutHash() {
  static const std::string hash = [] {
    std::string text;
    for (const MaximumSpec &spec : kMaxima)
      text += llvm::formatv("{0}={1};", spec.key, spec.value).str();
    for (const FeatureInfo &feature : featureList())
      text += feature.name + (feature.kind == Boolean ? ":b;" : ":n;");
    return llvm::utohexstr(llvm::xxh3_64bits(llvm::StringRef(text)),
                           /*LowerCase=*/true, /*Width=*/16);
  }();
  return hash;
}

void tuner::printFeatureDocumentation(llvm::raw_ostream &os) {
  auto kind = [](const Spec &spec) {
    return spec.kind == Boolean ? "boolean" : "numeric";
  };
  os << "# Cost model features (layout " << featureLayoutHash() << ", "
     << kNumFeatures << " per computation)\n\n"
     << "Numeric features enter the network as sign(x) * log(1 + |x|), "
        "boolean ones as 0 or 1. Unused entries are 0.\n\n"
     << "| maximum | value | what |\n|---|---|---|\n";
  for (const MaximumSpec &spec : kMaxima)
    os << "| " << spec.key << " | " << spec.value << " | " << spec.description
       << " |\n";
  os << "\n| feature | kind | what |\n|---|---|---|\n";
  auto row = [&](llvm::StringRef name, const Spec &spec) {
    os << "| " << name << " | " << kind(spec) << " | " << spec.description
       << " |\n";
  };
  for (const Spec &spec : kLoopSpecs)
    row(llvm::formatv("loop<L>.{0} (L < {1})", spec.key, kMaxLoopLevels).str(),
        spec);
  row(llvm::formatv("{0}<D> (D < {1})", kWrittenShapeSpec.key, kMaxBufferRank)
          .str(),
      kWrittenShapeSpec);
  for (const Spec &spec : kComputationSpecs)
    row(spec.key, spec);
  for (const Spec &spec : kScheduleSpecs)
    row(spec.key, spec);
  for (const Spec &spec : kAccessSpecs)
    row(llvm::formatv("access<A>.{0} (A < {1})", spec.key, kMaxAccesses).str(),
        spec);
  row(llvm::formatv("access<A>.{0}<D>.c<L> / .const", kAccessMatrixSpec.key)
          .str(),
      kAccessMatrixSpec);
}

float tuner::transformFeature(unsigned index, double value) {
  if (featureList()[index].kind == Boolean)
    return float(value);
  double magnitude = std::log1p(std::fabs(value));
  return float(value < 0 ? -magnitude : magnitude);
}

//===----------------------------------------------------------------------===//
// FeatureTree
//===----------------------------------------------------------------------===//

uint64_t FeatureTree::hash() const {
  // On the stack for trees of a few dozen nodes (one call per scored
  // schedule).
  llvm::SmallVector<uint64_t, 128> words;
  words.push_back(numComputations);
  words.push_back(nodes.size());
  for (const Node &node : nodes) {
    words.push_back(node.loops.size());
    words.insert(words.end(), node.loops.begin(), node.loops.end());
    words.push_back(node.computations.size());
    words.insert(words.end(), node.computations.begin(),
                 node.computations.end());
  }
  return llvm::xxh3_64bits(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(words.data()),
                              words.size() * sizeof(uint64_t)));
}

//===----------------------------------------------------------------------===//
// FeatureExtractor
//===----------------------------------------------------------------------===//

static llvm::Error limitError(const ProgramTree &tree, const Computation &comp,
                              llvm::StringRef what, size_t count,
                              llvm::StringRef key, unsigned maximum) {
  return llvm::createStringError(
      llvm::formatv("function @{0}, computation '{1}': {2} {3}, but the cost "
                    "model's feature layout holds at most {4} ({5} in "
                    "Features.def)",
                    tree.functionName, comp.name, count, what, maximum, key)
          .str());
}

llvm::Expected<FeatureExtractor>
FeatureExtractor::create(const ProgramTree &tree) {
  std::string problem = tree.verify();
  if (!problem.empty())
    return llvm::createStringError("function @" + tree.functionName +
                                   ": inconsistent program tree: " + problem);
  FeatureExtractor extractor(tree);
  // Limits first, so that no vector is ever cut.
  for (const Computation &comp : tree.computations) {
    if (comp.loopIds.size() > kMaxLoopLevels)
      return limitError(tree, comp, "enclosing loops", comp.loopIds.size(),
                        "loop_levels", kMaxLoopLevels);
    if (comp.accesses.size() > kMaxAccesses)
      return limitError(tree, comp, "memory accesses", comp.accesses.size(),
                        "accesses", kMaxAccesses);
    if (comp.writtenShape.size() > kMaxBufferRank)
      return limitError(tree, comp, "dimensions in its written buffer",
                        comp.writtenShape.size(), "buffer_rank",
                        kMaxBufferRank);
    for (const Access &access : comp.accesses) {
      if (access.matrix.size() > kMaxBufferRank)
        return limitError(tree, comp,
                          "dimensions in accessed buffer " +
                              std::to_string(access.bufferId) + " with",
                          access.matrix.size(), "buffer_rank", kMaxBufferRank);
      for (const std::vector<int64_t> &row : access.matrix)
        if (row.size() != comp.loopIds.size() + 1)
          return llvm::createStringError(llvm::formatv(
              "function @{0}, computation '{1}': an access matrix row has {2} "
              "columns, expected {3} (one per enclosing loop and the constant)",
              tree.functionName, comp.name, row.size(),
              comp.loopIds.size() + 1));
    }
  }

  const ProgramTree &t = extractor.tree;
  extractor.base.assign(t.computations.size() * kNumFeatures, 0.0f);
  for (auto [c, comp] : llvm::enumerate(t.computations)) {
    float *v = extractor.base.data() + c * kNumFeatures;
    for (auto [level, loopId] : llvm::enumerate(comp.loopIds)) {
      const Loop &loop = t.loops[loopId];
      v[loopFeature(level, LoopExtent)] = float(loop.extent);
      v[loopFeature(level, LoopLowerBound)] = float(loop.lowerBound);
      v[loopFeature(level, LoopReduction)] = loop.isReduction;
      v[loopFeature(level, LoopPosition)] = float(level);
    }
    for (auto [dim, size] : llvm::enumerate(comp.writtenShape))
      v[writtenSize(dim)] = float(size);
    v[computationFeature(ElementBytes)] = elementTypeBytes(comp.elementType);
    v[computationFeature(Adds)] = float(comp.opCounts.add);
    v[computationFeature(Subs)] = float(comp.opCounts.sub);
    v[computationFeature(Muls)] = float(comp.opCounts.mul);
    v[computationFeature(Divs)] = float(comp.opCounts.div);
    v[computationFeature(OtherOps)] = float(comp.opCounts.other);
    for (auto [slot, access] : llvm::enumerate(comp.accesses)) {
      v[accessFeature(slot, AccessPresent)] = 1;
      v[accessFeature(slot, AccessWrite)] = access.isWrite;
      v[accessFeature(slot, AccessAffine)] = access.isAffine;
      v[accessFeature(slot, AccessBufferId)] = float(access.bufferId);
      for (auto [row, coefficients] : llvm::enumerate(access.matrix)) {
        size_t loops = coefficients.size() - 1;
        for (size_t column = 0; column < loops; ++column)
          v[accessMatrix(slot, row, column)] = float(coefficients[column]);
        v[accessMatrix(slot, row, kMaxLoopLevels)] = float(coefficients.back());
      }
    }
  }

  extractor.bandPosition.assign(t.loops.size(), {-1, -1});
  extractor.skewPosition.assign(t.loops.size(), {-1, -1});
  for (auto [n, nest] : llvm::enumerate(t.nests)) {
    std::vector<int> band = t.bandOf(nest.id);
    for (auto [position, loopId] : llvm::enumerate(band))
      extractor.bandPosition[loopId] = {int(n), int(position)};
    for (auto [index, loopId] : llvm::enumerate(nest.skewBand))
      if (loopId >= 0 && size_t(loopId) < t.loops.size())
        extractor.skewPosition[loopId] = {int(n), int(index)};
    // The skew band names the first sweep's fused loops; every sweep inside
    // the band's innermost loop is fused with it, loop by loop.
    if (band.empty() || nest.skewBand.size() <= band.size())
      continue;
    for (const Loop::Child &child : t.loops[band.back()].children) {
      int loopId = child.isLoop ? child.id : -1;
      for (size_t index = band.size();
           loopId >= 0 && index < nest.skewBand.size(); ++index) {
        extractor.skewPosition[loopId] = {int(n), int(index)};
        auto inner = llvm::find_if(t.loops[loopId].children,
                                   [](const Loop::Child &c) {
                                     return c.isLoop;
                                   });
        loopId = inner == t.loops[loopId].children.end() ? -1 : inner->id;
      }
    }
  }
  return std::move(extractor);
}

/// The positions in a skew band of the two tile loops a wavefront runs over:
/// its first two tiled loops (see transform.tuner.affine_tile).
static std::vector<size_t> wavefrontLoops(const NestPlan &n) {
  std::vector<size_t> loops;
  for (size_t l = 0; l < n.skewTile.size() && loops.size() < 2; ++l)
    if (n.skewTile[l] != 0)
      loops.push_back(l);
  return loops;
}

FeatureExtractor::SkewedLoop
FeatureExtractor::skewedLoop(const SchedulePlan &plan, int loopId) const {
  if (loopId < 0 || size_t(loopId) >= skewPosition.size())
    return {};
  auto [nestId, index] = skewPosition[loopId];
  if (nestId < 0 || size_t(nestId) >= plan.nests.size())
    return {};
  const NestPlan &n = plan.nests[nestId];
  if (!n.skew || size_t(index) >= n.skewTile.size())
    return {};
  std::vector<size_t> wavefront = n.parallel ? wavefrontLoops(n)
                                             : std::vector<size_t>();
  return {&n, n.skewTile[index],
          wavefront.size() == 2 && llvm::is_contained(wavefront, size_t(index))};
}

FeatureTree FeatureExtractor::buildTree(const SchedulePlan &plan) const {
  // Children per loop (index = loop id) and of the function body (last).
  size_t body = tree.loops.size();
  std::vector<std::vector<int>> loopChildren(body + 1), compChildren(body + 1);
  for (const Loop &loop : tree.loops)
    for (const Loop::Child &child : loop.children)
      (child.isLoop ? loopChildren : compChildren)[loop.id].push_back(child.id);
  loopChildren[body] = tree.rootLoopIds;
  for (const Computation &comp : tree.computations)
    if (comp.loopIds.empty())
      compChildren[body].push_back(comp.id);

  // Fusion: a fused nest (with the nests fused into it) moves into the
  // innermost of its host's fusion loops, before the host's own children.
  std::map<int, std::vector<int>> movedInto; // host loop id -> nest ids
  for (const NestPlan &nestPlan : plan.nests) {
    if (nestPlan.fusedInto < 0)
      continue;
    const NestPlan &host = plan.nests[plan.hostOf(nestPlan.nestId)];
    std::vector<size_t> positions = host.fusionPositions();
    if (positions.empty())
      continue; // Nothing to fuse into: the schedule cannot be applied.
    size_t deepest = *llvm::max_element(positions);
    movedInto[host.band[deepest]].push_back(nestPlan.nestId);
  }
  for (auto &[hostLoop, nestIds] : movedInto) {
    llvm::sort(nestIds);
    std::vector<int> movedLoops, movedComps;
    for (int nestId : nestIds) {
      const LoopNest &nest = tree.nests[nestId];
      if (nest.rootLoopId >= 0) {
        movedLoops.push_back(nest.rootLoopId);
        int parent = tree.loops[nest.rootLoopId].parentId;
        llvm::erase(loopChildren[parent < 0 ? body : parent], nest.rootLoopId);
        continue;
      }
      for (int compId : nest.computationIds) {
        movedComps.push_back(compId);
        llvm::erase(compChildren[body], compId);
      }
    }
    std::vector<int> &loops = loopChildren[hostLoop];
    loops.insert(loops.begin(), movedLoops.begin(), movedLoops.end());
    std::vector<int> &comps = compChildren[hostLoop];
    comps.insert(comps.begin(), movedComps.begin(), movedComps.end());
  }

  // Post-order from the body, children in program order.
  FeatureTree result;
  result.numComputations = tree.computations.size();
  std::vector<int> nodeOf(body + 1, -1);
  std::vector<std::pair<size_t, size_t>> stack = {{body, 0}};
  while (!stack.empty()) {
    auto &[loop, next] = stack.back();
    if (next < loopChildren[loop].size()) {
      size_t child = loopChildren[loop][next++];
      stack.push_back({child, 0});
      continue;
    }
    FeatureTree::Node node;
    node.loopId = loop == body ? -1 : int(loop);
    for (int child : loopChildren[loop])
      node.loops.push_back(nodeOf[child]);
    node.computations = compChildren[loop];
    nodeOf[loop] = int(result.nodes.size());
    result.nodes.push_back(std::move(node));
    stack.pop_back();
  }
  return result;
}

void FeatureExtractor::tagLoops(const SchedulePlan &plan,
                                std::vector<float> &values) const {
  // Per nest and band position: the tags of that loop level.
  struct Tags {
    bool fused = false, interchanged = false, vectorized = false,
         parallel = false;
    int64_t position = 0, tile = 0, rtile = 0, unroll = 0;
  };
  std::vector<std::vector<Tags>> tags(plan.nests.size());
  for (const NestPlan &nestPlan : plan.nests) {
    std::vector<Tags> &nestTags = tags[nestPlan.nestId];
    size_t depth = nestPlan.band.size();
    nestTags.resize(depth);
    for (size_t p = 0; p < depth; ++p)
      nestTags[p].position = int64_t(p);
    if (nestPlan.fusedInto >= 0) {
      // Its own settings are unused: it runs inside its host's tiles.
      for (Tags &t : nestTags)
        t.fused = true;
      continue;
    }
    if (nestPlan.isUntouched())
      continue;
    bool isLinalg = nestPlan.source == NestSource::Linalg;
    // The loop order among the loops that generate loops of their own (all
    // of an affine band; the tiled ones of a linalg nest).
    std::vector<size_t> generated;
    for (size_t p = 0; p < depth; ++p)
      if (!isLinalg || nestPlan.tile[p] != 0 || nestPlan.rtile[p] != 0)
        generated.push_back(p);
    size_t rank = 0;
    for (int64_t p : nestPlan.order)
      if (llvm::is_contained(generated, size_t(p)))
        nestTags[p].position = int64_t(generated[rank++]);
    for (size_t p = 0; p < depth; ++p) {
      Tags &t = nestTags[p];
      t.interchanged = t.position != int64_t(p);
      t.tile = nestPlan.tile[p];
      t.rtile = nestPlan.rtile[p];
      t.vectorized = nestPlan.vectorize;
    }
    int unrolled = nestPlan.unrolledPosition();
    if (unrolled >= 0)
      nestTags[unrolled].unroll = nestPlan.unroll;
    if (isLinalg) {
      for (size_t p : nestPlan.forallPositions())
        nestTags[p].parallel = true;
    } else if (nestPlan.parallelPosition() >= 0) {
      nestTags[nestPlan.parallelPosition()].parallel = true;
    }
    if (!nestPlan.producers.empty())
      for (size_t p : nestPlan.fusionPositions())
        nestTags[p].fused = true;
  }

  for (auto [c, comp] : llvm::enumerate(tree.computations)) {
    float *v = values.data() + c * kNumFeatures;
    for (auto [level, loopId] : llvm::enumerate(comp.loopIds)) {
      auto [nestId, position] = bandPosition[loopId];
      if (nestId < 0 || size_t(nestId) >= tags.size() ||
          size_t(position) >= tags[nestId].size())
        continue;
      const Tags &t = tags[nestId][position];
      v[loopFeature(level, LoopFused)] = t.fused;
      v[loopFeature(level, LoopInterchanged)] = t.interchanged;
      // Levels count from the computation's outermost loop; band positions
      // from the nest's root, which is the same loop.
      v[loopFeature(level, LoopPosition)] =
          float(int64_t(level) - position + t.position);
      v[loopFeature(level, LoopTiled)] = t.tile != 0;
      v[loopFeature(level, LoopTileFactor)] = float(t.tile);
      v[loopFeature(level, LoopRegisterTiled)] = t.rtile != 0;
      v[loopFeature(level, LoopRegisterTileFactor)] = float(t.rtile);
      v[loopFeature(level, LoopUnrolled)] = t.unroll != 0;
      v[loopFeature(level, LoopUnrollFactor)] = float(t.unroll);
      v[loopFeature(level, LoopVectorized)] = t.vectorized;
      v[loopFeature(level, LoopParallel)] = t.parallel;
    }
    // Time tiling: the skew band's tile sizes, the fused sweeps' outer loops
    // included, and the two tile loops its wavefront runs over.
    for (auto [level, loopId] : llvm::enumerate(comp.loopIds)) {
      SkewedLoop skewed = skewedLoop(plan, loopId);
      if (!skewed.nest)
        continue;
      v[loopFeature(level, LoopTiled)] = skewed.tile != 0;
      v[loopFeature(level, LoopTileFactor)] = float(skewed.tile);
      v[loopFeature(level, LoopParallel)] = skewed.wavefront;
    }
  }
}

/// Iterations of a loop of `extent` stepping by `step` (0: by 1).
static double trips(int64_t extent, int64_t step) {
  extent = std::max<int64_t>(extent, 1);
  step = std::max<int64_t>(step, 1);
  return double((extent + step - 1) / step);
}

void FeatureExtractor::deriveScheduleFeatures(
    const SchedulePlan &plan, std::vector<float> &values) const {
  for (auto [c, comp] : llvm::enumerate(tree.computations)) {
    float *v = values.data() + c * kNumFeatures;
    size_t depth = comp.loopIds.size();
    // Per level: the extent, the iterations one cache tile and one register
    // tile cover, and the band position (-1: not in the nest's band).
    std::vector<int64_t> extent(depth), tileSize(depth), registerSize(depth);
    std::vector<int> position(depth, -1);
    const NestPlan *nestPlan = nullptr;
    double iterations = 1;
    for (auto [level, loopId] : llvm::enumerate(comp.loopIds)) {
      extent[level] = std::max<int64_t>(tree.loops[loopId].extent, 1);
      iterations *= double(extent[level]);
      tileSize[level] = registerSize[level] = extent[level];
      auto [nestId, p] = bandPosition[loopId];
      if (nestId < 0 || size_t(nestId) >= plan.nests.size())
        continue;
      const NestPlan &n = plan.nests[nestId];
      if (size_t(p) >= n.tile.size())
        continue;
      nestPlan = &n;
      position[level] = p;
      // A fused nest runs whole inside its host's tiles: its own settings
      // are unused.
      if (n.fusedInto >= 0 || n.isUntouched())
        continue;
      if (n.tile[p] != 0)
        tileSize[level] = registerSize[level] = n.tile[p];
      if (n.rtile[p] != 0)
        registerSize[level] = n.rtile[p];
    }
    // A skewed band tiles the loops of its skew band (the fused sweeps'
    // outer loops too), in skewed coordinates; the tiles hold as many
    // points as unskewed ones.
    const NestPlan *skewed = nullptr;
    for (auto [level, loopId] : llvm::enumerate(comp.loopIds)) {
      SkewedLoop loop = skewedLoop(plan, loopId);
      if (!loop.nest)
        continue;
      skewed = loop.nest;
      int64_t tile = loop.tile;
      tileSize[level] = registerSize[level] =
          tile != 0 ? std::min(tile, extent[level]) : extent[level];
    }
    bool scheduled =
        nestPlan && nestPlan->fusedInto < 0 && !nestPlan->isUntouched();

    // The innermost loop: a linalg op's tile body keeps the op's loop order;
    // an affine band runs its point loops in the planned order.
    int inner = depth == 0 ? -1 : int(depth) - 1;
    if (scheduled && nestPlan->source == NestSource::Affine &&
        !nestPlan->order.empty()) {
      for (size_t level = 0; level < depth; ++level)
        if (position[level] == int(nestPlan->order.back()))
          inner = int(level);
    }

    // The nest the computation runs in after fusion.
    const NestPlan *host =
        nestPlan ? &plan.nests[plan.hostOf(nestPlan->nestId)] : nullptr;

    // Parallel chunks: the host's parallel loops (an scf.forall over tiles,
    // or one affine loop, tiled or not), for a fused nest too; for a
    // wavefront, the tiles of one wavefront on average, and how many
    // wavefronts (fork-joins) run.
    double chunks = 0, wavefronts = 0;
    std::vector<size_t> wavefront =
        skewed && skewed->parallel ? wavefrontLoops(*skewed)
                                   : std::vector<size_t>();
    if (wavefront.size() == 2) {
      double a = trips(skewed->skewExtents[wavefront[0]],
                       skewed->skewTile[wavefront[0]]);
      double b = trips(skewed->skewExtents[wavefront[1]],
                       skewed->skewTile[wavefront[1]]);
      wavefronts = a + b - 1;
      chunks = a * b / wavefronts;
    } else if (host) {
      std::vector<size_t> parallelPositions = host->forallPositions();
      if (host->parallelPosition() >= 0)
        parallelPositions.push_back(size_t(host->parallelPosition()));
      if (!parallelPositions.empty()) {
        chunks = 1;
        for (size_t p : parallelPositions)
          chunks *= trips(host->extents[p], host->tile[p]);
      }
    }

    // Footprints and strides from the access matrices.
    double tileBytes = 0, registerBytes = 0;
    bool contiguous = true;
    for (auto [slot, access] : llvm::enumerate(comp.accesses)) {
      const Buffer *buffer =
          access.bufferId >= 0 && size_t(access.bufferId) < tree.buffers.size()
              ? &tree.buffers[access.bufferId]
              : nullptr;
      double bytes = buffer && elementTypeBytes(buffer->elementType)
                         ? elementTypeBytes(buffer->elementType)
                         : elementTypeBytes(comp.elementType);
      double tileSpan = 1, registerSpan = 1, stride = 0, rowSize = 1;
      for (size_t row = access.matrix.size(); row-- > 0;) {
        const std::vector<int64_t> &coefficients = access.matrix[row];
        double tileExtent = 1, registerExtent = 1;
        for (size_t level = 0; level < depth && level + 1 < coefficients.size();
             ++level) {
          double a = std::fabs(double(coefficients[level]));
          tileExtent += a * double(tileSize[level] - 1);
          registerExtent += a * double(registerSize[level] - 1);
        }
        if (buffer && row < buffer->shape.size() && buffer->shape[row] > 0) {
          tileExtent = std::min(tileExtent, double(buffer->shape[row]));
          registerExtent = std::min(registerExtent, double(buffer->shape[row]));
        }
        tileSpan *= tileExtent;
        registerSpan *= registerExtent;
        if (inner >= 0 && size_t(inner) + 1 < coefficients.size())
          stride += double(coefficients[inner]) * rowSize;
        if (!access.isAffine)
          stride = std::nan("");
        rowSize *= buffer && row < buffer->shape.size()
                       ? double(std::max<int64_t>(buffer->shape[row], 1))
                       : 1.0;
      }
      if (std::isnan(stride) || std::fabs(stride) > 1)
        contiguous = false;
      v[accessFeature(slot, AccessInnerStride)] =
          std::isnan(stride) ? -1.0f : float(stride);
      tileBytes += tileSpan * bytes;
      registerBytes += registerSpan * bytes;
    }

    // How often the tile bodies run, and how much fusion recomputes.
    double tiles = 1, registerTiles = 1, recomputation = 1;
    if (scheduled || skewed) {
      for (size_t level = 0; level < depth; ++level) {
        tiles *= trips(extent[level], tileSize[level]);
        registerTiles *= trips(extent[level], registerSize[level]);
      }
    } else if (nestPlan && nestPlan->fusedInto >= 0) {
      std::vector<size_t> fused = host->fusionPositions();
      for (size_t p : fused)
        tiles *= trips(host->extents[p], host->tile[p]);
      registerTiles = tiles;
      // The slice of this computation's result that one host tile reads,
      // from the host computation that reads it.
      for (const Computation &reader : tree.computations) {
        if (reader.nestId != host->nestId)
          continue;
        std::vector<const Access *> reads;
        for (const Access &access : reader.accesses)
          if (!access.isWrite && access.bufferId == comp.writtenBufferId)
            reads.push_back(&access);
        if (reads.empty())
          continue;
        double slice = 1;
        for (auto [row, coefficients] : llvm::enumerate(reads.front()->matrix)) {
          // The reads' offsets widen the slice (a stencil's halo).
          int64_t low = coefficients.back(), high = low;
          for (const Access *read : reads) {
            if (row >= read->matrix.size() || read->matrix[row].empty())
              continue;
            low = std::min(low, read->matrix[row].back());
            high = std::max(high, read->matrix[row].back());
          }
          double span = 1 + double(high - low);
          for (auto [level, loopId] : llvm::enumerate(reader.loopIds)) {
            if (level + 1 >= coefficients.size())
              break;
            int64_t size = std::max<int64_t>(tree.loops[loopId].extent, 1);
            auto [nestId, p] = bandPosition[loopId];
            if (nestId == host->nestId && llvm::is_contained(fused, size_t(p)))
              size = host->tile[p];
            span += std::fabs(double(coefficients[level])) * double(size - 1);
          }
          if (row < comp.writtenShape.size() && comp.writtenShape[row] > 0)
            span = std::min(span, double(comp.writtenShape[row]));
          slice *= span;
        }
        double elements = 1;
        for (int64_t size : comp.writtenShape)
          elements *= double(std::max<int64_t>(size, 1));
        recomputation = std::max(1.0, tiles * slice / elements);
        break;
      }
    }

    bool vectorized = scheduled && nestPlan->vectorize;
    v[scheduleFeature(ScheduleTiles)] = float(tiles);
    v[scheduleFeature(ScheduleRegisterTiles)] = float(registerTiles);
    v[scheduleFeature(ScheduleRecomputation)] = float(recomputation);
    v[scheduleFeature(ScheduleIterations)] = float(iterations);
    v[scheduleFeature(ScheduleInnerExtent)] =
        inner >= 0 ? float(registerSize[inner]) : 0.0f;
    v[scheduleFeature(ScheduleInnerContiguous)] = contiguous;
    v[scheduleFeature(ScheduleVectorContiguous)] = vectorized && contiguous;
    v[scheduleFeature(ScheduleParallelChunks)] = float(chunks);
    v[scheduleFeature(ScheduleChunkIterations)] =
        float(chunks > 0 ? iterations / chunks : iterations);
    v[scheduleFeature(ScheduleTileFootprint)] = float(tileBytes);
    v[scheduleFeature(ScheduleRegisterFootprint)] = float(registerBytes);

    // The micro-kernel: partial tiles, accumulators kept in registers, the
    // contraction lowering, the distribution.
    int partial = 0;
    bool accumulatorInRegisters = false;
    if (scheduled && nestPlan->source == NestSource::Linalg) {
      const NestPlan &n = *nestPlan;
      for (size_t p = 0; p < n.extents.size(); ++p) {
        int64_t cache = n.tile[p] ? n.tile[p] : n.extents[p];
        if ((n.tile[p] && n.extents[p] % n.tile[p]) ||
            (n.rtile[p] && cache % n.rtile[p]))
          ++partial;
      }
      std::vector<size_t> registerLoops = n.registerLoopPositions();
      std::vector<size_t> tileLoops = n.tileLoopPositions();
      const std::vector<size_t> &innermostLoops =
          registerLoops.empty() ? tileLoops : registerLoops;
      accumulatorInRegisters = n.vectorize && !innermostLoops.empty() &&
                               n.isReduction[innermostLoops.back()];
    }
    bool linalgVectorized = vectorized && nestPlan &&
                            nestPlan->source == NestSource::Linalg;
    v[scheduleFeature(SchedulePartialTiles)] = float(partial);
    v[scheduleFeature(ScheduleAccumulatorInRegisters)] =
        accumulatorInRegisters;
    v[scheduleFeature(ScheduleLoweringDot)] =
        linalgVectorized && nestPlan->lowering == "dot";
    v[scheduleFeature(ScheduleLoweringParallelArith)] =
        linalgVectorized && nestPlan->lowering == "parallelarith";
    v[scheduleFeature(SchedulePaddedPartialTiles)] =
        scheduled && nestPlan->source == NestSource::Linalg &&
        nestPlan->padPartial && nestPlan->padsPartialTiles();
    v[scheduleFeature(ScheduleConvolutionIm2col)] =
        scheduled && nestPlan->convolution == ConvolutionStrategy::Im2col;
    v[scheduleFeature(ScheduleConvolutionDecomposed)] =
        scheduled && nestPlan->convolution == ConvolutionStrategy::Decompose;
    v[scheduleFeature(ScheduleTimeTiled)] = skewed != nullptr;
    v[scheduleFeature(ScheduleWavefronts)] = float(wavefronts);
    v[scheduleFeature(ScheduleDistributeOuter)] =
        host && host->parallel && host->distributeOuter &&
        host->source == NestSource::Linalg &&
        llvm::count_if(llvm::seq<size_t>(0, host->tile.size()),
                       [&](size_t p) {
                         return host->tile[p] != 0 && !host->isReduction[p];
                       }) > 1;
  }
}

void FeatureExtractor::extractValues(const SchedulePlan &plan,
                                     std::vector<float> &values) const {
  values.assign(base.begin(), base.end());
  tagLoops(plan, values);
  deriveScheduleFeatures(plan, values);
}

ProgramFeatures FeatureExtractor::extract(const SchedulePlan &plan) const {
  ProgramFeatures result;
  result.tree = buildTree(plan);
  extractValues(plan, result.values);
  return result;
}

llvm::Expected<ProgramFeatures>
FeatureExtractor::extract(const Space &space, const Config &config) const {
  llvm::Expected<SchedulePlan> plan = planSchedule(tree, space, config);
  if (!plan)
    return plan.takeError();
  return extract(*plan);
}
