//===- DeadWork.h - Loop nests whose work nothing observes ------*- C++ -*-===//
//
// A function's observable output is what it returns and what it writes to
// memory its caller can see (its memref arguments, globals, anything the
// analysis cannot follow). A loop nest (a linalg op or an outermost
// affine.for at function level) whose results and writes reach none of it
// does dead work: timing it measures nothing but the call, and the native
// compiler may delete it. The analysis is conservative: an op it cannot
// follow (unknown memory effects, a local buffer that escapes) keeps
// everything it touches alive. Never mutates IR.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_ANALYSIS_DEADWORK_H
#define TUNER_ANALYSIS_DEADWORK_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <string>
#include <vector>

namespace tuner {

/// A loop nest of a function whose work no output of the function depends
/// on, and why (a sentence about the op, e.g. "the result of this op is not
/// used").
struct DeadNest {
  mlir::Operation *op;
  std::string reason;
};

/// The linalg ops and outermost affine.for ops at the top level of `func`
/// whose work is dead, in program order. Empty for a function the analysis
/// cannot follow (several blocks).
std::vector<DeadNest> findDeadNests(mlir::func::FuncOp func);

} // namespace tuner

#endif // TUNER_ANALYSIS_DEADWORK_H
