//===- GradientBoostedTrees.cpp - The tree baseline of the cost model -----===//
//
// Flattening, training through XGBoost's C API, predictions and the model
// file of format "tuner-tree-model":
//   {"format": "tuner-tree-model", "version": 1,
//    "features": {"layout": HASH, "count": N, "flat_layout": HASH,
//                 "flat_count": M},
//    "target": FINGERPRINT, "training": TreeTrainingSummary,
//    "dataset": DatasetSummary,
//    "booster": {"encoding": "ubj", "xgboost_version": "1.7.4",
//                "rounds": R, "checksum": HASH, "data": BASE64}}
// where "data" is the booster as XGBoosterSaveModelToBuffer writes it in
// UBJSON (XGBoost's own, versioned model format) and "checksum" its bytes'
// xxh3 hash, which tells accidental damage. XGBoost trusts what it reads (the
// sizes inside its UBJSON, node and feature indices), so a booster reaches
// it only after the tuner decoded and checked it (BoosterCheck.h): a crafted
// file, whose checksum matches, is refused with the tree and node at fault.
//
//===----------------------------------------------------------------------===//

#include "tuner/CostModel/GradientBoostedTrees.h"

#include "BoosterCheck.h"
#include "CostModelImpl.h"
#include "FieldReader.h"

#include "tuner/CostModel/Metrics.h"
#include "tuner/CostModel/Training.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Base64.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/xxhash.h"

#include <xgboost/c_api.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <set>

using namespace tuner;
namespace json = llvm::json;

static llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// XGBoost's last error after a failed call of `what`.
static llvm::Error xgboostError(llvm::StringRef what) {
  const char *message = XGBGetLastError();
  return error("XGBoost: " + what +
               " failed: " + (message && *message ? message : "no message"));
}

#define XGB_CHECK(call, what)                                                  \
  do {                                                                         \
    if ((call) != 0)                                                           \
      return xgboostError(what);                                               \
  } while (false)

static std::string xgboostVersion() {
  int major = 0, minor = 0, patch = 0;
  XGBoostVersion(&major, &minor, &patch);
  return llvm::formatv("{0}.{1}.{2}", major, minor, patch).str();
}

//===----------------------------------------------------------------------===//
// Flattening
//===----------------------------------------------------------------------===//

const std::vector<std::string> &tuner::flatFeatureNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> result;
    for (llvm::StringRef block : {"sum.", "max.", "diff."})
      for (const FeatureInfo &feature : featureList())
        result.push_back((block + feature.name).str());
    result.push_back("computations");
    result.push_back("loops");
    result.push_back("diff.loops");
    return result;
  }();
  return names;
}

const std::string &tuner::flatLayoutHash() {
  static const std::string hash = [] {
    std::string text = featureLayoutHash();
    for (const std::string &name : flatFeatureNames())
      text += ";" + name;
    return llvm::formatv("{0:x-16}", llvm::xxh3_64bits(text)).str();
  }();
  return hash;
}

namespace {
/// Per entry of the computation vector, whether it is boolean (kept as is)
/// or numeric (log-transformed), as transformFeature says.
const std::vector<bool> &booleanFeatures() {
  static const std::vector<bool> kinds = [] {
    std::vector<bool> result;
    for (const FeatureInfo &feature : featureList())
      result.push_back(feature.kind == FeatureKind::Boolean);
    return result;
  }();
  return kinds;
}

float transformed(bool boolean, float value) {
  if (boolean || value == 0)
    return value;
  float magnitude = std::log1p(std::fabs(value));
  return value < 0 ? -magnitude : magnitude;
}

/// Loops of a feature tree: every node but the function body.
float loopsOf(const FeatureTree &tree) {
  return tree.nodes.empty() ? 0.0f : float(tree.nodes.size() - 1);
}
} // namespace

FlatReference FlatReference::of(const ProgramFeatures &reference) {
  constexpr unsigned n = features::kNumFeatures;
  const std::vector<bool> &boolean = booleanFeatures();
  FlatReference result;
  result.sums.assign(n, 0.0f);
  for (unsigned c = 0; c < reference.tree.numComputations; ++c)
    for (unsigned f = 0; f < n; ++f)
      result.sums[f] += transformed(boolean[f], reference.at(c, f));
  result.loops = loopsOf(reference.tree);
  return result;
}

void tuner::flattenFeatures(const ProgramFeatures &schedule,
                            const FlatReference &reference, float *out) {
  constexpr unsigned n = features::kNumFeatures;
  const std::vector<bool> &boolean = booleanFeatures();
  float *sum = out + flat::kSumOffset, *max = out + flat::kMaxOffset,
        *diff = out + flat::kDifferenceOffset;
  std::fill(sum, sum + n, 0.0f);
  unsigned computations = schedule.tree.numComputations;
  if (computations == 0)
    std::fill(max, max + n, 0.0f);
  else
    std::fill(max, max + n, -std::numeric_limits<float>::infinity());
  for (unsigned c = 0; c < computations; ++c) {
    const float *values =
        schedule.values.data() + size_t(c) * features::kNumFeatures;
    for (unsigned f = 0; f < n; ++f) {
      float value = transformed(boolean[f], values[f]);
      sum[f] += value;
      max[f] = std::max(max[f], value);
    }
  }
  for (unsigned f = 0; f < n; ++f)
    diff[f] = sum[f] - reference.sums[f];
  out[flat::kComputations] = float(computations);
  out[flat::kLoops] = loopsOf(schedule.tree);
  out[flat::kLoopDifference] = out[flat::kLoops] - reference.loops;
}

std::vector<float> tuner::flattenFeatures(const ProgramFeatures &schedule,
                                          const ProgramFeatures &reference) {
  std::vector<float> result(flat::kNumFlatFeatures);
  flattenFeatures(schedule, FlatReference::of(reference), result.data());
  return result;
}

//===----------------------------------------------------------------------===//
// Options and summaries
//===----------------------------------------------------------------------===//

llvm::StringRef tuner::treeObjectiveName(TreeObjective objective) {
  return objective == TreeObjective::SquaredLogError ? "squared" : "pairwise";
}

std::optional<TreeObjective> tuner::parseTreeObjective(llvm::StringRef name) {
  for (TreeObjective objective :
       {TreeObjective::SquaredLogError, TreeObjective::PairwiseRank})
    if (name == treeObjectiveName(objective))
      return objective;
  return std::nullopt;
}

llvm::Error TreeTrainingOptions::check() const {
  if (rounds == 0)
    return error("the number of boosting rounds must be positive");
  if (patience == 0)
    return error("the patience must be positive");
  if (maxDepth == 0 || maxDepth > 64)
    return error(
        llvm::formatv("the tree depth must be in [1, 64], got {0}", maxDepth)
            .str());
  if (!(learningRate > 0 && learningRate <= 1))
    return error(llvm::formatv("the learning rate (eta) must be in (0, 1], "
                               "got {0}",
                               learningRate)
                     .str());
  if (!(subsample > 0 && subsample <= 1))
    return error(
        llvm::formatv("the row subsample must be in (0, 1], got {0}", subsample)
            .str());
  if (!(columnSample > 0 && columnSample <= 1))
    return error(llvm::formatv("the column sample must be in (0, 1], got {0}",
                               columnSample)
                     .str());
  if (!(minChildWeight >= 0))
    return error(llvm::formatv("min_child_weight must not be negative, got {0}",
                               minChildWeight)
                     .str());
  if (!(lambda >= 0))
    return error(
        llvm::formatv("lambda must not be negative, got {0}", lambda).str());
  return llvm::Error::success();
}

static json::Value number(double value) {
  if (!std::isfinite(value))
    return nullptr;
  return value;
}

json::Value TreeTrainingSummary::toJSON() const {
  const TreeTrainingOptions &o = options;
  return json::Object{{"seed", int64_t(o.seed)},
                      {"objective", treeObjectiveName(o.objective)},
                      {"max_rounds", int64_t(o.rounds)},
                      {"patience", int64_t(o.patience)},
                      {"eta", o.learningRate},
                      {"max_depth", int64_t(o.maxDepth)},
                      {"min_child_weight", o.minChildWeight},
                      {"subsample", o.subsample},
                      {"colsample_bytree", o.columnSample},
                      {"lambda", o.lambda},
                      {"threads", int64_t(o.threads)},
                      {"metric", metric},
                      {"rounds_run", int64_t(roundsRun)},
                      {"best_round", int64_t(bestRound)},
                      {"train_metric", number(trainMetric)},
                      {"validation_metric", number(validationMetric)},
                      {"train_mape", number(trainMAPE)},
                      {"validation_mape", number(validationMAPE)},
                      {"test_mape", number(testMAPE)},
                      {"test_pearson", number(testPearson)},
                      {"test_spearman", number(testSpearman)},
                      {"seconds", number(seconds)},
                      {"xgboost_version", xgboostVersion}};
}

llvm::Expected<TreeTrainingSummary>
TreeTrainingSummary::fromJSON(const json::Value &value) {
  FieldReader r(value, "training");
  if (llvm::Error err = r.check())
    return std::move(err);
  TreeTrainingSummary s;
  TreeTrainingOptions &o = s.options;
  std::string objective;
  if (llvm::Error err = r.string("objective", objective))
    return std::move(err);
  std::optional<TreeObjective> parsed = parseTreeObjective(objective);
  if (!parsed)
    return error("training.objective: unknown objective '" + objective +
                 "' (expected 'squared' or 'pairwise')");
  o.objective = *parsed;
  for (auto [key, field] :
       {std::pair<const char *, unsigned *>{"max_rounds", &o.rounds},
        {"patience", &o.patience},
        {"max_depth", &o.maxDepth},
        {"threads", &o.threads},
        {"rounds_run", &s.roundsRun},
        {"best_round", &s.bestRound}})
    if (llvm::Error err = r.integer(key, *field))
      return std::move(err);
  if (llvm::Error err = r.integer("seed", o.seed))
    return std::move(err);
  for (auto [key, field] :
       {std::pair<const char *, double *>{"eta", &o.learningRate},
        {"min_child_weight", &o.minChildWeight},
        {"subsample", &o.subsample},
        {"colsample_bytree", &o.columnSample},
        {"lambda", &o.lambda},
        {"train_metric", &s.trainMetric},
        {"validation_metric", &s.validationMetric},
        {"train_mape", &s.trainMAPE},
        {"validation_mape", &s.validationMAPE},
        {"test_mape", &s.testMAPE},
        {"test_pearson", &s.testPearson},
        {"test_spearman", &s.testSpearman},
        {"seconds", &s.seconds}})
    if (llvm::Error err = r.number(key, *field))
      return std::move(err);
  if (llvm::Error err = r.string("metric", s.metric))
    return std::move(err);
  if (llvm::Error err = r.string("xgboost_version", s.xgboostVersion))
    return std::move(err);
  if (llvm::Error err = o.check())
    return error("training: " + llvm::toString(std::move(err)));
  return s;
}

//===----------------------------------------------------------------------===//
// TreeModel
//===----------------------------------------------------------------------===//

namespace {
struct MatrixDeleter {
  void operator()(void *handle) const { XGDMatrixFree(handle); }
};
struct BoosterDeleter {
  void operator()(void *handle) const { XGBoosterFree(handle); }
};
using MatrixPtr = std::unique_ptr<void, MatrixDeleter>;
using BoosterPtr = std::unique_ptr<void, BoosterDeleter>;

/// Inference runs on the caller's thread: the search decides its own
/// parallelism. Training sets its own thread count.
llvm::Error prepareForInference(BoosterHandle booster) {
  XGB_CHECK(XGBoosterSetParam(booster, "nthread", "1"), "setting nthread");
  XGB_CHECK(XGBoosterSetParam(booster, "verbosity", "0"), "setting verbosity");
  return llvm::Error::success();
}
} // namespace

TreeModel::~TreeModel() { XGBoosterFree(booster); }

llvm::Expected<std::string> TreeModel::serialize() const {
  bst_ulong length = 0;
  const char *bytes = nullptr;
  XGB_CHECK(XGBoosterSaveModelToBuffer(booster, R"({"format": "ubj"})", &length,
                                       &bytes),
            "saving the booster");
  return std::string(bytes, size_t(length));
}

llvm::Expected<std::unique_ptr<TreeModel>>
TreeModel::deserialize(llvm::ArrayRef<char> bytes,
                       TreeTrainingSummary summary) {
  BoosterHandle handle = nullptr;
  XGB_CHECK(XGBoosterCreate(nullptr, 0, &handle), "creating a booster");
  BoosterPtr booster(handle);
  if (bytes.empty())
    return error("the booster's data is empty");
  XGB_CHECK(XGBoosterLoadModelFromBuffer(handle, bytes.data(),
                                         bst_ulong(bytes.size())),
            "reading the booster");
  bst_ulong features = 0;
  XGB_CHECK(XGBoosterGetNumFeature(handle, &features),
            "reading the booster's number of features");
  if (features != flat::kNumFlatFeatures)
    return error(llvm::formatv("the booster reads {0} features but the flat "
                               "layout has {1}",
                               features, flat::kNumFlatFeatures)
                     .str());
  if (llvm::Error err = prepareForInference(handle))
    return std::move(err);
  return std::make_unique<TreeModel>(booster.release(), std::move(summary));
}

std::vector<float> TreeModel::scores(const float *values, size_t rows) const {
  std::vector<float> result(rows, 0.0f);
  if (rows == 0)
    return result;
  std::string array =
      llvm::formatv(R"({{"data": [{0}, true], "shape": [{1}, {2}], )"
                    R"("typestr": "<f4", "version": 3})",
                    uint64_t(reinterpret_cast<uintptr_t>(values)), rows,
                    flat::kNumFlatFeatures)
          .str();
  static constexpr const char *kConfig =
      R"({"type": 1, "training": false, "iteration_begin": 0, )"
      R"("iteration_end": 0, "strict_shape": false, "missing": NaN, )"
      R"("cache_id": 0})";
  const bst_ulong *shape = nullptr;
  bst_ulong dimensions = 0;
  const float *out = nullptr;
  // The booster, its column count and the input were checked when it was
  // built or read: XGBoost has nothing left to refuse here.
  int status = XGBoosterPredictFromDense(booster, array.c_str(), kConfig,
                                         nullptr, &shape, &dimensions, &out);
  if (status != 0)
    llvm::report_fatal_error(llvm::Twine("XGBoost: prediction failed: ") +
                             XGBGetLastError());
  std::copy(out, out + rows, result.begin());
  return result;
}

unsigned TreeModel::rounds() const {
  int rounds = 0;
  if (XGBoosterBoostedRounds(booster, &rounds) != 0)
    return 0;
  return unsigned(rounds);
}

std::vector<float>
TreeModel::referenceState(const ProgramFeatures &reference) const {
  FlatReference flatReference = FlatReference::of(reference);
  std::vector<float> row(flat::kNumFlatFeatures);
  flattenFeatures(reference, flatReference, row.data());
  std::vector<float> state;
  state.reserve(features::kNumFeatures + 2);
  state.push_back(scores(row.data(), 1).front());
  llvm::append_range(state, flatReference.sums);
  state.push_back(flatReference.loops);
  return state;
}

/// Most schedules flattened at once (the rows stay in cache).
static constexpr size_t kMaxTreeBatch = 256;

void TreeModel::addLogSpeedups(llvm::ArrayRef<float> state,
                               llvm::ArrayRef<ProgramFeatures> schedules,
                               llvm::MutableArrayRef<double> logSum) const {
  assert(state.size() == features::kNumFeatures + 2 && "not a tree state");
  FlatReference reference;
  reference.sums.assign(state.begin() + 1, state.end() - 1);
  reference.loops = state.back();
  double referenceScore = state.front();
  std::vector<float> rows;
  for (size_t start = 0; start < schedules.size(); start += kMaxTreeBatch) {
    size_t end = std::min(schedules.size(), start + kMaxTreeBatch);
    rows.resize((end - start) * flat::kNumFlatFeatures);
    for (size_t i = start; i < end; ++i)
      flattenFeatures(schedules[i], reference,
                      rows.data() + (i - start) * flat::kNumFlatFeatures);
    std::vector<float> batch = scores(rows.data(), end - start);
    for (size_t i = start; i < end; ++i)
      logSum[i] += double(batch[i - start]) - referenceScore;
  }
}

llvm::Expected<unsigned> tuner::checkTreeBooster(llvm::StringRef ubjson) {
  llvm::Expected<json::Value> decoded = booster::decodeUBJSON(ubjson);
  if (!decoded)
    return decoded.takeError();
  return booster::checkBooster(*decoded, flat::kNumFlatFeatures);
}

const TreeTrainingSummary *tuner::treeTrainingSummary(const CostModel &model) {
  const std::shared_ptr<const TreeModel> &trees = model.getImpl().trees;
  return trees ? &trees->getSummary() : nullptr;
}

//===----------------------------------------------------------------------===//
// Model files
//===----------------------------------------------------------------------===//

/// The "checksum" of a booster's bytes.
static std::string boosterChecksum(llvm::StringRef bytes) {
  return llvm::formatv("{0:x-16}", llvm::xxh3_64bits(bytes)).str();
}

json::Value tuner::treeCostModelToJSON(const CostModel &model) {
  const CostModel::Impl &impl = model.getImpl();
  const TreeModel &trees = *impl.trees;
  llvm::Expected<std::string> bytes = trees.serialize();
  // Saving a booster that trained or loaded only fails when out of memory.
  if (!bytes)
    llvm::report_fatal_error(llvm::Twine(llvm::toString(bytes.takeError())));
  return json::Object{
      {"format", TreeModel::kFormatName},
      {"version", TreeModel::kFormatVersion},
      {"features",
       json::Object{{"layout", featureLayoutHash()},
                    {"count", int64_t(features::kNumFeatures)},
                    {"flat_layout", flatLayoutHash()},
                    {"flat_count", int64_t(flat::kNumFlatFeatures)}}},
      {"target", impl.target},
      {"training", trees.getSummary().toJSON()},
      {"dataset", impl.dataset.toJSON()},
      {"booster", json::Object{{"encoding", "ubj"},
                               {"xgboost_version", xgboostVersion()},
                               {"rounds", int64_t(trees.rounds())},
                               {"checksum", boosterChecksum(*bytes)},
                               {"data", llvm::encodeBase64(*bytes)}}}};
}

/// The network-style summary of a tree model (what tuner-train's evaluation
/// and CostModel::getTraining() read).
static TrainingSummary networkSummaryOf(const TreeTrainingSummary &trees) {
  TrainingSummary summary;
  summary.seed = trees.options.seed;
  summary.loss = TrainingLoss::LogError;
  summary.trainMAPE = trees.trainMAPE;
  summary.validationMAPE = trees.validationMAPE;
  summary.testMAPE = trees.testMAPE;
  summary.testPearson = trees.testPearson;
  summary.testSpearman = trees.testSpearman;
  summary.seconds = trees.seconds;
  return summary;
}

llvm::Expected<CostModel> tuner::treeCostModelFromJSON(const json::Value &value,
                                                       llvm::StringRef what) {
  auto fail = [&](const llvm::Twine &message) {
    return error(what + ": " + message);
  };
  const json::Object *object = value.getAsObject();
  if (!object || object->getString("format") != TreeModel::kFormatName)
    return fail("not a tuner tree model (no \"format\": \"" +
                TreeModel::kFormatName + "\")");
  std::optional<int64_t> version = object->getInteger("version");
  if (!version)
    return fail("the model file has no integer \"version\"");
  if (*version != TreeModel::kFormatVersion)
    return fail("tree model file version " + llvm::Twine(*version) +
                " is not supported (this build reads version " +
                llvm::Twine(TreeModel::kFormatVersion) + ")");
  const json::Object *featuresObject = object->getObject("features");
  std::optional<llvm::StringRef> layout, flatLayout;
  std::optional<int64_t> count, flatCount;
  if (featuresObject) {
    layout = featuresObject->getString("layout");
    flatLayout = featuresObject->getString("flat_layout");
    count = featuresObject->getInteger("count");
    flatCount = featuresObject->getInteger("flat_count");
  }
  if (!layout || !count || !flatLayout || !flatCount)
    return fail("the model file does not describe its feature layout "
                "(features.layout, features.count, features.flat_layout, "
                "features.flat_count)");
  if (*layout != featureLayoutHash() || *count != features::kNumFeatures ||
      *flatLayout != flatLayoutHash() || *flatCount != flat::kNumFlatFeatures)
    return fail(llvm::formatv("the trees were trained with feature layout {0} "
                              "({1} features per computation) flattened as "
                              "{2} ({3} features) but this build uses layout "
                              "{4} ({5}) flattened as {6} ({7}): retrain the "
                              "model with this build's tuner-train",
                              *layout, *count, *flatLayout, *flatCount,
                              featureLayoutHash(), features::kNumFeatures,
                              flatLayoutHash(), flat::kNumFlatFeatures)
                    .str());
  std::optional<llvm::StringRef> target = object->getString("target");
  if (!target)
    return fail("missing string field 'target'");
  for (llvm::StringRef key : {"training", "dataset", "booster"})
    if (!object->get(key))
      return fail("missing field '" + key + "'");
  llvm::Expected<TreeTrainingSummary> summary =
      TreeTrainingSummary::fromJSON(*object->get("training"));
  if (!summary)
    return fail(llvm::toString(summary.takeError()));
  llvm::Expected<DatasetSummary> dataset =
      DatasetSummary::fromJSON(*object->get("dataset"));
  if (!dataset)
    return fail(llvm::toString(dataset.takeError()));

  const json::Object *booster = object->getObject("booster");
  std::optional<llvm::StringRef> encoding =
      booster ? booster->getString("encoding") : std::nullopt;
  std::optional<llvm::StringRef> data =
      booster ? booster->getString("data") : std::nullopt;
  std::optional<llvm::StringRef> checksum =
      booster ? booster->getString("checksum") : std::nullopt;
  if (!encoding || !data || !checksum)
    return fail("booster: expected an object with string fields 'encoding', "
                "'checksum' and 'data' (a file written before checksums: "
                "retrain it)");
  if (*encoding != "ubj")
    return fail("booster: unknown encoding '" + *encoding +
                "' (expected 'ubj')");
  std::vector<char> bytes;
  if (llvm::Error err = llvm::decodeBase64(*data, bytes))
    return fail("booster: its data is not base64 (" +
                llvm::toString(std::move(err)) + ")");
  uint64_t expected = 0;
  if (checksum->getAsInteger(16, expected) ||
      expected !=
          llvm::xxh3_64bits(llvm::StringRef(bytes.data(), bytes.size())))
    return fail("booster: its data does not match its checksum (the file "
                "was changed or damaged: restore or retrain it)");
  llvm::Expected<unsigned> checked =
      checkTreeBooster(llvm::StringRef(bytes.data(), bytes.size()));
  if (!checked)
    return fail("booster: " + llvm::toString(checked.takeError()));
  llvm::Expected<std::unique_ptr<TreeModel>> trees =
      TreeModel::deserialize(bytes, *summary);
  if (!trees)
    return fail("booster: " + llvm::toString(trees.takeError()));
  unsigned rounds = (*trees)->rounds();
  if (rounds != summary->bestRound)
    return fail(llvm::formatv("booster: it holds {0} rounds but the training "
                              "summary kept {1}",
                              rounds, summary->bestRound)
                    .str());

  auto impl = std::make_shared<CostModel::Impl>(NetworkShape(), 0);
  impl->trees = std::shared_ptr<const TreeModel>(std::move(*trees));
  impl->target = target->str();
  impl->training = networkSummaryOf(*summary);
  impl->dataset = std::move(*dataset);
  return CostModel(std::move(impl));
}

//===----------------------------------------------------------------------===//
// Training
//===----------------------------------------------------------------------===//

namespace {
/// The rows of one part of the split: per program (in id order), its
/// untransformed schedule (label 0), then its measured schedules (their log
/// speedups) in the dataset's order.
struct TreeRows {
  struct Program {
    size_t referenceRow = 0;
    /// (row, index into the labeled schedules) per measured schedule.
    std::vector<std::pair<size_t, size_t>> schedules;
  };
  std::vector<Program> programs;
  std::vector<float> values; ///< Row after row.
  std::vector<float> labels;
  /// The labels shifted per program to be non-negative (rank:pairwise
  /// reads only their order within a program).
  std::vector<float> rankLabels;
  std::vector<unsigned> groups; ///< Rows per program.

  size_t size() const { return labels.size(); }
};

TreeRows buildRows(const std::vector<LabeledSchedule> &labeled,
                   const std::map<std::string, std::vector<size_t>> &byProgram,
                   const std::vector<std::string> &programs) {
  TreeRows rows;
  for (const std::string &id : programs) {
    auto found = byProgram.find(id);
    if (found == byProgram.end())
      continue;
    const std::vector<size_t> &members = found->second;
    const ProgramFeatures &reference = *labeled[members.front()].reference;
    FlatReference flatReference = FlatReference::of(reference);
    auto addRow = [&](const ProgramFeatures &features, float label) {
      size_t row = rows.size();
      rows.values.resize((row + 1) * flat::kNumFlatFeatures);
      flattenFeatures(features, flatReference,
                      rows.values.data() + row * flat::kNumFlatFeatures);
      rows.labels.push_back(label);
      return row;
    };
    TreeRows::Program program;
    program.referenceRow = addRow(reference, 0.0f);
    float lowest = 0;
    for (size_t i : members) {
      float label = float(std::log(labeled[i].speedup));
      lowest = std::min(lowest, label);
      program.schedules.push_back({addRow(labeled[i].features, label), i});
    }
    for (size_t row = program.referenceRow; row < rows.size(); ++row)
      rows.rankLabels.push_back(rows.labels[row] - lowest);
    rows.groups.push_back(unsigned(members.size() + 1));
    rows.programs.push_back(std::move(program));
  }
  return rows;
}

llvm::Expected<MatrixPtr> createMatrix(const TreeRows &rows, bool ranking) {
  DMatrixHandle handle = nullptr;
  XGB_CHECK(XGDMatrixCreateFromMat(rows.values.data(), bst_ulong(rows.size()),
                                   bst_ulong(flat::kNumFlatFeatures),
                                   std::numeric_limits<float>::quiet_NaN(),
                                   &handle),
            "creating a matrix");
  MatrixPtr matrix(handle);
  const std::vector<float> &labels = ranking ? rows.rankLabels : rows.labels;
  XGB_CHECK(XGDMatrixSetFloatInfo(handle, "label", labels.data(),
                                  bst_ulong(labels.size())),
            "setting labels");
  if (ranking)
    XGB_CHECK(XGDMatrixSetUIntInfo(handle, "group", rows.groups.data(),
                                   bst_ulong(rows.groups.size())),
              "setting groups");
  return std::move(matrix);
}

/// The early-stopping metric of `margins` (one per row of `rows`): RMSE of
/// the predicted log speedups (squared), or the mean within-program
/// Spearman correlation (pairwise).
double roundMetric(const TreeRows &rows, const float *margins,
                   TreeObjective objective) {
  if (objective == TreeObjective::SquaredLogError) {
    double sum = 0;
    size_t count = 0;
    for (const TreeRows::Program &program : rows.programs)
      for (auto [row, i] : program.schedules) {
        double error = double(margins[row]) -
                       double(margins[program.referenceRow]) -
                       double(rows.labels[row]);
        sum += error * error;
        ++count;
      }
    return count ? std::sqrt(sum / double(count)) : std::nan("");
  }
  double sum = 0;
  size_t count = 0;
  for (const TreeRows::Program &program : rows.programs) {
    std::vector<double> measured, predicted;
    for (auto [row, i] : program.schedules) {
      measured.push_back(rows.labels[row]);
      predicted.push_back(margins[row]);
    }
    double spearman = spearmanCorrelation(measured, predicted);
    if (std::isfinite(spearman)) {
      sum += spearman;
      ++count;
    }
  }
  return count ? sum / double(count) : std::nan("");
}

llvm::Expected<const float *> predictMargins(BoosterHandle booster,
                                             DMatrixHandle matrix) {
  const bst_ulong *shape = nullptr;
  bst_ulong dimensions = 0;
  const float *out = nullptr;
  XGB_CHECK(XGBoosterPredictFromDMatrix(
                booster, matrix,
                R"({"type": 1, "training": false, "iteration_begin": 0, )"
                R"("iteration_end": 0, "strict_shape": false})",
                &shape, &dimensions, &out),
            "predicting");
  return out;
}

/// Sets XGBoost's training parameters.
llvm::Error setParameters(BoosterHandle booster,
                          const TreeTrainingOptions &options) {
  auto text = [](double value) {
    return llvm::formatv("{0}", llvm::format("%.17g", value)).str();
  };
  std::vector<std::pair<const char *, std::string>> parameters = {
      {"objective", options.objective == TreeObjective::SquaredLogError
                        ? "reg:squarederror"
                        : "rank:pairwise"},
      // The exact greedy split finder scans each feature's sorted values in
      // one thread: unlike the histogram methods, its trees do not depend on
      // how many threads train them.
      {"tree_method", "exact"},
      {"eta", text(options.learningRate)},
      {"max_depth", std::to_string(options.maxDepth)},
      {"min_child_weight", text(options.minChildWeight)},
      {"subsample", text(options.subsample)},
      {"colsample_bytree", text(options.columnSample)},
      {"lambda", text(options.lambda)},
      {"base_score", "0"},
      {"seed", std::to_string(options.seed & 0x7fffffff)},
      {"nthread", std::to_string(options.threads)},
      {"verbosity", "0"}};
  for (const auto &[key, value] : parameters)
    XGB_CHECK(XGBoosterSetParam(booster, key, value.c_str()),
              llvm::formatv("setting {0}={1}", key, value).str());
  return llvm::Error::success();
}

/// Measured and predicted speedups of the schedules of `rows` by `model`.
Metrics speedupMetrics(const CostModel &model, const TreeRows &rows,
                       const std::vector<LabeledSchedule> &labeled) {
  std::vector<double> measured, predicted;
  for (const TreeRows::Program &program : rows.programs) {
    std::vector<ProgramFeatures> schedules;
    for (auto [row, i] : program.schedules) {
      schedules.push_back(labeled[i].features);
      measured.push_back(labeled[i].speedup);
    }
    llvm::append_range(
        predicted,
        model.predict(*labeled[program.schedules.front().second].reference,
                      schedules));
  }
  return computeMetrics(measured, predicted);
}
} // namespace

llvm::Expected<CostModel> tuner::trainGradientBoostedTrees(
    const Dataset &dataset, llvm::StringRef datasetPath,
    const TreeTrainingOptions &options,
    llvm::function_ref<void(const TreeRoundReport &)> onRound) {
  auto started = std::chrono::steady_clock::now();
  if (llvm::Error err = options.check())
    return std::move(err);
  unsigned skipped = 0;
  std::vector<std::string> excluded;
  llvm::Expected<std::vector<LabeledSchedule>> labeledOr =
      featurizeDataset(dataset, nullptr, skipped, &excluded);
  for (const std::string &line : excluded)
    llvm::errs() << "warning: " << line << "\n";
  if (!labeledOr)
    return labeledOr.takeError();
  const std::vector<LabeledSchedule> &labeled = *labeledOr;

  std::map<std::string, std::vector<size_t>> byProgram;
  for (auto [i, schedule] : llvm::enumerate(labeled))
    byProgram[schedule.program].push_back(i);
  std::set<std::string> targets;
  for (const ProgramRecord &program : dataset.programs)
    if (byProgram.count(program.id))
      targets.insert(program.target);
  if (targets.size() > 1)
    return error("the dataset mixes measurements of " +
                 llvm::Twine(targets.size()) + " machines ('" +
                 *targets.begin() + "', '" + *std::next(targets.begin()) +
                 "', ...); a model is trained for one machine");
  std::vector<std::string> ids;
  for (const auto &[id, members] : byProgram)
    ids.push_back(id);
  llvm::Expected<ProgramSplit> split = splitPrograms(ids, options.seed);
  if (!split)
    return split.takeError();

  bool ranking = options.objective == TreeObjective::PairwiseRank;
  TreeRows train = buildRows(labeled, byProgram, split->train);
  TreeRows validation = buildRows(labeled, byProgram, split->validation);
  TreeRows test = buildRows(labeled, byProgram, split->test);
  llvm::Expected<MatrixPtr> trainMatrix = createMatrix(train, ranking);
  if (!trainMatrix)
    return trainMatrix.takeError();
  llvm::Expected<MatrixPtr> validationMatrix =
      createMatrix(validation, ranking);
  if (!validationMatrix)
    return validationMatrix.takeError();

  // Both matrices are the booster's cached data: their predictions grow by
  // one tree per round instead of being recomputed.
  DMatrixHandle cached[] = {trainMatrix->get(), validationMatrix->get()};
  BoosterHandle handle = nullptr;
  XGB_CHECK(XGBoosterCreate(cached, 2, &handle), "creating a booster");
  BoosterPtr booster(handle);
  if (llvm::Error err = setParameters(handle, options))
    return std::move(err);

  TreeTrainingSummary summary;
  summary.options = options;
  summary.metric = ranking ? "spearman" : "rmse";
  summary.xgboostVersion = xgboostVersion();
  unsigned sinceBest = 0;
  for (unsigned round = 1; round <= options.rounds; ++round) {
    XGB_CHECK(
        XGBoosterUpdateOneIter(handle, int(round - 1), trainMatrix->get()),
        llvm::formatv("boosting round {0}", round).str());
    TreeRoundReport report;
    report.round = round;
    llvm::Expected<const float *> trainMargins =
        predictMargins(handle, trainMatrix->get());
    if (!trainMargins)
      return trainMargins.takeError();
    report.trainMetric = roundMetric(train, *trainMargins, options.objective);
    llvm::Expected<const float *> validationMargins =
        predictMargins(handle, validationMatrix->get());
    if (!validationMargins)
      return validationMargins.takeError();
    report.validationMetric =
        roundMetric(validation, *validationMargins, options.objective);
    report.best =
        summary.bestRound == 0 ||
        (ranking ? report.validationMetric > summary.validationMetric
                 : report.validationMetric < summary.validationMetric);
    summary.roundsRun = round;
    if (report.best) {
      summary.bestRound = round;
      summary.trainMetric = report.trainMetric;
      summary.validationMetric = report.validationMetric;
      sinceBest = 0;
    } else {
      ++sinceBest;
    }
    onRound(report);
    if (sinceBest >= options.patience)
      break;
  }

  // Keep the trees of the best round.
  BoosterHandle slicedHandle = nullptr;
  XGB_CHECK(XGBoosterSlice(handle, 0, int(summary.bestRound), 1, &slicedHandle),
            "keeping the best round's trees");
  BoosterPtr sliced(slicedHandle);
  booster.reset();
  if (llvm::Error err = prepareForInference(slicedHandle))
    return std::move(err);

  auto impl = std::make_shared<CostModel::Impl>(NetworkShape(), 0);
  impl->target = targets.empty() ? "" : *targets.begin();
  impl->dataset.path = datasetPath.str();
  impl->dataset.programs = byProgram.size();
  impl->dataset.samples = labeled.size();
  impl->dataset.skippedSamples = skipped;
  impl->dataset.trainPrograms = split->train;
  impl->dataset.validationPrograms = split->validation;
  impl->dataset.testPrograms = split->test;
  auto trees = std::make_shared<TreeModel>(sliced.release(), summary);
  impl->trees = trees;
  CostModel model(impl);

  summary.trainMAPE = speedupMetrics(model, train, labeled).mape;
  summary.validationMAPE = speedupMetrics(model, validation, labeled).mape;
  Metrics testMetrics = speedupMetrics(model, test, labeled);
  summary.testMAPE = testMetrics.mape;
  summary.testPearson = testMetrics.pearson;
  summary.testSpearman = testMetrics.spearman;
  summary.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started)
          .count();
  trees->setSummary(summary);
  impl->training = networkSummaryOf(summary);
  return model;
}
