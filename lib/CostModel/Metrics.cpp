//===- Metrics.cpp - Accuracy of predicted speedups -----------------------===//

#include "tuner/CostModel/Metrics.h"
#include "tuner/Support/StableSort.h"

#include "llvm/ADT/STLExtras.h"

#include <cassert>
#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

using namespace tuner;
namespace json = llvm::json;

static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Mean of error(measured, predicted) over the pairs; NaN when empty.
template <typename Error>
static double meanError(llvm::ArrayRef<double> measured,
                        llvm::ArrayRef<double> predicted, Error error) {
  assert(measured.size() == predicted.size() && "one prediction per value");
  if (measured.empty())
    return kNaN;
  double sum = 0;
  for (size_t i = 0; i < measured.size(); ++i)
    sum += error(measured[i], predicted[i]);
  return sum / double(measured.size());
}

double tuner::meanAbsolutePercentageError(llvm::ArrayRef<double> measured,
                                          llvm::ArrayRef<double> predicted) {
  return meanError(measured, predicted, [](double m, double p) {
    return std::fabs(m - p) / m;
  });
}

double tuner::meanAbsoluteLogError(llvm::ArrayRef<double> measured,
                                   llvm::ArrayRef<double> predicted) {
  return meanError(measured, predicted, [](double m, double p) {
    return std::fabs(std::log(p) - std::log(m));
  });
}

double tuner::pearsonCorrelation(llvm::ArrayRef<double> x,
                                 llvm::ArrayRef<double> y) {
  assert(x.size() == y.size() && "pairs of values");
  size_t n = x.size();
  if (n < 2)
    return kNaN;
  double meanX = std::accumulate(x.begin(), x.end(), 0.0) / double(n);
  double meanY = std::accumulate(y.begin(), y.end(), 0.0) / double(n);
  double sxy = 0, sxx = 0, syy = 0;
  for (size_t i = 0; i < n; ++i) {
    double dx = x[i] - meanX, dy = y[i] - meanY;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx == 0 || syy == 0)
    return kNaN;
  return sxy / std::sqrt(sxx * syy);
}

std::vector<double> tuner::ranks(llvm::ArrayRef<double> values) {
  std::vector<size_t> order(values.size());
  std::iota(order.begin(), order.end(), 0);
  llvm::sort(order, [&](size_t a, size_t b) {
    return values[a] < values[b] || (values[a] == values[b] && a < b);
  });
  std::vector<double> result(values.size());
  for (size_t start = 0; start < order.size();) {
    size_t end = start + 1;
    while (end < order.size() && values[order[end]] == values[order[start]])
      ++end;
    // Ranks start+1 .. end share their mean.
    double rank = double(start + 1 + end) / 2;
    for (size_t k = start; k < end; ++k)
      result[order[k]] = rank;
    start = end;
  }
  return result;
}

double tuner::spearmanCorrelation(llvm::ArrayRef<double> x,
                                  llvm::ArrayRef<double> y) {
  return pearsonCorrelation(ranks(x), ranks(y));
}

Metrics tuner::computeMetrics(llvm::ArrayRef<double> measured,
                              llvm::ArrayRef<double> predicted) {
  Metrics metrics;
  metrics.count = measured.size();
  metrics.mape = meanAbsolutePercentageError(measured, predicted);
  metrics.pearson = pearsonCorrelation(measured, predicted);
  metrics.spearman = spearmanCorrelation(measured, predicted);
  return metrics;
}

static json::Value number(double value) {
  if (!std::isfinite(value))
    return nullptr;
  return value;
}

json::Value Metrics::toJSON() const {
  return json::Object{{"count", int64_t(count)},
                      {"mape", number(mape)},
                      {"pearson", number(pearson)},
                      {"spearman", number(spearman)}};
}

json::Value RankingMetrics::toJSON() const {
  return json::Object{{"programs", int64_t(programs)},
                      {"mean_spearman", number(meanSpearman)},
                      {"top1", number(top1)},
                      {"top3", number(top3)},
                      {"top5", number(top5)}};
}

Evaluation Evaluation::of(std::vector<PredictionRow> rows) {
  Evaluation evaluation;
  std::vector<double> measured, predicted;
  std::map<std::string, std::pair<std::vector<double>, std::vector<double>>>
      byProgram;
  for (const PredictionRow &row : rows) {
    measured.push_back(row.measured);
    predicted.push_back(row.predicted);
    auto &[m, p] = byProgram[row.program];
    m.push_back(row.measured);
    p.push_back(row.predicted);
  }
  evaluation.overall = computeMetrics(measured, predicted);
  double spearmanSum = 0, top1Sum = 0, top3Sum = 0, top5Sum = 0;
  size_t spearmanCount = 0;
  RankingMetrics &ranking = evaluation.ranking;
  for (auto &[program, values] : byProgram) {
    const auto &[m, p] = values;
    Metrics metrics = computeMetrics(m, p);
    evaluation.perProgram.emplace_back(program, metrics);
    if (m.size() < 2)
      continue;
    ++ranking.programs;
    if (std::isfinite(metrics.spearman)) {
      spearmanSum += metrics.spearman;
      ++spearmanCount;
    }
    // Schedules by decreasing prediction (stable: ties keep their order).
    std::vector<size_t> order(m.size());
    for (size_t i = 0; i < order.size(); ++i)
      order[i] = i;
    const std::vector<double> &ofProgram = p;
    stableSort(order, [&](size_t a, size_t b) {
      return ofProgram[a] > ofProgram[b];
    });
    double best = *std::max_element(m.begin(), m.end());
    // The best measured of the model's first k choices, over the best.
    const std::vector<double> &measuredOfProgram = m;
    auto topK = [&](size_t k) {
      double bestOfK = 0;
      for (size_t i = 0; i < std::min(k, order.size()); ++i)
        bestOfK = std::max(bestOfK, measuredOfProgram[order[i]]);
      return bestOfK / best;
    };
    top1Sum += topK(1);
    top3Sum += topK(3);
    top5Sum += topK(5);
  }
  if (spearmanCount)
    ranking.meanSpearman = spearmanSum / double(spearmanCount);
  if (ranking.programs) {
    ranking.top1 = top1Sum / double(ranking.programs);
    ranking.top3 = top3Sum / double(ranking.programs);
    ranking.top5 = top5Sum / double(ranking.programs);
  }
  evaluation.rows = std::move(rows);
  return evaluation;
}

json::Value Evaluation::toJSON(bool withRows) const {
  json::Object programs;
  for (const auto &[program, metrics] : perProgram)
    programs[program] = metrics.toJSON();
  json::Object result{{"overall", overall.toJSON()},
                      {"ranking", ranking.toJSON()},
                      {"programs", std::move(programs)}};
  if (withRows) {
    json::Array array;
    for (const PredictionRow &row : rows)
      array.push_back(json::Object{{"program", row.program},
                                   {"measured", row.measured},
                                   {"predicted", row.predicted}});
    result["rows"] = std::move(array);
  }
  return result;
}
