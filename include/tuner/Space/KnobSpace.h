//===- KnobSpace.h - Spaces as transform.tune.knob ops ----------*- C++ -*-===//
//
// MLIR 22's tune extension declares tunables inside Transform-dialect scripts:
// `transform.tune.knob<"name"> options = [...]` and
// `transform.tune.alternatives<"name">` with one region per choice. This file
// converts between those ops and a Space: a user's parameterized script
// becomes a user-defined space (knob options become parameters), a Config
// resolves the script's knobs, and any space can be written as a script of
// knobs for other tools.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_SPACE_KNOBSPACE_H
#define TUNER_SPACE_KNOBSPACE_H

#include "tuner/Space/Space.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"

namespace tuner {

/// The dialects a knob script needs (transform + its tune extension).
void registerKnobDialects(mlir::DialectRegistry &registry);

/// The space of the knobs in `script`: one parameter per distinct knob name
/// (ordinal for sorted numbers, log scale when they form a geometric
/// progression such as 1, 2, 4, 8; categorical for strings, boolean for
/// [false, true], permutation for arrays that permute 0..n-1) and one integer
/// parameter per alternatives op (the region index). A knob's `selected`
/// value (an alternatives op's selected region) is its parameter's default.
/// Constraints come from the `tuner.constraints` string array on any op of
/// the script plus `extraConstraints`. Unsupported knobs, a selected value
/// that is not one of the options and a selected region out of range get a
/// diagnostic at the op naming the knob and the value.
///
/// `script` need not be verified: the knobs are read first (so that their
/// errors name the knob), then the whole script is verified.
mlir::FailureOr<Space>
spaceFromKnobs(mlir::Operation *script,
               llvm::ArrayRef<std::string> extraConstraints = {});

/// Checks that `space` (e.g. read from a file) declares the parameters of
/// `knobs` (a space from spaceFromKnobs): the same names, in any order, each
/// of the same kind and domain. Defaults, scales, descriptions and
/// constraints may differ. The error names the first parameter that differs
/// and how.
llvm::Error checkMatchesKnobs(const Space &space, const Space &knobs);

/// Sets every knob's `selected` attribute (and every alternatives op's
/// selected region) from `config`, a config of spaceFromKnobs(script).
llvm::Error selectKnobs(mlir::Operation *script, const Space &space,
                        const Config &config);

/// Writes `space` as a module holding one named sequence @__tuner_space with
/// one knob per parameter and the constraints as `tuner.constraints`. Real
/// parameters have no finite option list and are refused.
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
spaceToKnobs(const Space &space, mlir::MLIRContext *context);

/// Reads a JSON file of constraints: a list of strings, or an object whose
/// "constraints" field is one.
llvm::Expected<std::vector<std::string>>
readConstraintsFile(llvm::StringRef path);

} // namespace tuner

#endif // TUNER_SPACE_KNOBSPACE_H
