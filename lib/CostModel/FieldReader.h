//===- FieldReader.h - Typed reading of model-file JSON ---------*- C++ -*-===//
//
// Internal to TunerCostModel: reads the fields of one JSON object of a
// model file (networks and trees alike); errors name the object and field.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_LIB_COSTMODEL_FIELDREADER_H
#define TUNER_LIB_COSTMODEL_FIELDREADER_H

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace tuner {

inline llvm::Error fieldError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Typed reading of the fields of one JSON object; errors name the object
/// (`what`) and the field.
class FieldReader {
public:
  FieldReader(const llvm::json::Value &value, std::string what)
      : object(value.getAsObject()), what(std::move(what)) {}

  llvm::Error check() const {
    return object ? llvm::Error::success()
                  : fieldError(what + ": expected a JSON object");
  }

  llvm::Expected<const llvm::json::Value *> get(llvm::StringRef key) const {
    const llvm::json::Value *value = object->get(key);
    if (!value)
      return fieldError(what + ": missing field '" + key + "'");
    return value;
  }

  bool has(llvm::StringRef key) const { return object->get(key); }

  llvm::Error typeError(llvm::StringRef key, llvm::StringRef expected) const {
    return fieldError(what + "." + key + ": expected " + expected);
  }

  llvm::Error string(llvm::StringRef key, std::string &out) const {
    llvm::Expected<const llvm::json::Value *> value = get(key);
    if (!value)
      return value.takeError();
    std::optional<llvm::StringRef> s = (*value)->getAsString();
    if (!s)
      return typeError(key, "a string");
    out = s->str();
    return llvm::Error::success();
  }

  llvm::Error number(llvm::StringRef key, double &out) const {
    llvm::Expected<const llvm::json::Value *> value = get(key);
    if (!value)
      return value.takeError();
    if ((*value)->getAsNull()) {
      out = std::nan("");
      return llvm::Error::success();
    }
    std::optional<double> d = (*value)->getAsNumber();
    if (!d)
      return typeError(key, "a number");
    out = *d;
    return llvm::Error::success();
  }

  template <typename Int>
  llvm::Error integer(llvm::StringRef key, Int &out) const {
    llvm::Expected<const llvm::json::Value *> value = get(key);
    if (!value)
      return value.takeError();
    std::optional<int64_t> i = (*value)->getAsInteger();
    if (!i || *i < 0 ||
        uint64_t(*i) > uint64_t(std::numeric_limits<Int>::max()))
      return typeError(key, "a non-negative integer");
    out = Int(*i);
    return llvm::Error::success();
  }

  llvm::Error sizes(llvm::StringRef key, std::vector<unsigned> &out) const {
    llvm::Expected<const llvm::json::Value *> value = get(key);
    if (!value)
      return value.takeError();
    const llvm::json::Array *array = (*value)->getAsArray();
    if (!array)
      return typeError(key, "an array of layer sizes");
    out.clear();
    for (const llvm::json::Value &element : *array) {
      std::optional<int64_t> i = element.getAsInteger();
      if (!i || *i < 1 || *i > (1 << 20))
        return typeError(key, "an array of positive layer sizes");
      out.push_back(unsigned(*i));
    }
    return llvm::Error::success();
  }

  llvm::Error strings(llvm::StringRef key,
                      std::vector<std::string> &out) const {
    llvm::Expected<const llvm::json::Value *> value = get(key);
    if (!value)
      return value.takeError();
    const llvm::json::Array *array = (*value)->getAsArray();
    if (!array)
      return typeError(key, "an array of strings");
    out.clear();
    for (const llvm::json::Value &element : *array) {
      std::optional<llvm::StringRef> s = element.getAsString();
      if (!s)
        return typeError(key, "an array of strings");
      out.push_back(s->str());
    }
    return llvm::Error::success();
  }

private:
  const llvm::json::Object *object;
  std::string what;
};

} // namespace tuner

#endif // TUNER_LIB_COSTMODEL_FIELDREADER_H
