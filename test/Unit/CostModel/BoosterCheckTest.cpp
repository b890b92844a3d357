//===- BoosterCheckTest.cpp - Crafted tree-model boosters -----------------===//
//
// A tree model file's booster is checked before XGBoost reads it
// (BoosterCheck.h). Each test crafts one kind of damage into a trained
// booster, re-encodes it the way XGBoost writes UBJSON and gives it a
// matching checksum, as an attacker would: each is refused with the tree
// and node at fault. The damage the tests below describe as crashing XGBoost
// 1.7.4 was run through XGBoost without the check (see README, "Tree model
// files are checked").
//
//===----------------------------------------------------------------------===//

#include "BoosterCheck.h"

#include "tuner/CostModel/GradientBoostedTrees.h"

#include "TestPrograms.h"

#include "llvm/Support/Base64.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>

using namespace tuner;
using namespace tuner::test;
namespace json = llvm::json;

namespace {

/// Writes `value` as XGBoost 1.7 writes UBJSON: the per-node arrays of a
/// tree typed (float32, int32, int64 or uint8, by their key, as
/// RegTree::SaveModel types them), other arrays and all lengths counted
/// with int64, integers in the narrowest type, other numbers as float32.
class Encoder {
public:
  std::string encode(const json::Value &value) {
    out.clear();
    write(value, "");
    return out;
  }

private:
  void bigEndian(uint64_t bits, unsigned size) {
    for (unsigned i = size; i-- > 0;)
      out.push_back(char((bits >> (8 * i)) & 0xff));
  }
  void length(uint64_t n) {
    out.push_back('L');
    bigEndian(n, 8);
  }
  void float32(double value) {
    float f = float(value);
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof(bits));
    bigEndian(bits, 4);
  }
  static char typedElement(llvm::StringRef key) {
    if (llvm::is_contained(
            {"base_weights", "loss_changes", "split_conditions", "sum_hessian"},
            key))
      return 'd';
    if (llvm::is_contained({"left_children", "right_children", "parents",
                            "split_indices", "categories", "categories_nodes"},
                           key))
      return 'l';
    if (llvm::is_contained({"categories_segments", "categories_sizes"}, key))
      return 'L';
    if (llvm::is_contained({"default_left", "split_type"}, key))
      return 'U';
    return 0;
  }
  void write(const json::Value &value, llvm::StringRef key) {
    if (const json::Object *object = value.getAsObject()) {
      out.push_back('{');
      std::vector<std::string> keys;
      for (const auto &[k, v] : *object)
        keys.push_back(std::string(llvm::StringRef(k)));
      llvm::sort(keys);
      for (const std::string &k : keys) {
        length(k.size());
        out += k;
        write(*object->get(k), k);
      }
      out.push_back('}');
      return;
    }
    if (const json::Array *array = value.getAsArray()) {
      out.push_back('[');
      if (char type = typedElement(key)) {
        out.push_back('$');
        out.push_back(type);
        out.push_back('#');
        length(array->size());
        for (const json::Value &element : *array) {
          if (type == 'd')
            float32(*element.getAsNumber());
          else
            bigEndian(uint64_t(*element.getAsInteger()), type == 'U'   ? 1
                                                         : type == 'l' ? 4
                                                                       : 8);
        }
        return;
      }
      out.push_back('#');
      length(array->size());
      for (const json::Value &element : *array)
        write(element, "");
      return;
    }
    if (std::optional<llvm::StringRef> text = value.getAsString()) {
      out.push_back('S');
      length(text->size());
      out += *text;
      return;
    }
    if (std::optional<bool> flag = value.getAsBoolean()) {
      out.push_back(*flag ? 'T' : 'F');
      return;
    }
    if (value.getAsNull()) {
      out.push_back('Z');
      return;
    }
    // XGBoost writes no floats outside the typed arrays.
    if (std::optional<int64_t> integer = value.getAsInteger()) {
      int64_t v = *integer;
      if (v >= INT8_MIN && v <= INT8_MAX) {
        out.push_back('i');
        bigEndian(uint64_t(v), 1);
      } else if (v >= INT16_MIN && v <= INT16_MAX) {
        out.push_back('I');
        bigEndian(uint64_t(v), 2);
      } else if (v >= INT32_MIN && v <= INT32_MAX) {
        out.push_back('l');
        bigEndian(uint64_t(v), 4);
      } else {
        out.push_back('L');
        bigEndian(uint64_t(v), 8);
      }
      return;
    }
    out.push_back('d');
    float32(*value.getAsNumber());
  }

  std::string out;
};

class BoosterCheckTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    Dataset dataset = syntheticDataset(6, 12, 2);
    TreeTrainingOptions options;
    options.rounds = 4;
    options.patience = 4;
    options.learningRate = 0.3;
    options.maxDepth = 3;
    options.subsample = 1;
    options.columnSample = 1;
    llvm::Expected<CostModel> trained = trainGradientBoostedTrees(
        dataset, "synthetic", options, [](const TreeRoundReport &) {});
    ASSERT_TRUE(bool(trained)) << llvm::toString(trained.takeError());
    file = new json::Value(trained->toJSON());
    std::vector<char> data;
    ASSERT_FALSE(bool(llvm::decodeBase64(
        *file->getAsObject()->getObject("booster")->getString("data"), data)));
    bytes = new std::string(data.begin(), data.end());
  }
  static void TearDownTestSuite() {
    delete file;
    delete bytes;
  }

  /// The trained booster, decoded.
  json::Value decoded() const {
    llvm::Expected<json::Value> value = booster::decodeUBJSON(*bytes);
    EXPECT_TRUE(bool(value)) << llvm::toString(value.takeError());
    return value ? std::move(*value) : json::Value(nullptr);
  }

  static json::Object &learner(json::Value &booster) {
    return *booster.getAsObject()->getObject("learner");
  }
  static json::Object &tree(json::Value &booster, unsigned i) {
    json::Object &model =
        *learner(booster).getObject("gradient_booster")->getObject("model");
    return *(*model.getArray("trees"))[i].getAsObject();
  }
  static json::Array &nodes(json::Value &booster, unsigned i,
                            llvm::StringRef key) {
    return *tree(booster, i).getArray(key);
  }
  /// The first split node of tree `i` (one whose children are leaves).
  static size_t lowestSplit(json::Value &booster, unsigned i) {
    json::Array &lefts = nodes(booster, i, "left_children");
    for (size_t node = 0; node < lefts.size(); ++node) {
      int64_t left = *lefts[node].getAsInteger();
      if (left != -1 &&
          *nodes(booster, i, "left_children")[left].getAsInteger() == -1 &&
          *nodes(booster, i, "left_children")[left + 1].getAsInteger() == -1)
        return node;
    }
    ADD_FAILURE() << "tree " << i << " has no split";
    return 0;
  }

  /// The checker's verdict on `booster` (encoded as XGBoost writes it): ""
  /// when it passes.
  static std::string check(const json::Value &booster) {
    return checkBytes(Encoder().encode(booster));
  }
  static std::string checkBytes(llvm::StringRef data) {
    llvm::Expected<unsigned> trees = checkTreeBooster(data);
    return trees ? "" : llvm::toString(trees.takeError());
  }

  /// Loads a model file whose booster is `data` with a matching checksum:
  /// the error, or "".
  static std::string loadWithBooster(llvm::StringRef data) {
    json::Value edited = *file;
    json::Object &booster = *edited.getAsObject()->getObject("booster");
    booster["data"] = llvm::encodeBase64(data);
    booster["checksum"] =
        llvm::formatv("{0:x-16}", llvm::xxh3_64bits(data)).str();
    llvm::Expected<CostModel> model = CostModel::fromJSON(edited, "crafted");
    return model ? "" : llvm::toString(model.takeError());
  }

  static json::Value *file;
  static std::string *bytes;
};
json::Value *BoosterCheckTest::file = nullptr;
std::string *BoosterCheckTest::bytes = nullptr;

bool contains(llvm::StringRef text, llvm::StringRef part) {
  return text.contains(part);
}

/// The bytes of a string literal, NULs included.
template <size_t N> std::string raw(const char (&literal)[N]) {
  return std::string(literal, N - 1);
}

TEST_F(BoosterCheckTest, AcceptsWhatXGBoostWroteAndEncodesItBack) {
  json::Value booster = decoded();
  EXPECT_EQ(checkBytes(*bytes), "");
  llvm::Expected<unsigned> trees = checkTreeBooster(*bytes);
  ASSERT_TRUE(bool(trees));
  llvm::Expected<CostModel> model = CostModel::fromJSON(*file, "trained");
  ASSERT_TRUE(bool(model)) << llvm::toString(model.takeError());
  EXPECT_EQ(*trees, treeTrainingSummary(*model)->bestRound);
  // The test's encoder writes what XGBoost wrote, byte for byte: the crafted
  // boosters below differ from a real one only where the test edits them.
  EXPECT_EQ(Encoder().encode(booster), *bytes);
  EXPECT_EQ(loadWithBooster(*bytes), "");
}

// XGBoost trusts the child indices: its predictor indexes the node array
// with them (a read far out of bounds: a segfault).
TEST_F(BoosterCheckTest, RefusesChildrenOutOfRange) {
  json::Value booster = decoded();
  nodes(booster, 0, "left_children")[0] = 1000000;
  nodes(booster, 0, "right_children")[0] = 1000001;
  std::string message = check(booster);
  EXPECT_TRUE(contains(message, "tree 0, node 0: its children 1000000 and "
                                "1000001 are not two adjacent nodes in [1, "))
      << message;
  std::string loaded = loadWithBooster(Encoder().encode(booster));
  EXPECT_EQ(loaded.rfind("crafted: booster: tree 0, node 0: its children", 0),
            0u)
      << loaded;
}

// The predictor steps to left + 1 for "not less than": a right child
// elsewhere is silently ignored by XGBoost, and left + 1 may be the end of
// the array.
TEST_F(BoosterCheckTest, RefusesARightChildNotNextToTheLeft) {
  json::Value booster = decoded();
  size_t split = lowestSplit(booster, 1);
  int64_t left = *nodes(booster, 1, "left_children")[split].getAsInteger();
  nodes(booster, 1, "right_children")[split] = left + 2;
  std::string message = check(booster);
  EXPECT_TRUE(contains(message, llvm::formatv("tree 1, node {0}: its children "
                                              "{1} and {2} are not two "
                                              "adjacent",
                                              split, left, left + 2)
                                    .str()))
      << message;
}

// XGBoost's loader reads the parent of every node to set its "is a left
// child" bit: a parent out of range is a read out of bounds.
TEST_F(BoosterCheckTest, RefusesAParentOutOfRange) {
  json::Value booster = decoded();
  nodes(booster, 0, "parents")[1] = 1000000;
  std::string message = check(booster);
  EXPECT_TRUE(contains(message, "tree 0, node 1: its parent entry is 1000000 "
                                "but node 0 splits into it"))
      << message;
}

// The predictor indexes the input row with the split feature (a read out of
// bounds, or past the row into the next one).
TEST_F(BoosterCheckTest, RefusesASplitFeatureBeyondTheLayout) {
  json::Value booster = decoded();
  nodes(booster, 0, "split_indices")[0] = 50000000;
  std::string message = check(booster);
  EXPECT_TRUE(contains(message, "tree 0, node 0: split_indices is not an "
                                "integer in [0, 3941] (split features index "
                                "the flat layout's 3942 features)"))
      << message;
}

// A child that leads back up: XGBoost's predictor loops forever.
TEST_F(BoosterCheckTest, RefusesCycles) {
  json::Value booster = decoded();
  size_t split = lowestSplit(booster, 0);
  ASSERT_NE(split, 0u) << "the first tree should be deeper than one split";
  // Its children become the root's children: reached twice.
  nodes(booster, 0, "left_children")[split] = 1;
  nodes(booster, 0, "right_children")[split] = 2;
  std::string message = check(booster);
  EXPECT_TRUE(contains(message, "is reached twice (a cycle or a shared node)"))
      << message;
  // And a split into the root itself.
  booster = decoded();
  nodes(booster, 0, "left_children")[1] = 0;
  nodes(booster, 0, "right_children")[1] = 1;
  message = check(booster);
  EXPECT_TRUE(contains(message, "tree 0, node 1: its children 0 and 1 are "
                                "not two adjacent nodes in [1, "))
      << message;
}

TEST_F(BoosterCheckTest, RefusesUnreachableNodesAndHalfLeaves) {
  json::Value booster = decoded();
  size_t split = lowestSplit(booster, 0);
  // The split becomes a leaf: its old children are unreachable.
  nodes(booster, 0, "left_children")[split] = -1;
  std::string message = check(booster);
  EXPECT_TRUE(contains(message, llvm::formatv("tree 0, node {0}: its children "
                                              "are -1 and ",
                                              split)
                                    .str()))
      << message;
  nodes(booster, 0, "right_children")[split] = -1;
  message = check(booster);
  EXPECT_TRUE(contains(message, "no split leads to it (2 of the ")) << message;
}

// XGBoost 1.7 checks the lengths of most per-node arrays but not of
// split_type, which it then reads for every node (out of bounds).
TEST_F(BoosterCheckTest, RefusesArraysOfTheWrongLength) {
  json::Value booster = decoded();
  size_t n = nodes(booster, 0, "split_type").size();
  json::Array &types = nodes(booster, 0, "split_type");
  while (types.size() > 1)
    types.pop_back();
  std::string message = check(booster);
  EXPECT_EQ(message, llvm::formatv("tree 0: split_type has 1 entries but the "
                                   "tree has {0} nodes",
                                   n)
                         .str());
  booster = decoded();
  nodes(booster, 2, "sum_hessian").push_back(1.0);
  message = check(booster);
  EXPECT_TRUE(contains(message, "tree 2: sum_hessian has")) << message;
}

// Counts that the bytes cannot hold: XGBoost allocates what the count says
// (terabytes) before reading; the decoder refuses before allocating.
TEST_F(BoosterCheckTest, RefusesAbsurdSizes) {
  std::string data = *bytes;
  size_t at = data.find("left_children[$l#L");
  ASSERT_NE(at, std::string::npos);
  at += std::strlen("left_children[$l#L");
  for (unsigned i = 0; i < 8; ++i)
    data[at + i] = char(i == 2 ? 0x10 : 0); // 2^44 entries
  std::string message = checkBytes(data);
  EXPECT_TRUE(contains(message, "the typed array's count 17592186044416 "
                                "exceeds what the"))
      << message;
  // A node count beyond the bound, and more trees than the booster holds.
  json::Value booster = decoded();
  (*tree(booster, 0).getObject("tree_param"))["num_nodes"] = "2000000000";
  message = check(booster);
  EXPECT_TRUE(contains(message, "tree 0: tree_param.num_nodes: 2000000000 is "
                                "outside [1, 1048576]"))
      << message;
  booster = decoded();
  (*learner(booster)
        .getObject("gradient_booster")
        ->getObject("model")
        ->getObject("gbtree_model_param"))["num_trees"] = "99";
  message = check(booster);
  EXPECT_TRUE(contains(message, "num_trees is 99 but it holds")) << message;
  // Nesting deeper than the decoder allows.
  std::string deep(100000, '[');
  message = checkBytes(deep);
  EXPECT_TRUE(contains(message, "containers nest deeper than 32 levels"))
      << message;
  // A string longer than the bytes left.
  message = checkBytes(raw("{L\0\0\0\0\0\0\0\x7f"));
  EXPECT_TRUE(contains(message, "the key length 127 exceeds")) << message;
}

// NaN or infinite values: XGBoost predicts NaN, which the search cannot
// rank (a NaN in a sort is undefined behaviour).
TEST_F(BoosterCheckTest, RefusesNonFiniteValues) {
  json::Value booster = decoded();
  json::Array &lefts = nodes(booster, 0, "left_children");
  size_t leaf = 0;
  while (*lefts[leaf].getAsInteger() != -1)
    ++leaf;
  nodes(booster, 0, "split_conditions")[leaf] =
      std::numeric_limits<double>::quiet_NaN();
  std::string message = check(booster);
  EXPECT_EQ(message, llvm::formatv("tree 0, node {0}: split_conditions is not "
                                   "a finite float",
                                   leaf)
                         .str());
  booster = decoded();
  nodes(booster, 1, "base_weights")[0] = 1e39; // finite as double, not float
  message = check(booster);
  EXPECT_EQ(message, "tree 1, node 0: base_weights is not a finite float");
  booster = decoded();
  (*learner(booster).getObject("learner_model_param"))["base_score"] = "nan";
  message = check(booster);
  EXPECT_TRUE(contains(message, "learner.learner_model_param.base_score: "
                                "expected a finite decimal number"))
      << message;
  booster = decoded();
  nodes(booster, 0, "split_conditions")[leaf] = 1e35;
  message = check(booster);
  EXPECT_TRUE(contains(message, "its leaf value 1e+35 is larger than 1e+30"))
      << message;
}

// The width XGBoost is told the rows have must be the flat layout's.
TEST_F(BoosterCheckTest, RefusesAnotherFeatureCount) {
  json::Value booster = decoded();
  (*learner(booster).getObject("learner_model_param"))["num_feature"] = "3";
  EXPECT_EQ(check(booster), "learner.learner_model_param.num_feature: the "
                            "booster reads 3 features but the flat layout "
                            "has 3942");
  booster = decoded();
  (*tree(booster, 1).getObject("tree_param"))["num_feature"] = "3943";
  EXPECT_EQ(check(booster), "tree 1: tree_param.num_feature: the tree reads "
                            "3943 features but the flat layout has 3942");
}

// A tree's output group indexes the prediction's columns: XGBoost writes
// the tree's leaf there (out of bounds for any group but 0).
TEST_F(BoosterCheckTest, RefusesAnOutputGroupBeyondTheOutput) {
  json::Value booster = decoded();
  json::Object &model =
      *learner(booster).getObject("gradient_booster")->getObject("model");
  (*model.getArray("tree_info"))[1] = 5;
  EXPECT_EQ(check(booster), "tree 1: its output group (tree_info) is not 0, "
                            "and the booster has one output");
}

// Only the shape the tuner trains: other objectives, boosters, categorical
// splits, fields XGBoost would read that the checker does not know.
TEST_F(BoosterCheckTest, RefusesKindsTheTunerDoesNotTrain) {
  json::Value booster = decoded();
  (*learner(booster).getObject("objective"))["name"] = "multi:softprob";
  EXPECT_TRUE(contains(check(booster), "unsupported objective "
                                       "'multi:softprob'"));
  booster = decoded();
  (*learner(booster).getObject("gradient_booster"))["name"] = "dart";
  EXPECT_TRUE(contains(check(booster), "expected 'gbtree', got 'dart'"));
  booster = decoded();
  nodes(booster, 0, "split_type")[0] = 1;
  EXPECT_TRUE(contains(check(booster), "tree 0, node 0: split_type is not an "
                                       "integer in [0, 0]"));
  booster = decoded();
  tree(booster, 0)["extra"] = 1;
  EXPECT_EQ(check(booster), "tree 0: unexpected field 'extra' (not in the "
                            "boosters the tuner trains)");
  booster = decoded();
  (*booster.getAsObject())["version"] = json::Array{2, 0, 3};
  EXPECT_TRUE(contains(check(booster), "written by XGBoost 2.0"));
}

TEST_F(BoosterCheckTest, DecoderRefusesMalformedUBJSON) {
  EXPECT_TRUE(contains(checkBytes(""), "UBJSON at byte 0: the data ends"));
  EXPECT_TRUE(contains(checkBytes(*bytes + "Z"), "1 bytes follow the value"));
  EXPECT_TRUE(contains(checkBytes(bytes->substr(0, bytes->size() - 1)),
                       "the data "
                       "ends"));
  EXPECT_TRUE(contains(checkBytes(raw("{L\0\0\0\0\0\0\0\x01"
                                      "aZ")),
                       "the data ends inside an object"));
  std::string twice = raw("{L\0\0\0\0\0\0\0\x01"
                          "aZL\0\0\0\0\0\0\0\x01"
                          "aZ}");
  EXPECT_TRUE(contains(checkBytes(twice), "the key 'a' appears twice"));
  EXPECT_TRUE(
      contains(checkBytes("[$i#i\x01\x05"), "unsupported element type 'i'"));
  EXPECT_TRUE(contains(checkBytes("[#i\xff"), "the array's count is negative"));
  std::string invalid = raw("{L\0\0\0\0\0\0\0\x01\xff"
                            "Z}");
  EXPECT_TRUE(contains(checkBytes(invalid), "the key is not UTF-8"));
  EXPECT_TRUE(contains(checkBytes("H"), "unsupported type marker 'H'"));
}

} // namespace
