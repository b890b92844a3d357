// KnobSpace is the MLIR part of Space: no error.
#include "tuner/Space/KnobSpace.h"
#include "mlir/IR/Builders.h"
