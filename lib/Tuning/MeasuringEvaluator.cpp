//===- MeasuringEvaluator.cpp - Configs of an MLIR function, measured -----===//

#include "tuner/Tuning/MeasuringEvaluator.h"
#include "tuner/Space/GpuSpace.h"
#include "tuner/Schedule/ApplySchedule.h"
#include "tuner/Schedule/ScheduleBuilder.h"

#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace tuner;

OwningOpRef<ModuleOp> MeasuringEvaluator::apply(llvm::StringRef script,
                                                std::string &message) {
  // A candidate that fails to apply is a result, not an error of the run:
  // keep its diagnostics as the observation's message.
  ScopedDiagnosticHandler capture(module.getContext(), [&](Diagnostic &d) {
    if (d.getSeverity() == DiagnosticSeverity::Error ||
        d.getSeverity() == DiagnosticSeverity::Note) {
      if (!message.empty())
        message += "; ";
      message += d.str();
    }
    return success();
  });
  // A transformation that crashes (an upstream bug on an odd schedule)
  // fails here too, with a diagnostic: applyTransformScript recovers.
  FailureOr<OwningOpRef<ModuleOp>> copy =
      applyTransformScriptToCopy(module, script);
  if (failed(copy))
    return nullptr;
  return std::move(*copy);
}

llvm::Expected<std::string>
MeasuringEvaluator::scriptOf(const Config &config) {
  // GPU spaces have no SchedulePlan: their scripts are built from the
  // config (tuner/Schedule/GpuSchedule.h).
  if (!plans || isGpuSpace(space))
    return buildTransformScript(tree, space, config);
  llvm::Expected<std::shared_ptr<const SchedulePlan>> plan = plans->get(config);
  if (!plan)
    return plan.takeError();
  return buildTransformScript(tree, **plan);
}

std::vector<Observation>
MeasuringEvaluator::evaluate(llvm::ArrayRef<Config> configs) {
  std::vector<Observation> observations(configs.size());
  std::vector<OwningOpRef<ModuleOp>> candidates;
  std::vector<size_t> candidateIndex;
  for (auto [i, config] : llvm::enumerate(configs)) {
    Observation &observation = observations[i];
    observation.config = config;
    llvm::Expected<std::string> script = scriptOf(config);
    if (!script) {
      observation.status = Status::ApplyFailed;
      observation.message = llvm::toString(script.takeError());
      continue;
    }
    observation.schedule = std::move(*script);
    OwningOpRef<ModuleOp> candidate =
        apply(observation.schedule, observation.message);
    if (!candidate) {
      observation.status = Status::ApplyFailed;
      continue;
    }
    candidateIndex.push_back(i);
    candidates.push_back(std::move(candidate));
  }
  std::vector<ModuleOp> modules;
  for (OwningOpRef<ModuleOp> &candidate : candidates)
    modules.push_back(*candidate);
  std::vector<Measurement> measurements = measurer.measureAll(modules);
  for (auto [index, measurement] : llvm::zip(candidateIndex, measurements))
    observations[index] = Observation::measured(
        configs[index], measurement, std::move(observations[index].schedule));
  return observations;
}
