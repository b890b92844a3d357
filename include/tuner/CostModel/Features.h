//===- Features.h - What the cost model sees of a schedule ------*- C++ -*-===//
//
// A scheduled program as the cost model sees it (Tiramisu paper §4.1): one
// computation vector per computation (Features.def lists every entry) and
// the program structure as a tree whose inner nodes are loops and whose
// leaves are the computation vectors. Fusion changes the tree (a fused
// producer's loops move into its consumer's tile loops); the other
// transformations are tags and factors on loop levels.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_COSTMODEL_FEATURES_H
#define TUNER_COSTMODEL_FEATURES_H

#include "tuner/Analysis/ProgramTree.h"
#include "tuner/Schedule/SchedulePlan.h"
#include "tuner/Space/Space.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tuner {

enum class FeatureKind { Boolean, Numeric };

namespace features {
#define TUNER_FEATURE_MAXIMUM(Name, key, value, description)                   \
  constexpr unsigned kMax##Name = value;
#include "tuner/CostModel/Features.def"

/// Features of one loop level, in layout order.
enum LoopFeature : unsigned {
#define TUNER_LOOP_FEATURE(Name, key, kind, description) Loop##Name,
#include "tuner/CostModel/Features.def"
  kNumLoopFeatures
};
/// Computation-wide features after the written shape, in layout order.
enum ComputationFeature : unsigned {
#define TUNER_COMPUTATION_FEATURE(Name, key, kind, description) Name,
#include "tuner/CostModel/Features.def"
  kNumComputationFeatures
};
/// Schedule-derived computation-wide features, in layout order.
enum ScheduleFeature : unsigned {
#define TUNER_SCHEDULE_FEATURE(Name, key, kind, description) Schedule##Name,
#include "tuner/CostModel/Features.def"
  kNumScheduleFeatures
};
/// Features of one access slot before its matrix, in layout order.
enum AccessFeature : unsigned {
#define TUNER_ACCESS_FEATURE(Name, key, kind, description) Access##Name,
#include "tuner/CostModel/Features.def"
  kNumAccessFeatures
};

constexpr unsigned kMatrixColumns = kMaxLoopLevels + 1;
constexpr unsigned kAccessSlotSize =
    kNumAccessFeatures + kMaxBufferRank * kMatrixColumns;
constexpr unsigned kLoopBlockOffset = 0;
constexpr unsigned kWrittenShapeOffset = kMaxLoopLevels * kNumLoopFeatures;
constexpr unsigned kComputationOffset = kWrittenShapeOffset + kMaxBufferRank;
constexpr unsigned kScheduleOffset =
    kComputationOffset + kNumComputationFeatures;
constexpr unsigned kAccessBlockOffset = kScheduleOffset + kNumScheduleFeatures;
/// Entries of one computation vector.
constexpr unsigned kNumFeatures =
    kAccessBlockOffset + kMaxAccesses * kAccessSlotSize;

constexpr unsigned loopFeature(unsigned level, LoopFeature feature) {
  return kLoopBlockOffset + level * kNumLoopFeatures + feature;
}
constexpr unsigned writtenSize(unsigned dim) {
  return kWrittenShapeOffset + dim;
}
constexpr unsigned computationFeature(ComputationFeature feature) {
  return kComputationOffset + feature;
}
constexpr unsigned scheduleFeature(ScheduleFeature feature) {
  return kScheduleOffset + feature;
}
constexpr unsigned accessFeature(unsigned slot, AccessFeature feature) {
  return kAccessBlockOffset + slot * kAccessSlotSize + feature;
}
/// Access matrix entry (row = buffer dimension, column = loop level, or
/// kMaxLoopLevels for the constant).
constexpr unsigned accessMatrix(unsigned slot, unsigned row, unsigned column) {
  return kAccessBlockOffset + slot * kAccessSlotSize + kNumAccessFeatures +
         row * kMatrixColumns + column;
}
} // namespace features

/// One entry of the computation vector.
struct FeatureInfo {
  std::string name; ///< "loop2.tile_factor", "access0.m1.c3", "adds", ...
  FeatureKind kind = FeatureKind::Numeric;
  std::string description;
};

/// Every entry of the computation vector, in order (features::kNumFeatures).
const std::vector<FeatureInfo> &featureList();
/// The maxima of the layout as (key, value), e.g. ("loop_levels", 7).
std::vector<std::pair<std::string, unsigned>> featureMaxima();
/// A hash of the layout (every name and kind in order, and the maxima), as
/// 16 hex digits. Model files record it; a different one fails to load.
const std::string &featureLayoutHash();
/// Documents the layout (from Features.def) as a Markdown table.
void printFeatureDocumentation(llvm::raw_ostream &os);
/// What the network reads instead of a raw value: sign(x) * log(1 + |x|)
/// for numeric features, the value itself for boolean ones.
float transformFeature(unsigned index, double value);

/// The program structure: nodes are loops (and, last, the function body);
/// leaves are computations.
struct FeatureTree {
  struct Node {
    int loopId = -1; ///< The ProgramTree loop; -1 for the function body.
    /// Child nodes (indices into `nodes`) and child computations (ids), each
    /// in program order.
    std::vector<int> loops;
    std::vector<int> computations;
  };
  /// Children before parents; the last node is the function body (root).
  std::vector<Node> nodes;
  unsigned numComputations = 0;

  /// Structural hash: trees that can share a batch hash equal.
  uint64_t hash() const;
};

/// The features of one schedule of one program.
struct ProgramFeatures {
  FeatureTree tree;
  /// Raw computation vectors (before transformFeature), computation by
  /// computation in ProgramTree order: features::kNumFeatures entries each.
  std::vector<float> values;

  float at(unsigned computation, unsigned feature) const {
    return values[size_t(computation) * features::kNumFeatures + feature];
  }
};

/// Extracts features of schedules of one program. The schedule-independent
/// parts of the computation vectors are computed once, when it is created.
class FeatureExtractor {
public:
  /// Fails when the program does not fit the layout (a computation with more
  /// loop levels, accesses or buffer dimensions than Features.def allows),
  /// naming the computation, what it has and the maximum; or when the tree is
  /// not consistent (ProgramTree::verify).
  static llvm::Expected<FeatureExtractor> create(const ProgramTree &tree);

  /// Features of `plan`, which must be a plan of this extractor's tree.
  ProgramFeatures extract(const SchedulePlan &plan) const;
  /// Plans `config` (see planSchedule) and extracts its features.
  llvm::Expected<ProgramFeatures> extract(const Space &space,
                                          const Config &config) const;
  /// extract(plan) in two parts, for callers that group schedules by tree
  /// shape before they need the vectors: the tree of `plan`, and its
  /// computation vectors written into `values` (whose storage is reused).
  FeatureTree extractTree(const SchedulePlan &plan) const {
    return buildTree(plan);
  }
  void extractValues(const SchedulePlan &plan,
                     std::vector<float> &values) const;

  const ProgramTree &getTree() const { return tree; }

private:
  explicit FeatureExtractor(const ProgramTree &tree) : tree(tree) {}
  FeatureTree buildTree(const SchedulePlan &plan) const;
  void tagLoops(const SchedulePlan &plan, std::vector<float> &values) const;
  /// The TUNER_SCHEDULE_FEATUREs and the accesses' inner strides.
  void deriveScheduleFeatures(const SchedulePlan &plan,
                              std::vector<float> &values) const;

  ProgramTree tree;
  /// Schedule-independent computation vectors.
  std::vector<float> base;
  /// Per loop id: its nest and band position (-1 when not in a band).
  std::vector<std::pair<int, int>> bandPosition;
  /// Per loop id: the nest whose skew band holds it and its index there
  /// (-1 when in none). A skew band extends past the nest's band into the
  /// outermost loops of the nests inside it (see LoopNest::skewBand).
  std::vector<std::pair<int, int>> skewPosition;
  /// What time tiling (skew = true) makes of loop `loopId`: the skewed
  /// nest (null when the loop is in no skewed band), its tile size there (0:
  /// not tiled) and whether it runs in a wavefront.
  struct SkewedLoop {
    const NestPlan *nest = nullptr;
    int64_t tile = 0;
    bool wavefront = false;
  };
  SkewedLoop skewedLoop(const SchedulePlan &plan, int loopId) const;
};

} // namespace tuner

#endif // TUNER_COSTMODEL_FEATURES_H
