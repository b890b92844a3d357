#include "tuner/Analysis/ProgramTree.h"
#include "mlir/IR/BuiltinOps.h"
