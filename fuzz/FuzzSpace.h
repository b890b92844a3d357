//===- FuzzSpace.h - The fixed space the fuzz targets read against -*- C++ -*-//
//
// One parameter of every kind (and a dotted name), so that constraints,
// configs and replay tables reach every typed path of the readers.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_FUZZ_FUZZSPACE_H
#define TUNER_FUZZ_FUZZSPACE_H

#include "tuner/Space/Space.h"

#include "llvm/Support/Error.h"

#include <cstdlib>

namespace tuner::fuzz {

/// A fixed space: ordinal t (log), integer n, real r, categorical mode,
/// boolean v, permutation p of 3, ordinal over reals s.x, one constraint.
/// Aborts when the space cannot be built: that is a bug of the fuzz target.
inline const Space &fuzzSpace() {
  static const Space space = [] {
    Space s;
    auto add = [&](llvm::Error error) {
      if (error) {
        llvm::errs() << llvm::toString(std::move(error)) << "\n";
        std::abort();
      }
    };
    add(s.addParameter(Parameter::ordinal(
        "t",
        {ParamValue::integer(1), ParamValue::integer(2), ParamValue::integer(4),
         ParamValue::integer(8)},
        /*logScale=*/true)));
    add(s.addParameter(Parameter::integer("n", -5, 100)));
    add(s.addParameter(Parameter::real("r", 0.5, 2.0)));
    add(s.addParameter(Parameter::categorical("mode", {"a", "b", "c"})));
    add(s.addParameter(Parameter::boolean("v")));
    add(s.addParameter(Parameter::permutation("p", 3)));
    add(s.addParameter(Parameter::ordinal(
        "s.x", {ParamValue::real(0.25), ParamValue::real(1.5)})));
    add(s.addConstraint("t * n <= 64 || !v"));
    return s;
  }();
  return space;
}

/// Stops the target with a message when a property the library promises
/// does not hold (libFuzzer then saves the input as a crash).
[[noreturn]] inline void propertyFailed(llvm::StringRef what) {
  llvm::errs() << "fuzz property failed: " << what << "\n";
  std::abort();
}

} // namespace tuner::fuzz

#endif // TUNER_FUZZ_FUZZSPACE_H
