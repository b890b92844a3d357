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

TEST(TuningSession, RecordsEveryOutcomeAndResumesFromTheDatabase) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("session", dir));
  std::string path = (dir + "/tuning.db").str();
  llvm::Expected<db::Database> database = db::Database::open(path);
  ASSERT_TRUE(bool(database)) << llvm::toString(database.takeError());
  ASSERT_FALSE(bool(database->addWorkload({"w", "f", std::nullopt})));
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
