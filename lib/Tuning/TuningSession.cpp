//===- TuningSession.cpp - One tuning run over any space ------------------===//

#include "tuner/Tuning/TuningSession.h"
#include "tuner/Database/Database.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace tuner;

llvm::StringRef tuner::objectiveName(Objective objective) {
  switch (objective) {
  case Objective::Speedup:
    return "speedup";
  case Objective::Minimize:
    return "minimize";
  case Objective::Maximize:
    return "maximize";
  }
  llvm_unreachable("every objective has a name");
}

double tuner::valueOfObjective(Objective objective, double value) {
  return objective == Objective::Minimize ? -value : value;
}

//===----------------------------------------------------------------------===//
// Recorders
//===----------------------------------------------------------------------===//

Recorder::~Recorder() = default;

void Recorder::noteError(std::string message) {
  if (error.empty())
    error = std::move(message);
}

DatabaseRecorder::DatabaseRecorder(db::Database &database, const Space &space,
                                   Keys keys)
    : database(database), space(space),
      spaceFingerprint(space.fingerprint()), keys(std::move(keys)) {}

std::optional<Observation> DatabaseRecorder::recall(const Config &config) {
  auto found = database.lookup(keys.workload, keys.target, config.hash());
  if (!found) {
    noteError(llvm::toString(found.takeError()));
    return std::nullopt;
  }
  const std::optional<db::MeasurementRecord> &record = *found;
  // A record of another space may mean another schedule by the same values.
  if (!record || !record->mayBeOfSpace(spaceFingerprint))
    return std::nullopt;
  Observation observation;
  observation.config = config;
  observation.cached = true;
  observation.status = record->status;
  observation.message = record->message;
  observation.schedule = record->schedule;
  if (!observation.ok())
    return observation;
  observation.medianSeconds = record->medianSeconds.value_or(0);
  observation.minSeconds =
      record->minSeconds.value_or(observation.medianSeconds);
  observation.maxSeconds =
      record->maxSeconds.value_or(observation.medianSeconds);
  observation.repetitions = record->repetitions;
  observation.objective = record->objective.value_or(observation.medianSeconds);
  if (keys.objective != Objective::Speedup) {
    observation.value = valueOfObjective(keys.objective, observation.objective);
    return observation;
  }
  // The speedup measured side by side with the baseline of the session
  // that measured it; times from two sessions are divided only when the
  // record has no speedup.
  if (record->speedup && *record->speedup > 0)
    observation.value = *record->speedup;
  else if (keys.baselineSeconds && observation.medianSeconds > 0)
    observation.value = *keys.baselineSeconds / observation.medianSeconds;
  else
    return std::nullopt;
  return observation;
}

db::MeasurementRecord
DatabaseRecorder::toRecord(const Observation &observation) const {
  db::MeasurementRecord record;
  record.workloadHash = keys.workload;
  record.target = keys.target;
  std::string config;
  llvm::raw_string_ostream(config) << observation.config.toJSON(space);
  record.config = config;
  record.configHash = observation.config.hash();
  record.status = observation.status;
  if (observation.ok()) {
    record.minSeconds = observation.minSeconds;
    record.medianSeconds = observation.medianSeconds;
    record.maxSeconds = observation.maxSeconds;
    record.repetitions = std::max(1u, observation.repetitions);
    record.objective = observation.objective;
    if (keys.objective == Objective::Speedup)
      record.speedup = observation.value;
  }
  record.baselineMedianSeconds = keys.baselineSeconds;
  record.strategy = keys.strategy;
  record.toolVersion = TUNER_VERSION_STRING;
  record.timestamp = db::unixNow();
  record.message = observation.message.substr(0, 4000);
  record.spaceFingerprint = spaceFingerprint;
  record.schedule = observation.schedule;
  return record;
}

void DatabaseRecorder::record(const Observation &observation) {
  if (llvm::Error error = database.record(toRecord(observation)))
    noteError(llvm::toString(std::move(error)));
}

//===----------------------------------------------------------------------===//
// The session
//===----------------------------------------------------------------------===//

namespace {

/// Answers what the recorder knows, evaluates the rest with the session's
/// evaluator, and records what it evaluated.
class RecallingEvaluator : public Evaluator {
public:
  RecallingEvaluator(Evaluator &inner, Recorder &recorder)
      : inner(inner), recorder(recorder) {}

  std::vector<Observation> evaluate(llvm::ArrayRef<Config> configs) override {
    std::vector<Observation> observations(configs.size());
    std::vector<Config> fresh;
    std::vector<size_t> freshIndex;
    for (auto [i, config] : llvm::enumerate(configs)) {
      if (std::optional<Observation> known = recorder.recall(config)) {
        observations[i] = std::move(*known);
        continue;
      }
      fresh.push_back(config);
      freshIndex.push_back(i);
    }
    if (fresh.empty())
      return observations;
    std::vector<Observation> evaluated = inner.evaluate(fresh);
    if (inner.fatalError()) {
      fatal = inner.fatalError();
      return observations;
    }
    for (auto [index, observation] : llvm::zip(freshIndex, evaluated)) {
      recorder.record(observation);
      observations[index] = std::move(observation);
    }
    return observations;
  }

private:
  Evaluator &inner;
  Recorder &recorder;
};

} // namespace

TuningSession::TuningSession(Strategy &strategy, Evaluator &evaluator,
                             SessionOptions options)
    : strategy(strategy), evaluator(evaluator), options(std::move(options)) {}

const TuningResult &TuningSession::run() {
  std::optional<RecallingEvaluator> recalling;
  Evaluator *evaluate = &evaluator;
  if (options.recorder)
    evaluate = &recalling.emplace(evaluator, *options.recorder);
  result = runTuningLoop(strategy, *evaluate, options.budget, options.batch,
                         options.progress);
  failures.clear();
  for (const Observation &observation : result.history)
    if (!observation.ok())
      ++failures[observation.status];
  return result;
}

unsigned TuningSession::failureCount() const {
  unsigned count = 0;
  for (const auto &entry : failures)
    count += entry.second;
  return count;
}

std::string TuningSession::describeFailures() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(failures, os, [&](const auto &entry) {
    os << entry.second << " " << statusName(entry.first);
  });
  return text;
}

llvm::json::Object TuningSession::summary(const Space &space) const {
  llvm::json::Object failed;
  for (const auto &[status, count] : failures)
    failed[statusName(status)] = int64_t(count);
  llvm::json::Value best = nullptr;
  if (result.best)
    best = llvm::json::Object{{"config", result.best->config.toJSON(space)},
                              {"value", result.best->value},
                              {"objective", result.best->objective},
                              {"median_s", result.best->medianSeconds},
                              {"min_s", result.best->minSeconds}};
  llvm::json::Object summary{
      {"strategy", strategy.getName().str()},
      {"candidates", int64_t(result.history.size())},
      {"evaluated", int64_t(result.evaluated)},
      {"cached", int64_t(result.history.size() - result.evaluated)},
      {"failed", std::move(failed)},
      {"search_seconds", result.seconds},
      {"best", std::move(best)},
  };
  llvm::json::Object statistics = strategy.statistics();
  if (!statistics.empty())
    summary["strategy_statistics"] = std::move(statistics);
  return summary;
}
