//===- GradientBoostedTrees.h - Trees, a cost model baseline ----*- C++ -*-===//
//-*-===//
//
// Gradient-boosted trees (XGBoost, as TVM's Ansor uses them) on the same
// per-schedule features as the tree-LSTM, flattened to one fixed-length
// vector per schedule: the honest baseline for the network at the data
// sizes of this project, and a model the search can use in its place
// (`--tuner-autotune="model=FILE"` loads either kind; CostModel::load tells
// them apart by the file's "format").
//
// The flat vector (the one place it is defined; flatFeatureNames() names
// every entry) is, for a schedule S of a program with untransformed
// schedule R, where t() is transformFeature (log for numeric features) and
// c runs over the computations:
//   [0, N)        sum.F   sum over c of t(S_c[F])      (Ansor's pooling)
//   [N, 2N)       max.F   max over c of t(S_c[F])      (booleans: any)
//   [2N, 3N)      diff.F  sum.F of S minus sum.F of R  (what the schedule
//                         changed; for numeric features a log ratio)
//   3N            computations   the program's computations
//   3N + 1        loops          loops of S's tree (fusion changes them)
//   3N + 2        diff.loops     loops of S minus loops of R
// with N = features::kNumFeatures. The label is the log speedup of S over R;
// each training program also contributes R itself with label 0. The
// predicted speedup is exp(f(S) - f(R)), so that the untransformed
// schedule's prediction is exactly 1, as the network's is.
//
// Objectives: squared error on the log speedup (`squared`), or XGBoost's
// `rank:pairwise` with the program as the group (`pairwise`, as Ansor
// trains): its scores have no scale, so its predicted speedups rank a
// program's schedules but their magnitudes (and MAPE) mean little.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_COSTMODEL_GRADIENTBOOSTEDTREES_H
#define TUNER_COSTMODEL_GRADIENTBOOSTEDTREES_H

#include "tuner/CostModel/CostModel.h"
#include "tuner/CostModel/Dataset.h"
#include "tuner/CostModel/Features.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>
#include <vector>

namespace tuner {

namespace flat {
constexpr unsigned kSumOffset = 0;
constexpr unsigned kMaxOffset = features::kNumFeatures;
constexpr unsigned kDifferenceOffset = 2 * features::kNumFeatures;
constexpr unsigned kComputations = 3 * features::kNumFeatures;
constexpr unsigned kLoops = kComputations + 1;
constexpr unsigned kLoopDifference = kComputations + 2;
/// Entries of one flat vector.
constexpr unsigned kNumFlatFeatures = kComputations + 3;
} // namespace flat

/// The names of the flat vector's entries, in order ("sum.loop0.extent",
/// "max.adds", "diff.tile_footprint", "computations", "loops",
/// "diff.loops").
const std::vector<std::string> &flatFeatureNames();
/// A hash of the flat layout (its names in order and the computation
/// vector's layout hash), as 16 hex digits; tree model files record it.
const std::string &flatLayoutHash();

/// What the flat vectors of one program's schedules share: the untransformed
/// schedule's pooled sums and loop count.
struct FlatReference {
  std::vector<float> sums; ///< features::kNumFeatures entries.
  float loops = 0;
  static FlatReference of(const ProgramFeatures &reference);
};

/// Writes the flat vector of `schedule` (flat::kNumFlatFeatures entries) to
/// `out`.
void flattenFeatures(const ProgramFeatures &schedule,
                     const FlatReference &reference, float *out);
/// The flat vector of `schedule` of a program whose untransformed schedule
/// is `reference`.
std::vector<float> flattenFeatures(const ProgramFeatures &schedule,
                                   const ProgramFeatures &reference);

/// What the trees are fitted to.
enum class TreeObjective {
  /// Squared error on the log speedup (XGBoost's reg:squarederror).
  SquaredLogError,
  /// Pairwise ranking within each program (XGBoost's rank:pairwise).
  PairwiseRank,
};
/// "squared" or "pairwise".
llvm::StringRef treeObjectiveName(TreeObjective objective);
std::optional<TreeObjective> parseTreeObjective(llvm::StringRef name);

struct TreeTrainingOptions {
  /// Seed of the split (the network's split for the same seed) and of
  /// XGBoost's row and column sampling.
  uint64_t seed = 1;
  TreeObjective objective = TreeObjective::SquaredLogError;
  /// Most boosting rounds (one tree each); training may stop earlier.
  unsigned rounds = 1000;
  /// Stop after this many rounds without a better validation metric (the
  /// trees of the best round are kept).
  unsigned patience = 50;
  /// XGBoost's eta, max_depth, min_child_weight, subsample (of the rows per
  /// tree), colsample_bytree and lambda (L2 on leaf weights).
  double learningRate = 0.05;
  unsigned maxDepth = 6;
  double minChildWeight = 1;
  double subsample = 0.8;
  double columnSample = 0.5;
  double lambda = 1;
  /// XGBoost's threads while training (0: one per core). Trees fitted to
  /// the squared error do not depend on it (training uses the exact greedy
  /// split finder); rank:pairwise samples its pairs per thread, so its trees
  /// are the same for the same seed and thread count only. Inference always
  /// runs on the caller's thread.
  unsigned threads = 1;

  /// Fails on zero rounds, patience or depth, a learning rate outside
  /// (0, 1], a sampling ratio outside (0, 1], a negative min_child_weight
  /// or lambda.
  llvm::Error check() const;
};

/// What one boosting round did.
struct TreeRoundReport {
  unsigned round = 0; ///< 1-based.
  /// The early-stopping metric on the training and validation programs:
  /// RMSE of the log speedup (squared) or the mean within-program Spearman
  /// (pairwise).
  double trainMetric = 0, validationMetric = 0;
  bool best = false; ///< Whether the validation metric is the best so far.
};

/// How the trees were trained (stored in the model file).
struct TreeTrainingSummary {
  TreeTrainingOptions options;
  /// "rmse" or "spearman" (see TreeRoundReport).
  std::string metric;
  unsigned roundsRun = 0, bestRound = 0;
  double trainMetric = 0, validationMetric = 0;
  /// Of the predicted speedups.
  double trainMAPE = 0, validationMAPE = 0;
  double testMAPE = 0, testPearson = 0, testSpearman = 0;
  double seconds = 0;
  /// XGBoost's version, e.g. "1.7.4".
  std::string xgboostVersion;

  llvm::json::Value toJSON() const;
  static llvm::Expected<TreeTrainingSummary>
  fromJSON(const llvm::json::Value &json);
};

/// Trains trees on `dataset` (read from `datasetPath`) with the network's
/// split for the same seed (splitPrograms): fitted on the training
/// programs, stopped early on the validation programs, tested on the test
/// programs. Calls `onRound` after every round. Fails as trainCostModel
/// does on too few programs or several machines, or when XGBoost fails
/// (with its message). Deterministic for a seed.
llvm::Expected<CostModel> trainGradientBoostedTrees(
    const Dataset &dataset, llvm::StringRef datasetPath,
    const TreeTrainingOptions &options,
    llvm::function_ref<void(const TreeRoundReport &)> onRound);

/// Checks the booster of a tree model file (XGBoost's UBJSON, as the file's
/// "booster.data" holds it) without XGBoost: decodes it strictly and checks
/// that it is a booster the tuner trains, for the flat layout (its shape and
/// every tree's nodes; lib/CostModel/BoosterCheck.h lists the rules).
/// Returns its number of trees, or an error naming the field, tree and node
/// at fault. Model files are read through it: XGBoost never sees a booster
/// it refuses.
llvm::Expected<unsigned> checkTreeBooster(llvm::StringRef ubjson);

/// The training summary of a model of trees; null for a network.
const TreeTrainingSummary *treeTrainingSummary(const CostModel &model);

} // namespace tuner

#endif // TUNER_COSTMODEL_GRADIENTBOOSTEDTREES_H
