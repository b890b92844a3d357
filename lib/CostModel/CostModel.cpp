//===- CostModel.cpp - Model files and batched predictions ----------------===//
//
// The model file is one JSON object:
//   {"format": "tuner-cost-model", "version": 4,
//    "features": {"layout": HASH, "count": N, "maxima": {...}},
//    "shape": NetworkShape, "target": FINGERPRINT,
//    "training": TrainingSummary, "dataset": DatasetSummary,
//    "members": [{"input_normalization": {"mean": [N], "scale": [N]},
//                 "parameters": [{"name", "rows", "cols",
//                                 "data": BASE64}...]}...]}
// one member per network of the ensemble; "data" is the matrix in
// column-major order as little-endian IEEE float32. Still read: version 3
// wrote "values": [numbers] instead of "data"; version 2 also held one
// network's "input_normalization" and "parameters" at the top level, and
// its epochs in "training".
//
//===----------------------------------------------------------------------===//

#include "CostModelImpl.h"
#include "FieldReader.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Base64.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <map>

using namespace tuner;
namespace json = llvm::json;

static constexpr llvm::StringLiteral kFormatName = "tuner-cost-model";

namespace {

llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// JSON has no NaN or infinity: metrics that are undefined are null.
json::Value number(double value) {
  if (!std::isfinite(value))
    return nullptr;
  return value;
}

json::Array sizesJSON(const std::vector<unsigned> &sizes) {
  json::Array array;
  for (unsigned size : sizes)
    array.push_back(int64_t(size));
  return array;
}

} // namespace

//===----------------------------------------------------------------------===//
// NetworkShape, TrainingSummary, DatasetSummary
//===----------------------------------------------------------------------===//

llvm::Error NetworkShape::check() const {
  auto zero = [](const std::vector<unsigned> &sizes) {
    return llvm::is_contained(sizes, 0u);
  };
  if (embedding == 0 || zero(computationLayers) || zero(mergeLayers) ||
      zero(regressionLayers))
    return error("layer sizes must be positive");
  if (!(dropout >= 0 && dropout < 1))
    return error(
        llvm::formatv("dropout must be in [0, 1), got {0}", dropout).str());
  return llvm::Error::success();
}

json::Value NetworkShape::toJSON() const {
  return json::Object{{"computation_layers", sizesJSON(computationLayers)},
                      {"embedding", int64_t(embedding)},
                      {"merge_layers", sizesJSON(mergeLayers)},
                      {"regression_layers", sizesJSON(regressionLayers)},
                      {"dropout", dropout}};
}

llvm::Expected<NetworkShape> NetworkShape::fromJSON(const json::Value &json) {
  FieldReader r(json, "shape");
  NetworkShape shape;
  if (auto err = r.check())
    return std::move(err);
  if (auto err = r.sizes("computation_layers", shape.computationLayers))
    return std::move(err);
  if (auto err = r.integer("embedding", shape.embedding))
    return std::move(err);
  if (auto err = r.sizes("merge_layers", shape.mergeLayers))
    return std::move(err);
  if (auto err = r.sizes("regression_layers", shape.regressionLayers))
    return std::move(err);
  if (auto err = r.number("dropout", shape.dropout))
    return std::move(err);
  if (auto err = shape.check())
    return error("shape: " + llvm::toString(std::move(err)));
  return shape;
}

static constexpr TrainingLoss kLosses[] = {
    TrainingLoss::MAPE,    TrainingLoss::LogError,   TrainingLoss::RankNet,
    TrainingLoss::ListNet, TrainingLoss::LogRankNet, TrainingLoss::LogListNet,
    TrainingLoss::LambdaRank, TrainingLoss::LogLambdaRank};

llvm::StringRef tuner::trainingLossName(TrainingLoss loss) {
  switch (loss) {
  case TrainingLoss::MAPE:
    return "mape";
  case TrainingLoss::LogError:
    return "log";
  case TrainingLoss::RankNet:
    return "ranknet";
  case TrainingLoss::ListNet:
    return "listnet";
  case TrainingLoss::LogRankNet:
    return "log+ranknet";
  case TrainingLoss::LogListNet:
    return "log+listnet";
  case TrainingLoss::LambdaRank:
    return "lambdarank";
  case TrainingLoss::LogLambdaRank:
    return "log+lambdarank";
  }
  llvm_unreachable("unknown training loss");
}

std::optional<TrainingLoss> tuner::parseTrainingLoss(llvm::StringRef name) {
  for (TrainingLoss loss : kLosses)
    if (name == trainingLossName(loss))
      return loss;
  return std::nullopt;
}

std::string tuner::trainingLossNames() {
  std::string names;
  for (TrainingLoss loss : kLosses)
    names += (names.empty() ? "'" : ", '") + trainingLossName(loss).str() + "'";
  return names;
}

std::optional<TrainingLoss> tuner::pointwiseTerm(TrainingLoss loss) {
  switch (loss) {
  case TrainingLoss::MAPE:
    return TrainingLoss::MAPE;
  case TrainingLoss::LogError:
  case TrainingLoss::LogRankNet:
  case TrainingLoss::LogListNet:
  case TrainingLoss::LogLambdaRank:
    return TrainingLoss::LogError;
  case TrainingLoss::RankNet:
  case TrainingLoss::ListNet:
  case TrainingLoss::LambdaRank:
    return std::nullopt;
  }
  llvm_unreachable("unknown training loss");
}

std::optional<TrainingLoss> tuner::rankingTerm(TrainingLoss loss) {
  switch (loss) {
  case TrainingLoss::RankNet:
  case TrainingLoss::LogRankNet:
    return TrainingLoss::RankNet;
  case TrainingLoss::ListNet:
  case TrainingLoss::LogListNet:
    return TrainingLoss::ListNet;
  case TrainingLoss::LambdaRank:
  case TrainingLoss::LogLambdaRank:
    return TrainingLoss::LambdaRank;
  case TrainingLoss::MAPE:
  case TrainingLoss::LogError:
    return std::nullopt;
  }
  llvm_unreachable("unknown training loss");
}

bool tuner::hasRankMargin(TrainingLoss loss) {
  std::optional<TrainingLoss> ranking = rankingTerm(loss);
  return ranking && *ranking != TrainingLoss::ListNet;
}

json::Value TrainingSummary::toJSON() const {
  json::Array memberArray;
  for (const MemberSummary &member : members) {
    json::Array validation;
    for (const std::string &id : member.validationPrograms)
      validation.push_back(id);
    memberArray.push_back(
        json::Object{{"seed", int64_t(member.seed)},
                     {"epochs_run", int64_t(member.epochsRun)},
                     {"best_epoch", int64_t(member.bestEpoch)},
                     {"validation_mape", number(member.validationMAPE)},
                     {"validation_programs", std::move(validation)}});
  }
  json::Object summary{{"seed", int64_t(seed)},
                      {"loss", trainingLossName(loss)},
                      {"max_epochs", int64_t(maxEpochs)},
                      {"batch_size", int64_t(batchSize)},
                      {"patience", int64_t(patience)},
                      {"learning_rate", learningRate},
                      {"weight_decay", weightDecay},
                      {"members", std::move(memberArray)},
                      {"train_mape", number(trainMAPE)},
                      {"validation_mape", number(validationMAPE)},
                      {"test_mape", number(testMAPE)},
                      {"test_pearson", number(testPearson)},
                      {"test_spearman", number(testSpearman)},
                      {"seconds", number(seconds)}};
  if (trainFraction < 1)
    summary["train_fraction"] = trainFraction;
  if (rankingTerm(loss)) {
    if (pointwiseTerm(loss))
      summary["rank_weight"] = rankWeight;
    if (hasRankMargin(loss))
      summary["rank_margin"] = rankMargin;
  }
  return summary;
}

/// The epochs of one member: in `r`'s object.
static llvm::Error readMemberEpochs(const FieldReader &r, MemberSummary &m) {
  if (llvm::Error err = r.integer("epochs_run", m.epochsRun))
    return err;
  return r.integer("best_epoch", m.bestEpoch);
}

llvm::Expected<TrainingSummary>
TrainingSummary::fromJSON(const json::Value &json, int64_t version) {
  FieldReader r(json, "training");
  TrainingSummary s;
  if (llvm::Error err = r.check())
    return std::move(err);
  for (auto [key, field] :
       {std::pair<const char *, unsigned *>{"max_epochs", &s.maxEpochs},
        {"batch_size", &s.batchSize},
        {"patience", &s.patience}})
    if (llvm::Error err = r.integer(key, *field))
      return std::move(err);
  if (llvm::Error err = r.integer("seed", s.seed))
    return std::move(err);
  std::string lossName;
  if (llvm::Error err = r.string("loss", lossName))
    return std::move(err);
  std::optional<TrainingLoss> loss = parseTrainingLoss(lossName);
  if (!loss)
    return error("training.loss: unknown loss '" + lossName +
                 "' (expected " + trainingLossNames() + ")");
  s.loss = *loss;
  if (r.has("rank_weight")) {
    if (llvm::Error err = r.number("rank_weight", s.rankWeight))
      return std::move(err);
    if (!(s.rankWeight > 0))
      return r.typeError("rank_weight", "a positive number");
  }
  if (r.has("rank_margin")) {
    if (llvm::Error err = r.number("rank_margin", s.rankMargin))
      return std::move(err);
    if (!(s.rankMargin >= 0))
      return r.typeError("rank_margin", "a number at least 0");
  }
  for (auto [key, field] :
       {std::pair<const char *, double *>{"learning_rate", &s.learningRate},
        {"weight_decay", &s.weightDecay},
        {"train_mape", &s.trainMAPE},
        {"validation_mape", &s.validationMAPE},
        {"test_mape", &s.testMAPE},
        {"test_pearson", &s.testPearson},
        {"test_spearman", &s.testSpearman},
        {"seconds", &s.seconds}})
    if (llvm::Error err = r.number(key, *field))
      return std::move(err);
  if (r.has("train_fraction")) {
    if (llvm::Error err = r.number("train_fraction", s.trainFraction))
      return std::move(err);
    if (!(s.trainFraction > 0 && s.trainFraction <= 1))
      return r.typeError("train_fraction", "a number in (0, 1]");
  }
  if (version == 2) {
    // One network, whose epochs are the summary's.
    MemberSummary member;
    member.seed = s.seed;
    member.validationMAPE = s.validationMAPE;
    if (llvm::Error err = readMemberEpochs(r, member))
      return std::move(err);
    s.members.push_back(member);
    return s;
  }
  llvm::Expected<const json::Value *> members = r.get("members");
  if (!members)
    return members.takeError();
  const json::Array *array = (*members)->getAsArray();
  if (!array || array->empty())
    return r.typeError("members", "a non-empty array");
  for (auto [i, value] : llvm::enumerate(*array)) {
    FieldReader m(value, llvm::formatv("training.members[{0}]", i).str());
    MemberSummary member;
    if (llvm::Error err = m.check())
      return std::move(err);
    if (llvm::Error err = m.integer("seed", member.seed))
      return std::move(err);
    if (llvm::Error err = readMemberEpochs(m, member))
      return std::move(err);
    if (llvm::Error err = m.number("validation_mape", member.validationMAPE))
      return std::move(err);
    if (llvm::Error err =
            m.strings("validation_programs", member.validationPrograms))
      return std::move(err);
    s.members.push_back(member);
  }
  return s;
}

json::Value DatasetSummary::toJSON() const {
  auto strings = [](const std::vector<std::string> &values) {
    json::Array array;
    for (const std::string &value : values)
      array.push_back(value);
    return array;
  };
  return json::Object{{"path", path},
                      {"programs", int64_t(programs)},
                      {"samples", int64_t(samples)},
                      {"skipped_samples", int64_t(skippedSamples)},
                      {"train_programs", strings(trainPrograms)},
                      {"validation_programs", strings(validationPrograms)},
                      {"test_programs", strings(testPrograms)}};
}

llvm::Expected<DatasetSummary>
DatasetSummary::fromJSON(const json::Value &json) {
  FieldReader r(json, "dataset");
  DatasetSummary s;
  if (llvm::Error err = r.check())
    return std::move(err);
  if (llvm::Error err = r.string("path", s.path))
    return std::move(err);
  for (auto [key, field] :
       {std::pair<const char *, unsigned *>{"programs", &s.programs},
        {"samples", &s.samples},
        {"skipped_samples", &s.skippedSamples}})
    if (llvm::Error err = r.integer(key, *field))
      return std::move(err);
  for (auto [key, field] : {std::pair<const char *, std::vector<std::string> *>{
                                "train_programs", &s.trainPrograms},
                            {"validation_programs", &s.validationPrograms},
                            {"test_programs", &s.testPrograms}})
    if (llvm::Error err = r.strings(key, *field))
      return std::move(err);
  return s;
}

//===----------------------------------------------------------------------===//
// Model files
//===----------------------------------------------------------------------===//

const NetworkShape &CostModel::getShape() const { return impl->shape; }
size_t CostModel::ensembleSize() const { return impl->networks.size(); }
const std::string &CostModel::getTarget() const { return impl->target; }
const TrainingSummary &CostModel::getTraining() const { return impl->training; }
const DatasetSummary &CostModel::getDataset() const { return impl->dataset; }

/// One network's input normalization and weights.
static json::Object networkToJSON(const Network<float> &network) {
  json::Array parameters;
  network.forEachParameter(
      [&](const std::string &name, const Network<float>::Matrix &value) {
        // Little-endian IEEE float32, column-major, base64: a quarter of
        // the size of the same weights as JSON numbers.
        std::string bytes(size_t(value.size()) * 4, '\0');
        for (Eigen::Index i = 0; i < value.size(); ++i)
          llvm::support::endian::write32le(
              &bytes[size_t(i) * 4], llvm::bit_cast<uint32_t>(value.data()[i]));
        parameters.push_back(json::Object{{"name", name},
                                          {"rows", int64_t(value.rows())},
                                          {"cols", int64_t(value.cols())},
                                          {"data", llvm::encodeBase64(bytes)}});
      });
  const Network<float>::InputNormalization &normalization =
      network.getInputNormalization();
  json::Array mean, scale;
  for (size_t i = 0; i < features::kNumFeatures; ++i) {
    mean.push_back(normalization.empty() ? 0.0 : double(normalization.mean[i]));
    scale.push_back(normalization.empty() ? 1.0
                                          : double(normalization.scale[i]));
  }
  return json::Object{
      {"input_normalization",
       json::Object{{"mean", std::move(mean)}, {"scale", std::move(scale)}}},
      {"parameters", std::move(parameters)}};
}

/// Reads what networkToJSON wrote (fields of `object`) into `network`;
/// errors are prefixed with `what`.
static llvm::Error readNetwork(const json::Object &object,
                               Network<float> &network,
                               const std::string &what) {
  auto fail = [&](const llvm::Twine &message) {
    return error(what + message);
  };
  Network<float>::InputNormalization normalization;
  const json::Object *n = object.getObject("input_normalization");
  const json::Array *mean = n ? n->getArray("mean") : nullptr;
  const json::Array *scale = n ? n->getArray("scale") : nullptr;
  if (!mean || !scale || mean->size() != features::kNumFeatures ||
      scale->size() != features::kNumFeatures)
    return fail(llvm::formatv("'input_normalization' must hold arrays "
                              "'mean' and 'scale' of {0} numbers",
                              features::kNumFeatures)
                    .str());
  for (size_t i = 0; i < features::kNumFeatures; ++i) {
    std::optional<double> m = (*mean)[i].getAsNumber();
    std::optional<double> s = (*scale)[i].getAsNumber();
    if (!m || !s || !std::isfinite(*m) || !std::isfinite(*s) || !(*s > 0))
      return fail(llvm::formatv("input_normalization, feature {0}: the "
                                "mean must be a finite number and the "
                                "scale a positive one",
                                i)
                      .str());
    normalization.mean.push_back(float(*m));
    normalization.scale.push_back(float(*s));
  }
  network.setInputNormalization(std::move(normalization));

  const json::Array *parameters = object.getArray("parameters");
  if (!parameters)
    return fail("missing array field 'parameters'");
  std::map<std::string, const json::Object *> byName;
  for (const json::Value &parameter : *parameters) {
    const json::Object *p = parameter.getAsObject();
    std::optional<llvm::StringRef> name =
        p ? p->getString("name") : std::nullopt;
    if (!name)
      return fail("a parameter without a name");
    byName[name->str()] = p;
  }
  llvm::Error err = llvm::Error::success();
  size_t used = 0;
  network.forEachParameter([&](const std::string &name,
                               Network<float>::Matrix &value,
                               Network<float>::Matrix &) {
    if (err)
      return;
    auto it = byName.find(name);
    if (it == byName.end()) {
      err = fail("missing parameter '" + name + "'");
      return;
    }
    ++used;
    const json::Object &p = *it->second;
    auto notAMatrix = [&] {
      return fail(llvm::formatv("parameter '{0}' is not a {1}x{2} matrix as "
                                "the shape says",
                                name, value.rows(), value.cols())
                      .str());
    };
    auto notFinite = [&](size_t i) {
      return fail(llvm::formatv("parameter '{0}': value {1} is not a finite "
                                "number",
                                name, i)
                      .str());
    };
    if (p.getInteger("rows") != value.rows() ||
        p.getInteger("cols") != value.cols()) {
      err = notAMatrix();
      return;
    }
    // "data": base64 of little-endian float32 (format 4); "values": an
    // array of numbers (formats 2 and 3).
    if (std::optional<llvm::StringRef> data = p.getString("data")) {
      std::vector<char> bytes;
      if (llvm::Error decodeError = llvm::decodeBase64(*data, bytes)) {
        err = fail("parameter '" + name + "': its data is not base64 (" +
                   llvm::toString(std::move(decodeError)) + ")");
        return;
      }
      if (bytes.size() != size_t(value.size()) * 4) {
        err = notAMatrix();
        return;
      }
      for (Eigen::Index i = 0; i < value.size(); ++i) {
        float f = llvm::bit_cast<float>(
            llvm::support::endian::read32le(&bytes[size_t(i) * 4]));
        if (!std::isfinite(f)) {
          err = notFinite(size_t(i));
          return;
        }
        value.data()[i] = f;
      }
      return;
    }
    const json::Array *values = p.getArray("values");
    if (!values || values->size() != size_t(value.size())) {
      err = notAMatrix();
      return;
    }
    for (auto [i, v] : llvm::enumerate(*values)) {
      std::optional<double> d = v.getAsNumber();
      if (!d || !std::isfinite(*d)) {
        err = notFinite(i);
        return;
      }
      value.data()[i] = float(*d);
    }
  });
  if (err)
    return err;
  if (used != byName.size())
    return fail(llvm::formatv("{0} parameters that the shape does not have",
                              byName.size() - used)
                    .str());
  return llvm::Error::success();
}

json::Value CostModel::toJSON() const {
  if (impl->trees)
    return treeCostModelToJSON(*this);
  json::Object maxima;
  for (auto &[key, value] : featureMaxima())
    maxima[key] = int64_t(value);
  json::Array members;
  for (const Network<float> &network : impl->networks)
    members.push_back(networkToJSON(network));
  return json::Object{
      {"format", kFormatName},
      {"version", kFormatVersion},
      {"features", json::Object{{"layout", featureLayoutHash()},
                                {"count", int64_t(features::kNumFeatures)},
                                {"maxima", std::move(maxima)}}},
      {"shape", getShape().toJSON()},
      {"target", impl->target},
      {"training", impl->training.toJSON()},
      {"dataset", impl->dataset.toJSON()},
      {"members", std::move(members)}};
}

llvm::Expected<CostModel> CostModel::fromJSON(const json::Value &json,
                                              llvm::StringRef what) {
  auto fail = [&](const llvm::Twine &message) {
    return error(what + ": " + message);
  };
  auto failWith = [&](llvm::Error err) {
    return fail(llvm::toString(std::move(err)));
  };
  const json::Object *object = json.getAsObject();
  if (object && object->getString("format") == TreeModel::kFormatName)
    return treeCostModelFromJSON(json, what);
  if (!object || object->getString("format") != kFormatName)
    return fail("not a tuner cost model (no \"format\": \"" + kFormatName +
                "\")");
  std::optional<int64_t> version = object->getInteger("version");
  if (!version)
    return fail("the model file has no integer \"version\"");
  if (*version < kOldestFormatVersion || *version > kFormatVersion)
    return fail("model file version " + llvm::Twine(*version) +
                " is not supported (this build reads versions " +
                llvm::Twine(kOldestFormatVersion) + " to " +
                llvm::Twine(kFormatVersion) + ")");

  const json::Object *featuresObject = object->getObject("features");
  std::optional<llvm::StringRef> layout =
      featuresObject ? featuresObject->getString("layout") : std::nullopt;
  std::optional<int64_t> count =
      featuresObject ? featuresObject->getInteger("count") : std::nullopt;
  if (!layout || !count)
    return fail("the model file does not describe its feature layout "
                "(features.layout, features.count)");
  if (*layout != featureLayoutHash() || *count != features::kNumFeatures)
    return fail(llvm::formatv("the model was trained with feature layout {0} "
                              "({1} features per computation) but this build "
                              "uses layout {2} ({3} features): retrain the "
                              "model with this build's tuner-train",
                              *layout, *count, featureLayoutHash(),
                              features::kNumFeatures)
                    .str());

  const json::Value *shapeJSON = object->get("shape");
  if (!shapeJSON)
    return fail("missing field 'shape'");
  llvm::Expected<NetworkShape> shape = NetworkShape::fromJSON(*shapeJSON);
  if (!shape)
    return failWith(shape.takeError());

  // Version 2 holds one network at the top level; later versions a list.
  std::vector<const json::Object *> memberObjects;
  if (*version == 2) {
    memberObjects.push_back(object);
  } else {
    const json::Array *members = object->getArray("members");
    if (!members || members->empty())
      return fail("missing non-empty array field 'members' (the networks)");
    for (const json::Value &member : *members) {
      const json::Object *m = member.getAsObject();
      if (!m)
        return fail("a member of 'members' is not a JSON object");
      memberObjects.push_back(m);
    }
  }
  auto impl = std::make_shared<Impl>(*shape, memberObjects.size());
  for (auto [i, member] : llvm::enumerate(memberObjects)) {
    std::string prefix =
        memberObjects.size() == 1 ? std::string()
                                  : llvm::formatv("network {0} of {1}: ", i + 1,
                                      memberObjects.size())
                            .str();
    if (llvm::Error err = readNetwork(*member, impl->networks[i], prefix))
      return failWith(std::move(err));
    impl->networks[i].prepareInference();
  }

  std::optional<llvm::StringRef> target = object->getString("target");
  if (!target)
    return fail("missing string field 'target'");
  impl->target = target->str();
  for (llvm::StringRef key : {"training", "dataset"})
    if (!object->get(key))
      return fail("missing field '" + key + "'");
  llvm::Expected<TrainingSummary> training =
      TrainingSummary::fromJSON(*object->get("training"), *version);
  if (!training)
    return failWith(training.takeError());
  if (training->members.size() != memberObjects.size())
    return fail(llvm::formatv("the training summary describes {0} networks "
                              "but the file holds {1}",
                              training->members.size(), memberObjects.size())
                    .str());
  impl->training = std::move(*training);
  llvm::Expected<DatasetSummary> dataset =
      DatasetSummary::fromJSON(*object->get("dataset"));
  if (!dataset)
    return failWith(dataset.takeError());
  impl->dataset = std::move(*dataset);
  if (*version == 2)
    impl->training.members.front().validationPrograms =
        impl->dataset.validationPrograms;
  return CostModel(std::move(impl));
}

bool CostModel::describes(ParamRole role) {
  switch (role) {
  case ParamRole::Tile:
  case ParamRole::RegisterTile:
  case ParamRole::Order:
  case ParamRole::Unroll:
  case ParamRole::Vectorize:
  case ParamRole::Parallel:
  case ParamRole::Fuse:
  case ParamRole::Lowering:
  case ParamRole::Distribute:
  case ParamRole::Partial:
    return true;
  case ParamRole::None:
  case ParamRole::Knob:
  case ParamRole::Alternatives:
  // Skewing and how a convolution is computed have features (time_tiled,
  // wavefronts, conv_im2col, conv_decomposed), but they change the code
  // as a whole, and the random programs that train the model rarely have
  // them: the execution step measures each of their strata rather than
  // trusting the model across them.
  case ParamRole::Skew:
  case ParamRole::Convolution:
  // The model is CPU-only: GPU spaces are searched by measurement.
  case ParamRole::GpuBlockTile:
  case ParamRole::GpuThreadTile:
  case ParamRole::GpuReductionTile:
  case ParamRole::GpuPromote:
  case ParamRole::GpuVectorWidth:
    return false;
  }
  return false;
}

llvm::Expected<CostModel> CostModel::load(llvm::StringRef path) {
  llvm::Expected<json::Value> json = readJSONFile(path);
  if (!json)
    return json.takeError();
  return fromJSON(*json, path);
}

llvm::Expected<std::optional<CostModel>>
CostModel::loadIfExists(llvm::StringRef path) {
  if (!llvm::sys::fs::exists(path))
    return std::nullopt;
  llvm::Expected<CostModel> model = load(path);
  if (!model)
    return model.takeError();
  return std::optional<CostModel>(std::move(*model));
}

llvm::Error CostModel::save(llvm::StringRef path) const {
  return writeJSONFile(path, toJSON());
}

//===----------------------------------------------------------------------===//
// Predictions
//===----------------------------------------------------------------------===//

/// Most schedules in one forward pass: large enough for efficient matrix
/// products, small enough for the activations to stay in cache.
static constexpr size_t kMaxBatch = 512;

static bool sameTree(const FeatureTree &a, const FeatureTree &b) {
  if (a.numComputations != b.numComputations ||
      a.nodes.size() != b.nodes.size())
    return false;
  for (size_t n = 0; n < a.nodes.size(); ++n)
    if (a.nodes[n].loops != b.nodes[n].loops ||
        a.nodes[n].computations != b.nodes[n].computations)
      return false;
  return true;
}

std::vector<float>
CostModel::referenceScores(const ProgramFeatures &reference) const {
  std::vector<float> scores;
  Network<float>::Matrix inputs = Network<float>::packInputs({&reference});
  for (const Network<float> &network : impl->networks)
    scores.push_back(network.forwardLogits(reference.tree, inputs, 1)(0, 0));
  if (impl->trees)
    llvm::append_range(scores, impl->trees->referenceState(reference));
  return scores;
}

std::vector<double>
CostModel::predict(const ProgramFeatures &reference,
                   llvm::ArrayRef<ProgramFeatures> schedules) const {
  return predict(reference, referenceScores(reference), schedules);
}

/// Calls fn(indices) for batches of items 0 .. n - 1 whose trees
/// (treeOf) share one shape: at most kMaxBatch each, the groups in order of
/// first appearance, each in order. treeOf is called only before fn is.
static void forEachTreeBatch(
    size_t n, llvm::function_ref<const FeatureTree &(size_t)> treeOf,
    llvm::function_ref<void(llvm::ArrayRef<size_t>)> fn) {
  // Groups of items with the same tree, in order of first appearance.
  std::map<uint64_t, std::vector<std::vector<size_t>>> byHash;
  for (size_t i = 0; i < n; ++i) {
    const FeatureTree &tree = treeOf(i);
    std::vector<std::vector<size_t>> &candidates = byHash[tree.hash()];
    auto it = llvm::find_if(candidates, [&](const std::vector<size_t> &group) {
      return sameTree(treeOf(group.front()), tree);
    });
    if (it == candidates.end()) {
      candidates.push_back({i});
      continue;
    }
    it->push_back(i);
  }
  for (auto &[hash, candidates] : byHash)
    for (std::vector<size_t> &group : candidates)
      for (size_t start = 0; start < group.size(); start += kMaxBatch)
        fn(llvm::ArrayRef(group).slice(
            start, std::min(group.size() - start, kMaxBatch)));
}

/// Calls fn(batch, indices) for batches of `schedules` that share one tree
/// shape (forEachTreeBatch), `indices` saying where each schedule of the
/// batch is in `schedules`.
static void forEachBatch(
    llvm::ArrayRef<ProgramFeatures> schedules,
    llvm::function_ref<void(llvm::ArrayRef<const ProgramFeatures *>,
                            llvm::ArrayRef<size_t>)>
        fn) {
  std::vector<const ProgramFeatures *> batch;
  forEachTreeBatch(
      schedules.size(),
      [&](size_t i) -> const FeatureTree & { return schedules[i].tree; },
      [&](llvm::ArrayRef<size_t> indices) {
        batch.clear();
        for (size_t i : indices)
          batch.push_back(&schedules[i]);
        fn(batch, indices);
      });
}

/// The networks' part of scoring schedules of one program: what every batch
/// shares (the reference's scores and first-layer pre-activations), per
/// batch each network's log speedup, and at the end the model's speedups
/// from the members' sums.
class CostModel::BatchScorer {
public:
  /// What the networks read of a batch: nothing (there are none), an
  /// InferenceBatch (each distinct subtree once), or the dense vectors.
  enum class Input { None, Keys, Dense };

  BatchScorer(const CostModel &model, const ProgramFeatures &reference,
              llvm::ArrayRef<float> referenceLogits)
      : model(model), reference(reference), referenceLogits(referenceLogits),
        // Prepared networks (every loaded or trained model) compute each
        // distinct subtree of a batch once; the others take the training's
        // forward pass. A model of trees alone has no networks to score.
        input(model.impl->networks.empty() ? Input::None
              : llvm::all_of(model.impl->networks,
                             [](const Network<float> &n) {
                               return n.isPreparedForInference();
                             })
                  ? Input::Keys
                  : Input::Dense) {}

  Input reads() const { return input; }

  /// Adds each network's log speedup of batch[k] (schedules of one tree
  /// shape) to logSum[indices[k]].
  void addLogSpeedups(llvm::ArrayRef<const ProgramFeatures *> batch,
                      llvm::ArrayRef<size_t> indices,
                      llvm::MutableArrayRef<double> logSum) {
    if (input == Input::None)
      return;
    if (input == Input::Keys) {
      addLogSpeedups(InferenceBatch(reference, batch), indices, logSum);
      return;
    }
    Network<float>::Matrix inputs = Network<float>::packInputs(batch);
    for (auto [i, network] : llvm::enumerate(model.impl->networks))
      add(i, network.forwardLogits(batch.front()->tree, inputs, batch.size()),
          indices, logSum);
  }
  /// The same for prepared networks, the batch's distinct subtrees given.
  void addLogSpeedups(const InferenceBatch &distinct,
                      llvm::ArrayRef<size_t> indices,
                      llvm::MutableArrayRef<double> logSum) {
    assert(input == Input::Keys && "the networks are not prepared");
    // One workspace per thread, kept across calls: a search scores its
    // candidates in many calls, and fresh buffers each time cost their
    // allocation and the first touch of every page.
    static thread_local Network<float>::Workspace workspace;
    if (referencePre.empty())
      for (const Network<float> &network : model.impl->networks)
        referencePre.push_back(network.referencePreActivations(reference));
    for (auto [i, network] : llvm::enumerate(model.impl->networks))
      add(i, network.inferLogits(distinct, referencePre[i], workspace),
          indices, logSum);
  }

  /// The model's speedups from the sums of its members' log speedups (the
  /// networks', then the trees'): the exp of their mean.
  std::vector<double> speedups(llvm::ArrayRef<double> logSum) const {
    const Impl &impl = *model.impl;
    double members = double(impl.networks.size() + (impl.trees ? 1 : 0));
    std::vector<double> result(logSum.size());
    for (auto [speedup, sum] : llvm::zip(result, logSum))
      speedup = std::exp(sum / members);
    return result;
  }

private:
  const CostModel &model;
  const ProgramFeatures &reference;
  llvm::ArrayRef<float> referenceLogits;
  Input input;
  std::vector<Network<float>::Matrix> referencePre;

  /// Adds network i's log speedups of a batch, from its logits.
  void add(size_t i, const Network<float>::Matrix &logits,
           llvm::ArrayRef<size_t> indices,
           llvm::MutableArrayRef<double> logSum) const {
    Network<float>::Matrix predictions =
        Network<float>::relativeSpeedups(logits, referenceLogits[i]);
    for (auto [k, index] : llvm::enumerate(indices))
      logSum[index] += std::log(double(predictions(0, k)));
  }
};

std::vector<double>
CostModel::predict(const ProgramFeatures &reference,
                   llvm::ArrayRef<float> referenceLogits,
                   llvm::ArrayRef<ProgramFeatures> schedules) const {
  // Sums of the members' log relative speedups, then their mean's exp.
  std::vector<double> logSum(schedules.size(), 0);
  BatchScorer scorer(*this, reference, referenceLogits);
  forEachBatch(schedules, [&](llvm::ArrayRef<const ProgramFeatures *> batch,
                              llvm::ArrayRef<size_t> indices) {
    scorer.addLogSpeedups(batch, indices, logSum);
  });
  if (impl->trees)
    impl->trees->addLogSpeedups(referenceLogits.drop_front(
                                    impl->networks.size()),
                                schedules, logSum);
  return scorer.speedups(logSum);
}

/// The input of `network`'s last layer for each schedule of `batch` (one
/// column each).
static Network<float>::Matrix
lastLayerInputs(const Network<float> &network,
                llvm::ArrayRef<const ProgramFeatures *> batch) {
  Network<float>::Tape tape;
  network.forwardLogits(batch.front()->tree,
                        Network<float>::packInputs(batch), batch.size(),
                        &tape);
  return tape.regression.inputs.back();
}

std::vector<std::vector<float>>
CostModel::represent(const ProgramFeatures &reference,
                     llvm::ArrayRef<ProgramFeatures> schedules) const {
  std::vector<Network<float>::Matrix> references;
  size_t width = 0;
  for (const Network<float> &network : impl->networks) {
    references.push_back(lastLayerInputs(network, {&reference}));
    width += references.back().rows();
  }
  std::vector<std::vector<float>> result(schedules.size(),
                                         std::vector<float>(width));
  forEachBatch(schedules, [&](llvm::ArrayRef<const ProgramFeatures *> batch,
                              llvm::ArrayRef<size_t> indices) {
    size_t offset = 0;
    for (auto [network, base] : llvm::zip(impl->networks, references)) {
      Network<float>::Matrix inputs = lastLayerInputs(network, batch);
      const Network<float>::Matrix &weight = network.lastLayerWeight();
      for (auto [k, i] : llvm::enumerate(indices))
        for (Eigen::Index row = 0; row < inputs.rows(); ++row)
          result[i][offset + row] =
              weight(0, row) * (inputs(row, k) - base(row, 0));
      offset += inputs.rows();
    }
  });
  return result;
}

llvm::Expected<CostModel::ProgramPredictor>
CostModel::forProgram(const ProgramTree &tree, const Space &space) const {
  llvm::Expected<FeatureExtractor> extractor = FeatureExtractor::create(tree);
  if (!extractor)
    return extractor.takeError();
  llvm::Expected<ProgramFeatures> reference =
      extractor->extract(space, space.defaultConfig());
  if (!reference)
    return error("the untransformed schedule: " +
                 llvm::toString(reference.takeError()));
  std::vector<float> scores = referenceScores(*reference);
  return ProgramPredictor(*this, space, std::move(*extractor),
                          std::move(*reference), std::move(scores));
}

llvm::Error CostModel::ProgramPredictor::withPlan(
    size_t i, const Config &config,
    llvm::function_ref<void(const SchedulePlan &)> fn) const {
  if (plans) {
    llvm::Expected<std::shared_ptr<const SchedulePlan>> plan =
        plans->get(config);
    if (!plan)
      return error("config " + llvm::Twine(i) + ": " +
                   llvm::toString(plan.takeError()));
    fn(**plan);
    return llvm::Error::success();
  }
  llvm::Expected<SchedulePlan> plan =
      planSchedule(extractor.getTree(), space, config);
  if (!plan)
    return error("config " + llvm::Twine(i) + ": " +
                 llvm::toString(plan.takeError()));
  fn(*plan);
  return llvm::Error::success();
}

llvm::Expected<std::vector<ProgramFeatures>>
CostModel::ProgramPredictor::extract(llvm::ArrayRef<Config> configs) const {
  std::vector<ProgramFeatures> schedules;
  schedules.reserve(configs.size());
  for (auto [i, config] : llvm::enumerate(configs))
    if (llvm::Error error =
            withPlan(i, config, [&](const SchedulePlan &plan) {
              schedules.push_back(extractor.extract(plan));
            }))
      return std::move(error);
  return schedules;
}

llvm::Expected<std::vector<double>>
CostModel::ProgramPredictor::predict(llvm::ArrayRef<Config> configs) const {
  // The same batches, and so the same predictions, as model.predict on
  // extract(configs); but each config's computation vectors are kept only
  // as their differences from the untransformed schedule's (the keys of
  // InferenceBatch::appendKeys), taken while they are in cache: all the
  // vectors at once took megabytes per thousand candidates, written and
  // read back from memory, and the first touch of every page.
  size_t n = configs.size();
  unsigned computations = reference->tree.numComputations;
  std::vector<FeatureTree> trees(n);
  // Config i's computation c: keys[keyStart[j] .. keyStart[j + 1]) at
  // j = i * computations + c.
  std::vector<uint32_t> keys;
  std::vector<size_t> keyStart;
  keyStart.reserve(n * computations + 1);
  static thread_local std::vector<float> values;
  for (size_t i = 0; i < n; ++i)
    if (llvm::Error error =
            withPlan(i, configs[i], [&](const SchedulePlan &plan) {
              trees[i] = extractor.extractTree(plan);
              extractor.extractValues(plan, values);
              InferenceBatch::appendKeys(*reference, values, computations,
                                         keys, keyStart);
            }))
      return std::move(error);
  keyStart.push_back(keys.size());
  auto keysOf = [&](size_t i, unsigned c) {
    size_t j = i * computations + c;
    return llvm::ArrayRef(keys).slice(keyStart[j],
                                      keyStart[j + 1] - keyStart[j]);
  };

  const Impl &impl = model.getImpl();
  std::vector<double> logSum(n, 0);
  BatchScorer scorer(model, *reference, referenceScores);
  // Dense vectors only for what reads them: unprepared networks and trees.
  using Input = BatchScorer::Input;
  bool dense = scorer.reads() == Input::Dense || impl.trees;
  static thread_local std::vector<ProgramFeatures> pool;
  std::vector<const ProgramFeatures *> batch;
  std::vector<llvm::ArrayRef<uint32_t>> batchKeys;
  std::vector<double> treeSums;
  forEachTreeBatch(
      n, [&](size_t i) -> const FeatureTree & { return trees[i]; },
      [&](llvm::ArrayRef<size_t> indices) {
        if (scorer.reads() == Input::Keys) {
          batchKeys.clear();
          for (size_t i : indices)
            for (unsigned c = 0; c < computations; ++c)
              batchKeys.push_back(keysOf(i, c));
          scorer.addLogSpeedups(InferenceBatch(*reference,
                                               trees[indices.front()],
                                               indices.size(), batchKeys),
                                indices, logSum);
        }
        if (!dense)
          return;
        // The vectors again, from the untransformed schedule's and the
        // keys (the raw bits of every entry that differs).
        if (pool.size() < indices.size())
          pool.resize(indices.size());
        batch.clear();
        for (auto [k, i] : llvm::enumerate(indices)) {
          ProgramFeatures &features = pool[k];
          features.tree = std::move(trees[i]);
          features.values.assign(reference->values.begin(),
                                 reference->values.end());
          for (unsigned c = 0; c < computations; ++c) {
            llvm::ArrayRef<uint32_t> key = keysOf(i, c);
            float *v = features.values.data() +
                       size_t(c) * features::kNumFeatures;
            for (size_t e = 1; e + 1 < key.size(); e += 2)
              v[key[e]] = llvm::bit_cast<float>(key[e + 1]);
          }
          batch.push_back(&features);
        }
        if (scorer.reads() == Input::Dense)
          scorer.addLogSpeedups(batch, indices, logSum);
        if (!impl.trees)
          return;
        treeSums.assign(indices.size(), 0);
        impl.trees->addLogSpeedups(
            llvm::ArrayRef(referenceScores).drop_front(impl.networks.size()),
            llvm::ArrayRef(pool).take_front(indices.size()), treeSums);
        for (auto [k, i] : llvm::enumerate(indices))
          logSum[i] += treeSums[k];
      });
  return scorer.speedups(logSum);
}

llvm::Expected<std::vector<std::vector<float>>>
CostModel::ProgramPredictor::represent(llvm::ArrayRef<Config> configs) const {
  llvm::Expected<std::vector<ProgramFeatures>> schedules = extract(configs);
  if (!schedules)
    return schedules.takeError();
  return model.represent(*reference, *schedules);
}

llvm::Expected<std::vector<double>>
CostModel::predict(const ProgramTree &tree, const Space &space,
                   llvm::ArrayRef<Config> configs) const {
  llvm::Expected<ProgramPredictor> predictor = forProgram(tree, space);
  if (!predictor)
    return predictor.takeError();
  return predictor->predict(configs);
}
