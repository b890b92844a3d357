//===- FeasibilityForest.cpp - Learned hidden constraints -----------------===//

#include "tuner/Search/FeasibilityForest.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

using namespace tuner;

namespace {

/// Grows one CART tree over the rows `sample` of the data.
class TreeGrower {
public:
  TreeGrower(const Eigen::MatrixXd &points, const std::vector<bool> &feasible,
             const FeasibilityForestOptions &options, std::mt19937_64 &rng)
      : points(points), feasible(feasible), options(options), rng(rng) {}

  template <typename Node>
  unsigned grow(std::vector<Node> &tree, std::vector<unsigned> sample,
                unsigned depth) {
    unsigned index = tree.size();
    tree.emplace_back();
    size_t good = 0;
    for (unsigned row : sample)
      good += feasible[row];
    tree[index].feasibleFraction =
        sample.empty() ? 1 : double(good) / double(sample.size());
    bool pure = good == 0 || good == sample.size();
    if (pure || sample.size() < std::max(2u, options.minSplit) ||
        depth >= options.maxDepth)
      return index;

    Split split = bestSplit(sample, good);
    if (split.feature < 0)
      return index;
    std::vector<unsigned> left, right;
    for (unsigned row : sample)
      (points(row, split.feature) <= split.threshold ? left : right)
          .push_back(row);
    tree[index].feature = split.feature;
    tree[index].threshold = split.threshold;
    unsigned leftIndex = grow(tree, std::move(left), depth + 1);
    unsigned rightIndex = grow(tree, std::move(right), depth + 1);
    tree[index].left = leftIndex;
    tree[index].right = rightIndex;
    return index;
  }

private:
  struct Split {
    int feature = -1;
    double threshold = 0;
  };

  /// The split of the Gini impurity's largest decrease among a random
  /// subset of the features (more features are tried while none splits).
  Split bestSplit(const std::vector<unsigned> &sample, size_t good) {
    size_t features = points.cols();
    std::vector<unsigned> order(features);
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    size_t tried = std::max<size_t>(
        1, size_t(std::lround(options.maxFeatures * double(features))));
    double n = double(sample.size());
    auto gini = [](double count, double ok) {
      if (count == 0)
        return 0.0;
      double p = ok / count;
      return count * 2 * p * (1 - p);
    };
    double parent = gini(n, double(good));
    Split best;
    double bestImpurity = parent - 1e-12;
    std::vector<std::pair<double, bool>> values(sample.size());
    for (size_t f = 0; f < features; ++f) {
      // The subset, then the rest only while nothing splits.
      if (f >= tried && best.feature >= 0)
        break;
      unsigned feature = order[f];
      for (size_t i = 0; i < sample.size(); ++i)
        values[i] = {points(sample[i], feature), feasible[sample[i]]};
      std::sort(values.begin(), values.end());
      double leftCount = 0, leftGood = 0;
      for (size_t i = 0; i + 1 < values.size(); ++i) {
        leftCount += 1;
        leftGood += values[i].second;
        if (values[i].first == values[i + 1].first)
          continue;
        double impurity = gini(leftCount, leftGood) +
                          gini(n - leftCount, double(good) - leftGood);
        if (impurity < bestImpurity) {
          bestImpurity = impurity;
          best.feature = int(feature);
          best.threshold = 0.5 * (values[i].first + values[i + 1].first);
        }
      }
    }
    return best;
  }

  const Eigen::MatrixXd &points;
  const std::vector<bool> &feasible;
  const FeasibilityForestOptions &options;
  std::mt19937_64 &rng;
};

} // namespace

void FeasibilityForest::train(const Eigen::MatrixXd &points,
                              const std::vector<bool> &feasible,
                              uint64_t seed) {
  assert(size_t(points.rows()) == feasible.size() && "one label per point");
  trees.clear();
  size_t n = points.rows();
  if (n == 0)
    return;
  std::mt19937_64 rng(seed);
  TreeGrower grower(points, feasible, options, rng);
  std::uniform_int_distribution<unsigned> pick(0, unsigned(n - 1));
  for (unsigned t = 0; t < std::max(1u, options.trees); ++t) {
    std::vector<unsigned> sample(n);
    if (options.bootstrap)
      for (unsigned &row : sample)
        row = pick(rng);
    else
      std::iota(sample.begin(), sample.end(), 0);
    Tree tree;
    grower.grow(tree, std::move(sample), 0);
    trees.push_back(std::move(tree));
  }
}

double FeasibilityForest::probability(const double *point) const {
  if (trees.empty())
    return 1;
  double sum = 0;
  for (const Tree &tree : trees) {
    unsigned node = 0;
    while (tree[node].feature >= 0)
      node = point[tree[node].feature] <= tree[node].threshold
                 ? tree[node].left
                 : tree[node].right;
    sum += tree[node].feasibleFraction;
  }
  return sum / double(trees.size());
}
