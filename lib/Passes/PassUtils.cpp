//===- PassUtils.cpp - Shared plumbing of the tuner's passes --------------===//

#include "tuner/Passes/PassUtils.h"
#include "tuner/Analysis/ProgramAnalysis.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;
using namespace tuner;

FailureOr<func::FuncOp> tuner::selectFunction(ModuleOp module,
                                              llvm::StringRef name) {
  if (!name.empty()) {
    auto func = module.lookupSymbol<func::FuncOp>(name);
    if (!func) {
      module.emitError() << "no function named '" << name << "' in the module";
      return failure();
    }
    if (func.isExternal()) {
      func.emitError() << "function '" << name
                       << "' is a declaration: nothing to tune";
      return failure();
    }
    return func;
  }
  SmallVector<func::FuncOp> candidates;
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal() && hasLoopNests(func))
      candidates.push_back(func);
  if (candidates.empty()) {
    module.emitError()
        << "no function with linalg ops or affine loop nests to tune";
    return failure();
  }
  if (candidates.size() > 1) {
    InFlightDiagnostic diag = module.emitError()
                              << "several functions could be tuned (";
    llvm::interleaveComma(candidates, diag, [&](func::FuncOp f) {
      diag << "'" << f.getSymName() << "'";
    });
    diag << "): choose one with the 'function' option";
    return failure();
  }
  return candidates.front();
}

FailureOr<Space> tuner::readSpaceFile(Operation *at, llvm::StringRef path) {
  llvm::Expected<Space> space = Space::readFile(path);
  if (!space) {
    emitError(at, "cannot read the space '" + path + "'", space.takeError());
    return failure();
  }
  return std::move(*space);
}

void tuner::emitError(Operation *at, llvm::Twine context, llvm::Error error) {
  std::string message = llvm::toString(std::move(error));
  if (context.isTriviallyEmpty())
    at->emitError() << message;
  else
    at->emitError() << context << ": " << message;
}

FailureOr<Target> tuner::resolveTarget(Operation *at, llvm::StringRef spec) {
  llvm::Expected<Target> target = Target::resolve(spec);
  if (!target) {
    emitError(at, "invalid target", target.takeError());
    return failure();
  }
  return *target;
}

FailureOr<TunableFunction> tuner::prepareFunction(ModuleOp module,
                                                  llvm::StringRef functionName,
                                                  llvm::StringRef targetSpec,
                                                  const SpaceOptions &options,
                                                  llvm::StringRef shapes) {
  FailureOr<func::FuncOp> func = selectFunction(module, functionName);
  if (failed(func))
    return failure();
  FailureOr<Target> target = resolveTarget(module, targetSpec);
  if (failed(target))
    return failure();
  // A dynamic function is analyzed at the sizes it is tuned for.
  FailureOr<SpecializedFunction> specialized =
      specializeForTuning(*func, shapes);
  if (failed(specialized))
    return failure();
  FailureOr<ProgramTree> tree = buildProgramTree(specialized->analyzed());
  if (failed(tree))
    return failure();
  if (specialized->isDynamic() &&
      failed(checkDynamicNests(*func, specialized->analyzed())))
    return failure();
  llvm::Expected<Space> space = buildSpace(
      *tree, *target,
      specialized->isDynamic() ? dynamicSpaceOptions(options) : options);
  if (!space) {
    emitError(*func, "cannot build the search space", space.takeError());
    return failure();
  }
  if (specialized->isDynamic())
    if (llvm::Error error = constrainDynamicSpace(*tree, *space)) {
      emitError(*func, "cannot build the search space", std::move(error));
      return failure();
    }
  TunableFunction tunable{*func, std::move(*tree), std::move(*space),
                          std::move(*target), nullptr};
  if (specialized->isDynamic())
    tunable.specialized =
        std::make_shared<SpecializedFunction>(std::move(*specialized));
  return tunable;
}

FailureOr<db::Database> tuner::openTuningDatabase(Operation *at,
                                                  llvm::StringRef path,
                                                  db::Database::Mode mode) {
  std::string file = path.str();
  if (file.empty()) {
    llvm::Expected<std::string> fallback = db::defaultDatabasePath();
    if (!fallback) {
      emitError(at, "no tuning database", fallback.takeError());
      return failure();
    }
    file = *fallback;
  }
  llvm::Expected<db::Database> opened = db::Database::open(file, mode);
  if (!opened) {
    emitError(at, "cannot open the tuning database", opened.takeError());
    return failure();
  }
  return std::move(*opened);
}
