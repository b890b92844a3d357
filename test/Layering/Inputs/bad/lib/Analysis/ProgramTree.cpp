// ProgramTree is the plain part of Analysis.
#include <mlir/IR/Value.h>
