//===- TuningSessionTest.cpp - The tuning core and its evaluators ---------===//

#include "tuner/Database/Database.h"
#include "tuner/Search/Strategies.h"
#include "tuner/Tuning/CommandEvaluator.h"
#include "tuner/Tuning/ReplayEvaluator.h"
#include "tuner/Tuning/TuningSession.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

using namespace tuner;

namespace {

Space smallSpace(bool withConstraint = false) {
  Space space;
  EXPECT_FALSE(bool(space.addParameter(Parameter::ordinal(
      "x", {ParamValue::integer(1), ParamValue::integer(2),
            ParamValue::integer(4)}))));
  EXPECT_FALSE(bool(space.addParameter(Parameter::boolean("flag"))));
  if (withConstraint)
    EXPECT_FALSE(bool(space.addConstraint("x > 1")));
  return space;
}

Config config(int64_t x, bool flag) {
  return Config({ParamValue::integer(x), ParamValue::boolean(flag)});
}

/// Objective x (+10 when flag), evaluated in-process; counts evaluations.
class CountingEvaluator : public Evaluator {
public:
  std::vector<Observation> evaluate(llvm::ArrayRef<Config> configs) override {
    std::vector<Observation> result;
    for (const Config &c : configs) {
      Observation o;
      o.config = c;
      o.objective = c[0].getInteger() + (c[1].getBoolean() ? 10 : 0);
      o.value = -o.objective;
      o.medianSeconds = o.minSeconds = o.maxSeconds = o.objective;
      o.repetitions = 1;
      result.push_back(o);
      ++evaluated;
    }
    return result;
  }
  unsigned evaluated = 0;
};

/// A new database in a new folder (`dir`), with the workload "w".
llvm::Expected<db::Database> freshDatabase(const char *prefix,
                                           llvm::SmallString<128> &dir) {
  if (std::error_code ec = llvm::sys::fs::createUniqueDirectory(prefix, dir))
    return llvm::errorCodeToError(ec);
  llvm::Expected<db::Database> database =
      db::Database::open((dir + "/tuning.db").str());
  if (!database)
    return database.takeError();
  if (llvm::Error error = database->addWorkload({"w", "f", std::nullopt}))
    return std::move(error);
  return database;
}

TEST(TuningSession, RecordsEveryOutcomeAndResumesFromTheDatabase) {
  llvm::SmallString<128> dir;
  llvm::Expected<db::Database> database = freshDatabase("session", dir);
  ASSERT_TRUE(bool(database)) << llvm::toString(database.takeError());
  Space space = smallSpace();
  llvm::Expected<ChainOfTrees> chain = ChainOfTrees::build(space);
  ASSERT_TRUE(bool(chain));
  DatabaseRecorder::Keys keys{"w", "t", "exhaustive", Objective::Minimize,
                              std::nullopt};
  auto run = [&](size_t budget, CountingEvaluator &evaluator) {
    std::unique_ptr<Strategy> strategy = createExhaustiveSearch(*chain);
    DatabaseRecorder recorder(*database, space, keys);
    SessionOptions options;
    options.budget.evaluations = budget;
    options.batch = 2;
    options.recorder = &recorder;
    TuningSession session(*strategy, evaluator, std::move(options));
    TuningResult result = session.run();
    EXPECT_EQ(recorder.getError(), "");
    return result;
  };
  CountingEvaluator first;
  TuningResult partial = run(3, first);
  EXPECT_EQ(first.evaluated, 3u);
  EXPECT_EQ(partial.evaluated, 3u);
  CountingEvaluator second;
  TuningResult full = run(6, second);
  EXPECT_EQ(second.evaluated, 3u); // The first three come from the database.
  EXPECT_EQ(full.evaluated, 3u);
  EXPECT_EQ(full.history.size(), 6u);
  ASSERT_TRUE(full.best.has_value());
  EXPECT_EQ(full.best->objective, 1);
  EXPECT_EQ(full.best->value, -1);

  // A space with other constraints has another fingerprint: its configs
  // are never recalled from the first space's records.
  Space other = smallSpace(/*withConstraint=*/true);
  EXPECT_NE(other.fingerprint(), space.fingerprint());
  DatabaseRecorder otherRecorder(*database, other, keys);
  EXPECT_FALSE(otherRecorder.recall(config(2, false)).has_value());
  DatabaseRecorder sameRecorder(*database, space, keys);
  std::optional<Observation> recalled = sameRecorder.recall(config(2, false));
  ASSERT_TRUE(recalled.has_value());
  EXPECT_TRUE(recalled->cached);
  EXPECT_EQ(recalled->objective, 2);
  EXPECT_EQ(recalled->value, -2);
  llvm::sys::fs::remove_directories(dir);
}

/// Speedups whose first evaluation of one config is a lucky draw: x (+10
/// when flag), except that config(4, true) measures 100x the first time
/// and 5x after; the config hashed `failAgain` fails after its first
/// evaluation; `fatalAfter` stops the evaluator at that evaluation.
class LuckyEvaluator : public Evaluator {
public:
  std::vector<Observation> evaluate(llvm::ArrayRef<Config> configs) override {
    std::vector<Observation> result;
    for (const Config &c : configs) {
      if (fatalAfter && evaluations >= *fatalAfter) {
        fatal = "the machine went away";
        return result;
      }
      Observation o;
      o.config = c;
      unsigned seen = timesSeen[c.hash()]++;
      o.value = c[0].getInteger() + (c[1].getBoolean() ? 10 : 0);
      if (c.hash() == config(4, true).hash())
        o.value = seen == 0 ? 100 : 5;
      if (failAgain && c.hash() == *failAgain && seen > 0)
        o = Observation::failure(c, Status::WrongResult, "differs now");
      if (o.ok()) {
        o.medianSeconds = o.minSeconds = o.maxSeconds = o.objective =
            1 / o.value;
        o.repetitions = 5;
      }
      result.push_back(o);
      ++evaluations;
    }
    return result;
  }
  std::map<uint64_t, unsigned> timesSeen;
  unsigned evaluations = 0;
  std::optional<uint64_t> failAgain;
  std::optional<unsigned> fatalAfter;
};

TEST(TuningSession, ConfirmationRetimesTheTopAndSupersedesTheRecords) {
  llvm::SmallString<128> dir;
  llvm::Expected<db::Database> database = freshDatabase("confirm", dir);
  ASSERT_TRUE(bool(database)) << llvm::toString(database.takeError());
  Space space = smallSpace();
  llvm::Expected<ChainOfTrees> chain = ChainOfTrees::build(space);
  ASSERT_TRUE(bool(chain));
  DatabaseRecorder::Keys keys{"w", "t", "exhaustive", Objective::Speedup,
                              std::nullopt};

  auto run = [&](unsigned confirm, LuckyEvaluator &evaluator,
                 DatabaseRecorder *recorder) {
    std::unique_ptr<Strategy> strategy = createExhaustiveSearch(*chain);
    SessionOptions options;
    options.budget.evaluations = 6;
    options.batch = 3;
    options.recorder = recorder;
    options.confirm = confirm;
    auto session = std::make_unique<TuningSession>(*strategy, evaluator,
                                                   std::move(options));
    session->run();
    return std::make_pair(std::move(strategy), std::move(session));
  };

  // Without a confirmation the lucky draw is the best.
  {
    LuckyEvaluator evaluator;
    auto [strategy, session] = run(0, evaluator, nullptr);
    ASSERT_TRUE(session->getResult().best.has_value());
    EXPECT_EQ(session->getResult().best->value, 100);
    EXPECT_FALSE(session->getConfirmation().has_value());
    EXPECT_EQ(evaluator.evaluations, 6u);
  }

  // Confirming the top 3 (100, 12, 11) evaluates them once more, in order,
  // and names 12 (config(2, true)) the best; its records supersede.
  DatabaseRecorder recorder(*database, space, keys);
  LuckyEvaluator evaluator;
  auto [strategy, session] = run(3, evaluator, &recorder);
  EXPECT_EQ(recorder.getError(), "");
  EXPECT_EQ(evaluator.evaluations, 9u);
  const TuningResult &result = session->getResult();
  ASSERT_TRUE(result.best.has_value());
  EXPECT_EQ(result.best->config.hash(), config(2, true).hash());
  EXPECT_EQ(result.best->value, 12);
  EXPECT_EQ(result.history.size(), 6u);
  const std::optional<Confirmation> &confirmation = session->getConfirmation();
  ASSERT_TRUE(confirmation.has_value());
  ASSERT_EQ(confirmation->entries.size(), 3u);
  EXPECT_EQ(confirmation->entries[0].first.value, 100);
  EXPECT_EQ(confirmation->entries[0].again.value, 5);
  EXPECT_EQ(confirmation->entries[1].first.value, 12);
  EXPECT_EQ(confirmation->entries[2].first.value, 11);
  ASSERT_TRUE(confirmation->before.has_value());
  EXPECT_EQ(confirmation->before->value, 100);
  EXPECT_GE(result.seconds, confirmation->seconds);

  llvm::json::Object summary = session->summary(space);
  const llvm::json::Object *confirmed = summary.getObject("confirmation");
  ASSERT_NE(confirmed, nullptr);
  EXPECT_EQ(confirmed->getObject("best_before")->getNumber("value"), 100);
  const llvm::json::Array *candidates = confirmed->getArray("candidates");
  ASSERT_NE(candidates, nullptr);
  ASSERT_EQ(candidates->size(), 3u);
  EXPECT_EQ((*candidates)[0].getAsObject()->getNumber("again"), 5);
  EXPECT_EQ((*candidates)[0].getAsObject()->getString("status"), "ok");

  // The database recalls and ranks each config by its latest record: the
  // lucky first timing (0.01 s) no longer makes config(4, true) the best.
  auto lucky = database->lookup("w", "t", config(4, true).hash());
  ASSERT_TRUE(bool(lucky) && lucky->has_value());
  EXPECT_EQ((*lucky)->strategy, DatabaseRecorder::kConfirmStrategy);
  EXPECT_EQ((*lucky)->speedup, 5);
  auto best = database->best("w", "t");
  ASSERT_TRUE(bool(best) && best->has_value());
  EXPECT_EQ((*best)->configHash, config(2, true).hash());
  auto ranked = database->okRecordsBestFirst("w", "t");
  ASSERT_TRUE(bool(ranked));
  EXPECT_EQ(ranked->size(), 6u); // One per config: 9 records in all.
  auto all = database->records("w", "t");
  ASSERT_TRUE(bool(all));
  EXPECT_EQ(all->size(), 9u);

  // A rerun recalls the confirmed outcomes: without confirming, the best
  // is the confirmed one, and nothing is measured.
  {
    DatabaseRecorder again(*database, space, keys);
    LuckyEvaluator fresh;
    auto [strategy2, session2] = run(0, fresh, &again);
    EXPECT_EQ(fresh.evaluations, 0u);
    ASSERT_TRUE(session2->getResult().best.has_value());
    EXPECT_EQ(session2->getResult().best->value, 12);
  }
  llvm::sys::fs::remove_directories(dir);
}

TEST(TuningSession, ConfirmationDropsWhatFailsAgainAndSurvivesAFatalError) {
  Space space = smallSpace();
  llvm::Expected<ChainOfTrees> chain = ChainOfTrees::build(space);
  ASSERT_TRUE(bool(chain));
  auto run = [&](unsigned confirm, LuckyEvaluator &evaluator) {
    std::unique_ptr<Strategy> strategy = createExhaustiveSearch(*chain);
    SessionOptions options;
    options.budget.evaluations = 6;
    options.confirm = confirm;
    TuningSession session(*strategy, evaluator, std::move(options));
    return std::make_pair(session.run(), session.getConfirmation());
  };
  // config(2, true) (12x) fails when evaluated again: it cannot be chosen,
  // and the best confirmed is 11x; the summary says why.
  {
    LuckyEvaluator evaluator;
    evaluator.failAgain = config(2, true).hash();
    auto [result, confirmation] = run(3, evaluator);
    ASSERT_TRUE(result.best.has_value());
    EXPECT_EQ(result.best->config.hash(), config(1, true).hash());
    ASSERT_TRUE(confirmation.has_value());
    EXPECT_EQ(confirmation->entries[1].again.status, Status::WrongResult);
  }
  // Only the top one (the lucky 100x) confirmed, and it fails: the best
  // by the latest outcomes is now 12x, not confirmed, so it is confirmed
  // too (one more of the `confirm` extra) and stays best.
  {
    LuckyEvaluator evaluator;
    evaluator.failAgain = config(4, true).hash();
    auto [result, confirmation] = run(1, evaluator);
    ASSERT_TRUE(result.best.has_value());
    EXPECT_EQ(result.best->config.hash(), config(2, true).hash());
    EXPECT_EQ(result.best->value, 12);
    ASSERT_TRUE(confirmation.has_value());
    ASSERT_EQ(confirmation->entries.size(), 2u);
    EXPECT_FALSE(confirmation->entries[0].again.ok());
    EXPECT_EQ(confirmation->entries[1].first.value, 12);
    EXPECT_EQ(evaluator.evaluations, 8u);
  }
  // The lucky config confirmed alone at 5x: 12x leads by its first timing
  // and is confirmed next; with `confirm` 1 no third is confirmed.
  {
    LuckyEvaluator evaluator;
    evaluator.failAgain = config(2, true).hash();
    auto [result, confirmation] = run(1, evaluator);
    // 100x -> 5x, then 12x -> failed, then 11x leads unconfirmed, but
    // the one extra is spent: it is the best by its first timing.
    ASSERT_TRUE(result.best.has_value());
    EXPECT_EQ(result.best->config.hash(), config(1, true).hash());
    ASSERT_EQ(confirmation->entries.size(), 2u);
    EXPECT_EQ(evaluator.evaluations, 8u);
  }
  // A fatal error while confirming keeps the search's best and says so.
  {
    LuckyEvaluator evaluator;
    evaluator.fatalAfter = 6;
    auto [result, confirmation] = run(2, evaluator);
    ASSERT_TRUE(result.best.has_value());
    EXPECT_EQ(result.best->value, 100);
    EXPECT_FALSE(result.error.has_value());
    ASSERT_TRUE(confirmation.has_value());
    ASSERT_TRUE(confirmation->error.has_value());
    EXPECT_EQ(*confirmation->error, "the machine went away");
  }
  // A fatal error after the lucky config was timed again at 5x: the best
  // is chosen by the timings there are (12x), as the database would.
  {
    LuckyEvaluator evaluator;
    evaluator.fatalAfter = 7;
    auto [result, confirmation] = run(1, evaluator);
    ASSERT_TRUE(result.best.has_value());
    EXPECT_EQ(result.best->value, 12);
    ASSERT_TRUE(confirmation.has_value() && confirmation->error.has_value());
    EXPECT_EQ(confirmation->entries.size(), 1u);
  }
}

TEST(CommandTemplate, ExpandsValuesAndRejectsMalformedTemplates) {
  Space space = smallSpace();
  llvm::Expected<CommandTemplate> parsed =
      CommandTemplate::parse("./bench -x {x} {{literal}} --flag={flag}", space);
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  EXPECT_EQ(parsed->expand(config(4, true)),
            "./bench -x 4 {literal} --flag=1");
  for (auto [text, message] :
       {std::pair<const char *, const char *>{
            "run {x", "column 5: '{' is never closed"},
        {"run x}", "column 6: '}' without '{'"},
        {"run {}", "column 5: empty placeholder"},
        {"run {y}", "column 5: 'y' is not a parameter of the space (nor "
                    "'config'"}}) {
    llvm::Expected<CommandTemplate> bad = CommandTemplate::parse(text, space);
    ASSERT_FALSE(bool(bad)) << text;
    EXPECT_NE(llvm::toString(bad.takeError()).find(message),
              std::string::npos)
        << text;
  }
}

TEST(CommandEvaluator, ReadsTheLastNumberOrAJSONField) {
  EXPECT_EQ(CommandEvaluator::readObjective("run 3\ntime: 2.5e-3 s\n", ""),
            2.5e-3);
  EXPECT_EQ(CommandEvaluator::readObjective("v2 gflops=7", ""), 7);
  EXPECT_FALSE(CommandEvaluator::readObjective("no numbers here", ""));
  EXPECT_EQ(CommandEvaluator::readObjective(
                "{\"t\": 1}\nlog 5\n{\"t\": 3, \"u\": 4}\n", "t"),
            3);
  EXPECT_FALSE(CommandEvaluator::readObjective("{\"u\": 4}\n", "t"));
}

TEST(CommandEvaluator, ClassifiesFailures) {
  Space space = smallSpace();
  CommandOptions options;
  options.run = "if [ {x} = 1 ]; then exit 3; elif [ {x} = 2 ]; then echo "
                "none; else echo {x}; fi";
  options.compile = "test {flag} = 0";
  options.timeoutSeconds = 10;
  llvm::Expected<std::unique_ptr<CommandEvaluator>> evaluator =
      CommandEvaluator::create(space, options);
  ASSERT_TRUE(bool(evaluator)) << llvm::toString(evaluator.takeError());
  std::vector<Observation> observations = (*evaluator)->evaluate(
      {config(1, false), config(2, false), config(4, false), config(4, true)});
  ASSERT_EQ(observations.size(), 4u);
  EXPECT_EQ(observations[0].status, Status::Crashed);
  EXPECT_NE(observations[0].message.find("exited with status 3"),
            std::string::npos);
  EXPECT_EQ(observations[1].status, Status::InvalidOutput);
  EXPECT_EQ(observations[2].status, Status::Ok);
  EXPECT_EQ(observations[2].objective, 4);
  EXPECT_EQ(observations[2].value, -4);
  EXPECT_EQ(observations[3].status, Status::CompileFailed);
}

TEST(CommandEvaluator, PassesTheWholeConfigAsAJSONFile) {
  Space space = smallSpace();
  llvm::Expected<CommandTemplate> parsed =
      CommandTemplate::parse("tool --config={config} -x {x}", space);
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  EXPECT_TRUE(parsed->needsConfigFile());
  EXPECT_EQ(parsed->expand(config(2, false), "/tmp/a b/config.json"),
            "tool --config='/tmp/a b/config.json' -x 2");
  EXPECT_FALSE(CommandTemplate::parse("tool {x}", space)->needsConfigFile());

  // The command prints the file on one line: its "x" is the objective.
  CommandOptions options;
  options.run = "tr -d '\\n ' < {config}; echo";
  options.objectiveField = "x";
  options.timeoutSeconds = 10;
  llvm::Expected<std::unique_ptr<CommandEvaluator>> evaluator =
      CommandEvaluator::create(space, options);
  ASSERT_TRUE(bool(evaluator)) << llvm::toString(evaluator.takeError());
  std::vector<Observation> observations =
      (*evaluator)->evaluate({config(4, false), config(2, true)});
  ASSERT_EQ(observations.size(), 2u);
  EXPECT_EQ(observations[0].status, Status::Ok) << observations[0].message;
  EXPECT_EQ(observations[0].objective, 4);
  EXPECT_EQ(observations[1].status, Status::Ok) << observations[1].message;
  EXPECT_EQ(observations[1].objective, 2);
}

TEST(ReplayEvaluator, ReplaysRowsAndStopsOnAMissingConfig) {
  Space space = smallSpace();
  const char *table =
      "{\"config\": {\"x\": 1, \"flag\": false}, \"time\": 3, \"status\": "
      "\"ok\", \"compile_s\": 1, \"run_s\": 0.5}\n"
      "{\"config\": {\"x\": 2, \"flag\": false}, \"time\": null, "
      "\"status\": \"timeout\"}\n";
  llvm::Expected<std::unique_ptr<ReplayEvaluator>> replay =
      ReplayEvaluator::parse(table, "t.jsonl", false, space,
                             Objective::Minimize);
  ASSERT_TRUE(bool(replay)) << llvm::toString(replay.takeError());
  std::vector<Observation> observations =
      (*replay)->evaluate({config(1, false), config(2, false)});
  ASSERT_EQ(observations.size(), 2u);
  EXPECT_EQ(observations[0].objective, 3);
  EXPECT_EQ(observations[1].status, Status::Timeout);
  EXPECT_EQ((*replay)->simulatedSeconds(), 1.5);
  EXPECT_FALSE((*replay)->fatalError().has_value());
  (*replay)->evaluate({config(4, true)});
  ASSERT_TRUE((*replay)->fatalError().has_value());
  EXPECT_NE((*replay)->fatalError()->find("has no row for config"),
            std::string::npos);

  llvm::Expected<std::unique_ptr<ReplayEvaluator>> csv =
      ReplayEvaluator::parse("x,flag,time,status\n4,true,2,ok\n", "t.csv",
                             true, space, Objective::Minimize);
  ASSERT_TRUE(bool(csv)) << llvm::toString(csv.takeError());
  EXPECT_EQ((*csv)->size(), 1u);

  for (auto [text, message] :
       {std::pair<const char *, const char *>{
            "{\"config\": {\"x\": 1, \"flag\": false, \"y\": 2}, \"time\": "
            "1, \"status\": \"ok\"}",
            "t:1: "},
        {"{\"config\": {\"x\": 3, \"flag\": false}, \"time\": 1, "
         "\"status\": \"ok\"}",
         "t:1: "},
        {"{\"config\": {\"x\": 1, \"flag\": false}, \"status\": \"ok\"}",
         "t:1: an 'ok' row needs a time"},
        {"{\"config\": {\"x\": 1, \"flag\": false}, \"time\": 1, "
         "\"status\": \"fine\"}",
         "t:1: unknown status 'fine'"},
        {"{\"config\": {\"x\": 1, \"flag\": false}, \"time\": 1}\n"
         "{\"config\": {\"x\": 1, \"flag\": false}, \"time\": 2}",
         "t:2: config {\"flag\":false,\"x\":1} is recorded twice"}}) {
    llvm::Expected<std::unique_ptr<ReplayEvaluator>> bad =
        ReplayEvaluator::parse(text, "t", false, space, Objective::Minimize);
    ASSERT_FALSE(bool(bad)) << text;
    EXPECT_NE(llvm::toString(bad.takeError()).find(message),
              std::string::npos)
        << text;
  }
}

} // namespace
