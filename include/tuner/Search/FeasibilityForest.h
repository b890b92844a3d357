//===- FeasibilityForest.h - Learned hidden constraints ---------*- C++ -*-===//
//
// BaCO's model of hidden constraints (§4.2): a random forest classifier that
// predicts the probability that a config evaluates without failing (any
// failure class), trained on the configs evaluated so far. Each tree is a
// CART tree (Gini impurity, thresholds between observed values) grown on the
// points (or a bootstrap sample), trying a random subset of the features at
// every split;
// the probability is the mean over the trees of the feasible fraction of the
// leaf a point falls in. Seeded: the same data and seed give the same
// forest. Features are any numbers per point (Bayesian optimization uses its
// ConfigEncoding).
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_SEARCH_FEASIBILITYFOREST_H
#define TUNER_SEARCH_FEASIBILITYFOREST_H

#include <Eigen/Dense>

#include <cstdint>
#include <vector>

namespace tuner {

/// The defaults are BaCO's feasibility classifier: 50 fully grown trees,
/// three quarters of the features tried per split, every tree on all the
/// points (the trees differ by their feature draws). With bootstrap samples
/// a forest of a few dozen points predicts a region where every config
/// failed as feasible with a probability of 0.1 or more, enough for the
/// acquisition of a converged model to keep probing it.
struct FeasibilityForestOptions {
  unsigned trees = 50;
  /// Fraction of the features tried at each split (at least one).
  double maxFeatures = 0.75;
  /// Nodes with fewer points are leaves.
  unsigned minSplit = 2;
  unsigned maxDepth = 24;
  /// Grow each tree on a bootstrap sample (else on all the points).
  bool bootstrap = false;
};

class FeasibilityForest {
public:
  explicit FeasibilityForest(FeasibilityForestOptions options = {})
      : options(options) {}

  /// Grows the forest on `points` (one row each) labelled `feasible`.
  void train(const Eigen::MatrixXd &points, const std::vector<bool> &feasible,
             uint64_t seed);
  bool trained() const { return !trees.empty(); }

  /// The predicted probability that `point` (width as trained) is feasible;
  /// 1 before training.
  double probability(const double *point) const;
  double probability(const Eigen::RowVectorXd &point) const {
    return probability(point.data());
  }

private:
  struct Node {
    /// A leaf when feature < 0.
    int feature = -1;
    double threshold = 0;
    unsigned left = 0, right = 0;
    double feasibleFraction = 1;
  };
  using Tree = std::vector<Node>;

  FeasibilityForestOptions options;
  std::vector<Tree> trees;
};

} // namespace tuner

#endif // TUNER_SEARCH_FEASIBILITYFOREST_H
