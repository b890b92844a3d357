//===- ModelFileTest.cpp - Model files and the "no model" answer ----------===//

#include "tuner/CostModel/CostModel.h"
#include "tuner/CostModel/Training.h"

#include "CostModelImpl.h"
#include "TestPrograms.h"

#include "llvm/Support/Base64.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace tuner;
using namespace tuner::test;

namespace {

class ModelFileTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    dataset = new Dataset(syntheticDataset(3, 6, 1));
    llvm::Expected<CostModel> trained =
        trainCostModel(*dataset, "synthetic", tinyTrainingOptions(),
                       [](const EpochReport &) {});
    ASSERT_TRUE(bool(trained)) << llvm::toString(trained.takeError());
    model = new CostModel(*trained);
  }
  static void TearDownTestSuite() {
    delete model;
    delete dataset;
  }

  void SetUp() override {
    ASSERT_FALSE(
        llvm::sys::fs::createUniqueDirectory("costmodel-test", directory));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(directory); }

  std::string path(llvm::StringRef name) const {
    llvm::SmallString<128> p(directory);
    llvm::sys::path::append(p, name);
    return std::string(p);
  }

  /// Writes `json` (the model's, edited by `edit`) to `name`.
  std::string write(llvm::StringRef name,
                    llvm::function_ref<void(llvm::json::Object &)> edit) {
    llvm::json::Value json = model->toJSON();
    edit(*json.getAsObject());
    std::string file = path(name);
    std::error_code ec;
    llvm::raw_fd_ostream os(file, ec);
    EXPECT_FALSE(ec);
    os << json;
    return file;
  }

  /// `loaded` predicts what the trained model predicts, exactly, for the
  /// sampled configs of the first program.
  void expectSamePredictions(const CostModel &loaded) {
    const ProgramRecord &program = dataset->programs[0];
    std::vector<Config> configs = sampledConfigs(*dataset, program.id);
    llvm::Expected<std::vector<double>> before =
        model->predict(program.tree, program.space, configs);
    llvm::Expected<std::vector<double>> after =
        loaded.predict(program.tree, program.space, configs);
    ASSERT_TRUE(bool(before) && bool(after));
    EXPECT_EQ(*before, *after);
  }

  std::string loadError(const std::string &file) {
    llvm::Expected<CostModel> loaded = CostModel::load(file);
    if (loaded)
      return "(loaded)";
    return llvm::toString(loaded.takeError());
  }

  static Dataset *dataset;
  static CostModel *model;
  llvm::SmallString<128> directory;
};

Dataset *ModelFileTest::dataset = nullptr;
CostModel *ModelFileTest::model = nullptr;

TEST_F(ModelFileTest, RoundTripKeepsPredictionsAndDescription) {
  std::string file = path("model.json");
  ASSERT_FALSE(bool(model->save(file)));
  llvm::Expected<CostModel> loaded = CostModel::load(file);
  ASSERT_TRUE(bool(loaded)) << llvm::toString(loaded.takeError());
  EXPECT_EQ(loaded->getShape(), model->getShape());
  EXPECT_EQ(loaded->getTarget(), "test-cpu");
  EXPECT_EQ(loaded->getDataset().testPrograms,
            model->getDataset().testPrograms);
  EXPECT_EQ(loaded->getTraining().members.front().epochsRun, 2u);

  expectSamePredictions(*loaded);

  // The file says what it is.
  llvm::Expected<llvm::json::Value> json = readJSONFile(file);
  ASSERT_TRUE(bool(json));
  const llvm::json::Object &object = *json->getAsObject();
  EXPECT_EQ(object.getString("format"), "tuner-cost-model");
  EXPECT_EQ(object.getInteger("version"), 4);
  EXPECT_EQ(object.getObject("features")->getString("layout"),
            featureLayoutHash());
  EXPECT_EQ(object.getObject("features")
                ->getObject("maxima")
                ->getInteger("loop_levels"),
            7);
  EXPECT_TRUE(object.getObject("training")->getNumber("test_mape") ||
              object.getObject("training")->get("test_mape")->getAsNull());
}

TEST_F(ModelFileTest, PredictionsAreBatchedAndOrdered) {
  const ProgramRecord &program = dataset->programs[0];
  std::vector<Config> configs = sampledConfigs(*dataset, program.id);
  ASSERT_GE(configs.size(), 3u);
  llvm::Expected<std::vector<double>> all =
      model->predict(program.tree, program.space, configs);
  ASSERT_TRUE(bool(all)) << llvm::toString(all.takeError());
  ASSERT_EQ(all->size(), configs.size());
  for (size_t i = 0; i < configs.size(); ++i) {
    llvm::Expected<std::vector<double>> one =
        model->predict(program.tree, program.space, {configs[i]});
    ASSERT_TRUE(bool(one));
    EXPECT_NEAR((*one)[0], (*all)[i], 1e-5 * (*all)[i]) << i;
  }
  // Speedups are relative to the untransformed program: its own is 1.
  llvm::Expected<std::vector<double>> untransformed = model->predict(
      program.tree, program.space, {program.space.defaultConfig()});
  ASSERT_TRUE(bool(untransformed));
  EXPECT_NEAR((*untransformed)[0], 1.0, 1e-6);
  // A config outside the space is an error naming it.
  Config bad = configs[0];
  bad[0] = ParamValue::integer(3);
  llvm::Expected<std::vector<double>> failed =
      model->predict(program.tree, program.space, {configs[0], bad});
  ASSERT_FALSE(bool(failed));
  EXPECT_EQ(llvm::toString(failed.takeError()).rfind("config 1: ", 0), 0u);

  // A predictor made once for the program gives the same predictions, batch
  // after batch, and the same errors.
  llvm::Expected<CostModel::ProgramPredictor> predictor =
      model->forProgram(program.tree, program.space);
  ASSERT_TRUE(bool(predictor)) << llvm::toString(predictor.takeError());
  for (int round = 0; round < 2; ++round) {
    llvm::Expected<std::vector<double>> again = predictor->predict(configs);
    ASSERT_TRUE(bool(again));
    EXPECT_EQ(*again, *all);
  }
  failed = predictor->predict({configs[0], bad});
  ASSERT_FALSE(bool(failed));
  EXPECT_EQ(llvm::toString(failed.takeError()).rfind("config 1: ", 0), 0u);
}

TEST_F(ModelFileTest, RepresentationIsWhatTheLastLayerSees) {
  // The predicted log speedup is the sum of each network's part of the
  // representation (its last layer's terms), averaged over the networks
  // (the bias cancels in the difference to the untransformed schedule).
  const ProgramRecord &program = dataset->programs[0];
  std::vector<Config> configs = sampledConfigs(*dataset, program.id);
  configs.push_back(program.space.defaultConfig());
  llvm::Expected<CostModel::ProgramPredictor> predictor =
      model->forProgram(program.tree, program.space);
  ASSERT_TRUE(bool(predictor)) << llvm::toString(predictor.takeError());
  llvm::Expected<std::vector<double>> predicted = predictor->predict(configs);
  ASSERT_TRUE(bool(predicted));
  llvm::Expected<std::vector<std::vector<float>>> represented =
      predictor->represent(configs);
  ASSERT_TRUE(bool(represented)) << llvm::toString(represented.takeError());
  ASSERT_EQ(represented->size(), configs.size());
  const auto &networks = model->getImpl().networks;
  for (size_t i = 0; i < configs.size(); ++i) {
    double logSpeedup = 0;
    size_t offset = 0;
    for (const Network<float> &network : networks) {
      Eigen::Index width = network.lastLayerWeight().cols();
      for (Eigen::Index j = 0; j < width; ++j)
        logSpeedup += (*represented)[i][offset + j];
      offset += width;
    }
    ASSERT_EQ(offset, (*represented)[i].size());
    logSpeedup /= double(networks.size());
    EXPECT_NEAR(logSpeedup, std::log((*predicted)[i]), 1e-4) << i;
  }
  // The untransformed schedule is the origin.
  for (float v : represented->back())
    EXPECT_EQ(v, 0.0f);
  // A config outside the space is an error naming it.
  Config bad = configs[0];
  bad[0] = ParamValue::integer(3);
  llvm::Expected<std::vector<std::vector<float>>> failed =
      predictor->represent({configs[0], bad});
  ASSERT_FALSE(bool(failed));
  EXPECT_EQ(llvm::toString(failed.takeError()).rfind("config 1: ", 0), 0u);
}

TEST_F(ModelFileTest, MissingModelIsNoModel) {
  llvm::Expected<std::optional<CostModel>> none =
      CostModel::loadIfExists(path("absent.json"));
  ASSERT_TRUE(bool(none)) << llvm::toString(none.takeError());
  EXPECT_FALSE(none->has_value());
  std::string file = path("model.json");
  ASSERT_FALSE(bool(model->save(file)));
  llvm::Expected<std::optional<CostModel>> some = CostModel::loadIfExists(file);
  ASSERT_TRUE(bool(some));
  EXPECT_TRUE(some->has_value());
  // load() insists.
  EXPECT_NE(loadError(path("absent.json")).find("cannot read"),
            std::string::npos);
}

TEST_F(ModelFileTest, TruncatedFile) {
  std::string file = path("model.json");
  ASSERT_FALSE(bool(model->save(file)));
  {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> text =
        llvm::MemoryBuffer::getFile(file);
    ASSERT_TRUE(bool(text));
    std::string half =
        (*text)->getBuffer().take_front((*text)->getBufferSize() / 2).str();
    std::error_code ec;
    llvm::raw_fd_ostream os(file, ec);
    ASSERT_FALSE(ec);
    os << half;
  }
  std::string message = loadError(file);
  EXPECT_NE(message.find("model.json: invalid JSON"), std::string::npos)
      << message;
  // A file that exists but is broken is an error for loadIfExists too.
  llvm::Expected<std::optional<CostModel>> broken =
      CostModel::loadIfExists(file);
  ASSERT_FALSE(bool(broken));
  llvm::consumeError(broken.takeError());
}

TEST_F(ModelFileTest, WrongVersion) {
  std::string file =
      write("v1.json", [](llvm::json::Object &o) { o["version"] = 1; });
  EXPECT_EQ(loadError(file), file + ": model file version 1 is not supported "
                                    "(this build reads versions 2 to 4)");
}

/// The weights of one parameter object as JSON numbers ("values"), as
/// format 3 wrote them, instead of base64 float32 ("data").
static void dataToNumbers(llvm::json::Object &parameter) {
  std::vector<char> bytes;
  llvm::cantFail(
      llvm::decodeBase64(*parameter.getString("data"), bytes));
  llvm::json::Array values;
  for (size_t i = 0; i < bytes.size(); i += 4)
    values.push_back(double(llvm::bit_cast<float>(
        llvm::support::endian::read32le(&bytes[i]))));
  parameter.erase("data");
  parameter["values"] = std::move(values);
}

/// The model in the layout of format version 3: weights as JSON numbers.
static void toVersion3(llvm::json::Object &o) {
  o["version"] = 3;
  for (llvm::json::Value &member : *o.getArray("members"))
    for (llvm::json::Value &parameter :
         *member.getAsObject()->getArray("parameters"))
      dataToNumbers(*parameter.getAsObject());
}

/// The model in the layout of format version 2: one network's fields and
/// epochs at the top level.
static void toVersion2(llvm::json::Object &o) {
  toVersion3(o);
  o["version"] = 2;
  llvm::json::Object network =
      std::move(*(*o.getArray("members"))[0].getAsObject());
  o.erase("members");
  for (auto &[key, value] : network)
    o[key] = std::move(value);
  llvm::json::Object &training = *o.getObject("training");
  llvm::json::Object member =
      std::move(*(*training.getArray("members"))[0].getAsObject());
  training.erase("members");
  training["epochs_run"] = std::move(*member.get("epochs_run"));
  training["best_epoch"] = std::move(*member.get("best_epoch"));
}

TEST_F(ModelFileTest, ReadsVersion3) {
  std::string file = write("v3.json", toVersion3);
  llvm::Expected<CostModel> loaded = CostModel::load(file);
  ASSERT_TRUE(bool(loaded)) << llvm::toString(loaded.takeError());
  expectSamePredictions(*loaded);
  // Written again, it is format 4 with the same weights.
  EXPECT_EQ(loaded->toJSON(), model->toJSON());
}

TEST_F(ModelFileTest, ReadsVersion2) {
  std::string file = write("v2.json", toVersion2);
  llvm::Expected<CostModel> loaded = CostModel::load(file);
  ASSERT_TRUE(bool(loaded)) << llvm::toString(loaded.takeError());
  EXPECT_EQ(loaded->ensembleSize(), 1u);
  EXPECT_EQ(loaded->getTraining().members.front().epochsRun, 2u);
  expectSamePredictions(*loaded);
  // Its errors name no network.
  std::string corrupt = write("v2-corrupt.json", [](llvm::json::Object &o) {
    toVersion2(o);
    o.erase("input_normalization");
  });
  EXPECT_EQ(loadError(corrupt).find(corrupt +
                                    ": 'input_normalization' must hold"),
            0u)
      << loadError(corrupt);
}

TEST_F(ModelFileTest, NetworksAndTheirSummaryAgree) {
  std::string none = write("no-members.json", [](llvm::json::Object &o) {
    o["members"] = llvm::json::Array{};
  });
  EXPECT_EQ(loadError(none),
            none + ": missing non-empty array field 'members' (the networks)");
  std::string extra = write("extra.json", [](llvm::json::Object &o) {
    llvm::json::Array &members = *o.getArray("members");
    members.push_back(members[0]);
  });
  EXPECT_EQ(loadError(extra), extra + ": the training summary describes 1 "
                                      "networks but the file holds 2");
  // In an ensemble, errors name the network.
  std::string second = write("second.json", [](llvm::json::Object &o) {
    toVersion3(o);
    llvm::json::Array &members = *o.getArray("members");
    members.push_back(members[0]);
    llvm::json::Object &last = *(*members[1].getAsObject()->getArray(
                                      "parameters"))
                                    .back()
                                    .getAsObject();
    (*last.getArray("values"))[0] = "x";
    llvm::json::Array &summaries =
        *o.getObject("training")->getArray("members");
    summaries.push_back(summaries[0]);
  });
  EXPECT_EQ(loadError(second), second + ": network 2 of 2: parameter "
                                        "'regression.1.bias': value 0 is not "
                                        "a finite number");
}

TEST_F(ModelFileTest, BadInputNormalization) {
  std::string missing = write("no-normalization.json", [](llvm::json::Object &o) {
    (*o.getArray("members"))[0].getAsObject()->erase("input_normalization");
  });
  EXPECT_NE(loadError(missing).find("'input_normalization' "
                                    "must hold arrays 'mean' and 'scale' of"),
            std::string::npos)
      << loadError(missing);
  std::string zero = write("zero-scale.json", [](llvm::json::Object &o) {
    (*(*o.getArray("members"))[0]
          .getAsObject()
          ->getObject("input_normalization")
          ->getArray("scale"))[3] = 0.0;
  });
  EXPECT_EQ(loadError(zero),
            zero + ": input_normalization, feature 3: the mean must be a "
                   "finite number and the scale a positive one");
}

TEST_F(ModelFileTest, NotAModel) {
  std::string file =
      write("other.json", [](llvm::json::Object &o) { o.erase("format"); });
  EXPECT_EQ(loadError(file), file + ": not a tuner cost model (no \"format\": "
                                    "\"tuner-cost-model\")");
}

TEST_F(ModelFileTest, FeatureLayoutMismatch) {
  std::string file = write("layout.json", [](llvm::json::Object &o) {
    (*o.getObject("features"))["layout"] = "0123456789abcdef";
    (*o.getObject("features"))["count"] = 500;
  });
  EXPECT_EQ(loadError(file),
            file +
                ": the model was trained with feature layout "
                "0123456789abcdef (500 features per computation) but this "
                "build uses layout " +
                featureLayoutHash() + " (" +
                std::to_string(features::kNumFeatures) +
                " features): retrain the model with this build's tuner-train");
}

TEST_F(ModelFileTest, CorruptWeights) {
  auto parameter = [](llvm::json::Object &o, bool last) -> llvm::json::Object & {
    llvm::json::Array &parameters =
        *(*o.getArray("members"))[0].getAsObject()->getArray("parameters");
    return *(last ? parameters.back() : parameters.front()).getAsObject();
  };
  std::string matrix = "'computation.0.weight' is not a 6x" +
                       std::to_string(features::kNumFeatures) +
                       " matrix as the shape says";
  // Format 4: base64 float32.
  std::string file = write("short.json", [&](llvm::json::Object &o) {
    llvm::json::Object &first = parameter(o, false);
    std::string data = first.getString("data")->str();
    first["data"] = data.substr(0, data.size() - 8);
  });
  EXPECT_EQ(loadError(file), file + ": parameter " + matrix);
  file = write("base64.json", [&](llvm::json::Object &o) {
    parameter(o, false)["data"] = "not base64!";
  });
  EXPECT_EQ(loadError(file).rfind(file + ": parameter 'computation.0.weight': "
                                         "its data is not base64 (",
                                  0),
            0u)
      << loadError(file);
  file = write("nan-data.json", [&](llvm::json::Object &o) {
    llvm::json::Object &last = parameter(o, true);
    std::vector<char> bytes;
    llvm::cantFail(llvm::decodeBase64(*last.getString("data"), bytes));
    llvm::support::endian::write32le(
        bytes.data(), llvm::bit_cast<uint32_t>(std::nanf("")));
    last["data"] = llvm::encodeBase64(bytes);
  });
  EXPECT_EQ(loadError(file), file + ": parameter 'regression.1.bias': value 0 "
                                    "is not a finite number");
  // Format 3: JSON numbers.
  file = write("weights.json", [&](llvm::json::Object &o) {
    toVersion3(o);
    parameter(o, false).getArray("values")->pop_back();
  });
  EXPECT_EQ(loadError(file), file + ": parameter " + matrix);
  file = write("nan.json", [&](llvm::json::Object &o) {
    toVersion3(o);
    (*parameter(o, true).getArray("values"))[0] = "x";
  });
  EXPECT_EQ(loadError(file), file + ": parameter "
                                    "'regression.1.bias': value 0 "
                                    "is not a finite number");
  file = write("shape.json", [](llvm::json::Object &o) {
    (*o.getObject("shape"))["embedding"] = 5;
  });
  EXPECT_EQ(loadError(file), file + ": parameter "
                                    "'computation.1.weight' is "
                                    "not a 5x6 matrix as the shape says");
}

} // namespace
