//===- Passes.h - The tuner's passes ----------------------------*- C++ -*-===//

#ifndef TUNER_PASSES_PASSES_H
#define TUNER_PASSES_PASSES_H

#include "tuner/Measure/Lowering.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace tuner {

#define GEN_PASS_DECL
#include "tuner/Passes/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tuner/Passes/Passes.h.inc"

} // namespace tuner

#endif // TUNER_PASSES_PASSES_H
