//===- MeasuringEvaluator.h - Configs of an MLIR function, measured -*- C++ -*-===//
//
// The evaluator of the measurement protocol (DESIGN.md): each config of a
// function's space becomes a Transform-dialect script (its schedule plan
// computed once), is applied to a copy of the module (a failure to apply is
// an apply_failed candidate, with the diagnostics as its message), and the
// copies of a batch are lowered, compiled, run in child processes, verified
// against the baseline and timed by the Measurer.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_TUNING_MEASURINGEVALUATOR_H
#define TUNER_TUNING_MEASURINGEVALUATOR_H

#include "tuner/Analysis/ProgramTree.h"
#include "tuner/Measure/Measurer.h"
#include "tuner/Schedule/SchedulePlan.h"
#include "tuner/Search/Strategy.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace tuner {

class MeasuringEvaluator : public Evaluator {
public:
  /// Measures configs of `space` (built from `tree`, the function's program)
  /// applied to copies of `module` with `measurer` (created for the same
  /// module and function). All must outlive the evaluator.
  /// With `plans`, configs' plans come from there (shared with the search).
  MeasuringEvaluator(mlir::ModuleOp module, const ProgramTree &tree,
                     const Space &space, Measurer &measurer,
                     PlanCache *plans = nullptr)
      : module(module), tree(tree), space(space), measurer(measurer),
        plans(plans) {}

  /// Observations carry the speedup over the baseline as value, the median
  /// time as objective, and the schedule script.
  std::vector<Observation> evaluate(llvm::ArrayRef<Config> configs) override;

protected:
  /// A copy of the module transformed by `script`, or null with the
  /// diagnostics in `message`. A client that needs its candidates elsewhere
  /// (e.g. each in an MLIR context of its own) overrides it; the module it
  /// returns must live until evaluate returns.
  virtual mlir::OwningOpRef<mlir::ModuleOp> apply(llvm::StringRef script,
                                                  std::string &message);

private:
  /// The script of `config`, from the shared plan when there is one.
  llvm::Expected<std::string> scriptOf(const Config &config);

  mlir::ModuleOp module;
  const ProgramTree &tree;
  const Space &space;
  Measurer &measurer;
  PlanCache *plans;
};

} // namespace tuner

#endif // TUNER_TUNING_MEASURINGEVALUATOR_H
