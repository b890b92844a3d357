//===- ShapeSpecialization.h - Tune dynamic shapes at given sizes -*- C++
//-*-===//
//
// A function with dynamic dimensions (`tensor<?x512xf32>`, `memref<?x?xf32>`)
// is tuned at sizes the user gives (the passes' `shapes=` option): its
// ProgramTree and space come from a clone specialized at those sizes (the
// arguments cast to the dynamic types, then canonicalized so that the ops
// become static), its candidates are measured through a wrapper with static
// arguments that calls the transformed dynamic function (so the code
// measured is the code emitted), and the schedule is applied to the
// original function, where it must be correct at any size.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_TUNING_SHAPESPECIALIZATION_H
#define TUNER_TUNING_SHAPESPECIALIZATION_H

#include "tuner/Analysis/ProgramTree.h"
#include "tuner/Measure/Measurer.h"
#include "tuner/Space/Space.h"
#include "tuner/Space/SpaceBuilder.h"
#include "tuner/Support/Measurement.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <vector>

namespace tuner {

/// The sizes of one call: for some arguments (by position), the full static
/// shape. Arguments without dynamic dimensions may be left out.
struct ShapeSet {
  std::map<unsigned, std::vector<int64_t>> arguments;

  /// "arg0=64x48,arg1=48x32": the option's syntax, also the key recorded in
  /// the database and the summary.
  std::string str() const;
  bool operator==(const ShapeSet &other) const {
    return arguments == other.arguments;
  }
};

/// Parses the `shapes=` option: "arg0=64x48,arg1=48x32" (one set), or
/// "@file.json" naming a JSON file of one or more sets: a list of objects
/// `{"arg0": [64, 48], "arg1": [48, 32]}` (or an object with that list as
/// "shapes"). Sizes must be positive. Errors say which entry is wrong.
llvm::Expected<std::vector<ShapeSet>> parseShapeSets(llvm::StringRef text);

/// Whether any argument or result of `func` has a dynamic dimension.
bool hasDynamicShapes(mlir::func::FuncOp func);

/// Checks `shapes` against `func`: every argument with dynamic dimensions
/// has sizes, ranks and static dimensions agree, and the sizes agree where
/// the IR ties them (the loops of each linalg op whose operands are
/// arguments). Emits an error at the argument (or the op) at fault.
mlir::LogicalResult checkShapeSet(mlir::func::FuncOp func,
                                  const ShapeSet &shapes);

/// A new module (in `func`'s context) holding a clone of `func`, same name,
/// whose arguments have the static types `shapes` gives and are cast to the
/// original types, canonicalized so that the ops become static (results
/// whose value is a cast of a static one return that value). Emits an error
/// at `func` when an op stays dynamic or the clone does not verify. The
/// caller must have loaded the tensor and memref dialects.
mlir::FailureOr<mlir::OwningOpRef<mlir::ModuleOp>>
specializeFunction(mlir::func::FuncOp func, const ShapeSet &shapes);

/// Loads what specialization creates (tensor, memref, arith); passes that
/// call specializeForTuning declare these as dependent dialects.
void registerShapeDialects(mlir::DialectRegistry &registry);

/// The sets as one line, "arg0=64x48;arg0=37x5" (the space's and the
/// summary's "shapes").
std::string shapesAttribute(llvm::ArrayRef<ShapeSet> sets);

/// Name of the measurement wrapper of function `name`.
std::string shapeWrapperName(llvm::StringRef name);

/// A copy of `module` plus a public function shapeWrapperName(name) with the
/// signature of `specialized` that casts its arguments to `name`'s types,
/// calls it, and casts the results back: the static entry point the
/// measurement harness calls, so that the dynamic function itself (kept
/// out of line: `passthrough = ["noinline"]`) is what is timed.
mlir::FailureOr<mlir::OwningOpRef<mlir::ModuleOp>>
buildShapeWrapperModule(mlir::ModuleOp module, mlir::func::FuncOp specialized);

/// What the passes analyze for a function: the function itself (static
/// shapes), or its clone specialized at the first of the shape sets.
struct SpecializedFunction {
  mlir::func::FuncOp original;
  /// Every set given (empty for a static function).
  std::vector<ShapeSet> shapes;
  /// Per set, the module holding the clone specialized at it (none for a
  /// static function).
  std::vector<mlir::OwningOpRef<mlir::ModuleOp>> modules;

  bool isDynamic() const { return !modules.empty(); }
  /// The function to analyze: the clone at set `set`, or the original.
  mlir::func::FuncOp analyzed(size_t set = 0) const;
};

/// Parses `shapesOption` (may be empty) and specializes `func` at its first
/// set, after checking every set (checkShapeSet, and that the function
/// specializes at it). A function without dynamic shapes is its own
/// analysis (its sizes still checked against the option). Emits errors at
/// `func`, its arguments or its ops.
mlir::FailureOr<SpecializedFunction>
specializeForTuning(mlir::func::FuncOp func, llvm::StringRef shapesOption);

/// The space options of a function with dynamic shapes: what a schedule
/// cannot do correctly at every size is left out. Convolution rewrites
/// (im2col tiles must not wrap around a row: a divisibility fact of the
/// tuned sizes) and skewing (constant bounds) are turned off.
SpaceOptions dynamicSpaceOptions(SpaceOptions options);

/// Checks that the schedules built from `specialized` find and fit the
/// nests of `original`: the same linalg ops, affine nests and affine loops
/// (whose bounds may depend on dynamic sizes: the affine transform ops tile,
/// interchange, unroll and parallelize such loops). Emits an error at
/// `original` when they differ.
mlir::LogicalResult checkDynamicNests(mlir::func::FuncOp original,
                                      mlir::func::FuncOp specialized);

/// Restricts what `tree` (built from a specialization of `original`) says
/// of its affine nests to what holds at every size: the legal loop orders,
/// full permutability and parallel loops are those that the dependences of
/// `original`'s nests, whose bounds are symbolic, also allow (a dependence
/// absent at the tuned sizes may appear at others).
void restrictToEverySize(ProgramTree &tree, mlir::func::FuncOp original);

/// The ProgramTree of `function` as every pass analyzes it: built from the
/// function it analyzes; for a dynamic function, checked against the
/// original (checkDynamicNests) and restricted to what holds at every size
/// (restrictToEverySize). Emits an error at the op at fault.
mlir::FailureOr<ProgramTree>
buildAnalyzedTree(const SpecializedFunction &function);

/// MeasureOptions for a dynamic function measured at set `set`: the
/// tolerance's reduction length is read from the specialized clone (the
/// wrapper itself holds no loops).
MeasureOptions measureOptionsAt(const SpecializedFunction &function, size_t set,
                                MeasureOptions options);

/// Measures `script` applied to `module` (where the dynamic function is
/// found by name) at set `set`, through the wrapper, against the
/// untransformed function at that set: the check that a schedule tuned at
/// one size is correct (and how fast it is) at another. A schedule that
/// fails to apply there is an ApplyFailed measurement.
llvm::Expected<Measurement> measureScriptAt(mlir::ModuleOp module,
                                            const SpecializedFunction &function,
                                            size_t set, llvm::StringRef script,
                                            MeasureOptions options);

} // namespace tuner

#endif // TUNER_TUNING_SHAPESPECIALIZATION_H
