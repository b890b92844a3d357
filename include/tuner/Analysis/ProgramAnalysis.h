//===- ProgramAnalysis.h - ProgramTree from linalg / affine IR --*- C++ -*-===//
//
// Builds the ProgramTree of a function from linalg ops (named and generic, on
// tensors or memrefs, static shapes) and affine.for nests with affine.load /
// affine.store. Never mutates IR.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_ANALYSIS_PROGRAMANALYSIS_H
#define TUNER_ANALYSIS_PROGRAMANALYSIS_H

#include "tuner/Analysis/ProgramTree.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Support/LLVM.h"

namespace tuner {

/// Builds the tree of `func`. Emits an error at the offending op and fails on
/// what the tuner cannot model: dynamic shapes, ops with regions it does not
/// understand, non-affine loop bounds.
mlir::FailureOr<ProgramTree> buildProgramTree(mlir::func::FuncOp func);

/// The ops a nest stands for: the linalg op, or the outermost affine.for.
/// `nest.opIndex` counts linalg ops (resp. outermost affine.for ops) of the
/// function in walk order, which is how schedules find them again.
mlir::Operation *findNestOp(mlir::func::FuncOp func, const LoopNest &nest);

} // namespace tuner

#endif // TUNER_ANALYSIS_PROGRAMANALYSIS_H
