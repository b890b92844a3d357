//===- CostModel.h - Learned speedup model ----------------------*- C++ -*-===//
//
// The Tiramisu cost model (paper §4.4, appendix A.1): computation vectors
// through an embedding MLP, a recursive loop embedding of two LSTM cells and
// a feed-forward merge per loop, and a regression MLP that predicts the
// speedup of a schedule over the untransformed program. A model is read from
// and written to a versioned, self-describing JSON file.
//
// Predictions are batched: the configs of one program are grouped by tree
// shape and every group goes through the network as one set of matrix
// products (Halide's enqueue-then-evaluate), never one call per candidate.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_COSTMODEL_COSTMODEL_H
#define TUNER_COSTMODEL_COSTMODEL_H

#include "tuner/CostModel/Features.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tuner {

/// Layer sizes of the network (paper A.1, scaled down by default so that a
/// few thousand samples train in minutes on two cores).
struct NetworkShape {
  /// Hidden layers of the computation embedding MLP.
  std::vector<unsigned> computationLayers = {160, 96};
  /// Size of computation and loop embeddings (and of the LSTM states).
  unsigned embedding = 64;
  /// Hidden layers of the feed-forward layer that merges the two LSTM states
  /// of a loop into its embedding.
  std::vector<unsigned> mergeLayers = {80};
  /// Hidden layers of the regression MLP.
  std::vector<unsigned> regressionLayers = {64, 32};
  /// Dropout probability after every activated layer (training only).
  double dropout = 0.225;

  /// Fails on a zero size or a dropout outside [0, 1).
  llvm::Error check() const;
  llvm::json::Value toJSON() const;
  static llvm::Expected<NetworkShape> fromJSON(const llvm::json::Value &json);
  bool operator==(const NetworkShape &o) const {
    return computationLayers == o.computationLayers &&
           embedding == o.embedding && mergeLayers == o.mergeLayers &&
           regressionLayers == o.regressionLayers && dropout == o.dropout;
  }
};

/// What training minimizes.
enum class TrainingLoss {
  /// Mean absolute percentage error, |p - y| / y (the paper's loss).
  MAPE,
  /// Mean absolute log error, |log p - log y|: symmetric in speedups and
  /// slowdowns, so that predictions do not shrink toward zero when many
  /// schedules are slowdowns.
  LogError,
  /// Pairwise ranking (RankNet) over the schedules of each program: the
  /// cross-entropy of the model's probability that the faster of two
  /// schedules is faster, over the pairs whose measured speedups differ by
  /// more than the labels' noise. Leaves the scale of the predicted
  /// speedups free (see RankingLoss.h).
  RankNet,
  /// Listwise ranking (ListNet, top-one probabilities) over the schedules
  /// of each program.
  ListNet,
  /// LogError plus a weight times RankNet.
  LogRankNet,
  /// LogError plus a weight times ListNet.
  LogListNet,
  /// RankNet's pairs weighted by the change of NDCG a swap of the two would
  /// make in the model's current order (LambdaRank): the pairs that decide
  /// which schedules come first weigh most (see RankingLoss.h).
  LambdaRank,
  /// LogError plus a weight times LambdaRank.
  LogLambdaRank,
};
/// "mape", "log", "ranknet", "listnet", "log+ranknet", "log+listnet",
/// "lambdarank" or "log+lambdarank".
llvm::StringRef trainingLossName(TrainingLoss loss);
std::optional<TrainingLoss> parseTrainingLoss(llvm::StringRef name);
/// The names parseTrainingLoss reads, for messages: "'mape', 'log', ...".
std::string trainingLossNames();
/// The pointwise term of `loss` (MAPE or LogError), if it has one.
std::optional<TrainingLoss> pointwiseTerm(TrainingLoss loss);
/// The ranking term of `loss` (RankNet, ListNet or LambdaRank), if it has
/// one.
std::optional<TrainingLoss> rankingTerm(TrainingLoss loss);
/// Whether `loss` has a pairwise ranking term (RankNet, LambdaRank), the
/// terms that leave out pairs within the rank margin.
bool hasRankMargin(TrainingLoss loss);

/// How one network of a model was trained.
struct MemberSummary {
  /// The seed of its initial weights, dropout and batch order.
  uint64_t seed = 0;
  unsigned epochsRun = 0, bestEpoch = 0;
  /// Its own validation MAPE at its best epoch (the weights kept).
  double validationMAPE = 0;
  /// The programs it stopped early on (in an ensemble, its fold).
  std::vector<std::string> validationPrograms;
};

/// How a model was trained and how well it did.
struct TrainingSummary {
  /// The seed of the split (and of the first member).
  uint64_t seed = 0;
  TrainingLoss loss = TrainingLoss::MAPE;
  /// The ranking term's weight beside the log error and the pairwise terms'
  /// margin (RankNet, LambdaRank), written only for losses with a ranking
  /// term.
  double rankWeight = 1, rankMargin = 0.08;
  unsigned maxEpochs = 0;
  unsigned batchSize = 0, patience = 0;
  double learningRate = 0, weightDecay = 0;
  /// Part of the split's training and validation programs used (1 in files
  /// that do not say).
  double trainFraction = 1;
  /// One per network of the ensemble, in order.
  std::vector<MemberSummary> members;
  /// Of the whole model (the ensemble's predictions).
  double trainMAPE = 0, validationMAPE = 0;
  /// On the held-out test programs.
  double testMAPE = 0, testPearson = 0, testSpearman = 0;
  double seconds = 0;

  llvm::json::Value toJSON() const;
  /// Reads a summary written by model file format `version` (2: one
  /// network, its epochs at the top level).
  static llvm::Expected<TrainingSummary>
  fromJSON(const llvm::json::Value &json, int64_t version);
};

/// What a model was trained on.
struct DatasetSummary {
  std::string path;
  /// Programs and "ok" samples used; samples of other statuses skipped.
  unsigned programs = 0, samples = 0, skippedSamples = 0;
  /// The split, by program id. An ensemble trains on every program but the
  /// test ones (trainPrograms), each network stopping early on its own fold
  /// of them (validationPrograms: the folds together).
  std::vector<std::string> trainPrograms, validationPrograms, testPrograms;

  llvm::json::Value toJSON() const;
  static llvm::Expected<DatasetSummary> fromJSON(const llvm::json::Value &json);
};

/// A trained model: one network, or an ensemble of networks trained alike
/// from different seeds, whose predictions it averages (the geometric mean
/// of their speedups). Cheap to copy (the weights are shared and immutable).
class CostModel {
public:
  /// The model file format this build writes (weights as base64 float32);
  /// it also reads versions 3 (weights as JSON numbers) and 2 (one network,
  /// its weights at the top level).
  static constexpr int64_t kFormatVersion = 4;
  static constexpr int64_t kOldestFormatVersion = 2;

  /// Whether the model's predictions rank configs that differ in the
  /// parameters of `role`. Not for a Transform script's knobs and a user's
  /// parameters (no feature describes them), nor for skewing and how a
  /// convolution is computed (described, but measured per stratum: see
  /// ProgramSearch).
  static bool describes(ParamRole role);

  /// Reads a model file: networks, or gradient-boosted trees (a file of
  /// format "tuner-tree-model", see GradientBoostedTrees.h). Fails with a
  /// message naming the file on a missing or unreadable file, malformed
  /// JSON (with line and column), a file that is no tuner model, another
  /// format version, another feature layout (both layouts named: the model
  /// must be retrained), and missing, ill-sized or non-finite weights (or a
  /// booster XGBoost does not read).
  static llvm::Expected<CostModel> load(llvm::StringRef path);
  /// Like load, but a missing file is no error: it says "no model" with
  /// std::nullopt, and the caller decides what to do without one (e.g.
  /// measure instead, or rank by a heuristic). A file that exists but does
  /// not load is still an error.
  static llvm::Expected<std::optional<CostModel>>
  loadIfExists(llvm::StringRef path);
  /// Writes the model file (atomically).
  llvm::Error save(llvm::StringRef path) const;
  llvm::json::Value toJSON() const;
  /// `what` names the source in errors (e.g. the path).
  static llvm::Expected<CostModel> fromJSON(const llvm::json::Value &json,
                                            llvm::StringRef what);

  /// Predicted speedups of `configs` of one program, in order. Fails (naming
  /// the config) when a config cannot be planned, or when the program does
  /// not fit the feature layout.
  llvm::Expected<std::vector<double>>
  predict(const ProgramTree &tree, const Space &space,
          llvm::ArrayRef<Config> configs) const;
  /// Scores configs of one program: what every batch shares (the feature
  /// extractor, the untransformed schedule's features and scores) is
  /// computed once. Holds the model, the tree and the space by reference.
  class ProgramPredictor {
  public:
    /// Predicted speedups of `configs`, in order; fails (naming the config)
    /// when a config cannot be planned.
    llvm::Expected<std::vector<double>>
    predict(llvm::ArrayRef<Config> configs) const;
    /// What the model's last layer makes of `configs`, for adapting the
    /// model to this program (ExecutionStep): per config and network, each
    /// input of the network's last layer minus its value for the
    /// untransformed schedule, times its weight (what it adds to the
    /// predicted log speedup); the networks' concatenated. The predicted
    /// log speedup is their sum over a network's part, averaged over the
    /// networks (up to the clamping of the logits), so scaling the last
    /// layer's weights on measurements of this program moves the
    /// predictions along it. Fails (naming the config) like predict.
    llvm::Expected<std::vector<std::vector<float>>>
    represent(llvm::ArrayRef<Config> configs) const;
    /// Takes configs' plans from `cache` (which must outlive the predictor
    /// and be of the same program and space) instead of planning them.
    void usePlans(PlanCache &cache) { plans = &cache; }

  private:
    friend class CostModel;
    ProgramPredictor(const CostModel &model, const Space &space,
                     FeatureExtractor extractor, ProgramFeatures reference,
                     std::vector<float> referenceScores)
        : model(model), space(space), extractor(std::move(extractor)),
          reference(std::make_shared<const ProgramFeatures>(
              std::move(reference))),
          referenceScores(std::move(referenceScores)) {}
    /// The features of `configs`, in order.
    llvm::Expected<std::vector<ProgramFeatures>>
    extract(llvm::ArrayRef<Config> configs) const;
    /// Calls fn with the plan of `config`, the i-th of a call's: the
    /// cache's, or planned here. Fails (naming the config) without one.
    llvm::Error
    withPlan(size_t i, const Config &config,
             llvm::function_ref<void(const SchedulePlan &)> fn) const;
    const CostModel &model;
    const Space &space;
    FeatureExtractor extractor;
    /// The untransformed schedule.
    std::shared_ptr<const ProgramFeatures> reference;
    /// Per network, the untransformed schedule's score; then, in a model
    /// with trees, what their predictions share (the untransformed
    /// schedule's score and pooled features).
    std::vector<float> referenceScores;
    PlanCache *plans = nullptr;
  };
  /// A predictor for the configs of one program; fails when the program
  /// does not fit the feature layout. `tree` and `space` must outlive it.
  llvm::Expected<ProgramPredictor> forProgram(const ProgramTree &tree,
                                              const Space &space) const;

  /// Predicted speedups of already extracted schedules of one program over
  /// `reference`, the program's untransformed schedule (every parameter at
  /// its default), in order; schedules with equal tree shapes are batched
  /// together.
  std::vector<double> predict(const ProgramFeatures &reference,
                              llvm::ArrayRef<ProgramFeatures> schedules) const;

  /// ProgramPredictor::represent for already extracted schedules of one
  /// program over `reference`, its untransformed schedule.
  std::vector<std::vector<float>>
  represent(const ProgramFeatures &reference,
            llvm::ArrayRef<ProgramFeatures> schedules) const;

  const NetworkShape &getShape() const;
  /// Networks in the ensemble (1 for a single network, 0 for a model of
  /// trees alone).
  size_t ensembleSize() const;
  /// Fingerprint of the machine whose measurements trained the model.
  const std::string &getTarget() const;
  const TrainingSummary &getTraining() const;
  const DatasetSummary &getDataset() const;

  struct Impl;
  explicit CostModel(std::shared_ptr<const Impl> impl)
      : impl(std::move(impl)) {}
  const Impl &getImpl() const { return *impl; }

private:
  /// Per network, the score of `reference` (then the trees' state, see
  /// ProgramPredictor::referenceScores).
  std::vector<float> referenceScores(const ProgramFeatures &reference) const;
  /// Speedups of `schedules` over `reference`, whose scores (per network)
  /// are `referenceLogits`.
  std::vector<double> predict(const ProgramFeatures &reference,
                              llvm::ArrayRef<float> referenceLogits,
                              llvm::ArrayRef<ProgramFeatures> schedules) const;
  /// Scores batches of schedules of one program that share a tree shape.
  class BatchScorer;

  std::shared_ptr<const Impl> impl;
};

} // namespace tuner

#endif // TUNER_COSTMODEL_COSTMODEL_H
