//===- CorrectionReplay.h - The execution step's corrections, replayed ----===//
//
// How much the execution step's corrections of the model (ExecutionStep,
// ModelCorrection) find with a few measurements, replayed on a dataset: for
// each program, the model scores its measured schedules, the execution step
// proposes them in batches, each proposal "measured" by its recorded
// speedup, and the step corrects the model between batches as the mode
// says. No machine time: the same model and measurements for every mode.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_TOOLS_TUNER_TRAIN_CORRECTIONREPLAY_H
#define TUNER_TOOLS_TUNER_TRAIN_CORRECTIONREPLAY_H

#include "tuner/CostModel/CostModel.h"
#include "tuner/CostModel/Dataset.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

namespace tuner {

struct CorrectionReplayOptions {
  /// Schedules measured per program, in batches of `batch`.
  unsigned topK = 4;
  unsigned batch = 2;
};

/// Replays every correction mode on the programs of `dataset` in `programs`
/// (all when empty) that have more usable schedules than `topK` (ok, with
/// a positive speedup, not timed beside a busy process) and prints, per
/// mode, the mean over programs of the best speedup its proposals
/// measured as a fraction of the program's best, and how often that is the
/// best; `json` (if not null) gets the same and each program's figures.
llvm::Error replayCorrections(const Dataset &dataset,
                              const std::set<std::string> &programs,
                              const CostModel &model,
                              const CorrectionReplayOptions &options,
                              llvm::raw_ostream &out, llvm::json::Value *json);

} // namespace tuner

#endif // TUNER_TOOLS_TUNER_TRAIN_CORRECTIONREPLAY_H
