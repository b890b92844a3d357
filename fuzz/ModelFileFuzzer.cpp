//===- ModelFileFuzzer.cpp - libFuzzer target: cost model files -----------===//
//
// Two kinds of input:
//  - JSON: a model file, networks (format versions 2 to 4) or
//    gradient-boosted trees;
//  - anything else: the booster of a tree model file (XGBoost's UBJSON),
//    which the target wraps into a tree model file with a matching checksum,
//    as a crafted file would carry. Mutating the booster's bytes, rather
//    than base64 inside JSON behind a 64-bit checksum, is what reaches the
//    booster check and XGBoost behind it.
// A read either fails with an error or gives a model that writes back to
// JSON that reads again and, for a booster, predicts speedups that are not
// NaN.
//
//===----------------------------------------------------------------------===//

#include "FuzzSpace.h"

#include "tuner/CostModel/CostModel.h"
#include "tuner/CostModel/GradientBoostedTrees.h"

#include "llvm/Support/Base64.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/xxhash.h"

#include <cmath>
#include <cstddef>
#include <cstdint>

using namespace tuner;
namespace json = llvm::json;

/// A tree model file around `booster`, with `rounds` trees kept.
static json::Value treeModelFile(llvm::StringRef booster, unsigned rounds) {
  TreeTrainingSummary training;
  training.metric = "rmse";
  training.roundsRun = training.bestRound = rounds;
  training.xgboostVersion = "1.7.4";
  return json::Object{
      {"format", "tuner-tree-model"},
      {"version", 1},
      {"features",
       json::Object{{"layout", featureLayoutHash()},
                    {"count", int64_t(features::kNumFeatures)},
                    {"flat_layout", flatLayoutHash()},
                    {"flat_count", int64_t(flat::kNumFlatFeatures)}}},
      {"target", "fuzz"},
      {"training", training.toJSON()},
      {"dataset", DatasetSummary().toJSON()},
      {"booster",
       json::Object{
           {"encoding", "ubj"},
           {"xgboost_version", "1.7.4"},
           {"rounds", int64_t(rounds)},
           {"checksum",
            llvm::formatv("{0:x-16}", llvm::xxh3_64bits(booster)).str()},
           {"data", llvm::encodeBase64(booster)}}}};
}

/// One program of one computation in one loop, with feature values drawn
/// from `seed`: its untransformed schedule and another.
static std::pair<ProgramFeatures, ProgramFeatures> program(uint64_t seed) {
  ProgramFeatures features;
  features.tree.nodes.resize(2);
  features.tree.nodes[0].loopId = 0;
  features.tree.nodes[0].computations = {0};
  features.tree.nodes[1].loops = {0};
  features.tree.numComputations = 1;
  features.values.resize(features::kNumFeatures);
  for (float &value : features.values) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    value = float(seed >> 40) / float(1 << 20);
  }
  ProgramFeatures other = features;
  for (float &value : other.values)
    value *= 2;
  return {features, other};
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::Expected<json::Value> json = json::parse(text);
  bool booster = !json;
  if (booster) {
    llvm::consumeError(json.takeError());
    // The check alone first: the file's other fields need the tree count.
    llvm::Expected<unsigned> trees = checkTreeBooster(text);
    if (!trees) {
      llvm::consumeError(trees.takeError());
      return 0;
    }
    json = treeModelFile(text, *trees);
  }
  llvm::Expected<CostModel> model = CostModel::fromJSON(*json, "fuzz");
  if (!model) {
    llvm::consumeError(model.takeError());
    return 0;
  }
  llvm::Expected<CostModel> again =
      CostModel::fromJSON(model->toJSON(), "fuzz");
  if (!again)
    fuzz::propertyFailed("a model read does not read back: " +
                         llvm::toString(again.takeError()));
  if (booster) {
    auto [reference, schedule] = program(llvm::xxh3_64bits(text));
    for (double speedup : model->predict(reference, {reference, schedule}))
      if (std::isnan(speedup))
        fuzz::propertyFailed("a checked booster predicts NaN");
  }
  return 0;
}
