//===- BoosterCheck.cpp - Checking an XGBoost booster before XGBoost ------===//
//
// See BoosterCheck.h. The decoder and the checker share nothing with
// XGBoost: they are the tuner's own reading of the bytes, and XGBoost gets
// the bytes only after both agree that they hold one of the boosters the
// tuner trains.
//
//===----------------------------------------------------------------------===//

#include "BoosterCheck.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

using namespace tuner;
using namespace tuner::booster;
namespace json = llvm::json;

static llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

//===----------------------------------------------------------------------===//
// UBJSON
//===----------------------------------------------------------------------===//

namespace {
class UBJSONDecoder {
public:
  explicit UBJSONDecoder(llvm::StringRef bytes) : bytes(bytes) {}

  llvm::Expected<json::Value> decode() {
    llvm::Expected<json::Value> value = readValue(0);
    if (!value)
      return value.takeError();
    if (pos != bytes.size())
      return fail(
          llvm::formatv("{0} bytes follow the value", bytes.size() - pos));
    return value;
  }

private:
  llvm::Error fail(const llvm::Twine &message) const {
    return error("UBJSON at byte " + llvm::Twine(pos) + ": " + message);
  }

  size_t left() const { return bytes.size() - pos; }

  llvm::Expected<char> readMarker() {
    if (left() == 0)
      return fail("the data ends where a type marker was expected");
    return bytes[pos++];
  }

  /// The size in bytes of a fixed-size value of type `marker`, or 0.
  static size_t fixedSize(char marker) {
    switch (marker) {
    case 'i':
    case 'U':
      return 1;
    case 'I':
      return 2;
    case 'l':
    case 'd':
      return 4;
    case 'L':
    case 'D':
      return 8;
    default:
      return 0;
    }
  }

  /// Reads `size` bytes as a big-endian unsigned number.
  uint64_t readBigEndian(size_t size) {
    uint64_t result = 0;
    for (size_t i = 0; i < size; ++i)
      result = (result << 8) | uint8_t(bytes[pos + i]);
    pos += size;
    return result;
  }

  /// Reads an integer of type `marker` ('i', 'U', 'I', 'l' or 'L'); the
  /// caller has checked that it is one and that its bytes are there.
  int64_t readInteger(char marker) {
    uint64_t raw = readBigEndian(fixedSize(marker));
    switch (marker) {
    case 'i':
      return int8_t(raw);
    case 'U':
      return uint8_t(raw);
    case 'I':
      return int16_t(raw);
    case 'l':
      return int32_t(raw);
    default:
      return int64_t(raw);
    }
  }

  /// Reads a float of type `marker` ('d' or 'D').
  double readFloat(char marker) {
    uint64_t raw = readBigEndian(fixedSize(marker));
    if (marker == 'd') {
      uint32_t bits = uint32_t(raw);
      float value;
      std::memcpy(&value, &bits, sizeof(value));
      return value;
    }
    double value;
    std::memcpy(&value, &raw, sizeof(value));
    return value;
  }

  static bool isInteger(char marker) {
    return marker == 'i' || marker == 'U' || marker == 'I' || marker == 'l' ||
           marker == 'L';
  }

  /// Reads a length or count (an integer with its marker) of things of
  /// `size` bytes each, which the bytes after it must hold.
  llvm::Expected<uint64_t> readLength(size_t size, llvm::StringRef what) {
    llvm::Expected<char> marker = readMarker();
    if (!marker)
      return marker.takeError();
    if (!isInteger(*marker))
      return fail(llvm::formatv("the {0} has type '{1}', not an integer", what,
                                llvm::StringRef(&*marker, 1)));
    if (left() < fixedSize(*marker))
      return fail("the data ends inside the " + what);
    int64_t length = readInteger(*marker);
    if (length < 0)
      return fail(llvm::formatv("the {0} is negative ({1})", what, length));
    if (uint64_t(length) > left() / size)
      return fail(llvm::formatv("the {0} {1} exceeds what the {2} bytes left "
                                "can hold",
                                what, length, left()));
    return uint64_t(length);
  }

  llvm::Expected<std::string> readString(llvm::StringRef what) {
    llvm::Expected<uint64_t> length = readLength(1, (what + " length").str());
    if (!length)
      return length.takeError();
    std::string text = bytes.substr(pos, *length).str();
    if (!json::isUTF8(text))
      return fail("the " + what + " is not UTF-8");
    pos += *length;
    return text;
  }

  llvm::Expected<json::Value> readValue(unsigned depth) {
    llvm::Expected<char> marker = readMarker();
    if (!marker)
      return marker.takeError();
    return readValueOf(*marker, depth);
  }

  llvm::Expected<json::Value> readValueOf(char marker, unsigned depth) {
    switch (marker) {
    case 'Z':
      return nullptr;
    case 'T':
      return true;
    case 'F':
      return false;
    case 'S': {
      llvm::Expected<std::string> text = readString("string");
      if (!text)
        return text.takeError();
      return json::Value(std::move(*text));
    }
    case '[':
    case '{':
      if (depth >= kMaxDepth)
        return fail(
            llvm::formatv("containers nest deeper than {0} levels", kMaxDepth));
      return marker == '[' ? readArray(depth + 1) : readObject(depth + 1);
    default:
      break;
    }
    size_t size = fixedSize(marker);
    if (size == 0) {
      --pos;
      return fail("unknown or unsupported type marker '" +
                  llvm::StringRef(&marker, 1) + "'");
    }
    if (left() < size)
      return fail("the data ends inside a number");
    if (isInteger(marker))
      return readInteger(marker);
    return readFloat(marker);
  }

  llvm::Expected<json::Value> readArray(unsigned depth) {
    json::Array array;
    if (left() > 0 && bytes[pos] == '$') {
      // A typed array: '$' TYPE '#' COUNT, then COUNT values of TYPE
      // without markers (the only kinds XGBoost 1.7 writes typed).
      ++pos;
      llvm::Expected<char> type = readMarker();
      if (!type)
        return type.takeError();
      if (*type != 'd' && *type != 'U' && *type != 'l' && *type != 'L')
        return fail("unsupported element type '" + llvm::StringRef(&*type, 1) +
                    "' of a typed array (expected 'd', 'U', 'l' or 'L')");
      if (left() == 0 || bytes[pos] != '#')
        return fail("a typed array without a count");
      ++pos;
      size_t size = fixedSize(*type);
      llvm::Expected<uint64_t> count = readLength(size, "typed array's count");
      if (!count)
        return count.takeError();
      array.reserve(*count);
      for (uint64_t i = 0; i < *count; ++i) {
        if (*type == 'd')
          array.push_back(readFloat(*type));
        else
          array.push_back(readInteger(*type));
      }
      return json::Value(std::move(array));
    }
    if (left() > 0 && bytes[pos] == '#') {
      ++pos;
      // Every value takes at least its marker's byte.
      llvm::Expected<uint64_t> count = readLength(1, "array's count");
      if (!count)
        return count.takeError();
      array.reserve(*count);
      for (uint64_t i = 0; i < *count; ++i) {
        llvm::Expected<json::Value> value = readValue(depth);
        if (!value)
          return value.takeError();
        array.push_back(std::move(*value));
      }
      return json::Value(std::move(array));
    }
    while (true) {
      if (left() == 0)
        return fail("the data ends inside an array");
      if (bytes[pos] == ']') {
        ++pos;
        return json::Value(std::move(array));
      }
      llvm::Expected<json::Value> value = readValue(depth);
      if (!value)
        return value.takeError();
      array.push_back(std::move(*value));
    }
  }

  llvm::Expected<json::Value> readObject(unsigned depth) {
    json::Object object;
    while (true) {
      if (left() == 0)
        return fail("the data ends inside an object");
      if (bytes[pos] == '}') {
        ++pos;
        return json::Value(std::move(object));
      }
      size_t keyAt = pos;
      llvm::Expected<std::string> key = readString("key");
      if (!key)
        return key.takeError();
      if (object.find(*key) != object.end()) {
        pos = keyAt;
        return fail("the key '" + *key + "' appears twice in one object");
      }
      llvm::Expected<json::Value> value = readValue(depth);
      if (!value)
        return value.takeError();
      object.try_emplace(std::move(*key), std::move(*value));
    }
  }

  llvm::StringRef bytes;
  size_t pos = 0;
};
} // namespace

llvm::Expected<json::Value> booster::decodeUBJSON(llvm::StringRef bytes) {
  return UBJSONDecoder(bytes).decode();
}

//===----------------------------------------------------------------------===//
// The booster's shape
//===----------------------------------------------------------------------===//

namespace {
/// Reads the booster's objects; errors name the path of the field
/// ("learner.objective.name").
class Checker {
public:
  explicit Checker(unsigned numFeatures) : numFeatures(numFeatures) {}

  llvm::Expected<unsigned> check(const json::Value &root);

private:
  /// The object at `path`, which must have exactly `keys`.
  llvm::Expected<const json::Object *>
  object(const json::Value &value, llvm::StringRef path,
         llvm::ArrayRef<llvm::StringRef> keys) const {
    const json::Object *object = value.getAsObject();
    if (!object)
      return error(path + ": expected an object");
    for (llvm::StringRef key : keys)
      if (!object->get(key))
        return error(path + ": missing field '" + key + "'");
    if (object->size() != keys.size())
      for (const auto &[key, field] : *object)
        if (!llvm::is_contained(keys, llvm::StringRef(key)))
          return error(path + ": unexpected field '" + llvm::StringRef(key) +
                       "' (not in the boosters the tuner trains)");
    return object;
  }

  llvm::Expected<llvm::StringRef> string(const json::Object &object,
                                         llvm::StringRef key,
                                         llvm::StringRef path) const {
    std::optional<llvm::StringRef> text = object.getString(key);
    if (!text)
      return error(path + "." + key + ": expected a string");
    return *text;
  }

  /// A parameter XGBoost stores as a decimal integer in a string; at most
  /// `most`.
  llvm::Expected<int64_t> integerParam(const json::Object &object,
                                       llvm::StringRef key,
                                       llvm::StringRef path, int64_t least,
                                       int64_t most) const {
    llvm::Expected<llvm::StringRef> text = string(object, key, path);
    if (!text)
      return text.takeError();
    int64_t value = 0;
    if (text->empty() || text->size() > 18 ||
        !llvm::all_of(*text, llvm::isDigit) || text->getAsInteger(10, value))
      return error(path + "." + key + ": expected a decimal integer, got '" +
                   *text + "'");
    if (value < least || value > most)
      return error(llvm::formatv("{0}.{1}: {2} is outside [{3}, {4}]", path,
                                 key, value, least, most));
    return value;
  }

  /// The `num_feature` parameter of `params`, which must be the flat
  /// layout's width; `reader` says whose it is ("booster", "tree").
  llvm::Error featureCount(const json::Object &params, llvm::StringRef path,
                           llvm::StringRef reader) const {
    llvm::Expected<int64_t> features =
        integerParam(params, "num_feature", path, 0, INT32_MAX);
    if (!features)
      return features.takeError();
    if (*features != numFeatures)
      return error(llvm::formatv("{0}.num_feature: the {1} reads {2} "
                                 "features but the flat layout has {3}",
                                 path, reader, *features, numFeatures));
    return llvm::Error::success();
  }

  /// A parameter XGBoost stores as a decimal number in a string ("0E0",
  /// "1", "0.5"); finite, of magnitude at most `most`.
  llvm::Error numberParam(const json::Object &object, llvm::StringRef key,
                          llvm::StringRef path, double most) const {
    llvm::Expected<llvm::StringRef> text = string(object, key, path);
    if (!text)
      return text.takeError();
    // Digits, a point, an exponent and signs only: what both this parser
    // and XGBoost's read the same way.
    double value = 0;
    if (text->empty() || text->size() > 40 ||
        !llvm::all_of(*text,
                      [](char c) {
                        return llvm::isDigit(c) || c == '.' || c == 'e' ||
                               c == 'E' || c == '-' || c == '+';
                      }) ||
        text->getAsDouble(value) || !std::isfinite(float(value)) ||
        std::fabs(value) > most)
      return error(path + "." + key + ": expected a finite decimal number " +
                   "of magnitude at most " +
                   llvm::formatv("{0}", llvm::format("%g", most)) + ", got '" +
                   *text + "'");
    return llvm::Error::success();
  }

  llvm::Error exactly(const json::Object &object, llvm::StringRef key,
                      llvm::StringRef path, llvm::StringRef expected) const {
    llvm::Expected<llvm::StringRef> text = string(object, key, path);
    if (!text)
      return text.takeError();
    if (*text != expected)
      return error(path + "." + key + ": expected '" + expected + "', got '" +
                   *text + "' (not in the boosters the tuner trains)");
    return llvm::Error::success();
  }

  llvm::Expected<const json::Array *> array(const json::Object &object,
                                            llvm::StringRef key,
                                            llvm::StringRef path) const {
    const json::Array *array = object.getArray(key);
    if (!array)
      return error(path + "." + key + ": expected an array");
    return array;
  }

  llvm::Error checkLearnerParams(const json::Value &value);
  llvm::Error checkObjective(const json::Value &value);
  llvm::Error checkTree(const json::Value &value, unsigned index);

  unsigned numFeatures;
};
} // namespace

llvm::Expected<unsigned> Checker::check(const json::Value &root) {
  llvm::Expected<const json::Object *> top =
      object(root, "the booster", {"learner", "version"});
  if (!top)
    return top.takeError();
  const json::Array *version = (*top)->getArray("version");
  std::optional<int64_t> major, minor;
  if (version && version->size() == 3 && (*version)[2].getAsInteger()) {
    major = (*version)[0].getAsInteger();
    minor = (*version)[1].getAsInteger();
  }
  if (!major || !minor)
    return error("version: expected an array of three integers");
  if (*major != 1 || *minor != 7)
    return error(llvm::formatv("version: the booster was written by XGBoost "
                               "{0}.{1}, and this build checks the model "
                               "format of XGBoost 1.7: retrain it",
                               *major, *minor));

  llvm::Expected<const json::Object *> learner =
      object(*(*top)->get("learner"), "learner",
             {"attributes", "feature_names", "feature_types",
              "gradient_booster", "learner_model_param", "objective"});
  if (!learner)
    return learner.takeError();
  const json::Object &l = **learner;
  const json::Object *attributes = l.getObject("attributes");
  if (!attributes || !attributes->empty())
    return error("learner.attributes: expected an empty object (the tuner "
                 "sets no attributes)");
  for (llvm::StringRef key : {"feature_names", "feature_types"}) {
    const json::Array *names = l.getArray(key);
    if (!names || !names->empty())
      return error("learner." + key +
                   ": expected an empty array (the tuner names no features)");
  }
  if (llvm::Error err = checkLearnerParams(*l.get("learner_model_param")))
    return std::move(err);
  if (llvm::Error err = checkObjective(*l.get("objective")))
    return std::move(err);

  llvm::Expected<const json::Object *> gbm =
      object(*l.get("gradient_booster"), "learner.gradient_booster",
             {"model", "name"});
  if (!gbm)
    return gbm.takeError();
  if (llvm::Error err =
          exactly(**gbm, "name", "learner.gradient_booster", "gbtree"))
    return std::move(err);
  llvm::StringRef modelPath = "learner.gradient_booster.model";
  llvm::Expected<const json::Object *> model =
      object(*(*gbm)->get("model"), modelPath,
             {"gbtree_model_param", "tree_info", "trees"});
  if (!model)
    return model.takeError();
  std::string paramPath = (modelPath + ".gbtree_model_param").str();
  llvm::Expected<const json::Object *> gbtreeParam =
      object(*(*model)->get("gbtree_model_param"), paramPath,
             {"num_parallel_tree", "num_trees", "size_leaf_vector"});
  if (!gbtreeParam)
    return gbtreeParam.takeError();
  if (llvm::Error err =
          exactly(**gbtreeParam, "num_parallel_tree", paramPath, "1"))
    return std::move(err);
  if (llvm::Error err =
          exactly(**gbtreeParam, "size_leaf_vector", paramPath, "0"))
    return std::move(err);
  llvm::Expected<int64_t> numTrees =
      integerParam(**gbtreeParam, "num_trees", paramPath, 1, kMaxTrees);
  if (!numTrees)
    return numTrees.takeError();
  llvm::Expected<const json::Array *> trees =
      array(**model, "trees", modelPath);
  if (!trees)
    return trees.takeError();
  llvm::Expected<const json::Array *> treeInfo =
      array(**model, "tree_info", modelPath);
  if (!treeInfo)
    return treeInfo.takeError();
  if (int64_t((*trees)->size()) != *numTrees ||
      int64_t((*treeInfo)->size()) != *numTrees)
    return error(llvm::formatv("{0}: num_trees is {1} but it holds {2} trees "
                               "and {3} tree_info entries",
                               modelPath, *numTrees, (*trees)->size(),
                               (*treeInfo)->size()));
  // The output group of each tree: XGBoost adds the tree's leaf to that
  // column of the output, which has one column here.
  for (auto [i, group] : llvm::enumerate(**treeInfo))
    if (group.getAsInteger() != 0)
      return error(llvm::formatv("tree {0}: its output group (tree_info) is "
                                 "not 0, and the booster has one output",
                                 i));
  for (auto [i, tree] : llvm::enumerate(**trees))
    if (llvm::Error err = checkTree(tree, unsigned(i)))
      return std::move(err);
  return unsigned(*numTrees);
}

llvm::Error Checker::checkLearnerParams(const json::Value &value) {
  llvm::StringRef path = "learner.learner_model_param";
  llvm::Expected<const json::Object *> params =
      object(value, path,
             {"base_score", "boost_from_average", "num_class", "num_feature",
              "num_target"});
  if (!params)
    return params.takeError();
  if (llvm::Error err =
          numberParam(**params, "base_score", path, kMaxLeafMagnitude))
    return err;
  llvm::Expected<int64_t> average =
      integerParam(**params, "boost_from_average", path, 0, 1);
  if (!average)
    return average.takeError();
  if (llvm::Error err = exactly(**params, "num_class", path, "0"))
    return err;
  if (llvm::Error err = exactly(**params, "num_target", path, "1"))
    return err;
  return featureCount(**params, path, "booster");
}

llvm::Error Checker::checkObjective(const json::Value &value) {
  llvm::StringRef path = "learner.objective";
  const json::Object *objective = value.getAsObject();
  std::optional<llvm::StringRef> name =
      objective ? objective->getString("name") : std::nullopt;
  if (!name)
    return error(path + ": expected an object with a string 'name'");
  if (*name == "reg:squarederror") {
    llvm::Expected<const json::Object *> o =
        object(value, path, {"name", "reg_loss_param"});
    if (!o)
      return o.takeError();
    std::string paramPath = (path + ".reg_loss_param").str();
    llvm::Expected<const json::Object *> params =
        object(*(*o)->get("reg_loss_param"), paramPath, {"scale_pos_weight"});
    if (!params)
      return params.takeError();
    return numberParam(**params, "scale_pos_weight", paramPath, 1e6);
  }
  if (*name == "rank:pairwise") {
    llvm::Expected<const json::Object *> o =
        object(value, path, {"lambda_rank_param", "name"});
    if (!o)
      return o.takeError();
    std::string paramPath = (path + ".lambda_rank_param").str();
    llvm::Expected<const json::Object *> params =
        object(*(*o)->get("lambda_rank_param"), paramPath,
               {"fix_list_weight", "num_pairsample"});
    if (!params)
      return params.takeError();
    if (llvm::Error err =
            numberParam(**params, "fix_list_weight", paramPath, 1e6))
      return err;
    llvm::Expected<int64_t> pairs =
        integerParam(**params, "num_pairsample", paramPath, 1, 1000000);
    if (!pairs)
      return pairs.takeError();
    return llvm::Error::success();
  }
  return error(path + ".name: unsupported objective '" + *name +
               "' (the tuner trains 'reg:squarederror' and 'rank:pairwise')");
}

llvm::Error Checker::checkTree(const json::Value &value, unsigned index) {
  std::string path = llvm::formatv("tree {0}", index).str();
  llvm::Expected<const json::Object *> treeOr = object(
      value, path,
      {"base_weights", "categories", "categories_nodes", "categories_segments",
       "categories_sizes", "default_left", "id", "left_children",
       "loss_changes", "parents", "right_children", "split_conditions",
       "split_indices", "split_type", "sum_hessian", "tree_param"});
  if (!treeOr)
    return treeOr.takeError();
  const json::Object &tree = **treeOr;
  if (tree.getInteger("id") != int64_t(index))
    return error(path + ": its id is not its position " + llvm::Twine(index));
  std::string paramPath = path + ": tree_param";
  llvm::Expected<const json::Object *> params =
      object(*tree.get("tree_param"), paramPath,
             {"num_deleted", "num_feature", "num_nodes", "size_leaf_vector"});
  if (!params)
    return params.takeError();
  if (llvm::Error err = exactly(**params, "num_deleted", paramPath, "0"))
    return err;
  if (llvm::Error err = exactly(**params, "size_leaf_vector", paramPath, "0"))
    return err;
  if (llvm::Error err = featureCount(**params, paramPath, "tree"))
    return err;
  llvm::Expected<int64_t> numNodes =
      integerParam(**params, "num_nodes", paramPath, 1, kMaxNodes);
  if (!numNodes)
    return numNodes.takeError();
  size_t n = size_t(*numNodes);

  for (llvm::StringRef key : {"categories", "categories_nodes",
                              "categories_segments", "categories_sizes"}) {
    const json::Array *categories = tree.getArray(key);
    if (!categories || !categories->empty())
      return error(path + ": " + key +
                   " is not an empty array (the tuner's trees have no "
                   "categorical splits)");
  }

  // The per-node arrays, as integers or as floats: one entry per node.
  auto nodeArray =
      [&](llvm::StringRef key) -> llvm::Expected<const json::Array *> {
    const json::Array *values = tree.getArray(key);
    if (!values)
      return error(path + ": " + key + " is not an array");
    if (values->size() != n)
      return error(llvm::formatv("{0}: {1} has {2} entries but the tree has "
                                 "{3} nodes",
                                 path, key, values->size(), n));
    return values;
  };
  auto integers = [&](llvm::StringRef key, int64_t least, int64_t most,
                      std::vector<int64_t> &out,
                      llvm::StringRef why = "") -> llvm::Error {
    llvm::Expected<const json::Array *> values = nodeArray(key);
    if (!values)
      return values.takeError();
    out.resize(n);
    for (auto [i, entry] : llvm::enumerate(**values)) {
      std::optional<int64_t> integer = entry.getAsInteger();
      if (!integer || *integer < least || *integer > most)
        return error(llvm::formatv("{0}, node {1}: {2} is not an integer in "
                                   "[{3}, {4}]{5}",
                                   path, i, key, least, most, why));
      out[i] = *integer;
    }
    return llvm::Error::success();
  };
  auto floats = [&](llvm::StringRef key,
                    std::vector<double> &out) -> llvm::Error {
    llvm::Expected<const json::Array *> values = nodeArray(key);
    if (!values)
      return values.takeError();
    out.resize(n);
    for (auto [i, entry] : llvm::enumerate(**values)) {
      std::optional<double> number = entry.getAsNumber();
      // XGBoost reads them as floats.
      if (!number || !std::isfinite(float(*number)))
        return error(llvm::formatv("{0}, node {1}: {2} is not a finite float",
                                   path, i, key));
      out[i] = *number;
    }
    return llvm::Error::success();
  };
  std::vector<int64_t> lefts, rights, parents, features, defaultLeft,
      splitTypes;
  std::vector<double> conditions, scratch;
  // XGBoost stores a root's parent as its invalid node id with the
  // "is a left child" bit cleared.
  constexpr int64_t kRootParent = INT32_MAX;
  if (llvm::Error err = integers("left_children", -1, INT32_MAX, lefts))
    return err;
  if (llvm::Error err = integers("right_children", -1, INT32_MAX, rights))
    return err;
  if (llvm::Error err = integers("parents", 0, kRootParent, parents))
    return err;
  std::string featuresWhy =
      llvm::formatv(" (split features index the flat layout's {0} features)",
                    numFeatures)
          .str();
  if (llvm::Error err = integers("split_indices", 0, int64_t(numFeatures) - 1,
                                 features, featuresWhy))
    return err;
  if (llvm::Error err = integers("default_left", 0, 1, defaultLeft))
    return err;
  if (llvm::Error err =
          integers("split_type", 0, 0, splitTypes,
                   " (the tuner's trees have numerical splits only)"))
    return err;
  if (llvm::Error err = floats("split_conditions", conditions))
    return err;
  for (llvm::StringRef key : {"base_weights", "loss_changes", "sum_hessian"})
    if (llvm::Error err = floats(key, scratch))
      return err;

  // Walk the tree from its root: every node must be reached exactly once,
  // from the parent its entry names.
  if (parents[0] != kRootParent)
    return error(llvm::formatv("{0}, node 0: the root's parent is {1}, not "
                               "{2} (none)",
                               path, parents[0], kRootParent));
  std::vector<uint8_t> reached(n, 0);
  reached[0] = 1;
  llvm::SmallVector<std::pair<size_t, unsigned>> stack = {{0, 0}};
  size_t visited = 0;
  while (!stack.empty()) {
    auto [node, depth] = stack.pop_back_val();
    ++visited;
    int64_t left = lefts[node], right = rights[node];
    if (left == -1 || right == -1) {
      if (left != right)
        return error(llvm::formatv("{0}, node {1}: its children are {2} and "
                                   "{3} (a leaf has -1 and -1)",
                                   path, node, left, right));
      if (std::fabs(conditions[node]) > kMaxLeafMagnitude)
        return error(llvm::formatv("{0}, node {1}: its leaf value {2} is "
                                   "larger than {3} in magnitude",
                                   path, node,
                                   llvm::format("%g", conditions[node]),
                                   llvm::format("%g", kMaxLeafMagnitude)));
      continue;
    }
    if (left < 1 || size_t(left) >= n || right != left + 1 ||
        size_t(right) >= n)
      return error(llvm::formatv("{0}, node {1}: its children {2} and {3} "
                                 "are not two adjacent nodes in [1, {4}) "
                                 "(XGBoost's predictor steps to the left "
                                 "child or the one after it)",
                                 path, node, left, right, n));
    if (depth >= kMaxTreeDepth)
      return error(llvm::formatv("{0}, node {1}: the tree is deeper than {2} "
                                 "levels",
                                 path, node, kMaxTreeDepth));
    for (int64_t child : {left, right}) {
      if (reached[child])
        return error(llvm::formatv("{0}, node {1}: its child {2} is reached "
                                   "twice (a cycle or a shared node)",
                                   path, node, child));
      reached[child] = 1;
      if (parents[child] != int64_t(node))
        return error(llvm::formatv("{0}, node {1}: its parent entry is {2} "
                                   "but node {3} splits into it",
                                   path, child, parents[child], node));
      stack.push_back({size_t(child), depth + 1});
    }
  }
  if (visited != n) {
    size_t unreached = llvm::find(reached, 0) - reached.begin();
    return error(llvm::formatv("{0}, node {1}: no split leads to it ({2} of "
                               "the {3} nodes are unreachable from the root)",
                               path, unreached, n - visited, n));
  }
  return llvm::Error::success();
}

llvm::Expected<unsigned> booster::checkBooster(const json::Value &booster,
                                               unsigned numFeatures) {
  return Checker(numFeatures).check(booster);
}
