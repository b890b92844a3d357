// Search may include Space, but not its MLIR part.
#include "tuner/Space/Space.h"
#include "tuner/Space/KnobSpace.h"
