// CostModel may include Space, but neither Measure nor MLIR.
#include "tuner/Space/Space.h"
#include "tuner/Measure/Measurer.h"
#include "mlir/IR/Builders.h"
