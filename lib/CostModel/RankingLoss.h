//===- RankingLoss.h - Ranking losses over each program's schedules -*- C++ -*-//
//
// The losses that train the model to order the schedules of one program
// rather than to predict each speedup: pairwise (RankNet), pairwise
// weighted toward the top of the order (LambdaRank) and listwise (ListNet),
// alone or added to a pointwise loss (TrainingLoss). They read the log of
// the predicted speedup, s = log p = score(schedule) -
// score(untransformed), so only differences of scores within a program
// matter.
//
// Every program's untransformed schedule takes part as one more member of
// its list, with measured speedup 1 and predicted speedup 1 by construction
// (s = 0, no parameter to learn): it anchors the scale's origin, so that a
// model trained on a ranking loss alone still predicts the schedules that
// measured faster than the untransformed program above 1 and the slower
// ones below 1, though how far above or below is left free.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_LIB_COSTMODEL_RANKINGLOSS_H
#define TUNER_LIB_COSTMODEL_RANKINGLOSS_H

#include "Network.h"

#include "tuner/CostModel/CostModel.h"

#include "llvm/ADT/ArrayRef.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <numeric>
#include <vector>

namespace tuner {

/// log(1 + exp(x)) without overflow.
inline double softplus(double x) {
  return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
}

/// 1 / (1 + exp(-x)).
inline double logistic(double x) {
  if (x >= 0)
    return 1 / (1 + std::exp(-x));
  double e = std::exp(x);
  return e / (1 + e);
}

/// The members of each group, by group id (schedules with equal ids belong
/// to one program).
inline std::map<unsigned, std::vector<Eigen::Index>>
membersByGroup(llvm::ArrayRef<unsigned> groups) {
  std::map<unsigned, std::vector<Eigen::Index>> result;
  for (size_t i = 0; i < groups.size(); ++i)
    result[groups[i]].push_back(Eigen::Index(i));
  return result;
}

/// RankNet: the mean, over the ordered pairs of schedules of one group (the
/// untransformed schedule included, see above) whose measured speedups
/// differ by more than a factor 1 + `margin`, of log(1 + exp(-(s_faster -
/// s_slower))): the cross-entropy of the model's probability that the
/// faster one is faster. Pairs closer than the margin (the labels' noise)
/// do not count. 0, with a zero gradient, when no pair counts.
/// `predictions` and `targets` are 1 x B (positive), `groups` has B ids;
/// with `grad`, also the gradient with respect to the predictions.
template <typename T>
T rankNetLoss(const typename Network<T>::Matrix &predictions,
              const typename Network<T>::Matrix &targets,
              llvm::ArrayRef<unsigned> groups, double margin,
              typename Network<T>::Matrix *grad) {
  Eigen::Index n = predictions.cols();
  std::vector<double> dS(n, 0.0);
  double threshold = std::log1p(margin);
  double sum = 0;
  size_t pairs = 0;
  // The untransformed schedule is index -1: s = 0, log speedup 0.
  auto logPredicted = [&](Eigen::Index i) {
    return i < 0 ? 0.0 : std::log(double(predictions(0, i)));
  };
  auto logMeasured = [&](Eigen::Index i) {
    return i < 0 ? 0.0 : std::log(double(targets(0, i)));
  };
  for (auto &[group, members] : membersByGroup(groups)) {
    std::vector<Eigen::Index> all = members;
    all.push_back(-1);
    for (size_t a = 0; a < all.size(); ++a)
      for (size_t b = a + 1; b < all.size(); ++b) {
        Eigen::Index i = all[a], j = all[b];
        double measured = logMeasured(i) - logMeasured(j);
        if (std::fabs(measured) <= threshold)
          continue;
        if (measured < 0)
          std::swap(i, j); // i: the faster one.
        double d = logPredicted(i) - logPredicted(j);
        sum += softplus(-d);
        ++pairs;
        // d/dd log(1 + exp(-d)) = -logistic(-d).
        double g = -logistic(-d);
        if (i >= 0)
          dS[i] += g;
        if (j >= 0)
          dS[j] -= g;
      }
  }
  if (grad) {
    grad->setZero(1, n);
    if (pairs)
      for (Eigen::Index i = 0; i < n; ++i)
        (*grad)(0, i) = T(dS[i] / double(pairs) / double(predictions(0, i)));
  }
  return pairs ? T(sum / double(pairs)) : T(0);
}

/// LambdaRank: RankNet's pairs, each weighted by how much swapping the two
/// schedules in the model's current order would change the group's NDCG,
/// so that the pairs that decide the top of the order weigh most. Each
/// member's gain is its measured speedup as a share of the group's best
/// (the untransformed schedule, speedup 1, included), the discount of the
/// schedule the model puts at rank r (0 first) is 1 / log2(r + 2), and a
/// pair's weight is |gain_i - gain_j| |discount(r_i) - discount(r_j)|
/// divided by the group's ideal DCG. A group's loss is the weighted mean
/// of its pairs' cross-entropies (the scale of RankNet's), and the loss the
/// mean over the groups with a pair that counts (farther apart than
/// `margin`, as for RankNet). The weights are those of the current order
/// and are held constant in the gradient, as in LambdaRank: the order, and
/// so the loss, changes only where two predictions cross. 0, with a zero
/// gradient, when no pair counts.
template <typename T>
T lambdaRankLoss(const typename Network<T>::Matrix &predictions,
                 const typename Network<T>::Matrix &targets,
                 llvm::ArrayRef<unsigned> groups, double margin,
                 typename Network<T>::Matrix *grad) {
  Eigen::Index n = predictions.cols();
  std::vector<double> dS(n, 0.0);
  double threshold = std::log1p(margin);
  double sum = 0;
  size_t counted = 0;
  for (auto &[group, members] : membersByGroup(groups)) {
    // Position m is the untransformed schedule: s = 0, speedup 1.
    size_t m = members.size();
    std::vector<double> s(m + 1, 0.0), y(m + 1, 1.0);
    for (size_t a = 0; a < m; ++a) {
      s[a] = std::log(double(predictions(0, members[a])));
      y[a] = double(targets(0, members[a]));
    }
    double best = *std::max_element(y.begin(), y.end());
    std::vector<double> gain(m + 1);
    for (size_t a = 0; a <= m; ++a)
      gain[a] = y[a] / best;
    auto discount = [](size_t rank) { return 1 / std::log2(double(rank) + 2); };
    // The model's order (ties by position) and the ideal one.
    std::vector<size_t> order(m + 1);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return s[a] > s[b] || (s[a] == s[b] && a < b);
    });
    std::vector<size_t> rank(m + 1);
    for (size_t r = 0; r <= m; ++r)
      rank[order[r]] = r;
    std::vector<double> ideal = gain;
    std::sort(ideal.begin(), ideal.end(), std::greater<double>());
    double idealDCG = 0;
    for (size_t r = 0; r <= m; ++r)
      idealDCG += ideal[r] * discount(r);
    double weighted = 0, weights = 0;
    std::vector<double> dGroup(m + 1, 0.0);
    for (size_t a = 0; a <= m; ++a)
      for (size_t b = a + 1; b <= m; ++b) {
        double measured = std::log(y[a]) - std::log(y[b]);
        if (std::fabs(measured) <= threshold)
          continue;
        size_t i = a, j = b;
        if (measured < 0)
          std::swap(i, j); // i: the faster one.
        double w = std::fabs(gain[i] - gain[j]) *
                   std::fabs(discount(rank[i]) - discount(rank[j])) / idealDCG;
        if (!(w > 0))
          continue;
        double d = s[i] - s[j];
        weighted += w * softplus(-d);
        weights += w;
        double g = -w * logistic(-d);
        dGroup[i] += g;
        dGroup[j] -= g;
      }
    if (!(weights > 0))
      continue;
    sum += weighted / weights;
    ++counted;
    for (size_t a = 0; a < m; ++a)
      dS[members[a]] += dGroup[a] / weights;
  }
  if (grad) {
    grad->setZero(1, n);
    if (counted)
      for (Eigen::Index i = 0; i < n; ++i)
        (*grad)(0, i) =
            T(dS[i] / double(counted) / double(predictions(0, i)));
  }
  return counted ? T(sum / double(counted)) : T(0);
}

/// ListNet (top-one probabilities): the mean over groups of the
/// Kullback-Leibler divergence from the measured distribution, softmax of
/// the log measured speedups (each schedule's share of the group's summed
/// speedup), to the model's, softmax of s, over each group's schedules and
/// its untransformed one. Speedups that differ by little get nearly equal
/// shares, so the labels' noise weighs little without a margin. 0 for no
/// groups.
template <typename T>
T listNetLoss(const typename Network<T>::Matrix &predictions,
              const typename Network<T>::Matrix &targets,
              llvm::ArrayRef<unsigned> groups,
              typename Network<T>::Matrix *grad) {
  Eigen::Index n = predictions.cols();
  std::vector<double> dS(n, 0.0);
  double sum = 0;
  size_t lists = 0;
  for (auto &[group, members] : membersByGroup(groups)) {
    // Log-sum-exp of s and of log y, the untransformed schedule's 0 included.
    double maxS = 0, maxY = 0;
    for (Eigen::Index i : members) {
      maxS = std::max(maxS, std::log(double(predictions(0, i))));
      maxY = std::max(maxY, std::log(double(targets(0, i))));
    }
    double zS = std::exp(-maxS), zY = std::exp(-maxY);
    for (Eigen::Index i : members) {
      zS += double(predictions(0, i)) * std::exp(-maxS);
      zY += double(targets(0, i)) * std::exp(-maxY);
    }
    double logZS = maxS + std::log(zS), logZY = maxY + std::log(zY);
    // KL(P || Q) = sum P (log P - log Q), with the untransformed member
    // (log P = -logZY, log Q = -logZS).
    double logP0 = -logZY, logQ0 = -logZS;
    double kl = std::exp(logP0) * (logP0 - logQ0);
    for (Eigen::Index i : members) {
      double logP = std::log(double(targets(0, i))) - logZY;
      double logQ = std::log(double(predictions(0, i))) - logZS;
      kl += std::exp(logP) * (logP - logQ);
      // d KL / d s_i = Q_i - P_i.
      dS[i] += std::exp(logQ) - std::exp(logP);
    }
    sum += kl;
    ++lists;
  }
  if (grad) {
    grad->setZero(1, n);
    if (lists)
      for (Eigen::Index i = 0; i < n; ++i)
        (*grad)(0, i) = T(dS[i] / double(lists) / double(predictions(0, i)));
  }
  return lists ? T(sum / double(lists)) : T(0);
}

/// The loss `kind` of a step's predictions: its pointwise term (MAPE or
/// log error, the mean over the schedules) plus `rankWeight` times its
/// ranking term (RankNet or LambdaRank with `margin`, or ListNet, over
/// `groups`), or one of them alone. With `grad`, also its gradient with
/// respect to the predictions.
template <typename T>
T combinedLoss(TrainingLoss kind, double rankWeight, double margin,
               const typename Network<T>::Matrix &predictions,
               const typename Network<T>::Matrix &targets,
               llvm::ArrayRef<unsigned> groups,
               typename Network<T>::Matrix *grad) {
  using Matrix = typename Network<T>::Matrix;
  T loss = 0;
  if (grad)
    grad->setZero(1, predictions.cols());
  Matrix termGrad;
  if (std::optional<TrainingLoss> pointwise = pointwiseTerm(kind)) {
    loss += trainingLoss<T>(*pointwise, predictions, targets,
                            grad ? &termGrad : nullptr);
    if (grad)
      *grad += termGrad;
  }
  if (std::optional<TrainingLoss> ranking = rankingTerm(kind)) {
    // Alone, the ranking term has weight 1.
    T weight = T(pointwiseTerm(kind) ? rankWeight : 1.0);
    Matrix *g = grad ? &termGrad : nullptr;
    T term = *ranking == TrainingLoss::RankNet
                 ? rankNetLoss<T>(predictions, targets, groups, margin, g)
             : *ranking == TrainingLoss::LambdaRank
                 ? lambdaRankLoss<T>(predictions, targets, groups, margin, g)
                 : listNetLoss<T>(predictions, targets, groups, g);
    loss += weight * term;
    if (grad)
      *grad += weight * termGrad;
  }
  return loss;
}

} // namespace tuner

#endif // TUNER_LIB_COSTMODEL_RANKINGLOSS_H
