//===- WorkloadHash.h - Identity of a workload ------------------*- C++ -*-===//
//
// A workload is a function as the tuner sees it. Its key in the tuning
// database is a hash of its canonical IR: the function printed in generic
// form, without locations, so that formatting, comments and SSA names do not
// matter while any change to ops, types, shapes or attributes does.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_ANALYSIS_WORKLOADHASH_H
#define TUNER_ANALYSIS_WORKLOADHASH_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <string>

namespace tuner {

/// The canonical text of `func`.
std::string canonicalIR(mlir::func::FuncOp func);

/// 16 hex digits of a 64-bit hash of canonicalIR(func).
std::string workloadHash(mlir::func::FuncOp func);

} // namespace tuner

#endif // TUNER_ANALYSIS_WORKLOADHASH_H
