//===- MonteCarloTreeSearch.cpp - UCT over the decision tree --------------===//

#include "tuner/Search/ExecutionStep.h"
#include "tuner/Search/Strategies.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <unordered_map>

using namespace tuner;

namespace {

struct Node {
  Config config;
  size_t level = 0; ///< The next decision to take below this node.
  int parent = -1;
  std::vector<int> children;
  bool expanded = false;
  double value = 0; ///< The model's prediction for this schedule.
  double total = 0; ///< Sum of backed-up values.
  unsigned visits = 0;
};

class MonteCarloTreeSearch : public ModelGuidedStrategy {
public:
  MonteCarloTreeSearch(const DecisionTree &tree, Evaluator &model,
                       const MonteCarloOptions &options)
      : ModelGuidedStrategy(options),
        tree(tree), model(model), options(options), rng(options.seed) {
    if (!this->options.hash)
      this->options.hash = [](const Config &c) { return c.hash(); };
  }

  llvm::StringRef getName() const override { return "mcts"; }

private:
  /// Model scores, cached by schedule hash: no schedule is scored twice.
  std::vector<double> score(const std::vector<Config> &configs) {
    std::vector<double> result(configs.size(), 0);
    std::vector<Config> fresh;
    std::unordered_map<uint64_t, size_t> freshByHash;
    std::vector<uint64_t> hashes;
    for (const Config &config : configs) {
      uint64_t hash = options.hash(config);
      hashes.push_back(hash);
      if (!cache.count(hash) && freshByHash.emplace(hash, fresh.size()).second)
        fresh.push_back(config);
    }
    if (!fresh.empty()) {
      std::vector<Observation> observations = model.evaluate(fresh);
      for (auto [config, observation] : llvm::zip(fresh, observations)) {
        double value = observation.ok() ? observation.value : 0;
        cache[options.hash(config)] = value;
        best = std::max(best, value);
      }
    }
    for (auto [i, hash] : llvm::enumerate(hashes))
      result[i] = cache[hash];
    return result;
  }

  int select() {
    int current = 0;
    while (nodes[current].expanded && !nodes[current].children.empty()) {
      const Node &parent = nodes[current];
      double logVisits = std::log(double(std::max(1u, parent.visits)));
      double bestUct = -std::numeric_limits<double>::infinity();
      std::vector<int> ties;
      for (int child : parent.children) {
        const Node &n = nodes[child];
        // A node's value is the model's prediction for its schedule until
        // visits back up what lies below it; an unvisited node counts as
        // visited once, so that the prediction, not blind breadth-first
        // expansion, decides which of many children is tried first.
        double mean = n.visits ? n.total / n.visits : n.value;
        double uct = mean / std::max(best, 1e-9) +
                     options.exploration *
                         std::sqrt(logVisits / std::max(1u, n.visits));
        if (uct > bestUct) {
          bestUct = uct;
          ties = {child};
        } else if (uct == bestUct) {
          ties.push_back(child);
        }
      }
      current = ties[std::uniform_int_distribution<size_t>(0, ties.size() - 1)(rng)];
    }
    return current;
  }

  /// The best model score of `options.rollouts` random completions of
  /// `config` from decision `level` on (0 when there are none).
  double rollouts(const Config &config, size_t level) {
    std::vector<Config> leaves;
    for (unsigned r = 0; r < options.rollouts; ++r) {
      Config current = config;
      for (size_t l = level; l < tree.depth(); ++l) {
        std::vector<Config> kids = tree.children(current, l);
        if (kids.empty())
          continue;
        current = std::move(
            kids[std::uniform_int_distribution<size_t>(0, kids.size() - 1)(rng)]);
      }
      leaves.push_back(std::move(current));
    }
    if (leaves.empty())
      return 0;
    std::vector<double> values = score(leaves);
    double result = 0;
    for (auto [leaf, value] : llvm::zip(leaves, values)) {
      remember(leaf, value);
      result = std::max(result, value);
    }
    return result;
  }

  void backup(int node, double value) {
    for (int n = node; n >= 0; n = nodes[n].parent) {
      nodes[n].visits += 1;
      nodes[n].total += value;
    }
  }

  void remember(const Config &config, double value) {
    uint64_t hash = options.hash(config);
    if (hash == rootHash || !kept.emplace(hash, value).second)
      return;
    ranked.push_back({value, config});
  }

  std::vector<std::pair<Config, double>> searchWithModel() override {
    Node root;
    root.config = tree.root();
    rootHash = options.hash(root.config);
    root.value = score({root.config}).front();
    nodes.push_back(std::move(root));
    for (unsigned iteration = 0; iteration < options.iterations; ++iteration) {
      int leaf = select();
      Node &node = nodes[leaf];
      if (node.level >= tree.depth()) {
        // A complete schedule: nothing left to decide below it.
        node.expanded = true;
        backup(leaf, node.value);
        continue;
      }
      // Expand: every choice of the next decision, "keep as is" included,
      // scored in one model batch.
      std::vector<Config> kids = tree.children(node.config, node.level);
      std::vector<double> values = score(kids);
      size_t level = node.level + 1;
      double bestKid = 0;
      std::vector<int> created;
      for (auto [config, value] : llvm::zip(kids, values)) {
        Node child;
        child.config = config;
        child.level = level;
        child.parent = leaf;
        child.value = value;
        remember(config, value);
        bestKid = std::max(bestKid, value);
        created.push_back(int(nodes.size()));
        nodes.push_back(std::move(child));
      }
      nodes[leaf].children = std::move(created);
      nodes[leaf].expanded = true;
      // Simulations: random completions of the node's schedule, scored in
      // one batch, look past decisions whose effect shows only later (a
      // register tile pays off once vectorized).
      double bestRollout = rollouts(nodes[leaf].config, level - 1);
      double value = std::max(bestKid, bestRollout);
      backup(leaf, nodes[leaf].children.empty() && bestRollout <= 0
                       ? nodes[leaf].value
                       : value);
      if (nodes[0].expanded && fullyExplored(0))
        break;
    }
    std::vector<std::pair<Config, double>> predicted;
    predicted.reserve(ranked.size());
    for (auto &[value, config] : ranked)
      predicted.emplace_back(std::move(config), value);
    return predicted;
  }

  /// Whether every node below `n` is expanded down to complete schedules.
  bool fullyExplored(int n) const {
    const Node &node = nodes[n];
    if (node.level >= tree.depth())
      return true;
    if (!node.expanded)
      return false;
    return llvm::all_of(node.children, [&](int c) { return fullyExplored(c); });
  }

  const DecisionTree &tree;
  Evaluator &model;
  MonteCarloOptions options;
  std::mt19937_64 rng;
  std::vector<Node> nodes;
  std::unordered_map<uint64_t, double> cache;
  std::unordered_map<uint64_t, double> kept;
  std::vector<std::pair<double, Config>> ranked;
  uint64_t rootHash = 0;
  double best = 0;
};

} // namespace

std::unique_ptr<Strategy>
tuner::createMonteCarloTreeSearch(const DecisionTree &tree, Evaluator &model,
                                  const MonteCarloOptions &options) {
  return std::make_unique<MonteCarloTreeSearch>(tree, model, options);
}
