//===- TreeModel.h - Gradient-boosted trees behind a CostModel --*- C++ -*-===//
//
// Internal to TunerCostModel: an XGBoost booster (its C API stays inside
// GradientBoostedTrees.cpp) and how it was trained, and the hooks through
// which CostModel loads, saves and predicts with it.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_LIB_COSTMODEL_TREEMODEL_H
#define TUNER_LIB_COSTMODEL_TREEMODEL_H

#include "tuner/CostModel/CostModel.h"
#include "tuner/CostModel/GradientBoostedTrees.h"

#include "llvm/ADT/ArrayRef.h"

#include <memory>
#include <string>
#include <vector>

namespace tuner {

/// A trained booster over flat vectors. Immutable once built; predictions
/// use XGBoost's in-place prediction, which XGBoost documents as safe to
/// call from several threads for tree boosters (its results live in
/// thread-local buffers).
class TreeModel {
public:
  /// The file's "format" of a model of trees.
  static constexpr llvm::StringLiteral kFormatName = "tuner-tree-model";
  static constexpr int64_t kFormatVersion = 1;

  ~TreeModel();
  TreeModel(const TreeModel &) = delete;
  TreeModel &operator=(const TreeModel &) = delete;

  /// Takes ownership of `booster` (an XGBoost BoosterHandle), which must
  /// read flat::kNumFlatFeatures columns.
  TreeModel(void *booster, TreeTrainingSummary summary)
      : booster(booster), summary(std::move(summary)) {}

  /// The booster as XGBoost's UBJSON model (XGBoosterSaveModelToBuffer).
  llvm::Expected<std::string> serialize() const;
  /// Reads a booster written by serialize(); fails with XGBoost's message on
  /// bytes that are not one, or one of another number of features.
  static llvm::Expected<std::unique_ptr<TreeModel>>
  deserialize(llvm::ArrayRef<char> bytes, TreeTrainingSummary summary);

  /// Raw scores (margins) of `rows` flat vectors stored row after row.
  std::vector<float> scores(const float *values, size_t rows) const;

  /// What the schedules of one program share: f(R) (the untransformed
  /// schedule's score), then FlatReference::sums, then its loops.
  std::vector<float> referenceState(const ProgramFeatures &reference) const;
  /// Adds the log predicted speedup of each schedule over the schedule whose
  /// referenceState is `state` to `logSum`.
  void addLogSpeedups(llvm::ArrayRef<float> state,
                      llvm::ArrayRef<ProgramFeatures> schedules,
                      llvm::MutableArrayRef<double> logSum) const;

  const TreeTrainingSummary &getSummary() const { return summary; }
  /// Replaces the summary (training completes it after the model exists).
  void setSummary(TreeTrainingSummary newSummary) {
    summary = std::move(newSummary);
  }
  /// Boosting rounds (trees) the booster holds.
  unsigned rounds() const;

private:
  void *booster;
  TreeTrainingSummary summary;
};

/// The JSON of a CostModel of trees (its Impl holds `trees` and no
/// networks).
llvm::json::Value treeCostModelToJSON(const CostModel &model);
/// Reads a model file of format TreeModel::kFormatName; `what` names the
/// source in errors.
llvm::Expected<CostModel> treeCostModelFromJSON(const llvm::json::Value &json,
                                                llvm::StringRef what);

} // namespace tuner

#endif // TUNER_LIB_COSTMODEL_TREEMODEL_H
