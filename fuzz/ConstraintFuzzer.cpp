//===- ConstraintFuzzer.cpp - libFuzzer target: constraint parser ---------===//
//
// The input is a constraint expression over fuzzSpace(). A parse either fails
// with an error or gives a constraint that evaluates on any config without
// crashing, and whose top-level conjuncts hold together iff it does.
//
//===----------------------------------------------------------------------===//

#include "FuzzSpace.h"

#include <cstddef>
#include <cstdint>

using namespace tuner;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const Space &space = fuzz::fuzzSpace();
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::Expected<Constraint> constraint = Constraint::parse(text, space);
  if (!constraint) {
    llvm::consumeError(constraint.takeError());
    return 0;
  }
  // A few configs: the defaults, and two that move every parameter.
  std::vector<Config> configs = {space.defaultConfig()};
  Config low = space.defaultConfig(), high = space.defaultConfig();
  low[0] = ParamValue::integer(1);
  high[0] = ParamValue::integer(8);
  low[1] = ParamValue::integer(-5);
  high[1] = ParamValue::integer(0);
  low[2] = ParamValue::real(0.5);
  high[2] = ParamValue::real(2.0);
  low[3] = ParamValue::string("a");
  high[3] = ParamValue::string("c");
  low[4] = ParamValue::boolean(false);
  high[4] = ParamValue::boolean(true);
  low[5] = ParamValue::permutation({2, 1, 0});
  high[5] = ParamValue::permutation({0, 2, 1});
  configs.push_back(low);
  configs.push_back(high);
  std::vector<Constraint> conjuncts = constraint->conjuncts();
  for (const Config &config : configs) {
    bool whole = constraint->evaluate(config);
    bool all = true;
    for (const Constraint &conjunct : conjuncts)
      all = conjunct.evaluate(config) && all;
    if (whole != all)
      fuzz::propertyFailed("the conjuncts of '" + text.str() +
                           "' disagree with it");
    // Partial assignments: only the parameters the constraint reads.
    std::vector<const ParamValue *> partial(space.size(), nullptr);
    for (size_t index : constraint->getParameters())
      partial[index] = &config[index];
    if (constraint->evaluate(partial) != whole)
      fuzz::propertyFailed("'" + text.str() +
                           "' evaluates differently on its own parameters");
  }
  // The text parses again to the same parameters.
  llvm::Expected<Constraint> again =
      Constraint::parse(constraint->getText(), space);
  if (!again)
    fuzz::propertyFailed("'" + text.str() + "' does not parse twice: " +
                         llvm::toString(again.takeError()));
  return 0;
}
