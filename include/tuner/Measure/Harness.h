//===- Harness.h - What the child-process harness is told to run -*- C++
//-*-===//
//
// The contract between the Measure library (which lowers a function so that
// it takes only memrefs and returns nothing) and `tuner-run` (which feeds it):
// the shape and element type of every memref argument, which of them are
// outputs to verify, the seed of the deterministic random inputs, and the
// timing statistics. No MLIR here: the harness links only LLVM Support.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_MEASURE_HARNESS_H
#define TUNER_MEASURE_HARNESS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tuner {

/// Element types the harness can fill, store and compare.
enum class ElementKind { I1, I8, I16, I32, I64, Index, F16, BF16, F32, F64 };

/// "i1", "i8", ..., "index", "f16", "bf16", "f32", "f64" (MLIR spelling).
llvm::StringRef elementKindName(ElementKind type);
std::optional<ElementKind> parseElementKind(llvm::StringRef name);
/// Bytes per element in memory (i1 takes a byte, index 8 bytes).
unsigned elementKindBytes(ElementKind type);
bool isFloatKind(ElementKind type);

/// One memref argument of the lowered function `_mlir_ciface_<function>`:
/// an original argument, or an out-param appended for an original result.
/// A scalar argument or result of the original function is a rank-0 memref
/// of the lowered one (see `convertScalarsToMemrefs`); a memref of vectors
/// is described element by element, the vector's sizes trailing `shape`.
struct BufferSpec {
  ElementKind type = ElementKind::F32;
  /// Static sizes, outermost first; empty for rank 0. With `vectorRank`,
  /// the last `vectorRank` sizes are those of each element's vector.
  llvm::SmallVector<int64_t, 4> shape;
  /// True for out-params (original results), appended after the arguments.
  bool isResult = false;
  /// Whether its contents after the call are outputs to verify: results and
  /// memref arguments are; tensor arguments are not (bufferization may reuse
  /// their buffers in place, which is not an observable result).
  bool compared = true;
  /// Trailing sizes of `shape` that belong to the element type (a vector):
  /// the memref descriptor has rank shape.size() - vectorRank.
  unsigned vectorRank = 0;
  /// True for a scalar of the original function (rank 0, no vector).
  bool scalar = false;
  /// The value every element holds before the call, instead of random data
  /// (scalar arguments: a fixed value, see `defaultScalarValue`).
  std::optional<double> value;

  int64_t numElements() const;
  uint64_t byteSize() const {
    return uint64_t(numElements()) * elementKindBytes(type);
  }
  /// Rank of the memref descriptor the harness passes.
  unsigned descriptorRank() const { return shape.size() - vectorRank; }
  /// Byte alignment of the allocation: 64, or a vector element's size
  /// where that is larger (LLVM assumes vectors aligned to their size).
  uint64_t alignment() const;
  /// E.g. "memref<64x64xf32>", "memref<16xvector<8xf32>>", or "f32" for a
  /// scalar.
  std::string typeString() const;
};

/// The value of a scalar argument of `type` when the user gives none: 1.5
/// for floats (exact in every float type), 3 for integers and index, 1
/// (true) for i1.
double defaultScalarValue(ElementKind type);

/// Everything `tuner-run` needs besides the shared object and run options.
struct HarnessSpec {
  /// The function; the harness calls `_mlir_ciface_<function>`.
  std::string function;
  /// Seed of the deterministic random inputs.
  uint64_t seed = 1;
  std::vector<BufferSpec> buffers;

  /// Sum of byteSize() over compared buffers: the size of an outputs file.
  uint64_t comparedBytes() const;

  /// {"function", "seed", "buffers": [{"type", "shape", "result",
  /// "compared"} and, where set, "vector_rank", "scalar", "value"]}.
  llvm::json::Value toJSON() const;
  /// Reads what toJSON writes; errors name the offending field or buffer.
  static llvm::Expected<HarnessSpec> fromJSON(const llvm::json::Value &json);
};

/// Most memref arguments `tuner-run` can pass to one function.
constexpr unsigned kMaxHarnessBuffers = 32;

/// Fills `data` (buffer.byteSize() bytes) with deterministic pseudo-random
/// values that depend only on `seed`, `bufferIndex` and the element type:
/// floats uniform in [-1, 1) (multiples of 1/256 for f16/bf16, which both
/// hold exactly), integers in [-8, 8) for i8 and [-64, 64) for wider ones,
/// i1 in {0, 1}. A buffer with a `value` holds that value everywhere.
void fillRandom(const BufferSpec &buffer, uint64_t seed, unsigned bufferIndex,
                llvm::MutableArrayRef<uint8_t> data);

/// Element `index` of `data` (elements of `type`) as a double.
double readElement(ElementKind type, const uint8_t *data, int64_t index);
/// Element `index` of `data` as a sign-extended integer; for float types the
/// raw bits (exact, for printing and bitwise comparison).
int64_t readInteger(ElementKind type, const uint8_t *data, int64_t index);

/// Min, median and max of per-call times.
struct TimingSummary {
  double minSeconds = 0;
  double medianSeconds = 0;
  double maxSeconds = 0;
  unsigned repetitions = 0;
};

/// Summarizes one per-call time per repetition; the median of an even count
/// is the mean of the two middle values. Empty input gives all zeros.
TimingSummary summarizeTimes(llvm::ArrayRef<double> perCallSeconds);

/// Whether a candidate's timing (its median per-call seconds and the
/// foreign load while it was taken; negative: unknown, counted as
/// undisturbed) should be kept rather than the one kept so far. An
/// undisturbed timing (load at most `maxForeignLoad`) beats a disturbed
/// one; of two undisturbed ones the lower median wins, since what else
/// disturbs a timing on a shared machine (the host's slow spells, a
/// process whose buffers landed badly) only ever slows it down; of two
/// disturbed ones the less disturbed wins.
bool isBetterTiming(double medianSeconds, double foreignLoad,
                    double keptMedianSeconds, double keptForeignLoad,
                    double maxForeignLoad);

/// A candidate's timing and the baseline's timing in the same harness
/// process, each with the foreign load while it was taken (negative:
/// unknown, counted as undisturbed).
struct PairedTiming {
  double baselineSeconds = 0, baselineForeignLoad = 0;
  double candidateSeconds = 0, candidateForeignLoad = 0;
};

/// The speedup of a candidate over the baseline from timings taken side by
/// side: the geometric mean, over the harness processes (rounds) that timed
/// both, of the baseline's median over the candidate's. A slow spell of the
/// host or a process whose buffers landed badly slows both of a pair, and
/// their ratio cancels it; a baseline timed in another process, seconds
/// earlier, cannot. Pairs with either timing disturbed (foreign load over
/// `maxForeignLoad`) count only when no pair is undisturbed; pairs with a
/// non-positive time never. 0 when no pair counts.
double pairedSpeedup(llvm::ArrayRef<PairedTiming> pairs,
                     double maxForeignLoad);

/// The warm-up and calibration of both harnesses: calls `timeCalls(n)`
/// (which makes n calls and returns their seconds) with growing n until one
/// round lasts at least `minSeconds`, and returns that n, the calls each
/// timed repetition makes.
uint64_t calibrateCalls(llvm::function_ref<double(uint64_t)> timeCalls,
                        double minSeconds);

} // namespace tuner

#endif // TUNER_MEASURE_HARNESS_H
