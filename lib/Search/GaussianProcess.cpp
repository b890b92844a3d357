//===- GaussianProcess.cpp - A GP over the configs of a typed space -------===//

#include "tuner/Search/GaussianProcess.h"

#include <LBFGSB.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

using namespace tuner;

llvm::StringRef
tuner::stringifyPermutationDistance(PermutationDistance distance) {
  switch (distance) {
  case PermutationDistance::Spearman:
    return "spearman";
  case PermutationDistance::Kendall:
    return "kendall";
  case PermutationDistance::Hamming:
    return "hamming";
  }
  return "spearman";
}

std::optional<PermutationDistance>
tuner::parsePermutationDistance(llvm::StringRef text) {
  for (PermutationDistance distance :
       {PermutationDistance::Spearman, PermutationDistance::Kendall,
        PermutationDistance::Hamming})
    if (text == stringifyPermutationDistance(distance))
      return distance;
  return std::nullopt;
}

static const double kSqrt5 = std::sqrt(5.0);

double tuner::matern52(double r) {
  return (1 + kSqrt5 * r + 5 * r * r / 3) * std::exp(-kSqrt5 * r);
}

/// d log k / d log l of Matérn-5/2 at r = d / l.
static double maternLogDerivative(double r) {
  return (5.0 / 3.0) * r * r * (1 + kSqrt5 * r) /
         (1 + kSqrt5 * r + 5 * r * r / 3);
}

/// The semimetric over any element type (encoded permutations are doubles).
template <typename T>
static double permutationDistanceOf(PermutationDistance distance, const T *a,
                                    const T *b, size_t m) {
  if (m < 2)
    return 0;
  double md = double(m);
  switch (distance) {
  case PermutationDistance::Spearman: {
    double sum = 0;
    for (size_t i = 0; i < m; ++i)
      sum += double(a[i] - b[i]) * double(a[i] - b[i]);
    return sum / (md * (md * md - 1) / 3);
  }
  case PermutationDistance::Kendall: {
    double discordant = 0;
    for (size_t i = 0; i < m; ++i)
      for (size_t j = i + 1; j < m; ++j)
        if ((a[i] < a[j]) != (b[i] < b[j]))
          ++discordant;
    return discordant / (md * (md - 1) / 2);
  }
  case PermutationDistance::Hamming: {
    double moved = 0;
    for (size_t i = 0; i < m; ++i)
      moved += a[i] != b[i];
    return moved / md;
  }
  }
  return 0;
}

double tuner::permutationDistance(PermutationDistance distance,
                                  llvm::ArrayRef<int64_t> a,
                                  llvm::ArrayRef<int64_t> b) {
  assert(a.size() == b.size() && "permutations of different sizes");
  return permutationDistanceOf(distance, a.data(), b.data(), a.size());
}

//===----------------------------------------------------------------------===//
// ConfigEncoding
//===----------------------------------------------------------------------===//

ConfigEncoding::ConfigEncoding(const Space &space, PermutationDistance distance)
    : space(space), permutations(distance) {
  for (const Parameter &parameter : space.getParameters()) {
    Block block;
    block.offset = totalWidth;
    block.width = 1;
    switch (parameter.kind) {
    case ParamKind::Ordinal:
    case ParamKind::Integer:
    case ParamKind::Real:
      block.kind = Kind::Numeric;
      break;
    case ParamKind::Categorical:
    case ParamKind::Boolean:
      block.kind = Kind::Hamming;
      break;
    case ParamKind::Permutation:
      block.kind = Kind::Permutation;
      block.width = size_t(parameter.permutationSize);
      break;
    }
    totalWidth += block.width;
    blocks.push_back(block);
  }
}

/// `value` mapped to [0, 1] over [lower, upper] (of logs in log scale).
static double normalize(double value, double lower, double upper,
                        bool logScale) {
  if (logScale) {
    value = std::log(value);
    lower = std::log(lower);
    upper = std::log(upper);
  }
  if (!(upper > lower))
    return 0;
  return (value - lower) / (upper - lower);
}

void ConfigEncoding::encode(const Config &config, double *out) const {
  for (size_t i = 0; i < blocks.size(); ++i) {
    const Parameter &parameter = space[i];
    const ParamValue &value = config[i];
    double *slot = out + blocks[i].offset;
    switch (parameter.kind) {
    case ParamKind::Ordinal:
      slot[0] =
          normalize(value.asNumber(), parameter.values.front().asNumber(),
                    parameter.values.back().asNumber(), parameter.logScale);
      break;
    case ParamKind::Integer:
    case ParamKind::Real:
      slot[0] = normalize(value.asNumber(), parameter.lower, parameter.upper,
                          parameter.logScale);
      break;
    case ParamKind::Boolean:
      slot[0] = value.getBoolean() ? 1 : 0;
      break;
    case ParamKind::Categorical:
      slot[0] = double(parameter.indexOf(value).value_or(0));
      break;
    case ParamKind::Permutation: {
      const ParamValue::Permutation &order = value.getPermutation();
      for (size_t j = 0; j < blocks[i].width; ++j)
        slot[j] = j < order.size() ? double(order[j]) : 0;
      break;
    }
    }
  }
}

Eigen::RowVectorXd ConfigEncoding::encode(const Config &config) const {
  Eigen::RowVectorXd row(totalWidth);
  encode(config, row.data());
  return row;
}

double ConfigEncoding::distance(size_t parameter, const double *a,
                                const double *b) const {
  const Block &block = blocks[parameter];
  switch (block.kind) {
  case Kind::Numeric:
    return std::abs(a[block.offset] - b[block.offset]);
  case Kind::Hamming:
    return a[block.offset] != b[block.offset] ? 1 : 0;
  case Kind::Permutation:
    return permutationDistanceOf(permutations, a + block.offset,
                                 b + block.offset, block.width);
  }
  return 0;
}

//===----------------------------------------------------------------------===//
// GaussianProcess
//===----------------------------------------------------------------------===//

GaussianProcess::GaussianProcess(const ConfigEncoding &encoding,
                                 GaussianProcessOptions options)
    : encoding(encoding), options(options) {
  theta = defaultHyperparameters();
  setData(Eigen::MatrixXd(0, encoding.width()), Eigen::VectorXd(0));
}

Eigen::VectorXd GaussianProcess::defaultHyperparameters() const {
  Eigen::VectorXd initial = Eigen::VectorXd::Zero(hyperparameterCount());
  initial(hyperparameterCount() - 1) = std::log(1e-4);
  return initial;
}

void GaussianProcess::setData(Eigen::MatrixXd newPoints,
                              Eigen::VectorXd newTargets) {
  assert(newPoints.rows() == newTargets.size() && "one target per point");
  assert(size_t(newPoints.cols()) == encoding.width() && "encoded points");
  points = std::move(newPoints);
  targets = std::move(newTargets);
  computeDistances();
  setHyperparameters(theta);
}

void GaussianProcess::computeDistances() {
  size_t n = points.rows(), dims = encoding.parameters();
  // Row-major copies so that a point's numbers are contiguous.
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> rows =
      points;
  // A parameter at distance 0 for every pair (one value in all the data)
  // contributes a factor 1 to every kernel value and nothing to the
  // gradient: it is left out of the pair table.
  std::vector<double> all(n * (n > 0 ? n - 1 : 0) / 2 * dims);
  std::vector<bool> used(dims, false);
  size_t pair = 0;
  for (size_t i = 1; i < n; ++i)
    for (size_t j = 0; j < i; ++j, ++pair)
      for (size_t p = 0; p < dims; ++p) {
        double d = encoding.distance(p, rows.row(i).data(), rows.row(j).data());
        all[pair * dims + p] = d;
        used[p] = used[p] || d != 0;
      }
  active.clear();
  for (size_t p = 0; p < dims; ++p)
    if (used[p])
      active.push_back(p);
  size_t width = active.size();
  pairDistances.assign(pair * width, 0);
  for (size_t q = 0; q < pair; ++q)
    for (size_t a = 0; a < width; ++a)
      pairDistances[q * width + a] = all[q * dims + active[a]];
}

/// The kernel of a parameter of kind `kind` at distance `d` with
/// lengthscale `l`.
static double parameterKernel(ConfigEncoding::Kind kind, double d, double l) {
  if (kind == ConfigEncoding::Kind::Numeric)
    return matern52(d / l);
  return std::exp(-d / l);
}

/// Parameter `p`'s kernel at distance `d` with lengthscale `l`, split into
/// a factor without exponential and an exponent (Matérn-5/2: (1 + sqrt5 r +
/// 5 r^2 / 3) and -sqrt5 r; the others: 1 and -d / l), so that a product
/// of kernels costs one exponential.
static void parameterKernelParts(ConfigEncoding::Kind kind, double d, double l,
                                 double &factor, double &exponent) {
  if (kind == ConfigEncoding::Kind::Numeric) {
    double r = d / l;
    factor = 1 + kSqrt5 * r + 5 * r * r / 3;
    exponent = -kSqrt5 * r;
    return;
  }
  factor = 1;
  exponent = -d / l;
}

void GaussianProcess::covariance(const Eigen::VectorXd &hyper,
                                 Eigen::MatrixXd &k) const {
  size_t n = points.rows(), dims = encoding.parameters(), width = active.size();
  double signal = std::exp(hyper(dims));
  k.resize(n, n);
  std::vector<double> inverse(width);
  std::vector<bool> numeric(width);
  for (size_t a = 0; a < width; ++a) {
    inverse[a] = std::exp(-hyper(active[a]));
    numeric[a] = encoding.kind(active[a]) == ConfigEncoding::Kind::Numeric;
  }
  const double *d = pairDistances.data();
  for (size_t i = 0; i < n; ++i) {
    k(i, i) = signal;
    for (size_t j = 0; j < i; ++j, d += width) {
      double product = signal, exponent = 0;
      for (size_t a = 0; a < width; ++a) {
        double r = d[a] * inverse[a];
        if (numeric[a]) {
          product *= 1 + kSqrt5 * r + (5.0 / 3.0) * r * r;
          exponent -= kSqrt5 * r;
        } else {
          exponent -= r;
        }
      }
      k(i, j) = k(j, i) = product * std::exp(exponent);
    }
  }
}

/// Factors `matrix` (symmetric positive semi-definite), adding jitter to
/// its diagonal while it is numerically indefinite. False when it stays so.
static bool factorize(Eigen::MatrixXd &matrix,
                      Eigen::LLT<Eigen::MatrixXd> &llt) {
  double jitter = 0;
  double scale = matrix.rows() ? matrix.diagonal().mean() : 1;
  for (int attempt = 0; attempt < 6; ++attempt) {
    if (jitter > 0)
      matrix.diagonal().array() += jitter;
    llt.compute(matrix);
    if (llt.info() == Eigen::Success)
      return true;
    jitter = (jitter == 0 ? 1e-10 : jitter * 100) * std::max(scale, 1e-12);
  }
  return false;
}

double GaussianProcess::logMarginalLikelihood(const Eigen::VectorXd &hyper,
                                              Eigen::VectorXd *gradient) const {
  size_t n = points.rows(), dims = encoding.parameters(), width = active.size();
  if (gradient)
    *gradient = Eigen::VectorXd::Zero(hyperparameterCount());
  if (n == 0)
    return 0;
  Eigen::MatrixXd &k = workspace.k;
  covariance(hyper, k);
  double noise = std::exp(hyper(dims + 1));
  Eigen::MatrixXd &ky = workspace.ky;
  ky = k;
  ky.diagonal().array() += noise;
  Eigen::LLT<Eigen::MatrixXd> &llt = workspace.llt;
  if (!factorize(ky, llt))
    return -std::numeric_limits<double>::infinity();
  Eigen::VectorXd a = llt.solve(targets);
  double logDet = 2 * llt.matrixLLT().diagonal().array().log().sum();
  double value = -0.5 * targets.dot(a) - 0.5 * logDet -
                 0.5 * double(n) * std::log(2 * M_PI);
  if (gradient) {
    // d/dtheta_j = 1/2 tr((a a^T - Ky^-1) dKy/dtheta_j), with dK/dlog l_p
    // = K .* f_p(d_p / l_p) (f_p(0) = 0: the diagonal has no part) and
    // dK/dlog s2 = K: one pass over the pairs, each counted twice.
    Eigen::MatrixXd &w = workspace.w;
    w.setIdentity(n, n);
    llt.solveInPlace(w);
    w = a * a.transpose() - w;
    std::vector<double> inverse(width), sums(width, 0);
    std::vector<bool> numeric(width);
    for (size_t q = 0; q < width; ++q) {
      inverse[q] = std::exp(-hyper(active[q]));
      numeric[q] = encoding.kind(active[q]) == ConfigEncoding::Kind::Numeric;
    }
    double signalSum = 0;
    const double *d = pairDistances.data();
    for (size_t i = 0; i < n; ++i) {
      signalSum += 0.5 * w(i, i) * k(i, i);
      for (size_t j = 0; j < i; ++j, d += width) {
        double wk = w(i, j) * k(i, j);
        signalSum += wk;
        for (size_t q = 0; q < width; ++q) {
          double r = d[q] * inverse[q];
          sums[q] += wk * (numeric[q] ? maternLogDerivative(r) : r);
        }
      }
    }
    for (size_t q = 0; q < width; ++q)
      (*gradient)(active[q]) = sums[q];
    (*gradient)(dims) = signalSum;
    (*gradient)(dims + 1) = 0.5 * noise * w.trace();
  }
  return value;
}

/// log Gamma(shape, rate) density of exp(logX), up to a constant, and its
/// derivative with respect to logX.
static double gammaLogDensity(const GammaPrior &prior, double logX,
                              double *derivative) {
  double x = std::exp(logX);
  if (derivative)
    *derivative = (prior.shape - 1) - prior.rate * x;
  return (prior.shape - 1) * logX - prior.rate * x;
}

double GaussianProcess::logPrior(const Eigen::VectorXd &hyper,
                                 Eigen::VectorXd *gradient) const {
  size_t dims = encoding.parameters();
  if (gradient)
    *gradient = Eigen::VectorXd::Zero(hyperparameterCount());
  double value = 0, derivative = 0;
  for (size_t p = 0; p < dims; ++p) {
    value += gammaLogDensity(options.lengthscale, hyper(p), &derivative);
    if (gradient)
      (*gradient)(p) = derivative;
  }
  value += gammaLogDensity(options.signal, hyper(dims), &derivative);
  if (gradient)
    (*gradient)(dims) = derivative;
  value += gammaLogDensity(options.noise, hyper(dims + 1), &derivative);
  if (gradient)
    (*gradient)(dims + 1) = derivative;
  return value;
}

void GaussianProcess::setHyperparameters(const Eigen::VectorXd &hyper) {
  theta = hyper;
  size_t n = points.rows(), dims = encoding.parameters();
  if (n == 0) {
    cholesky.resize(0, 0);
    alpha.resize(0);
    return;
  }
  Eigen::MatrixXd ky;
  covariance(theta, ky);
  ky.diagonal().array() += std::exp(theta(dims + 1));
  Eigen::LLT<Eigen::MatrixXd> llt;
  if (!factorize(ky, llt)) {
    // Beyond repair by jitter (duplicate points with a tiny noise): condition
    // on a noisier model rather than fail.
    ky.diagonal().array() += 1e-3 * std::exp(theta(dims));
    llt.compute(ky);
  }
  cholesky = llt.matrixL();
  alpha = llt.solve(targets);
}

namespace {

/// The negated objective of the fit, for LBFGS++ (which minimizes); it
/// remembers the best point it was called at, so that an optimizer that
/// stops with an error still yields its progress.
struct FitObjective {
  const GaussianProcess &process;
  double bestValue = std::numeric_limits<double>::infinity();
  Eigen::VectorXd best;

  double operator()(const Eigen::VectorXd &theta, Eigen::VectorXd &gradient) {
    Eigen::VectorXd likelihoodGradient, priorGradient;
    double value = process.logMarginalLikelihood(theta, &likelihoodGradient) +
                   process.logPrior(theta, &priorGradient);
    if (!std::isfinite(value)) {
      gradient = Eigen::VectorXd::Zero(theta.size());
      return 1e300;
    }
    gradient = -(likelihoodGradient + priorGradient);
    if (-value < bestValue) {
      bestValue = -value;
      best = theta;
    }
    return -value;
  }
};

} // namespace

Eigen::VectorXd
GaussianProcess::fit(std::mt19937_64 &rng,
                     const std::optional<Eigen::VectorXd> &previous,
                     bool multiStart) {
  size_t count = hyperparameterCount(), dims = encoding.parameters();
  Eigen::VectorXd lower(count), upper(count);
  lower.head(dims).setConstant(std::log(options.minLengthscale));
  upper.head(dims).setConstant(std::log(options.maxLengthscale));
  lower(dims) = std::log(options.minSignal);
  upper(dims) = std::log(options.maxSignal);
  lower(dims + 1) = std::log(options.minNoise);
  upper(dims + 1) = std::log(options.maxNoise);
  auto clamp = [&](Eigen::VectorXd v) {
    return Eigen::VectorXd(v.cwiseMax(lower).cwiseMin(upper));
  };
  if (points.rows() == 0) {
    setHyperparameters(clamp(defaultHyperparameters()));
    return theta;
  }

  // BaCO's multi-start: random settings (lengthscales and signal in
  // [0.1, 10], noise in [1e-5, 1e-2], log-uniformly), the best refined.
  std::uniform_real_distribution<double> unit(0, 1);
  const double ln10 = std::log(10.0);
  std::vector<std::pair<double, Eigen::VectorXd>> starts;
  auto score = [&](const Eigen::VectorXd &start) {
    double value = logMarginalLikelihood(start) + logPrior(start);
    starts.emplace_back(
        std::isfinite(value) ? value : -std::numeric_limits<double>::infinity(),
        start);
  };
  bool hasPrevious = previous && size_t(previous->size()) == count;
  if (!multiStart && hasPrevious) {
    // Only the previous fit is refined.
  } else {
    score(clamp(defaultHyperparameters()));
  }
  for (unsigned i = 0; multiStart && i < options.randomStarts; ++i) {
    Eigen::VectorXd start(count);
    for (size_t p = 0; p < dims; ++p)
      start(p) = ln10 * (2 * unit(rng) - 1);
    start(dims) = ln10 * (2 * unit(rng) - 1);
    start(dims + 1) = ln10 * (3 * unit(rng) - 5);
    score(clamp(start));
  }
  // The best scores first, ties in the order drawn.
  std::vector<size_t> order(starts.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return starts[a].first != starts[b].first
               ? starts[a].first > starts[b].first
               : a < b;
  });
  order.resize(
      std::min<size_t>(order.size(), multiStart ? options.refinedStarts : 1));
  std::vector<std::pair<double, Eigen::VectorXd>> kept;
  for (size_t i : order)
    kept.push_back(std::move(starts[i]));
  starts = std::move(kept);
  if (hasPrevious)
    starts.emplace_back(0, clamp(*previous));

  LBFGSpp::LBFGSBParam<double> param;
  param.max_iterations = int(options.maxIterations);
  param.epsilon = 1e-5;
  param.epsilon_rel = 1e-5;
  param.max_linesearch = 40;
  Eigen::VectorXd best = starts.front().second;
  double bestValue = -std::numeric_limits<double>::infinity();
  for (auto &[ignored, start] : starts) {
    FitObjective objective{*this, std::numeric_limits<double>::infinity(),
                           start};
    Eigen::VectorXd x = start;
    double fx = 0;
    try {
      LBFGSpp::LBFGSBSolver<double> solver(param);
      solver.minimize(objective, x, fx, lower, upper);
    } catch (const std::exception &) {
      // A line search that cannot progress (flat or noisy likelihood): keep
      // the best point the solver reached.
    }
    if (std::isfinite(objective.bestValue) &&
        -objective.bestValue > bestValue) {
      bestValue = -objective.bestValue;
      best = objective.best;
    }
  }
  setHyperparameters(best);
  return best;
}

double GaussianProcess::kernelFromDistances(const Eigen::VectorXd &hyper,
                                            const double *d) const {
  size_t dims = encoding.parameters();
  double value = std::exp(hyper(dims));
  for (size_t p = 0; p < dims; ++p)
    value *= parameterKernel(encoding.kind(p), d[p], std::exp(hyper(p)));
  return value;
}

double GaussianProcess::kernel(const double *a, const double *b) const {
  std::vector<double> d(encoding.parameters());
  for (size_t p = 0; p < d.size(); ++p)
    d[p] = encoding.distance(p, a, b);
  return kernelFromDistances(theta, d.data());
}

void GaussianProcess::predict(const Eigen::MatrixXd &query,
                              Eigen::VectorXd &mean,
                              Eigen::VectorXd &variance) const {
  size_t m = query.rows(), n = points.rows(), dims = encoding.parameters();
  double signal = std::exp(theta(dims));
  mean = Eigen::VectorXd::Zero(m);
  variance = Eigen::VectorXd::Constant(m, signal);
  if (n == 0 || m == 0)
    return;
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> q =
      query;
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> x =
      points;
  std::vector<double> lengthscales(dims);
  for (size_t p = 0; p < dims; ++p)
    lengthscales[p] = std::exp(theta(p));
  std::vector<ConfigEncoding::Kind> kinds(dims);
  for (size_t p = 0; p < dims; ++p)
    kinds[p] = encoding.kind(p);
  // Cross-covariances, one column per query point.
  Eigen::MatrixXd cross(n, m);
  for (size_t j = 0; j < m; ++j)
    for (size_t i = 0; i < n; ++i) {
      double product = signal, exponent = 0;
      for (size_t p = 0; p < dims; ++p) {
        double factor = 1, e = 0;
        parameterKernelParts(
            kinds[p], encoding.distance(p, q.row(j).data(), x.row(i).data()),
            lengthscales[p], factor, e);
        product *= factor;
        exponent += e;
      }
      cross(i, j) = product * std::exp(exponent);
    }
  mean = cross.transpose() * alpha;
  Eigen::MatrixXd v = cholesky.triangularView<Eigen::Lower>().solve(cross);
  variance -= v.colwise().squaredNorm().transpose();
  variance = variance.cwiseMax(1e-12 * signal);
}
