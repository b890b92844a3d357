//===- Metrics.h - Accuracy of predicted speedups ---------------*- C++ -*-===//
//
// The paper's measures of a cost model (§6): MAPE, Pearson's correlation of
// predicted and measured speedups, and Spearman's rank correlation (Pearson
// of the ranks, ties sharing their mean rank), overall and per program.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_COSTMODEL_METRICS_H
#define TUNER_COSTMODEL_METRICS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/JSON.h"

#include <limits>
#include <string>
#include <vector>

namespace tuner {

/// Mean of |measured - predicted| / measured (measured > 0); NaN when empty.
double meanAbsolutePercentageError(llvm::ArrayRef<double> measured,
                                   llvm::ArrayRef<double> predicted);
/// Mean of |log(predicted) - log(measured)| (both > 0); NaN when empty.
double meanAbsoluteLogError(llvm::ArrayRef<double> measured,
                            llvm::ArrayRef<double> predicted);
/// Pearson's correlation; NaN when fewer than two values or either side is
/// constant (the correlation is undefined).
double pearsonCorrelation(llvm::ArrayRef<double> x, llvm::ArrayRef<double> y);
/// 1-based ranks, ties sharing their mean rank.
std::vector<double> ranks(llvm::ArrayRef<double> values);
/// Spearman's rank correlation: Pearson's of the ranks.
double spearmanCorrelation(llvm::ArrayRef<double> x, llvm::ArrayRef<double> y);

struct Metrics {
  size_t count = 0;
  double mape = std::numeric_limits<double>::quiet_NaN();
  double pearson = std::numeric_limits<double>::quiet_NaN();
  double spearman = std::numeric_limits<double>::quiet_NaN();

  /// {"count", "mape", "pearson", "spearman"}; undefined values are null.
  llvm::json::Value toJSON() const;
};

Metrics computeMetrics(llvm::ArrayRef<double> measured,
                       llvm::ArrayRef<double> predicted);

/// One prediction of a measured schedule.
struct PredictionRow {
  std::string program;
  double measured = 0, predicted = 0;
};

/// What a search guided by the model would get from it, per program
/// (averaged over programs with at least two schedules): how well it ranks
/// a program's schedules, and how close the schedules it ranks first come
/// to the best one measured.
struct RankingMetrics {
  size_t programs = 0;
  /// Mean of the per-program Spearman correlations that are defined.
  double meanSpearman = std::numeric_limits<double>::quiet_NaN();
  /// Mean of (measured speedup of the schedule predicted best) / (best
  /// measured speedup): 1 when the model's first choice is the best.
  double top1 = std::numeric_limits<double>::quiet_NaN();
  /// The same for the best measured of the model's first three choices (a
  /// search that executes its top 3).
  double top3 = std::numeric_limits<double>::quiet_NaN();
  /// The same for its first five (TenSet's top-5 score; a program with
  /// fewer schedules counts all of them).
  double top5 = std::numeric_limits<double>::quiet_NaN();

  /// {"programs", "mean_spearman", "top1", "top3", "top5"}; undefined
  /// values null.
  llvm::json::Value toJSON() const;
};

/// Metrics over rows, overall and per program (programs sorted by id).
struct Evaluation {
  std::vector<PredictionRow> rows;
  Metrics overall;
  std::vector<std::pair<std::string, Metrics>> perProgram;
  RankingMetrics ranking;

  static Evaluation of(std::vector<PredictionRow> rows);
  /// {"overall": Metrics, "ranking": RankingMetrics, "programs": {id:
  /// Metrics}, "rows": [{"program", "measured", "predicted"}...]} (rows only
  /// when `withRows`).
  llvm::json::Value toJSON(bool withRows) const;
};

} // namespace tuner

#endif // TUNER_COSTMODEL_METRICS_H
