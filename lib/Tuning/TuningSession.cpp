//===- TuningSession.cpp - One tuning run over any space ------------------===//

#include "tuner/Tuning/TuningSession.h"
#include "tuner/Database/Database.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

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

void DatabaseRecorder::write(const db::MeasurementRecord &record) {
  if (llvm::Error error = database.record(record))
    noteError(llvm::toString(std::move(error)));
}

void DatabaseRecorder::record(const Observation &observation) {
  write(toRecord(observation));
}

void DatabaseRecorder::recordConfirmation(const Observation &observation) {
  db::MeasurementRecord record = toRecord(observation);
  record.strategy = kConfirmStrategy;
  write(record);
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
  confirmation.reset();
  if (options.confirm > 0 && !result.error && result.best)
    confirm();
  failures.clear();
  for (const Observation &observation : result.history)
    if (!observation.ok())
      ++failures[observation.status];
  return result;
}

void TuningSession::confirm() {
  using Clock = std::chrono::steady_clock;
  Clock::time_point start = Clock::now();
  Confirmation done;
  done.before = result.best;

  // Each config's latest outcome (what the database recalls and ranks by):
  // the search's, then the confirmation's.
  llvm::DenseMap<uint64_t, Observation> latest;
  std::vector<uint64_t> order; // First appearance, for stable ties.
  for (const Observation &observation : result.history) {
    auto [it, fresh] =
        latest.try_emplace(observation.config.hash(), observation);
    if (fresh)
      order.push_back(it->first);
    else
      it->second = observation;
  }
  llvm::DenseSet<uint64_t> confirmed;
  // Configs of `latest` that are ok, best first.
  auto ranked = [&] {
    std::vector<const Observation *> list;
    for (uint64_t hash : order)
      if (latest[hash].ok())
        list.push_back(&latest[hash]);
    llvm::stable_sort(list, [](const Observation *a, const Observation *b) {
      return a->value > b->value;
    });
    return list;
  };
  // Evaluates `configs` again (never recalled: the point is a new sample)
  // and keeps the outcomes; false after a fatal error.
  auto evaluateAgain = [&](std::vector<const Observation *> firsts) {
    std::vector<Config> configs;
    std::vector<Observation> copies;
    for (const Observation *first : firsts) {
      configs.push_back(first->config);
      copies.push_back(*first);
    }
    std::vector<Observation> again = evaluator.evaluate(configs);
    if (evaluator.fatalError()) {
      done.error = *evaluator.fatalError();
      return false;
    }
    for (auto [first, observation] : llvm::zip(copies, again)) {
      observation.config = first.config;
      if (options.recorder)
        options.recorder->recordConfirmation(observation);
      uint64_t hash = first.config.hash();
      confirmed.insert(hash);
      latest[hash] = observation;
      done.entries.push_back({std::move(first), std::move(observation)});
    }
    return true;
  };

  // The best `confirm`, in one batch; then, while the best by the latest
  // outcomes is one not yet confirmed (those confirmed timed slower than
  // its first timing), that one too, up to `confirm` more.
  std::vector<const Observation *> top = ranked();
  top.resize(std::min<size_t>(top.size(), options.confirm));
  bool ok = evaluateAgain(top);
  for (unsigned extra = 0; ok && extra < options.confirm; ++extra) {
    std::vector<const Observation *> now = ranked();
    if (now.empty() || confirmed.contains(now.front()->config.hash()))
      break;
    ok = evaluateAgain({now.front()});
  }
  if (!done.entries.empty()) {
    // The best by each config's latest outcome, as the database's best():
    // a config that failed when timed again is not chosen (its outcome
    // changes from run to run). After a fatal error, by what was timed
    // again before it.
    std::vector<const Observation *> now = ranked();
    if (now.empty())
      result.best.reset();
    else
      result.best = *now.front();
  }
  done.seconds =
      std::chrono::duration<double>(Clock::now() - start).count();
  result.seconds += done.seconds;
  confirmation = std::move(done);
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
  if (confirmation) {
    llvm::json::Array candidates;
    for (const Confirmation::Entry &entry : confirmation->entries) {
      llvm::json::Object candidate{
          {"config", entry.first.config.toJSON(space)},
          {"first", entry.first.value},
          {"status", statusName(entry.again.status)}};
      candidate["again"] = entry.again.ok()
                               ? llvm::json::Value(entry.again.value)
                               : llvm::json::Value(nullptr);
      candidates.push_back(std::move(candidate));
    }
    llvm::json::Value before = nullptr;
    if (confirmation->before)
      before = llvm::json::Object{
          {"config", confirmation->before->config.toJSON(space)},
          {"value", confirmation->before->value}};
    llvm::json::Object confirmed{{"seconds", confirmation->seconds},
                                 {"best_before", std::move(before)},
                                 {"candidates", std::move(candidates)}};
    if (confirmation->error)
      confirmed["error"] = *confirmation->error;
    summary["confirmation"] = std::move(confirmed);
  }
  return summary;
}
