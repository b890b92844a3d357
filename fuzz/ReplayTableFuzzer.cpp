//===- ReplayTableFuzzer.cpp - libFuzzer target: replay tables ------------===//
//
// The input is a replay table of fuzzSpace(): the first byte picks the format
// (odd: CSV, even: JSON lines), the rest is the table. A read either fails
// with an error or gives a table that replays configs without crashing.
//
//===----------------------------------------------------------------------===//

#include "FuzzSpace.h"

#include "tuner/Tuning/ReplayEvaluator.h"

#include <cmath>
#include <cstddef>
#include <cstdint>

using namespace tuner;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  const Space &space = fuzz::fuzzSpace();
  bool csv = data[0] & 1;
  llvm::StringRef text(reinterpret_cast<const char *>(data + 1), size - 1);
  for (Objective objective : {Objective::Minimize, Objective::Maximize}) {
    llvm::Expected<std::unique_ptr<ReplayEvaluator>> table =
        ReplayEvaluator::parse(text, "fuzz", csv, space, objective);
    if (!table) {
      llvm::consumeError(table.takeError());
      return 0;
    }
    Config config = space.defaultConfig();
    const ReplayEvaluator::Row *row = (*table)->find(config);
    if (!row)
      continue;
    if (row->status == Status::Ok && !std::isfinite(row->objective))
      fuzz::propertyFailed("an ok row without a finite objective");
    if (!(row->costSeconds >= 0) || !std::isfinite(row->costSeconds))
      fuzz::propertyFailed("a row with a negative or non-finite cost");
    std::vector<Observation> observations = (*table)->evaluate({config});
    if (observations.size() != 1)
      fuzz::propertyFailed("a recorded config does not replay");
  }
  return 0;
}
