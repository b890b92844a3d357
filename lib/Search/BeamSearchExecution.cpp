//===- BeamSearchExecution.cpp - Beam search by measurement (BSE) ---------===//
//
// Tiramisu §5's reference for quality: every node of the beam's frontier is
// proposed, i.e. measured, and the beam keeps the best measured. No model.
//
//===----------------------------------------------------------------------===//

#include "BeamSearchCommon.h"

#include <unordered_map>
#include <unordered_set>

using namespace tuner;
using namespace tuner::beam;

namespace {

class ExecutionBeamSearch : public Strategy {
public:
  ExecutionBeamSearch(const DecisionTree &tree,
                      const BeamSearchOptions &options)
      : tree(tree), options(withDefaults(options)) {}

  llvm::StringRef getName() const override { return "beam-exec"; }

  std::vector<Config> propose(size_t count) override {
    std::vector<Config> result;
    while (result.size() < count) {
      if (!started) {
        Config root = tree.root();
        seen.insert(options.hash(root));
        // The root is the untransformed program: speedup 1 by definition.
        beam = {{root, 1.0}};
        level = 0;
        started = true;
        pending = expand(tree, beam, level, options.hash, seen);
        next = 0;
      }
      if (next < pending.size()) {
        result.push_back(pending[next++]);
        continue;
      }
      // Everything of this level proposed: wait for the measurements before
      // choosing the next beam.
      if (!result.empty())
        break;
      bool allMeasured = llvm::all_of(pending, [&](const Config &c) {
        return measured.count(options.hash(c));
      });
      if (!allMeasured || level >= tree.depth())
        break;
      std::vector<Scored> pool = beam;
      for (const Config &config : pending)
        pool.push_back({config, measured[options.hash(config)]});
      keepBest(pool, options.width);
      beam = std::move(pool);
      ++level;
      if (level >= tree.depth())
        break;
      pending = expand(tree, beam, level, options.hash, seen);
      next = 0;
    }
    return result;
  }

  void observe(llvm::ArrayRef<Observation> observations) override {
    for (const Observation &observation : observations)
      measured[options.hash(observation.config)] = scoreOf(observation);
  }

private:
  const DecisionTree &tree;
  BeamSearchOptions options;
  std::unordered_set<uint64_t> seen;
  std::vector<Scored> beam;
  size_t level = 0;
  bool started = false;
  size_t next = 0;
  std::vector<Config> pending;
  std::unordered_map<uint64_t, double> measured;
};

} // namespace

std::unique_ptr<Strategy>
tuner::createExecutionBeamSearch(const DecisionTree &tree,
                                 const BeamSearchOptions &options) {
  return std::make_unique<ExecutionBeamSearch>(tree, options);
}
