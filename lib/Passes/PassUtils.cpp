//===- PassUtils.cpp - Shared plumbing of the tuner's passes --------------===//

#include "tuner/Passes/PassUtils.h"
#include "tuner/Analysis/ProgramAnalysis.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace tuner;

Location tuner::locationOf(Operation *op) {
  if (auto module = dyn_cast<ModuleOp>(op))
    return moduleLocation(module);
  return op->getLoc();
}

InFlightDiagnostic tuner::moduleError(ModuleOp module) {
  return mlir::emitError(moduleLocation(module));
}

std::optional<Refusal> tuner::whyNotTunable(func::FuncOp func) {
  if (func.isExternal())
    return Refusal{func.getLoc(), "function @" + func.getSymName().str() +
                                      " is a declaration: nothing to tune"};
  if (hasLoopNests(func))
    return std::nullopt;
  // The first op that looks like work the tuner might have taken.
  std::optional<Refusal> refusal;
  func.walk([&](Operation *op) {
    Dialect *dialect = op->getDialect();
    llvm::StringRef ns = dialect ? dialect->getNamespace() : "";
    std::string name = op->getName().getStringRef().str();
    std::string function = "@" + func.getSymName().str();
    if (ns == "linalg" && !op->hasTrait<OpTrait::IsTerminator>()) {
      refusal = Refusal{
          op->getLoc(),
          function + " has no loop nest the tuner models: " + name +
              " is not a structured linalg op (LinalgOp); the tuner tunes "
              "structured linalg ops and affine.for nests",
          /*looksLikeWork=*/true};
      return WalkResult::interrupt();
    }
    if (isa<LoopLikeOpInterface>(op)) {
      refusal = Refusal{op->getLoc(),
                        function + " has no loop nest the tuner models: " +
                            name +
                            " is not modeled; the tuner tunes structured "
                            "linalg ops and affine.for nests",
                        /*looksLikeWork=*/true};
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (refusal)
    return refusal;
  return Refusal{func.getLoc(), "function @" + func.getSymName().str() +
                                    " has no linalg op and no affine.for "
                                    "nest: nothing to tune"};
}

FailureOr<FunctionSelection> tuner::selectFunctions(ModuleOp module,
                                                    llvm::StringRef name) {
  FunctionSelection selection;
  if (!name.empty()) {
    auto func = module.lookupSymbol<func::FuncOp>(name);
    if (!func) {
      InFlightDiagnostic diag = moduleError(module);
      diag << "no function named '" << name << "' in the module";
      SmallVector<llvm::StringRef> names;
      for (auto f : module.getOps<func::FuncOp>())
        if (!f.isExternal())
          names.push_back(f.getSymName());
      if (!names.empty())
        diag << " (its functions: " << llvm::join(names, ", ") << ")";
      return failure();
    }
    if (std::optional<Refusal> refusal = whyNotTunable(func)) {
      mlir::emitError(refusal->loc) << refusal->message;
      return failure();
    }
    selection.functions.push_back(func);
    return selection;
  }
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    if (hasLoopNests(func)) {
      selection.functions.push_back(func);
      continue;
    }
    std::optional<Refusal> refusal = whyNotTunable(func);
    // Functions without linalg or loop ops are plain code, not refusals.
    if (refusal && refusal->looksLikeWork)
      selection.untunable.push_back(std::move(*refusal));
  }
  if (selection.functions.empty()) {
    // Nothing to tune: say why, at each function that looked like work, or
    // at the module.
    for (const Refusal &refusal : selection.untunable)
      mlir::emitError(refusal.loc) << refusal.message;
    if (selection.untunable.empty())
      moduleError(module)
          << "no function with linalg ops or affine loop nests to tune";
    return failure();
  }
  return selection;
}

FailureOr<func::FuncOp> tuner::selectFunction(ModuleOp module,
                                              llvm::StringRef name) {
  FailureOr<FunctionSelection> selection = selectFunctions(module, name);
  if (failed(selection))
    return failure();
  if (selection->functions.size() > 1) {
    InFlightDiagnostic diag =
        mlir::emitError(selection->functions.front().getLoc())
        << "several functions could be tuned (";
    llvm::interleaveComma(selection->functions, diag, [&](func::FuncOp f) {
      diag << "'" << f.getSymName() << "'";
    });
    diag << "): choose one with the 'function' option";
    return failure();
  }
  return selection->functions.front();
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
  // At the op's location, without the op printed after it.
  Location loc = locationOf(at);
  if (context.isTriviallyEmpty())
    mlir::emitError(loc) << message;
  else
    mlir::emitError(loc) << context << ": " << message;
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
  return prepareFunction(*func, *target, options, shapes);
}

/// The op of `nest` in `func`: its linalg op (by walk order) or its
/// outermost affine.for (by order among those).
static Operation *gpuNestOp(func::FuncOp func, const LoopNest &nest) {
  int index = 0;
  Operation *found = nullptr;
  func.walk([&](Operation *op) {
    bool counts = nest.source == NestSource::Linalg
                      ? isa<linalg::LinalgOp>(op)
                      : isa<affine::AffineForOp>(op) &&
                            !op->getParentOfType<affine::AffineForOp>();
    if (!counts || found)
      return;
    if (index++ == nest.opIndex)
      found = op;
  });
  return found;
}

FailureOr<TunableFunction>
tuner::prepareFunction(func::FuncOp func, const Target &target,
                       const SpaceOptions &options, llvm::StringRef shapes,
                       DiagnosticSeverity severity) {
  // The analysis reports at the op at fault; its diagnostics are passed on
  // with `severity`, without the op printed after them.
  struct Report {
    Location loc;
    DiagnosticSeverity severity;
    std::string message;
  };
  std::vector<Report> reports;
  FailureOr<SpecializedFunction> specialized = failure();
  FailureOr<ProgramTree> tree = failure();
  {
    ScopedDiagnosticHandler handler(
        func.getContext(), [&](Diagnostic &diag) -> LogicalResult {
          reports.push_back({diag.getLocation(),
                             diag.getSeverity() == DiagnosticSeverity::Error
                                 ? severity
                                 : diag.getSeverity(),
                             diag.str()});
          return success();
        });
    // A dynamic function is analyzed at the sizes it is tuned for.
    specialized = specializeForTuning(func, shapes);
    if (succeeded(specialized))
      tree = buildAnalyzedTree(*specialized);
  }
  for (const Report &report : reports)
    emitDiagnostic(report.loc, report.severity, report.message);
  if (failed(tree))
    return failure();
  bool dynamic = specialized->isDynamic();
  llvm::Expected<Space> space = buildSpace(
      *tree, target, dynamic ? dynamicSpaceOptions(options) : options);
  if (!space && target.isGpu()) {
    // A nest the GPU space refuses is reported at its op.
    std::string message = llvm::toString(space.takeError());
    Location at = func.getLoc();
    for (const LoopNest &nest : tree->nests)
      if (llvm::StringRef(message).starts_with("nest '" + nest.name + "'"))
        if (Operation *op = gpuNestOp(func, nest))
          at = op->getLoc();
    emitDiagnostic(at, severity,
                   "cannot build the GPU search space of @" +
                       func.getSymName().str() + ": " + message);
    return failure();
  }
  if (!space) {
    emitDiagnostic(func.getLoc(), severity,
                   "cannot build the search space of @" +
                       func.getSymName().str() + ": " +
                       llvm::toString(space.takeError()));
    return failure();
  }
  TunableFunction tunable{func, std::move(*tree), std::move(*space), target,
                          nullptr};
  if (dynamic)
    tunable.specialized =
        std::make_shared<SpecializedFunction>(std::move(*specialized));
  return tunable;
}

void tuner::emitDiagnostic(Location loc, DiagnosticSeverity severity,
                           llvm::Twine message) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    mlir::emitError(loc) << message;
    break;
  case DiagnosticSeverity::Warning:
    mlir::emitWarning(loc) << message;
    break;
  default:
    mlir::emitRemark(loc) << message;
    break;
  }
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
