//===- ApplySchedule.cpp - Run a transform script in-process --------------===//

#include "tuner/Schedule/ApplySchedule.h"
#include "tuner/Schedule/TransformExtension.h"

#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/CrashRecoveryContext.h"

using namespace mlir;
using namespace tuner;

void tuner::registerScheduleDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerTunerDialectExtensions(registry);
}

static void loadScheduleDialects(MLIRContext *context) {
  DialectRegistry registry;
  registerScheduleDialects(registry);
  context->appendDialectRegistry(registry);
  context->getOrLoadDialect<transform::TransformDialect>();
}

FailureOr<OwningOpRef<ModuleOp>>
tuner::parseTransformScript(MLIRContext *context, llvm::StringRef script,
                            llvm::StringRef sourceName, bool verify) {
  loadScheduleDialects(context);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      script, ParserConfig(context, /*verifyAfterParse=*/verify), sourceName);
  if (!module)
    return failure();
  return module;
}

namespace {
/// A diagnostic kept while the interpreter runs.
struct Captured {
  Location loc;
  DiagnosticSeverity severity;
  std::string message;
  std::vector<std::pair<Location, std::string>> notes;
};

llvm::StringRef severityName(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return "error";
  case DiagnosticSeverity::Warning:
    return "warning";
  case DiagnosticSeverity::Remark:
    return "remark";
  case DiagnosticSeverity::Note:
    return "note";
  }
  llvm_unreachable("unknown severity");
}
} // namespace

Location tuner::moduleLocation(ModuleOp module) {
  // A module parsed from a file without a `module` op of its own sits at
  // file:0:0; its first op is somewhere a reader can find.
  auto fileLoc = dyn_cast<FileLineColLoc>(module.getLoc());
  if (fileLoc && fileLoc.getLine() == 0)
    if (!module.getBody()->empty())
      return module.getBody()->front().getLoc();
  return module.getLoc();
}

FailureOr<OwningOpRef<ModuleOp>>
tuner::applyTransformScriptToCopy(ModuleOp payload, ModuleOp script) {
  MLIRContext *context = payload.getContext();
  loadScheduleDialects(context);

  std::vector<Captured> captured;
  OwningOpRef<ModuleOp> copy = payload.clone();
  LogicalResult result = failure();
  {
    ScopedDiagnosticHandler handler(context, [&](Diagnostic &diag) {
      Captured c{diag.getLocation(), diag.getSeverity(), diag.str(), {}};
      for (Diagnostic &note : diag.getNotes())
        c.notes.emplace_back(note.getLocation(), note.str());
      captured.push_back(std::move(c));
      return success();
    });
    transform::TransformOpInterface entry =
        transform::detail::findTransformEntryPoint(
            script, ModuleOp(),
            transform::TransformDialect::kTransformEntryPointSymbolName);
    if (!entry) {
      emitError(script.getLoc())
          << "the transform script has no named sequence @"
          << transform::TransformDialect::kTransformEntryPointSymbolName;
    } else {
      // Upstream transformations can crash on odd schedules (e.g. chains of
      // producers fused into one loop); a crash becomes this schedule's
      // failure. The half-transformed copy is abandoned, not destroyed: its
      // state is unknown.
      llvm::CrashRecoveryContext::Enable();
      llvm::CrashRecoveryContext recovery;
      bool applied = false;
      bool survived = recovery.RunSafely([&] {
        applied = succeeded(transform::applyTransformNamedSequence(
            copy.get(), entry, ModuleOp(), transform::TransformOptions()));
      });
      if (!survived) {
        (void)copy.release();
        emitError(moduleLocation(payload))
            << "the transform interpreter crashed on this schedule (a bug in "
               "an upstream transformation)";
      } else if (applied) {
        result = verify(copy.get());
        if (failed(result))
          emitError(moduleLocation(payload))
              << "the schedule produced invalid IR";
      }
    }
  }

  if (failed(result)) {
    InFlightDiagnostic error =
        emitError(moduleLocation(payload))
        << "the schedule failed to apply; the module is left unchanged";
    for (const Captured &c : captured) {
      error.attachNote(c.loc) << severityName(c.severity) << ": " << c.message;
      for (const auto &[loc, message] : c.notes)
        error.attachNote(loc) << message;
    }
    return failure();
  }
  // The interpreter's warnings and remarks still reach the user.
  for (const Captured &c : captured) {
    bool isRemark = c.severity == DiagnosticSeverity::Remark ||
                    c.severity == DiagnosticSeverity::Note;
    InFlightDiagnostic diag = isRemark ? emitRemark(c.loc) : emitWarning(c.loc);
    diag << c.message;
    for (const auto &[loc, message] : c.notes)
      diag.attachNote(loc) << message;
  }
  return std::move(copy);
}

/// Replaces `payload`'s body and attributes by the transformed copy's.
static LogicalResult
takeTransformed(ModuleOp payload, FailureOr<OwningOpRef<ModuleOp>> copy) {
  if (failed(copy))
    return failure();
  payload.getBodyRegion().takeBody((*copy)->getBodyRegion());
  payload->setAttrs((*copy).get()->getAttrDictionary());
  return success();
}

LogicalResult tuner::applyTransformScript(ModuleOp payload, ModuleOp script) {
  return takeTransformed(payload, applyTransformScriptToCopy(payload, script));
}

FailureOr<OwningOpRef<ModuleOp>>
tuner::applyTransformScriptToCopy(ModuleOp payload, llvm::StringRef script) {
  FailureOr<OwningOpRef<ModuleOp>> parsed =
      parseTransformScript(payload.getContext(), script);
  if (failed(parsed)) {
    emitError(moduleLocation(payload))
        << "the schedule failed to apply: its transform script does not parse";
    return failure();
  }
  return applyTransformScriptToCopy(payload, parsed->get());
}

LogicalResult tuner::applyTransformScript(ModuleOp payload,
                                          llvm::StringRef script) {
  return takeTransformed(payload, applyTransformScriptToCopy(payload, script));
}
