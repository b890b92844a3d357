// placeholder
#include "tuner/Schedule/TransformExtension.h"
void tuner::registerTunerDialectExtensions(mlir::DialectRegistry &) {}
