//===- Generator.h - Random programs for training data ----------*- C++ -*-===//
//
// The random program generator of the Tiramisu paper (§3): sequences of
// computations of three patterns (assignments, stencils, reductions) and
// their combinations (contractions, convolutions), chained producer to
// consumer, with random extents (powers of two and not) and element types
// (f32 mostly, f64, i32), emitted as MLIR in two flavours. Two more
// patterns are opt-in (GeneratorOptions::patternWeights): convolutions
// with batch and channels (linalg.conv_2d_nchw_fchw / _nhwc_hwcf) and
// stencils under a time loop, updated in place (affine flavour only).
//
//   auto program = gen::generateProgram(seed, gen::Flavour::Linalg, {});
//   auto module = gen::parseProgram(context, program->mlir);
//
// Programs are deterministic functions of (seed, options) and correct by
// construction: every read is in bounds and every value is defined. Each
// program is checked (ProgramSpec::verify) and, once parsed, verified by the
// MLIR verifier; a failure of either is a generator bug, returned as an
// error.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_GENERATOR_GENERATOR_H
#define TUNER_GENERATOR_GENERATOR_H

#include "tuner/Generator/ProgramSpec.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include "llvm/Support/Error.h"

#include <array>
#include <optional>
#include <string>

namespace tuner {
namespace gen {

/// How a program is written in MLIR.
enum class Flavour {
  Linalg, ///< Named linalg ops and linalg.generic on tensors; the function
          ///< returns its outputs.
  Affine, ///< affine.for nests of affine.load / affine.store on memrefs;
          ///< the function writes its outputs into memref arguments.
};
/// "linalg", "affine".
llvm::StringRef stringifyFlavour(Flavour flavour);
std::optional<Flavour> parseFlavour(llvm::StringRef name);

/// A weight per pattern, indexed by Pattern: the odds of drawing it for a
/// computation (0: never).
using PatternWeights = std::array<unsigned, kNumPatterns>;

/// The weight a pattern gets when it is named without one: 25, 20, 20, 20
/// and 15 for elementwise, stencil, reduction, contraction and convolution
/// (the weights of the first datasets), 15 for channel-convolution and
/// time-stencil.
unsigned defaultPatternWeight(Pattern pattern);

/// The weights of the first datasets: the five original patterns at their
/// default weights, the opt-in ones at 0. A seed generates, with them, the
/// program it generated before the opt-in patterns existed.
PatternWeights defaultPatternWeights();

/// Parses a comma-separated list of `name` or `name:weight` items
/// (`all` names every pattern); a pattern named without a weight gets its
/// default weight, a pattern not named gets 0. E.g. "all",
/// "elementwise,stencil,reduction,contraction,convolution" (the default)
/// or "contraction:10,channel-convolution:30". Errors say which item is
/// wrong and why.
llvm::Expected<PatternWeights> parsePatternWeights(llvm::StringRef text);

/// "elementwise:25,stencil:20,...": the patterns of positive weight.
std::string stringifyPatternWeights(const PatternWeights &weights);

struct GeneratorOptions {
  /// Elements of the largest tensor (at least 64).
  int64_t maxElements = int64_t(1) << 23;
  /// Loop iterations of the whole program, summed over computations (at
  /// least maxElements): bounds its untransformed run time.
  int64_t maxWork = int64_t(1) << 27;
  /// Computations per program: uniform in [1, maxComputations] (at most 8).
  unsigned maxComputations = 4;
  /// The odds of each pattern. A pattern that does not fit where it is
  /// drawn (a tensor of the wrong rank, shapes over budget) gives way to an
  /// elementwise computation, whatever its weight. In a linalg program
  /// TimeStencil is never drawn.
  PatternWeights patternWeights = defaultPatternWeights();

  /// Says which option is out of range, and why. With a flavour, also
  /// checks that some pattern of positive weight can be drawn in it.
  llvm::Error check(std::optional<Flavour> flavour = std::nullopt) const;
};

/// A seed for item `index` of a run seeded with `seed` (a bijective mix, so
/// that nearby indices give unrelated seeds).
uint64_t mixSeed(uint64_t seed, uint64_t index);

/// The random program of `seed` for `flavour` (options must pass
/// check(flavour)); without a flavour, one both flavours can express (no
/// time stencils). Deterministic: the same seed and options give the same
/// program on every machine; with the default pattern weights, the same
/// program for both flavours. The result satisfies ProgramSpec::verify()
/// and the options' limits.
ProgramSpec generateProgramSpec(uint64_t seed, const GeneratorOptions &options,
                                std::optional<Flavour> flavour = std::nullopt);

/// A generated program in MLIR.
struct GeneratedProgram {
  ProgramSpec spec;
  Flavour flavour = Flavour::Linalg;
  uint64_t seed = 0;
  /// A module with one function, spec.functionName.
  std::string mlir;

  /// "random-linalg seed=42: 2 computations (stencil, reduction), ...".
  std::string describe() const;
};

/// generateProgramSpec + emit. Fails on invalid options, and on a spec that
/// does not verify (a generator bug).
llvm::Expected<GeneratedProgram>
generateProgram(uint64_t seed, Flavour flavour,
                const GeneratorOptions &options = {});

/// The MLIR text of `spec` in `flavour` (spec must verify, and not need the
/// affine flavour when `flavour` is linalg).
std::string emitProgram(const ProgramSpec &spec, Flavour flavour);

/// Parses a generated module in `context` (loading the dialects generated
/// programs use) and runs the verifier. A failure is a generator bug: the
/// error holds the diagnostics.
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
parseProgram(mlir::MLIRContext &context, llvm::StringRef mlir);

} // namespace gen
} // namespace tuner

#endif // TUNER_GENERATOR_GENERATOR_H
