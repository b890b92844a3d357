//===- PassUtils.h - Shared plumbing of the tuner's passes ------*- C++ -*-===//
//
// What every pass driver does first: pick the function to tune, resolve the
// target, build the ProgramTree and the Space. Errors are emitted as
// diagnostics at the module or function.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_PASSES_PASSUTILS_H
#define TUNER_PASSES_PASSUTILS_H

#include "tuner/Analysis/ProgramTree.h"
#include "tuner/Database/Database.h"
#include "tuner/Space/Space.h"
#include "tuner/Space/SpaceBuilder.h"
#include "tuner/Target/Target.h"
#include "tuner/Tuning/ShapeSpecialization.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace tuner {

/// The function named `name`, or, when `name` is empty, the only function of
/// the module that holds linalg ops or affine loop nests.
mlir::FailureOr<mlir::func::FuncOp> selectFunction(mlir::ModuleOp module,
                                                   llvm::StringRef name);

/// Target::resolve, with a diagnostic at `at` on failure.
mlir::FailureOr<Target> resolveTarget(mlir::Operation *at,
                                      llvm::StringRef spec);

/// A function ready to be tuned: its tree and its space.
struct TunableFunction {
  mlir::func::FuncOp func;
  ProgramTree tree;
  Space space;
  Target target;
  /// A function with dynamic shapes: the sizes it is tuned at (the first
  /// set, which `tree` describes) and verified at (every set), with its
  /// clones specialized at them. Null for a static function.
  std::shared_ptr<SpecializedFunction> specialized;
};

/// selectFunction + resolveTarget + buildProgramTree + buildSpace. A
/// function with dynamic shapes is analyzed at the sizes of `shapes` (the
/// passes' `shapes=` option, see parseShapeSets), with the space a dynamic
/// function may have (dynamicSpaceOptions).
mlir::FailureOr<TunableFunction>
prepareFunction(mlir::ModuleOp module, llvm::StringRef functionName,
                llvm::StringRef targetSpec, const SpaceOptions &options,
                llvm::StringRef shapes = "");

/// The SpaceOptions of a pass declared with TunerSpaceOptions (Passes.td);
/// the pass befriends this function to give it its (protected) options.
template <typename PassT> SpaceOptions readSpaceOptions(const PassT &pass) {
  SpaceOptions options;
  options.tile = pass.tile;
  options.registerTile = pass.registerTile;
  options.interchange = pass.interchange;
  options.unroll = pass.unroll;
  options.vectorize = pass.vectorize;
  options.parallelize = pass.parallelize;
  options.fuse = pass.fuse;
  options.maxTileCandidates = pass.maxTileCandidates;
  options.partialTiles = pass.partialTiles;
  options.contractionLowering = pass.contractionLowering;
  options.distribution = pass.distribution;
  options.skew = pass.skew;
  options.convolution = pass.convolution;
  return options;
}

/// Opens the tuning database at `path` (empty: the per-user default), with
/// a diagnostic at `at` when there is none or it cannot be opened.
mlir::FailureOr<db::Database> openTuningDatabase(mlir::Operation *at,
                                                 llvm::StringRef path,
                                                 db::Database::Mode mode);

/// Space::readFile, with the diagnostic "cannot read the space '<path>'" at
/// `at` on failure.
mlir::FailureOr<Space> readSpaceFile(mlir::Operation *at, llvm::StringRef path);

/// Reports an llvm::Error as a diagnostic at `at` ("<context>: <message>").
void emitError(mlir::Operation *at, llvm::Twine context, llvm::Error error);

} // namespace tuner

#endif // TUNER_PASSES_PASSUTILS_H
