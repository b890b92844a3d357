#include "llvm/ADT/StringRef.h"
#include "tuner/Target/Target.h"
