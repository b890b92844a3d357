//===- ScheduleBuilder.h - Config -> Transform-dialect script ---*- C++ -*-===//
//
// Turns a Config of a space built by SpaceBuilder into a readable
// Transform-dialect script: one named sequence @__transform_main that finds
// each loop nest of the function again and fuses, tiles, interchanges,
// unrolls, vectorizes and parallelizes it as the config says. The script is
// text, so a user can read, diff, commit and replay it with stock mlir-opt.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_SCHEDULE_SCHEDULEBUILDER_H
#define TUNER_SCHEDULE_SCHEDULEBUILDER_H

#include "tuner/Analysis/ProgramTree.h"
#include "tuner/Schedule/SchedulePlan.h"
#include "tuner/Space/Space.h"

namespace tuner {

/// Builds the script for `config` (which must be in `space`: checked, with
/// an error naming the parameter and value otherwise).
llvm::Expected<std::string> buildTransformScript(const ProgramTree &tree,
                                                 const Space &space,
                                                 const Config &config);
/// Builds the script of an already computed plan of `tree`.
llvm::Expected<std::string> buildTransformScript(const ProgramTree &tree,
                                                 const SchedulePlan &plan);

} // namespace tuner

#endif // TUNER_SCHEDULE_SCHEDULEBUILDER_H
