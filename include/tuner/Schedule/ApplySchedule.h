//===- ApplySchedule.h - Run a transform script in-process ------*- C++ -*-===//

#ifndef TUNER_SCHEDULE_APPLYSCHEDULE_H
#define TUNER_SCHEDULE_APPLYSCHEDULE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

namespace tuner {

/// Parses `script` (a module with a named sequence @__transform_main) and
/// applies it to `payload` with the transform interpreter. The payload is
/// transformed on a copy: on failure it is left untouched and the
/// interpreter's diagnostics are reported at `payload`'s location.
mlir::LogicalResult applyTransformScript(mlir::ModuleOp payload,
                                         llvm::StringRef script);

} // namespace tuner

#endif // TUNER_SCHEDULE_APPLYSCHEDULE_H
