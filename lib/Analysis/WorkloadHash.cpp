//===- WorkloadHash.cpp - Identity of a workload --------------------------===//

#include "tuner/Analysis/WorkloadHash.h"

#include "mlir/IR/OperationSupport.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;

std::string tuner::canonicalIR(func::FuncOp func, llvm::StringRef shapes) {
  std::string text;
  llvm::raw_string_ostream os(text);
  OpPrintingFlags flags;
  flags.printGenericOpForm();
  flags.elideLargeElementsAttrs(/*largeElementLimit=*/-1);
  func->print(os, flags);
  if (!shapes.empty())
    os << "\n// shapes: " << shapes;
  return text;
}

std::string tuner::workloadHash(func::FuncOp func, llvm::StringRef shapes) {
  uint64_t hash = llvm::xxh3_64bits(canonicalIR(func, shapes));
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format_hex_no_prefix(hash, 16);
  return text;
}
