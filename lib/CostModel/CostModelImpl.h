//===- CostModelImpl.h - What a CostModel holds -----------------*- C++ -*-===//
//
// Internal to TunerCostModel: the network (Eigen) behind a CostModel.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_LIB_COSTMODEL_COSTMODELIMPL_H
#define TUNER_LIB_COSTMODEL_COSTMODELIMPL_H

#include "Network.h"

#include "tuner/CostModel/CostModel.h"

namespace tuner {

struct CostModel::Impl {
  explicit Impl(const NetworkShape &shape) : network(shape) {}
  Network<float> network;
  std::string target;
  TrainingSummary training;
  DatasetSummary dataset;
};

} // namespace tuner

#endif // TUNER_LIB_COSTMODEL_COSTMODELIMPL_H
