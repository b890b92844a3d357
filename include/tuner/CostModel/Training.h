//===- Training.h - Training and evaluating cost models ---------*- C++ -*-===//
//
// Training as in the paper (appendix A.1): MAPE loss (or, as an option, the
// mean absolute log error, a ranking loss over each program's schedules, or
// the log error plus a ranking loss), AdamW with decoupled weight decay, a one-cycle
// learning-rate schedule, batches of schedules of one program (one tree
// shape), train/validation/test split by program, early stopping on the
// validation loss. Deterministic for a given seed.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_COSTMODEL_TRAINING_H
#define TUNER_COSTMODEL_TRAINING_H

#include "tuner/CostModel/CostModel.h"
#include "tuner/CostModel/Dataset.h"
#include "tuner/CostModel/Metrics.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <memory>
#include <set>

namespace tuner {

struct TrainingOptions {
  NetworkShape shape;
  uint64_t seed = 1;
  TrainingLoss loss = TrainingLoss::MAPE;
  /// The ranking term's weight in a combined loss (log+ranknet,
  /// log+lambdarank, log+listnet): loss = log error + rankWeight * ranking
  /// loss.
  double rankWeight = 1.0;
  /// RankNet and LambdaRank leave out the pairs of schedules whose measured
  /// speedups differ by a factor of at most 1 + rankMargin: the labels'
  /// noise (two measurements of one schedule differ by 8 % on average).
  double rankMargin = 0.08;
  /// Length of the one-cycle schedule; training may stop earlier.
  unsigned epochs = 200;
  /// Schedules per batch (all of one program and tree shape).
  unsigned batchSize = 32;
  /// Peak learning rate of the one-cycle schedule.
  double learningRate = 1e-3;
  /// AdamW's decoupled weight decay.
  double weightDecay = 0.0075;
  /// Stop after this many epochs without a better validation loss.
  unsigned patience = 30;
  /// Networks trained from different seeds whose predictions the model
  /// averages. One network trains on the split's training programs and
  /// stops early on its validation programs; N > 1 networks train by
  /// cross-validation over both: dealt into max(N, 4) folds, network m
  /// stops early on fold m and trains on the rest (the test programs stay
  /// held out from all).
  unsigned ensemble = 1;
  /// Networks trained at once, on threads of their own (0: one per core).
  /// The result does not depend on it.
  unsigned jobs = 0;
  /// Part of the split's training and validation programs to use (a seeded
  /// choice, at least one program of each); the test programs stay those
  /// of the whole dataset, so that models trained on more or less of it
  /// are compared on the same programs (a learning curve).
  double trainFraction = 1.0;

  /// Start every network from this model's weights and input
  /// standardization instead of random ones (fine-tuning; network m from
  /// its network m modulo its ensemble size). Its shape must be `shape`.
  std::shared_ptr<const CostModel> initial;

  /// Fails on zero epochs, batch size, patience or ensemble size, a
  /// learning rate or rank weight that is not positive, a negative weight
  /// decay or rank margin, a train fraction outside (0, 1], or a bad shape.
  llvm::Error check() const;
};

/// What one epoch did.
struct EpochReport {
  /// The ensemble's network it belongs to (0-based).
  unsigned member = 0;
  unsigned epoch = 0; ///< 1-based.
  /// Mean loss of the epoch's training batches (with dropout).
  double trainLoss = 0;
  /// Loss and MAPE on the validation programs.
  double validationLoss = 0, validationMAPE = 0;
  /// The learning rate at the end of the epoch.
  double learningRate = 0;
  /// Whether the validation loss is the best so far (the weights kept).
  bool best = false;
};

/// A measured schedule, featurized.
struct LabeledSchedule {
  std::string program;
  ProgramFeatures features;
  /// The program's untransformed schedule (every parameter at its default),
  /// which the model predicts speedups relative to; shared by the program's
  /// samples.
  std::shared_ptr<const ProgramFeatures> reference;
  double speedup = 0;
};

/// Featurizes the "ok" samples with a positive speedup of the programs of
/// `dataset` (only those in `programs`, when given), but for those timed,
/// or whose baseline was timed, beside another busy process (a foreign
/// load above kMaxForeignLoad); `skipped` counts the other samples. Fails,
/// naming the program, when a sample's config cannot be planned, or when a program does not fit the feature layout and
/// `excluded` is null; with `excluded`, such programs are left out (their
/// samples counted in `skipped`) and each gets a line there saying why.
llvm::Expected<std::vector<LabeledSchedule>>
featurizeDataset(const Dataset &dataset, const std::set<std::string> *programs,
                 unsigned &skipped,
                 std::vector<std::string> *excluded = nullptr);

/// Program ids of a split.
struct ProgramSplit {
  std::vector<std::string> train, validation, test;
};

/// Splits programs 60/20/20 (at least one program each) after a seeded
/// shuffle. Fails with fewer than three programs.
llvm::Expected<ProgramSplit> splitPrograms(std::vector<std::string> programs,
                                           uint64_t seed);

/// Trains a model on `dataset` (read from `datasetPath`, recorded in the
/// model); calls `onEpoch` after every epoch of every network (one call at
/// a time, but from the training threads when several networks train at
/// once). Fails when the dataset has too
/// few programs with measured speedups, mixes measurements of several
/// machines, or does not fit the feature layout.
llvm::Expected<CostModel>
trainCostModel(const Dataset &dataset, llvm::StringRef datasetPath,
               const TrainingOptions &options,
               llvm::function_ref<void(const EpochReport &)> onEpoch);

/// The model's predictions of the "ok" samples of `programs` of `dataset`
/// (every program when empty), with metrics.
llvm::Expected<Evaluation>
evaluateCostModel(const CostModel &model, const Dataset &dataset,
                  llvm::ArrayRef<std::string> programs);

} // namespace tuner

#endif // TUNER_COSTMODEL_TRAINING_H
