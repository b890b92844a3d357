//===- TunerTransformOps.h - The tuner's transform ops ----------*- C++ -*-===//
//
// Op classes generated from TunerTransformOps.td: transform.tuner.affine_nest,
// affine_interchange, affine_tile and affine_parallelize. Register them with
// registerTunerDialectExtensions (TransformExtension.h).
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_SCHEDULE_TUNERTRANSFORMOPS_H
#define TUNER_SCHEDULE_TUNERTRANSFORMOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Transform/IR/TransformTypes.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/IR/OpImplementation.h"

#define GET_OP_CLASSES
#include "tuner/Schedule/TunerTransformOps.h.inc"

#endif // TUNER_SCHEDULE_TUNERTRANSFORMOPS_H
