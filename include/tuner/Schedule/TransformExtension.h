//===- TransformExtension.h - The tuner's transform ops ---------*- C++ -*-===//
//
// Transform-dialect ops the tuner adds for what upstream lacks (affine loop
// nests: find a nest, tile, interchange, parallelize). Registered by tuner-opt
// and by TunerPlugin.so (--load-dialect-plugin), so that scripts using them
// replay in stock mlir-opt too.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_SCHEDULE_TRANSFORMEXTENSION_H
#define TUNER_SCHEDULE_TRANSFORMEXTENSION_H

#include "mlir/IR/DialectRegistry.h"

namespace tuner {

void registerTunerDialectExtensions(mlir::DialectRegistry &registry);

} // namespace tuner

#endif // TUNER_SCHEDULE_TRANSFORMEXTENSION_H
