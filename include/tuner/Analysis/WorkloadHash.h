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

/// The canonical text of `func`. A function with dynamic shapes tuned at
/// given sizes (`shapes`, e.g. "arg0=64x48": see
/// tuner/Tuning/ShapeSpecialization.h) is another workload at each size:
/// its text ends with a line "// shapes: <shapes>".
std::string canonicalIR(mlir::func::FuncOp func, llvm::StringRef shapes = "");

/// 16 hex digits of a 64-bit hash of canonicalIR(func, shapes).
std::string workloadHash(mlir::func::FuncOp func, llvm::StringRef shapes = "");

} // namespace tuner

#endif // TUNER_ANALYSIS_WORKLOADHASH_H
