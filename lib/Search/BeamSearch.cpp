//===- BeamSearch.cpp - Beam search with the model or with execution ------===//

#include "tuner/Search/ExecutionStep.h"
#include "tuner/Search/Strategies.h"

#include <algorithm>
#include <limits>
#include <unordered_map>
#include <unordered_set>

using namespace tuner;

namespace {

constexpr double kFailed = -std::numeric_limits<double>::infinity();

struct Scored {
  Config config;
  double score = kFailed;
};

/// Keeps the `width` best of `pool`, stably (earlier first on ties).
void keepBest(std::vector<Scored> &pool, unsigned width) {
  std::stable_sort(pool.begin(), pool.end(),
                   [](const Scored &a, const Scored &b) { return a.score > b.score; });
  if (pool.size() > width)
    pool.resize(width);
}

class BeamSearch : public Strategy {
public:
  BeamSearch(const DecisionTree &tree, Evaluator *model,
             const BeamSearchOptions &options)
      : tree(tree), model(model), options(options),
        execution(options.topK, options.correct, options.diverse, options.hash) {
    if (!this->options.hash)
      this->options.hash = [](const Config &c) { return c.hash(); };
    this->options.width = std::max(1u, this->options.width);
  }

  llvm::StringRef getName() const override {
    return model ? "beam" : "beam-exec";
  }

  std::vector<Config> propose(size_t count) override {
    return model ? proposeFromModel(count) : proposeForExecution(count);
  }

  void observe(llvm::ArrayRef<Observation> observations) override {
    if (model)
      return execution.observe(observations);
    for (const Observation &observation : observations)
      measured[options.hash(observation.config)] =
          observation.ok() ? observation.value : kFailed;
  }

private:
  /// The feasible children of the beam at the current level that were never
  /// seen before.
  std::vector<Config> expandBeam() {
    std::vector<Config> kids;
    for (const Scored &node : beam)
      for (Config &child : tree.children(node.config, level))
        if (seen.insert(options.hash(child)).second)
          kids.push_back(std::move(child));
    return kids;
  }

  // BSM: the whole search against the model, then the top k for measuring.
  std::vector<Config> proposeFromModel(size_t count) {
    if (!searched) {
      searchWithModel();
      searched = true;
    }
    return execution.propose(count);
  }

  void searchWithModel() {
    Config root = tree.root();
    uint64_t rootHash = options.hash(root);
    seen.insert(rootHash);
    std::vector<Observation> rootScore = model->evaluate({root});
    beam = {{root, rootScore.front().ok() ? rootScore.front().value : kFailed}};
    std::vector<Scored> all;
    for (level = 0; level < tree.depth(); ++level) {
      std::vector<Config> kids = expandBeam();
      if (kids.empty())
        continue;
      // One batch of the model for the whole frontier.
      std::vector<Observation> scores = model->evaluate(kids);
      std::vector<Scored> pool = beam;
      for (auto [config, score] : llvm::zip(kids, scores)) {
        Scored scored{config, score.ok() ? score.value : kFailed};
        all.push_back(scored);
        pool.push_back(std::move(scored));
      }
      keepBest(pool, options.width);
      beam = std::move(pool);
    }
    // The untransformed program is the baseline: never a finalist (it is
    // never among `all`).
    std::vector<std::pair<Config, double>> predicted;
    for (Scored &scored : all)
      predicted.emplace_back(std::move(scored.config), scored.score);
    execution.setCandidates(std::move(predicted));
  }

  // BSE: every node is measured; the beam keeps the best measured.
  std::vector<Config> proposeForExecution(size_t count) {
    std::vector<Config> result;
    while (result.size() < count) {
      if (!started) {
        Config root = tree.root();
        seen.insert(options.hash(root));
        // The root is the untransformed program: speedup 1 by definition.
        beam = {{root, 1.0}};
        level = 0;
        started = true;
        pending = expandBeam();
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
      if (!allMeasured)
        break;
      if (level >= tree.depth())
        break;
      std::vector<Scored> pool = beam;
      for (const Config &config : pending)
        pool.push_back({config, measured[options.hash(config)]});
      keepBest(pool, options.width);
      beam = std::move(pool);
      ++level;
      pending = level < tree.depth() ? expandBeam() : std::vector<Config>();
      next = 0;
      if (level >= tree.depth())
        break;
    }
    return result;
  }

  const DecisionTree &tree;
  Evaluator *model;
  BeamSearchOptions options;
  std::unordered_set<uint64_t> seen;
  std::vector<Scored> beam;
  size_t level = 0;
  // BSM.
  bool searched = false;
  ExecutionStep execution;
  // BSE.
  bool started = false;
  size_t next = 0;
  std::vector<Config> pending;
  std::unordered_map<uint64_t, double> measured;
};

} // namespace

std::unique_ptr<Strategy>
tuner::createBeamSearch(const DecisionTree &tree, Evaluator *model,
                        const BeamSearchOptions &options) {
  return std::make_unique<BeamSearch>(tree, model, options);
}
