//===- Measurement.cpp - The outcome of evaluating one candidate ----------===//

#include "tuner/Support/Measurement.h"

#include <iterator>

using namespace tuner;
using llvm::json::Object;

static constexpr std::pair<Status, const char *> kStatusNames[] = {
    {Status::Ok, "ok"},
    {Status::ApplyFailed, "apply_failed"},
    {Status::CompileFailed, "compile_failed"},
    {Status::Crashed, "crashed"},
    {Status::Timeout, "timeout"},
    {Status::WrongResult, "wrong_result"},
    {Status::InvalidOutput, "invalid_output"},
    {Status::ModelError, "model_error"},
};
static_assert(std::size(kStatusNames) == kNumStatuses,
              "every Status has a name");

llvm::StringRef tuner::statusName(Status status) {
  for (const auto &[value, name] : kStatusNames)
    if (value == status)
      return name;
  llvm_unreachable("every Status has a name");
}

std::optional<Status> tuner::parseStatus(llvm::StringRef name) {
  for (const auto &[value, text] : kStatusNames)
    if (name == text)
      return value;
  return std::nullopt;
}

std::string tuner::statusNames() {
  std::string names;
  for (const auto &[value, text] : kStatusNames) {
    if (!names.empty())
      names += ", ";
    names += text;
  }
  return names;
}

Measurement Measurement::failure(Status status, std::string message) {
  Measurement result;
  result.status = status;
  result.message = std::move(message);
  return result;
}

llvm::json::Value Measurement::toJSON() const {
  Object object{{"status", statusName(status)},
                {"min_seconds", minSeconds},
                {"median_seconds", medianSeconds},
                {"max_seconds", maxSeconds},
                {"repetitions", int64_t(repetitions)},
                {"speedup", speedup},
                {"message", message}};
  if (foreignLoad >= 0)
    object["foreign_load"] = foreignLoad;
  if (pageFaultsPerCall >= 0)
    object["page_faults_per_call"] = pageFaultsPerCall;
  return object;
}

llvm::Expected<Measurement>
Measurement::fromJSON(const llvm::json::Value &json) {
  const Object *object = json.getAsObject();
  if (!object)
    return llvm::createStringError("measurement: expected an object");
  Measurement result;
  std::optional<llvm::StringRef> status = object->getString("status");
  if (!status)
    return llvm::createStringError(
        "measurement: missing or non-string field 'status'");
  std::optional<Status> parsed = parseStatus(*status);
  if (!parsed)
    return llvm::createStringError("measurement: unknown status '" + *status +
                                   "'");
  result.status = *parsed;
  for (auto [key, field] :
       {std::pair<const char *, double *>{"min_seconds", &result.minSeconds},
        {"median_seconds", &result.medianSeconds},
        {"max_seconds", &result.maxSeconds},
        {"speedup", &result.speedup}}) {
    std::optional<double> value = object->getNumber(key);
    if (!value)
      return llvm::createStringError(
          llvm::Twine("measurement: missing or non-numeric field '") + key +
          "'");
    *field = *value;
  }
  std::optional<int64_t> repetitions = object->getInteger("repetitions");
  if (!repetitions || *repetitions < 0)
    return llvm::createStringError(
        "measurement: field 'repetitions' must be a non-negative integer");
  result.repetitions = unsigned(*repetitions);
  std::optional<llvm::StringRef> message = object->getString("message");
  if (!message)
    return llvm::createStringError(
        "measurement: missing or non-string field 'message'");
  result.message = message->str();
  for (auto [key, field] : {std::pair<const char *, double *>{
                                "foreign_load", &result.foreignLoad},
                            {"page_faults_per_call",
                             &result.pageFaultsPerCall}}) {
    const llvm::json::Value *value = object->get(key);
    if (!value)
      continue;
    std::optional<double> number = value->getAsNumber();
    if (!number)
      return llvm::createStringError(
          llvm::Twine("measurement: non-numeric field '") + key + "'");
    *field = *number;
  }
  return result;
}
