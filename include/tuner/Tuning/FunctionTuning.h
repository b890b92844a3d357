//===- FunctionTuning.h - Tune one MLIR function by measurement -*- C++ -*-===//
//
// The autotune flow of one function on the tuning core: its search problem
// (ProgramSearch), the strategy, the Measurer with the function's baseline,
// the measuring evaluator, the database recorder (the workload registered
// with its canonical IR) and the session. A client (the autotune pass, later
// whole-module tuning) sets options, runs it, and applies bestScript().
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_TUNING_FUNCTIONTUNING_H
#define TUNER_TUNING_FUNCTIONTUNING_H

#include "tuner/Measure/Measurer.h"
#include "tuner/Tuning/MeasuringEvaluator.h"
#include "tuner/Tuning/ProgramSearch.h"
#include "tuner/Tuning/TuningSession.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <memory>
#include <optional>

namespace tuner {

namespace db {
class Database;
} // namespace db

struct FunctionTuningOptions {
  /// A strategy of the registry; `model` the cost model file of the
  /// model-guided ones (empty: `defaultModel` if it exists).
  std::string strategy = "mcts";
  std::string model, defaultModel;
  StrategyOptions strategyOptions;
  Budget budget;
  MeasureOptions measure;
  /// Where measurements are recalled from and recorded (null: nowhere).
  db::Database *database = nullptr;
  std::function<void(const TuningResult &)> progress;
  /// The function the harness calls (empty: `func` itself), e.g. the static
  /// wrapper of a dynamic function (buildShapeWrapperModule).
  std::string entryPoint;
  /// The sizes a dynamic function is tuned at (ShapeSet::str()): part of the
  /// workload's identity in the database.
  std::string shapes;
  /// The function whose IR names the workload in the database (default:
  /// the function tuned). A function measured in a copy of its module
  /// names it by the original, whose printed IR (and so hash) may differ.
  mlir::func::FuncOp workloadOf;
  /// Schedules the model-guided strategies measure beside their top k
  /// (SearchProblem::seeds; e.g. analyticConfigs of the function).
  std::vector<Config> seeds;
  /// After the search, measure its best `confirm` schedules again and
  /// choose by those measurements (SessionOptions::confirm).
  unsigned confirm = 0;
  /// The machine measured on and recorded as (its fingerprint keys the
  /// database records): this host when unset. A GPU target measures on the
  /// GPU (the Measurer's GPU path), with the host compiling and launching.
  std::optional<Target> target;
};

class FunctionTuning {
public:
  /// Prepares the tuning of `func` in `module` (whose program is `tree` and
  /// space `space`; all must outlive the result): builds the strategy,
  /// registers the workload in the database, and measures the baseline.
  /// Errors say which step failed.
  static llvm::Expected<std::unique_ptr<FunctionTuning>>
  create(mlir::ModuleOp module, mlir::func::FuncOp func,
         const ProgramTree &tree, const Space &space,
         FunctionTuningOptions options);

  /// Runs the session (once).
  const TuningResult &run();

  /// Whether the best verified config beats the untransformed function.
  bool improved() const;
  /// The config to apply: the best if it improved, else the space's default
  /// (which leaves the function as it is).
  Config chosenConfig() const;
  /// The schedule script of chosenConfig() (built when it was evaluated, or
  /// now for a record of an older tuner or the default config).
  llvm::Expected<std::string> chosenScript() const;

  /// Warnings for the user: a model-guided strategy's fallback, a database
  /// that could not record everything, configs the model could not score.
  std::vector<std::string> warnings() const;

  const TuningSession &getSession() const { return *session; }
  const ProgramSearch &getSearch() const { return *search; }
  const Measurer &getMeasurer() const { return *measurer; }

private:
  FunctionTuning(const ProgramTree &tree, const Space &space)
      : tree(tree), space(space) {}

  const ProgramTree &tree;
  const Space &space;
  std::unique_ptr<ProgramSearch> search;
  std::unique_ptr<Strategy> strategy;
  std::unique_ptr<Measurer> measurer;
  std::unique_ptr<MeasuringEvaluator> evaluator;
  std::optional<DatabaseRecorder> recorder;
  std::unique_ptr<TuningSession> session;
  std::string requestedStrategy;
};

} // namespace tuner

#endif // TUNER_TUNING_FUNCTIONTUNING_H
