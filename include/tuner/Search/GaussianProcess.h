//===- GaussianProcess.h - A GP over the configs of a typed space -*- C++
//-*-===//
//
// The surrogate model of Bayesian optimization (BaCO §3.2, §4.1): a Gaussian
// process whose kernel is the product of one kernel per parameter, each
// fitting the parameter's type:
//
// - ordinal, integer and real parameters: Matérn-5/2 of |x - x'| / l, the
//   values normalized to [0, 1] over the domain (of their logarithm when the
//   parameter is log-scale; an ordinal by its values, not its positions);
// - categorical and boolean parameters: exp(-[x != x'] / l) (Hamming);
// - permutations: exp(-d(p, p') / l) with d one of BaCO's semimetrics,
//   normalized to [0, 1] by its largest value: Spearman's sum of squared
//   displacements (the default), Kendall's discordant pairs, or Hamming's
//   count of moved elements. Each is a squared Euclidean distance of an
//   embedding of the permutations, so every kernel is positive definite.
//
// k(x, x') = s2 * prod_i k_i(x_i, x'_i), with observation noise n2. The
// hyperparameters (the lengthscales l_i, the signal variance s2 and the noise
// variance n2) are fitted by maximizing the log marginal likelihood plus log
// gamma priors, from several starts, with LBFGS++'s L-BFGS-B on their
// logarithms and analytic gradients. The process has mean zero: its client
// standardizes the targets (and subtracts a prior mean of its own).
//
// Nothing here knows about MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_SEARCH_GAUSSIANPROCESS_H
#define TUNER_SEARCH_GAUSSIANPROCESS_H

#include "tuner/Space/Space.h"

#include <Eigen/Dense>

#include <optional>
#include <random>
#include <vector>

namespace tuner {

/// How two permutations are compared (BaCO §4.1).
enum class PermutationDistance { Spearman, Kendall, Hamming };

/// "spearman", "kendall", "hamming".
llvm::StringRef stringifyPermutationDistance(PermutationDistance distance);
std::optional<PermutationDistance>
parsePermutationDistance(llvm::StringRef text);

/// Matérn-5/2 of a scaled distance r >= 0: (1 + sqrt5 r + 5 r^2 / 3)
/// exp(-sqrt5 r).
double matern52(double r);

/// A permutation semimetric normalized to [0, 1] (0 for identical orders; 1
/// for the farthest pair: the reversal for Spearman and Kendall). Both must
/// have the same size.
double permutationDistance(PermutationDistance distance,
                           llvm::ArrayRef<int64_t> a,
                           llvm::ArrayRef<int64_t> b);

/// Configs of a space as points for the kernels and the feasibility forest:
/// one block of numbers per parameter (a normalized number for ordinal,
/// integer and real parameters, the index of the value for categorical and
/// boolean ones, the elements of a permutation).
class ConfigEncoding {
public:
  enum class Kind { Numeric, Hamming, Permutation };

  ConfigEncoding(const Space &space,
                 PermutationDistance distance = PermutationDistance::Spearman);

  /// Numbers per config.
  size_t width() const { return totalWidth; }
  /// Parameters (one kernel each).
  size_t parameters() const { return blocks.size(); }
  Kind kind(size_t parameter) const { return blocks[parameter].kind; }
  PermutationDistance getPermutationDistance() const { return permutations; }

  /// Writes the encoding of `config` into `out` (width() numbers).
  void encode(const Config &config, double *out) const;
  Eigen::RowVectorXd encode(const Config &config) const;
  /// The distance along `parameter` between two encoded configs: |a - b| of
  /// a numeric parameter, 0 or 1 of a categorical one, the normalized
  /// semimetric of a permutation.
  double distance(size_t parameter, const double *a, const double *b) const;

private:
  struct Block {
    Kind kind;
    size_t offset, width;
  };
  const Space &space;
  PermutationDistance permutations;
  std::vector<Block> blocks;
  size_t totalWidth = 0;
};

/// Gamma(shape, rate) prior of a positive hyperparameter; log density up to
/// a constant: (shape - 1) log x - rate x.
struct GammaPrior {
  double shape = 1, rate = 0;
};

struct GaussianProcessOptions {
  /// BaCO's lengthscale prior (on normalized inputs): long-tailed, cutting
  /// out lengthscales near zero that would make the model a sparse lookup.
  GammaPrior lengthscale{1.3, 0.1};
  GammaPrior signal{2.0, 0.15};
  GammaPrior noise{1.1, 0.05};
  /// Bounds of the hyperparameters (the optimizer works on their logs).
  double minLengthscale = 0.01, maxLengthscale = 100;
  double minSignal = 0.01, maxSignal = 100;
  double minNoise = 1e-6, maxNoise = 1;
  /// Random hyperparameter settings scored before the local fits, and how
  /// many of the best are refined by L-BFGS-B (plus the previous fit).
  unsigned randomStarts = 24, refinedStarts = 3;
  unsigned maxIterations = 60;
};

/// A zero-mean Gaussian process with the product kernel of a ConfigEncoding.
/// Hyperparameter vector theta = [log l_1 .. log l_D, log s2, log n2].
class GaussianProcess {
public:
  explicit GaussianProcess(const ConfigEncoding &encoding,
                           GaussianProcessOptions options = {});

  /// The training data: encoded configs (one row each) and targets.
  void setData(Eigen::MatrixXd points, Eigen::VectorXd targets);
  size_t size() const { return targets.size(); }

  /// Number of hyperparameters (parameters + 2).
  size_t hyperparameterCount() const { return encoding.parameters() + 2; }
  /// Lengthscales 1, signal 1, noise 1e-4.
  Eigen::VectorXd defaultHyperparameters() const;
  /// Uses `theta` (log hyperparameters) from now on; conditions on the data.
  void setHyperparameters(const Eigen::VectorXd &theta);
  const Eigen::VectorXd &getHyperparameters() const { return theta; }

  /// The log marginal likelihood of the data under `theta` (with its
  /// gradient with respect to theta when `gradient` is given).
  double logMarginalLikelihood(const Eigen::VectorXd &theta,
                               Eigen::VectorXd *gradient = nullptr) const;
  /// The log density of the gamma priors at `theta` (up to a constant; the
  /// priors are on the hyperparameters themselves).
  double logPrior(const Eigen::VectorXd &theta,
                  Eigen::VectorXd *gradient = nullptr) const;

  /// Fits the hyperparameters: the best of random starts (and `previous`,
  /// when given) refined by L-BFGS-B on log marginal likelihood + log prior;
  /// sets and returns the best. Without `multiStart`, only `previous` (or
  /// the defaults) is refined, which is how a model that gained a point or
  /// two is refitted cheaply. Deterministic for a given `rng` state.
  Eigen::VectorXd fit(std::mt19937_64 &rng,
                      const std::optional<Eigen::VectorXd> &previous = {},
                      bool multiStart = true);

  /// The kernel between two encoded configs under the current
  /// hyperparameters.
  double kernel(const double *a, const double *b) const;

  /// Posterior mean and variance of the latent function (noise-free) at
  /// each row of `points`.
  void predict(const Eigen::MatrixXd &points, Eigen::VectorXd &mean,
               Eigen::VectorXd &variance) const;

private:
  /// The distances of every pair of training points along the parameters
  /// that vary among them.
  void computeDistances();
  /// K (without noise) into `k`.
  void covariance(const Eigen::VectorXd &theta, Eigen::MatrixXd &k) const;
  double kernelFromDistances(const Eigen::VectorXd &theta,
                             const double *distances) const;

  const ConfigEncoding &encoding;
  GaussianProcessOptions options;
  Eigen::MatrixXd points;
  Eigen::VectorXd targets;
  /// The parameters whose distance is not 0 for some pair of training
  /// points, and per pair (i, j), j < i, in order, their distances.
  std::vector<size_t> active;
  std::vector<double> pairDistances;
  /// Buffers of logMarginalLikelihood, kept between calls so that a fit
  /// allocates them once.
  struct Workspace {
    Eigen::MatrixXd k, ky, w;
    Eigen::LLT<Eigen::MatrixXd> llt;
  };
  mutable Workspace workspace;
  Eigen::VectorXd theta;
  /// Conditioned state: the Cholesky factor of K + n2 I and (K + n2 I)^-1 y.
  Eigen::MatrixXd cholesky;
  Eigen::VectorXd alpha;
};

} // namespace tuner

#endif // TUNER_SEARCH_GAUSSIANPROCESS_H
