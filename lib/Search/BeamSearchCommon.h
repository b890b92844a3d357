//===- BeamSearchCommon.h - What both beam searches share -------*- C++ -*-===//

#ifndef TUNER_LIB_SEARCH_BEAMSEARCHCOMMON_H
#define TUNER_LIB_SEARCH_BEAMSEARCHCOMMON_H

#include "tuner/Search/Strategies.h"
#include "tuner/Support/StableSort.h"

#include <algorithm>
#include <limits>
#include <unordered_set>

namespace tuner {
namespace beam {

/// The score of a failed schedule: below every other.
constexpr double kFailed = -std::numeric_limits<double>::infinity();

struct Scored {
  Config config;
  double score = kFailed;
};

inline double scoreOf(const Observation &observation) {
  return observation.ok() ? observation.value : kFailed;
}

/// Keeps the `width` best of `pool`, stably (earlier first on ties).
inline void keepBest(std::vector<Scored> &pool, unsigned width) {
  stableSort(pool,
             [](const Scored &a, const Scored &b) { return a.score > b.score; });
  if (pool.size() > width)
    pool.resize(width);
}

/// The children of the beam's schedules at decision `level` that were never
/// seen before (by `hash`), which are then marked seen.
inline std::vector<Config> expand(const DecisionTree &tree,
                                  const std::vector<Scored> &beam,
                                  size_t level, const ScheduleHash &hash,
                                  std::unordered_set<uint64_t> &seen) {
  std::vector<Config> kids;
  for (const Scored &node : beam)
    for (Config &child : tree.children(node.config, level))
      if (seen.insert(hash(child)).second)
        kids.push_back(std::move(child));
  return kids;
}

/// The options with a default hash and a width of at least 1.
inline BeamSearchOptions withDefaults(BeamSearchOptions options) {
  if (!options.hash)
    options.hash = [](const Config &c) { return c.hash(); };
  options.width = std::max(1u, options.width);
  return options;
}

} // namespace beam
} // namespace tuner

#endif // TUNER_LIB_SEARCH_BEAMSEARCHCOMMON_H
