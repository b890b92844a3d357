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

/// Whether `func` holds linalg ops or affine.for nests: the functions the
/// tuner analyzes.
bool hasLoopNests(mlir::func::FuncOp func);

/// Builds the tree of `func`. Emits an error at the offending op and fails on
/// what the tuner cannot model: dynamic shapes, ops with regions it does not
/// understand, non-affine loop bounds.
///
/// Linalg: one nest per op, its loops the op's iteration dims ("<comp>.d<i>"),
/// one computation "<op>_<k>" (k counts linalg ops). Affine: one nest
/// "nest_<k>" per outermost affine.for, loops "nest_<k>.d<i>" in pre-order,
/// one computation "nest_<k>.s<j>" per affine.store, reading the loads its
/// stored value is computed from. An affine loop is a reduction when every
/// statement under it writes a location independent of the loop and reads
/// that location, or when it carries iter_args. Tensor results continue the
/// buffer of their init; other values get a buffer on first use.
mlir::FailureOr<ProgramTree> buildProgramTree(mlir::func::FuncOp func);

/// The ops a nest stands for: the linalg op, or the outermost affine.for.
/// `nest.opIndex` counts linalg ops (resp. outermost affine.for ops) of the
/// function in walk order, which is how schedules find them again.
mlir::Operation *findNestOp(mlir::func::FuncOp func, const LoopNest &nest);

} // namespace tuner

#endif // TUNER_ANALYSIS_PROGRAMANALYSIS_H
