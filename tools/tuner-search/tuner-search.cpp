//===- tuner-search.cpp - Search a user-defined space ---------------------===//
//
// Runs any strategy of the registry over a user-defined space (space JSON,
// or the transform.tune.knob ops of a transform script) with one of the
// tuning core's evaluators: a command run per config, or a replayed table.
// Also counts, samples and enumerates a space's feasible configs exactly
// (Chain-of-Trees).
//
//===----------------------------------------------------------------------===//

#include "tuner/Database/Database.h"
#include "tuner/Schedule/ApplySchedule.h"
#include "tuner/Space/ChainOfTrees.h"
#include "tuner/Space/KnobSpace.h"
#include "tuner/Support/Format.h"
#include "tuner/Target/Target.h"
#include "tuner/Tuning/CommandEvaluator.h"
#include "tuner/Tuning/ReplayEvaluator.h"
#include "tuner/Tuning/TuningSession.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/xxhash.h"

#include <cmath>
#include <cstdio>
#include <random>

using namespace tuner;
namespace cl = llvm::cl;
using llvm::Error;

static const char *const kOverview =
    "tuner-search: search a user-defined space\n\n"
    "  tuner-search (--space space.json | --knobs script.mlir [--constraints "
    "c.json])\n"
    "               (--command TEMPLATE [--compile TEMPLATE] | --replay "
    "table.jsonl|table.csv)\n"
    "               [--strategy S [--strategy-option key=value]...]\n"
    "               [--budget N] [--seed K] [--database DB]\n"
    "               [--minimize | --maximize] [--summary-output F]\n"
    "  tuner-search (--space ... | --knobs ...) (--count | --sample N | "
    "--enumerate)\n\n"
    "A template names parameters in braces: './bench --bx {block_x}'. The "
    "objective is the last number the command prints, or --objective-field "
    "of the last JSON object it prints.\n";

static cl::OptionCategory toolCategory("tuner-search options");

static cl::opt<std::string> spaceOption("space", cl::desc("Space JSON file"),
                                        cl::value_desc("file"),
                                        cl::cat(toolCategory));
static cl::opt<std::string>
    knobsOption("knobs",
                cl::desc("Transform script whose transform.tune.knob ops "
                         "define the space"),
                cl::value_desc("file"), cl::cat(toolCategory));
static cl::opt<std::string> constraintsOption(
    "constraints",
    cl::desc("JSON array of extra constraints for --knobs"),
    cl::value_desc("file"), cl::cat(toolCategory));
static cl::opt<std::string>
    commandOption("command",
                  cl::desc("Command run per config ({name} is replaced by "
                           "the value of parameter name)"),
                  cl::value_desc("template"), cl::cat(toolCategory));
static cl::opt<std::string>
    compileOption("compile",
                  cl::desc("Command run before --command; its failure is "
                           "compile_failed"),
                  cl::value_desc("template"), cl::cat(toolCategory));
static cl::opt<std::string>
    objectiveFieldOption("objective-field",
                         cl::desc("Read the objective from this field of the "
                                  "last JSON object the command prints"),
                         cl::value_desc("name"), cl::cat(toolCategory));
static cl::opt<double> timeoutOption(
    "timeout", cl::desc("Seconds a command may run (timeout beyond)"),
    cl::init(60), cl::cat(toolCategory));
static cl::opt<unsigned> memoryLimitOption(
    "memory-limit",
    cl::desc("MiB of memory a command may use (0: no limit)"),
    cl::init(8192), cl::cat(toolCategory));
static cl::opt<std::string>
    replayOption("replay",
                 cl::desc("Recorded table to replay (JSON lines, or .csv)"),
                 cl::value_desc("file"), cl::cat(toolCategory));
static cl::opt<std::string>
    strategyOption("strategy", cl::desc("Search strategy"), cl::init("random"),
                   cl::cat(toolCategory));
static cl::list<std::string> strategySettingOption(
    "strategy-option",
    cl::desc("A setting of the strategy, key=value (repeatable; e.g. "
             "--strategy-option acquisition=ei for bo)"),
    cl::value_desc("key=value"), cl::cat(toolCategory));
static cl::opt<unsigned> budgetOption(
    "budget", cl::desc("Configs to evaluate (0: no limit)"), cl::init(32),
    cl::cat(toolCategory));
static cl::opt<unsigned> confirmOption(
    "confirm",
    cl::desc("After the search, evaluate its best N configs again (one "
             "batch) and name the best by these evaluations, which "
             "supersede the first in the database (0: not at all); for "
             "noisy objectives, where the best of many is also the "
             "luckiest"),
    cl::init(0), cl::cat(toolCategory));
static cl::opt<double> timeBudgetOption(
    "time-budget", cl::desc("Seconds to search (0: no limit)"), cl::init(0),
    cl::cat(toolCategory));
static cl::opt<uint64_t> seedOption("seed", cl::desc("Seed of the strategy"),
                                    cl::init(1), cl::cat(toolCategory));
static cl::opt<unsigned> runsOption(
    "runs",
    cl::desc("With --replay: seeded runs (seeds K, K+1, ...) whose results "
             "are averaged"),
    cl::init(1), cl::cat(toolCategory));
static cl::opt<std::string>
    databaseOption("database",
                   cl::desc("Tuning database: results are recorded, and a "
                            "rerun resumes from them"),
                   cl::value_desc("file"), cl::cat(toolCategory));
static cl::opt<bool> minimizeOption("minimize",
                                    cl::desc("Lower objectives are better "
                                             "(the default)"),
                                    cl::cat(toolCategory));
static cl::opt<bool> maximizeOption("maximize",
                                    cl::desc("Higher objectives are better"),
                                    cl::cat(toolCategory));
static cl::opt<std::string>
    summaryOption("summary-output", cl::desc("Write the summary JSON here"),
                  cl::value_desc("file"), cl::cat(toolCategory));
static cl::opt<bool> countOption("count",
                                 cl::desc("Print the exact number of "
                                          "feasible configs"),
                                 cl::cat(toolCategory));
static cl::opt<unsigned>
    sampleOption("sample",
                 cl::desc("Print N uniform feasible configs (JSON lines)"),
                 cl::init(0), cl::cat(toolCategory));
static cl::opt<bool> enumerateOption(
    "enumerate", cl::desc("Print every feasible config (JSON lines)"),
    cl::cat(toolCategory));
static cl::opt<uint64_t> limitOption(
    "limit", cl::desc("At most this many configs with --enumerate"),
    cl::init(100000), cl::cat(toolCategory));

namespace {

/// The space named by --space or --knobs.
llvm::Expected<Space> readSpace() {
  if (spaceOption.empty() == knobsOption.empty())
    return llvm::createStringError(
        "give the space with exactly one of --space and --knobs");
  if (!constraintsOption.empty() && knobsOption.empty())
    return llvm::createStringError("--constraints goes with --knobs (a space "
                                   "file states its own constraints)");
  if (!spaceOption.empty())
    return Space::readFile(spaceOption);

  mlir::DialectRegistry registry;
  registerKnobDialects(registry);
  mlir::MLIRContext context(registry);
  std::string diagnostics;
  mlir::ScopedDiagnosticHandler capture(&context, [&](mlir::Diagnostic &d) {
    llvm::raw_string_ostream os(diagnostics);
    if (!diagnostics.empty())
      os << "\n";
    if (auto file = mlir::dyn_cast<mlir::FileLineColLoc>(d.getLocation()))
      os << file.getFilename().getValue() << ":" << file.getLine() << ":"
         << file.getColumn();
    else
      os << d.getLocation();
    os << ": " << d.str();
    return mlir::success();
  });
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(knobsOption);
  if (!buffer)
    return llvm::createStringError("cannot read '" + knobsOption +
                                   "': " + buffer.getError().message());
  mlir::FailureOr<mlir::OwningOpRef<mlir::ModuleOp>> script =
      parseTransformScript(&context, (*buffer)->getBuffer(), knobsOption,
                           /*verify=*/false);
  if (failed(script))
    return llvm::createStringError("cannot parse '" + knobsOption + "'" +
                                   (diagnostics.empty() ? "" : ":\n") +
                                   diagnostics);
  std::vector<std::string> extra;
  if (!constraintsOption.empty()) {
    llvm::Expected<std::vector<std::string>> read =
        readConstraintsFile(constraintsOption);
    if (!read)
      return read.takeError();
    extra = std::move(*read);
  }
  mlir::FailureOr<Space> space = spaceFromKnobs(script->get(), extra);
  if (failed(space))
    return llvm::createStringError(diagnostics);
  return std::move(*space);
}

std::string configText(const Config &config, const Space &space) {
  std::string text;
  llvm::raw_string_ostream(text) << config.toJSON(space);
  return text;
}

/// --count, --sample, --enumerate.
Error describeSpace(const Space &space, const ChainOfTrees &chain) {
  llvm::raw_ostream &os = llvm::outs();
  if (countOption)
    os << chain.countString() << "\n";
  if (sampleOption) {
    std::mt19937_64 rng(seedOption);
    for (unsigned i = 0; i < sampleOption; ++i) {
      llvm::Expected<Config> config = chain.sample(rng);
      if (!config)
        return config.takeError();
      os << configText(*config, space) << "\n";
    }
  }
  if (enumerateOption) {
    if (chain.hasRealParameters())
      return llvm::createStringError(
          "--enumerate: the space has real-valued parameters");
    if (!chain.isExact())
      return llvm::createStringError("--enumerate: the space is too large to "
                                     "enumerate (" +
                                     chain.countString() + " configs)");
    llvm::APInt count = chain.count();
    uint64_t total = count.getActiveBits() > 64 ? UINT64_MAX
                                                : count.getZExtValue();
    uint64_t shown = std::min<uint64_t>(total, limitOption);
    for (uint64_t i = 0; i < shown; ++i)
      os << configText(chain.at(llvm::APInt(count.getBitWidth(), i)), space)
         << "\n";
    if (shown < total)
      llvm::errs() << "tuner-search: printed " << shown << " of "
                   << chain.countString() << " configs (--limit)\n";
  }
  return Error::success();
}

Objective readDirection() {
  return maximizeOption ? Objective::Maximize : Objective::Minimize;
}

/// The workload a command's results are recorded under: the space and the
/// commands together (another command is another workload).
std::string commandWorkload(const Space &space) {
  std::string key = space.fingerprint() + "\n" + commandOption + "\n" +
                    compileOption + "\n" + objectiveFieldOption;
  return llvm::formatv("cmd-{0:x16}", llvm::xxh3_64bits(key)).str();
}

/// The best observation as the user reads it.
void printBest(const TuningResult &result, const Space &space) {
  if (!result.best) {
    llvm::outs() << "null\n";
    return;
  }
  llvm::outs() << configText(result.best->config, space) << "\n";
}

/// The combinations of search options that make no sense.
Error checkSearchOptions() {
  if (!commandOption.empty() == !replayOption.empty())
    return llvm::createStringError(
        "give the evaluator with exactly one of --command and --replay (or "
        "ask for --count, --sample or --enumerate)");
  if (timeBudgetOption < 0)
    return llvm::createStringError("--time-budget must not be negative");
  if (budgetOption == 0 && timeBudgetOption <= 0)
    return llvm::createStringError(
        "the search needs a limit: set --budget or --time-budget");
  if (runsOption == 0)
    return llvm::createStringError("--runs must be positive");
  if (runsOption > 1 && replayOption.empty())
    return llvm::createStringError(
        "--runs repeats a replayed search; a command measures for real");
  if (runsOption > 1 && !databaseOption.empty())
    return llvm::createStringError(
        "--runs and --database do not go together: the runs would resume "
        "from each other");
  return Error::success();
}

/// The evaluator the options name, and the keys its results are recorded
/// under.
struct EvaluatorChoice {
  std::unique_ptr<Evaluator> evaluator;
  /// The same evaluator when it replays a table (null otherwise).
  ReplayEvaluator *replay = nullptr;
  std::string workload, target, label;
};

llvm::Expected<EvaluatorChoice> chooseEvaluator(const Space &space,
                                                Objective objective) {
  EvaluatorChoice choice;
  if (!replayOption.empty()) {
    llvm::Expected<std::unique_ptr<ReplayEvaluator>> table =
        ReplayEvaluator::load(replayOption, space, objective);
    if (!table)
      return table.takeError();
    choice.replay = table->get();
    choice.evaluator = std::move(*table);
    choice.target = "replay";
    choice.workload =
        llvm::formatv("replay-{0:x16}",
                      llvm::xxh3_64bits(space.fingerprint() +
                                        replayOption.getValue()))
            .str();
    choice.label = "replay: " + replayOption;
    return std::move(choice);
  }
  CommandOptions options;
  options.run = commandOption;
  options.compile = compileOption;
  options.timeoutSeconds = timeoutOption;
  options.memoryLimitMB = memoryLimitOption;
  options.objectiveField = objectiveFieldOption;
  options.objective = objective;
  llvm::Expected<std::unique_ptr<CommandEvaluator>> command =
      CommandEvaluator::create(space, std::move(options));
  if (!command)
    return command.takeError();
  choice.evaluator = std::move(*command);
  choice.target = Target::host().fingerprint();
  choice.workload = commandWorkload(space);
  choice.label = "command: " + commandOption;
  return std::move(choice);
}

/// The account of several seeded runs: mean and deviation of their best
/// objectives and mean simulated tuning time, printed and as JSON.
llvm::json::Object summarizeRuns(llvm::json::Array runs,
                                 llvm::ArrayRef<double> bests,
                                 llvm::ArrayRef<double> simulated) {
  double mean = 0, squares = 0, meanTime = 0;
  for (double b : bests)
    mean += b / bests.size();
  for (double b : bests)
    squares += (b - mean) * (b - mean);
  double deviation =
      bests.size() > 1 ? std::sqrt(squares / (bests.size() - 1)) : 0;
  for (double s : simulated)
    meanTime += s / simulated.size();
  llvm::outs() << llvm::formatv(
      "{0} runs of {1}: best objective mean {2:G} (standard deviation "
      "{3:G}, {4} runs found none); simulated tuning time mean {5:F3} s\n",
      runsOption.getValue(), strategyOption.getValue(), mean, deviation,
      runsOption - bests.size(), meanTime);
  return llvm::json::Object{{"strategy", strategyOption.getValue()},
                            {"runs", std::move(runs)},
                            {"best_mean", mean},
                            {"best_deviation", deviation},
                            {"simulated_seconds_mean", meanTime}};
}

Error search(const Space &space, const ChainOfTrees &chain) {
  if (Error error = checkSearchOptions())
    return error;
  Objective objective = readDirection();
  llvm::Expected<EvaluatorChoice> choice = chooseEvaluator(space, objective);
  if (!choice)
    return choice.takeError();
  Evaluator &evaluator = *choice->evaluator;
  ReplayEvaluator *replay = choice->replay;
  std::map<std::string, std::string> settings;
  for (const std::string &setting : strategySettingOption)
    if (Error error = parseStrategySetting(setting, settings))
      return error;
  const std::string &workload = choice->workload, &target = choice->target;

  std::optional<db::Database> database;
  if (!databaseOption.empty()) {
    llvm::Expected<db::Database> opened = db::Database::open(databaseOption);
    if (!opened)
      return opened.takeError();
    database.emplace(std::move(*opened));
    if (Error error =
            database->addWorkload({workload, choice->label, std::nullopt}))
      return error;
  }

  llvm::json::Array runs;
  std::vector<double> bests;
  std::vector<double> simulated;
  llvm::json::Object lastSummary;
  bool interactive = llvm::errs().is_displayed();
  for (unsigned run = 0; run < runsOption; ++run) {
    SearchProblem problem;
    problem.chain = &chain;
    StrategyOptions strategyOptions;
    strategyOptions.seed = seedOption + run;
    strategyOptions.settings = settings;
    strategyOptions.budget = budgetOption;
    llvm::Expected<std::unique_ptr<Strategy>> strategy =
        createStrategy(strategyOption, problem, strategyOptions);
    if (!strategy)
      return strategy.takeError();
    std::optional<DatabaseRecorder> recorder;
    if (database)
      recorder.emplace(*database, space,
                       DatabaseRecorder::Keys{workload, target,
                                              (*strategy)->getName().str(),
                                              objective, std::nullopt});
    if (replay)
      replay->reset();
    SessionOptions options;
    options.budget = {budgetOption, timeBudgetOption};
    options.recorder = recorder ? &*recorder : nullptr;
    options.confirm = confirmOption;
    if (interactive && runsOption == 1)
      options.progress = [](const TuningResult &result) {
        llvm::errs() << llvm::formatv(
            "\rtuner-search: {0} configs ({1} evaluated), best {2}   ",
            result.history.size(), result.evaluated,
            result.best ? shortNumber(result.best->objective) : "-");
        llvm::errs().flush();
      };
    TuningSession session(**strategy, evaluator, std::move(options));
    const TuningResult &result = session.run();
    if (interactive && runsOption == 1)
      llvm::errs() << "\n";
    if (result.error)
      return llvm::createStringError(*result.error);
    if (recorder && !recorder->getError().empty())
      llvm::WithColor::warning(llvm::errs(), "tuner-search")
          << "the tuning database could not record every result: "
          << recorder->getError() << "\n";
    llvm::json::Object summary = session.summary(space);
    summary["seed"] = int64_t(seedOption + run);
    if (replay) {
      summary["simulated_seconds"] = replay->simulatedSeconds();
      simulated.push_back(replay->simulatedSeconds());
    }
    if (result.best)
      bests.push_back(result.best->objective);
    if (runsOption == 1) {
      // The best config on stdout first, then the account on stderr.
      printBest(result, space);
      llvm::outs().flush();
      llvm::errs() << llvm::formatv(
          "tuner-search: {0} configs ({1} evaluated, {2} from the database), "
          "{3} failed{4}; best {5}\n",
          result.history.size(), result.evaluated,
          result.history.size() - result.evaluated, session.failureCount(),
          session.failureCount() ? " (" + session.describeFailures() + ")"
                                 : std::string(),
          result.best ? shortNumber(result.best->objective)
                      : std::string("none"));
      if (const std::optional<Confirmation> &confirmed =
              session.getConfirmation())
        llvm::errs() << "tuner-search: " << confirmed->entries.size()
                     << " of the best evaluated again"
                     << (confirmed->error ? " failed: " + *confirmed->error
                                          : std::string())
                     << (confirmed->before && !confirmed->error
                             ? "; best before: " +
                                   shortNumber(confirmed->before->objective)
                             : std::string())
                     << "\n";
      lastSummary = std::move(summary);
    } else {
      runs.push_back(std::move(summary));
    }
  }

  llvm::json::Object output =
      runsOption == 1 ? std::move(lastSummary)
                      : summarizeRuns(std::move(runs), bests, simulated);
  output["objective"] = objectiveName(objective);
  output["space_size"] = chain.countString();
  if (!settings.empty()) {
    llvm::json::Object recorded;
    for (const auto &[key, value] : settings)
      recorded[key] = value;
    output["strategy_settings"] = std::move(recorded);
  }
  if (!summaryOption.empty())
    if (Error error = writeJSONFile(summaryOption, std::move(output)))
      return error;
  return Error::success();
}

Error run() {
  if (minimizeOption && maximizeOption)
    return llvm::createStringError("--minimize and --maximize contradict "
                                   "each other");
  llvm::Expected<Space> space = readSpace();
  if (!space)
    return space.takeError();
  llvm::Expected<ChainOfTrees> chain = ChainOfTrees::build(*space);
  if (!chain)
    return chain.takeError();
  if (countOption || sampleOption || enumerateOption)
    return describeSpace(*space, *chain);
  return search(*space, *chain);
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(toolCategory);
  cl::ParseCommandLineOptions(argc, argv, kOverview);
  if (Error err = run()) {
    llvm::WithColor::error(llvm::errs(), "tuner-search")
        << llvm::toString(std::move(err)) << "\n";
    return 1;
  }
  return 0;
}
