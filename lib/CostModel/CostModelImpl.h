//===- CostModelImpl.h - What a CostModel holds -----------------*- C++ -*-===//
//
// Internal to TunerCostModel: the networks (Eigen) and gradient-boosted
// trees (XGBoost) behind a CostModel.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_LIB_COSTMODEL_COSTMODELIMPL_H
#define TUNER_LIB_COSTMODEL_COSTMODELIMPL_H

#include "Network.h"
#include "TreeModel.h"

#include "tuner/CostModel/CostModel.h"

namespace tuner {

struct CostModel::Impl {
  /// `members` networks of `shape` (initialized later).
  Impl(const NetworkShape &shape, size_t members)
      : shape(shape), networks(members, Network<float>(shape)) {}
  NetworkShape shape;
  /// The ensemble's members, all of `shape`; empty only in a model of
  /// trees.
  std::vector<Network<float>> networks;
  /// Gradient-boosted trees (GradientBoostedTrees.h): set in a model of
  /// trees, whose `networks` are empty, null otherwise. (Predictions would
  /// average them with networks as one more member, but no model file
  /// holds both.)
  std::shared_ptr<const TreeModel> trees;
  std::string target;
  TrainingSummary training;
  DatasetSummary dataset;
};

} // namespace tuner

#endif // TUNER_LIB_COSTMODEL_COSTMODELIMPL_H
