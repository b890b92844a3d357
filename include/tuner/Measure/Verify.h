//===- Verify.h - Compare a candidate's outputs with the baseline's -*- C++
//-*-===//
//
// Integers must match exactly; floats within a tolerance that grows with the
// length of the reductions a schedule may reorder; NaN and infinities must
// match exactly.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_MEASURE_VERIFY_H
#define TUNER_MEASURE_VERIFY_H

#include "tuner/Measure/Harness.h"

#include <optional>
#include <string>

namespace tuner {

/// |actual - expected| <= absolute + relative * |expected|.
struct Tolerance {
  double absolute = 0;
  double relative = 0;

  /// The tolerance for `type` when sums of up to `reductionLength` terms may
  /// be reassociated: zero for integers; for floats a per-type base (1e-5
  /// for f32, 1e-10 for f64, 4e-3 for f16, 3e-2 for bf16) scaled by
  /// sqrt(max(reductionLength, 1)), the expected growth of rounding error.
  static Tolerance forType(ElementKind type, int64_t reductionLength);

  /// Whether `actual` passes for `expected`: NaN matches NaN only, an
  /// infinity matches the same infinity only.
  bool accepts(double expected, double actual) const;
};

/// Compares the outputs files of the baseline (`expected`) and a candidate
/// (`actual`): the compared buffers of `spec`, concatenated in order. Float
/// buffers use Tolerance::forType with its absolute part scaled by the
/// buffer's largest expected magnitude (at least 1): a sum whose terms
/// cancel to near zero keeps the rounding error of its large terms. Returns
/// std::nullopt when they agree, else a description of the first difference:
/// which buffer, its multi-dimensional index and both values (or why the
/// files cannot be compared, e.g. a size mismatch).
std::optional<std::string> compareOutputs(const HarnessSpec &spec,
                                          llvm::StringRef expected,
                                          llvm::StringRef actual,
                                          int64_t reductionLength);

} // namespace tuner

#endif // TUNER_MEASURE_VERIFY_H
