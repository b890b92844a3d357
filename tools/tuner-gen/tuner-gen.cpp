//===- tuner-gen.cpp - Random programs to a measured dataset --------------===//
//
//   tuner-gen -o DIR --programs N --configs-per-program M --seed S
//             [--neighbours B] [--shard K/N] [--flavour linalg|affine|both]
//             [--repetitions R] [--rounds N] [--paired-baseline=false]
//             [--min-time S] [--jobs J] [--timeout T] [--compile-timeout C]
//             [--max-baseline S]
//             [--max-elements E] [--max-work W] [--max-computations C]
//             [--patterns P,...]
//   tuner-gen --print-only --programs N --seed S [...]  the programs' MLIR
//   tuner-gen --summarize -o DIR                       what DIR holds
//
// For each program index i of its shard (i % N == K): generates program i
// from (seed, i), builds its ProgramTree and Space, samples M distinct
// configs uniformly from the space (Chain-of-Trees, seeded from (seed, i);
// with --neighbours B, one in B+1 of them uniformly, each followed by B
// configs one move away from it),
// applies each to a copy of the program, measures the baseline and every
// candidate against it (failures included), and appends program and sample
// records to DIR/programs-sK-of-N.jsonl and DIR/samples-sK-of-N.jsonl.
// A program's configs are measured as one batch: one clang call per
// compile job, one harness process (see Measurer::measureAll).
//
// Rerunning the same command resumes: (program, config) pairs already in
// the shard's files are not measured again. Shards write disjoint files, so
// N processes (a Slurm job array, GNU parallel) fill one folder, or folders
// that are merged by copying their files together. Programs whose baseline
// cannot be measured (or is slower than --max-baseline) are skipped with a
// warning; a generated program that does not verify is a generator bug:
// skipped too, and the exit status is 1.
//
//===----------------------------------------------------------------------===//

#include "tuner/Analysis/ProgramAnalysis.h"
#include "tuner/CostModel/Dataset.h"
#include "tuner/Generator/Generator.h"
#include "tuner/Analysis/WorkloadHash.h"
#include "tuner/Database/Database.h"
#include "tuner/Measure/Measurer.h"
#include "tuner/Search/Neighbourhood.h"
#include "tuner/Search/Strategies.h"
#include "tuner/Support/Format.h"
#include "tuner/Tuning/MeasuringEvaluator.h"
#include "tuner/Tuning/TuningSession.h"
#include "tuner/Schedule/ApplySchedule.h"
#include "tuner/Schedule/ScheduleBuilder.h"
#include "tuner/Space/ChainOfTrees.h"
#include "tuner/Space/SpaceBuilder.h"
#include "tuner/Target/Target.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <map>
#include <random>
#include <set>

using namespace mlir;
using namespace tuner;
namespace cl = llvm::cl;

static cl::OptionCategory category("tuner-gen options");
static cl::opt<std::string> outputDir("o", cl::desc("Dataset folder"),
                                      cl::value_desc("dir"), cl::cat(category));
static cl::opt<unsigned> numPrograms("programs",
                                     cl::desc("Programs in the whole run "
                                              "(over all shards)"),
                                     cl::init(0), cl::cat(category));
static cl::opt<unsigned>
    configsPerProgram("configs-per-program",
                      cl::desc("Distinct random configs measured per "
                               "program (fewer when the space is smaller)"),
                      cl::init(16), cl::cat(category));
static cl::opt<unsigned> neighbours(
    "neighbours",
    cl::desc("Of each program's configs, draw one in B+1 uniformly and "
             "follow each by B distinct configs one move away from it (one "
             "parameter one step along its topology, repaired when a "
             "constraint forbids the step alone), so that the ranking loss "
             "sees pairs that differ in one decision, as the search's "
             "siblings do (0: every config uniform, the first datasets' "
             "sampling)"),
    cl::init(0), cl::value_desc("B"), cl::cat(category));
static cl::opt<uint64_t> seed("seed", cl::desc("Seed of the whole run"),
                              cl::init(1), cl::cat(category));
static cl::opt<std::string>
    shardSpec("shard",
              cl::desc("K/N: this process does programs i with i % N == K"),
              cl::init("0/1"), cl::cat(category));
static cl::opt<std::string> flavourName("flavour",
                                        cl::desc("linalg, affine or both (a "
                                                 "random one per program)"),
                                        cl::init("both"), cl::cat(category));
static cl::opt<unsigned> repetitions("repetitions",
                                     cl::desc("Timed repetitions per "
                                              "measurement (at least 5)"),
                                     cl::init(5), cl::cat(category));
static cl::opt<unsigned> rounds(
    "rounds",
    cl::desc("Times each config this many times, in rounds (a harness "
             "process each), and keeps the least median of the undisturbed "
             "timings (the host's slow spells only slow timings down)"),
    cl::init(2), cl::cat(category));
static cl::opt<bool> pairedBaseline(
    "paired-baseline",
    cl::desc("Time the baseline in every harness process beside the "
             "candidates and take each candidate's speedup from those pairs "
             "(geometric mean over the rounds), so that a slow process or "
             "spell of the host cancels (CPU targets; default on)"),
    cl::init(true), cl::cat(category));
static cl::opt<double>
    minTime("min-time",
            cl::desc("Seconds each repetition lasts at least (the function "
                     "is called until then)"),
            cl::init(0.02), cl::cat(category));
static cl::opt<unsigned> jobs("jobs",
                              cl::desc("Candidates compiled at once (0: one "
                                       "per core)"),
                              cl::init(0), cl::cat(category));
static cl::opt<double> timeout("timeout",
                               cl::desc("Seconds one harness run may take"),
                               cl::init(30), cl::cat(category));
static cl::opt<double> compileTimeout(
    "compile-timeout",
    cl::desc("Seconds clang -O3 may take per candidate before the candidate "
             "is compile_failed (the autotune pass allows 300; a dataset "
             "loses little by skipping the rare candidate that takes "
             "minutes)"),
    cl::init(60), cl::cat(category));
static cl::opt<uint64_t> maxLoweredOps(
    "max-lowered-ops",
    cl::desc("A candidate whose module holds more operations than this once "
             "its vectors are unrolled into rows is compile_failed without "
             "being lowered further or compiled (0: no limit; such a "
             "candidate lowers for a minute and clang -O3 takes minutes)"),
    cl::init(CpuLoweringOptions::candidateMaxOps), cl::cat(category));
static cl::opt<int64_t>
    maxElements("max-elements", cl::desc("Elements of the largest tensor"),
                cl::init(gen::GeneratorOptions().maxElements),
                cl::cat(category));
static cl::opt<int64_t>
    maxWork("max-work",
            cl::desc("Loop iterations of a whole program (default: 16 x "
                     "max-elements)"),
            cl::init(0), cl::cat(category));
static cl::opt<unsigned> maxComputations(
    "max-computations", cl::desc("Computations per program (1 to 8)"),
    cl::init(gen::GeneratorOptions().maxComputations), cl::cat(category));
static cl::opt<std::string> patterns(
    "patterns",
    cl::desc("The patterns programs are made of, comma-separated, each "
             "optionally with a weight (name:weight): elementwise, stencil, "
             "reduction, contraction, convolution, channel-convolution, "
             "time-stencil (affine programs only), or all. The default is "
             "the set of the first datasets, whose seeds keep generating the "
             "same programs"),
    cl::init("elementwise,stencil,reduction,contraction,convolution"),
    cl::cat(category));
static cl::opt<double>
    maxBaseline("max-baseline",
                cl::desc("Skip programs whose untransformed run takes longer "
                         "(seconds)"),
                cl::init(0.2), cl::cat(category));
static cl::opt<bool>
    summarize("summarize",
              cl::desc("Read the dataset folder given with -o "
                       "(every shard) and print what it holds"),
              cl::init(false), cl::cat(category));
static cl::opt<std::string> databasePath(
    "database",
    cl::desc("Also record every measurement in this tuning database (the "
             "program as a workload with its IR, the space's fingerprint, "
             "the schedule), where tuner-train and tuner-db read it too"),
    cl::value_desc("file"), cl::cat(category));
static cl::opt<bool> printOnly("print-only",
                               cl::desc("Print the shard's programs (MLIR, "
                                        "split by '// -----') and stop"),
                               cl::init(false), cl::cat(category));

namespace {

int fail(const llvm::Twine &message) {
  llvm::errs() << "tuner-gen: " << message << "\n";
  return 1;
}

void warn(const llvm::Twine &message) {
  llvm::errs() << "tuner-gen: warning: " << message << "\n";
}


/// "K/N" with 0 <= K < N.
std::optional<std::pair<unsigned, unsigned>> parseShard(llvm::StringRef text) {
  auto [first, second] = text.split('/');
  unsigned index = 0, count = 0;
  if (first.getAsInteger(10, index) || second.getAsInteger(10, count) ||
      count == 0 || index >= count)
    return std::nullopt;
  return std::make_pair(index, count);
}

/// The flavour of the program of `programSeed`: the one asked for, or a
/// random one.
gen::Flavour flavourFor(std::optional<gen::Flavour> asked,
                        uint64_t programSeed) {
  if (asked)
    return *asked;
  return gen::mixSeed(programSeed, 1) % 2 ? gen::Flavour::Affine
                                          : gen::Flavour::Linalg;
}

/// Up to `count` distinct configs of the space (all of them, in order, when
/// the space holds no more): drawn uniformly when `neighbourCount` is 0;
/// else in groups of an anchor drawn uniformly and up to `neighbourCount`
/// distinct configs one move from it (Neighbourhood::move), the anchors'
/// and their neighbours' draws seeded apart, so that the anchors are the
/// configs the uniform sampling draws first (but for one that was already
/// drawn as a neighbour).
std::vector<Config> sampleConfigs(const ChainOfTrees &chain, unsigned count,
                                  unsigned neighbourCount, uint64_t rngSeed) {
  std::vector<Config> configs;
  llvm::APInt size = chain.count();
  if (!chain.hasRealParameters() && size.ule(count)) {
    for (uint64_t i = 0, e = size.getZExtValue(); i < e; ++i)
      configs.push_back(chain.at(llvm::APInt(size.getBitWidth(), i)));
    return configs;
  }
  std::mt19937_64 rng(rngSeed);
  std::mt19937_64 moves(gen::mixSeed(rngSeed, 1));
  Neighbourhood neighbourhood(chain);
  std::set<Config> seen;
  for (unsigned attempt = 0; attempt < 50 * count && configs.size() < count;
       ++attempt) {
    llvm::Expected<Config> anchor = chain.sample(rng);
    if (!anchor) {
      llvm::consumeError(anchor.takeError());
      break;
    }
    if (!seen.insert(*anchor).second)
      continue;
    configs.push_back(*anchor);
    // Its neighbours, as many as the space and the count allow: a space
    // where the anchor has fewer gives the rest to the next anchor.
    for (unsigned added = 0, tries = 0;
         added < neighbourCount && configs.size() < count &&
         tries < 16 * neighbourCount;
         ++tries) {
      std::optional<Config> near = neighbourhood.move(*anchor, moves);
      if (near && seen.insert(*near).second) {
        configs.push_back(std::move(*near));
        ++added;
      }
    }
  }
  return configs;
}

/// Collects error diagnostics (and their notes) as one string while alive.
class DiagnosticCapture {
public:
  explicit DiagnosticCapture(MLIRContext &context)
      : handler(&context, [this](Diagnostic &diagnostic) {
          if (diagnostic.getSeverity() != DiagnosticSeverity::Error &&
              diagnostic.getSeverity() != DiagnosticSeverity::Note)
            return success();
          if (!text.empty())
            text += "; ";
          text += diagnostic.str();
          for (const Diagnostic &note : diagnostic.getNotes())
            text += "; " + note.str();
          return success();
        }) {}
  std::string text;

private:
  ScopedDiagnosticHandler handler;
};

/// One run of the generator over a shard.
class Generation {
public:
  Generation(MLIRContext &context, const DialectRegistry &registry,
             gen::GeneratorOptions generatorOptions,
             MeasureOptions measureOptions, unsigned shardIndex,
             unsigned shardCount, std::optional<gen::Flavour> flavour)
      : context(context), registry(registry),
        generatorOptions(generatorOptions), measureOptions(measureOptions),
        shardIndex(shardIndex), shardCount(shardCount), flavour(flavour),
        host(Target::host()), fingerprint(host.fingerprint()) {}

  /// Reads what the shard's files already hold.
  llvm::Error resume(llvm::StringRef folder, llvm::StringRef suffix);
  /// Generates and measures program `index`; a failure that concerns only
  /// this program is a warning. Errors are fatal (the dataset cannot be
  /// written).
  llvm::Error runProgram(unsigned index, DatasetWriter &writer,
                         llvm::StringRef progress);
  void printSummary(double seconds) const;

  /// Generator bugs met (programs that did not verify).
  unsigned generatorBugs = 0;
  /// Where measurements are recorded besides the dataset (--database).
  db::Database *database = nullptr;

private:
  friend class DatasetRecorder;
  std::string programId(unsigned index) const {
    std::string id;
    llvm::raw_string_ostream(id)
        << "s" << seed.getValue() << "-p" << llvm::format("%06u", index);
    return id;
  }
  /// Writes the sample of `observation` to the dataset, which cost
  /// `generationSeconds` to make (SampleRecord::generationSeconds).
  llvm::Error record(DatasetWriter &writer, const std::string &id,
                     const Space &space, const Observation &observation,
                     double generationSeconds);

  MLIRContext &context;
  const DialectRegistry &registry;
  gen::GeneratorOptions generatorOptions;
  MeasureOptions measureOptions;
  unsigned shardIndex, shardCount;
  std::optional<gen::Flavour> flavour;
  Target host;
  std::string fingerprint;

  /// From earlier runs: recorded programs (id -> IR) and measured configs.
  std::map<std::string, std::string> recordedPrograms;
  /// The recorded programs' spaces (compared, as JSON text, only for
  /// programs with configs left to measure).
  std::map<std::string, Space> recordedSpaces;
  std::map<std::string, std::set<uint64_t>> measuredConfigs;

  // Counters for the summary.
  unsigned programsMeasured = 0, programsComplete = 0, programsSkipped = 0;
  unsigned samplesBefore = 0, samplesWritten = 0;
  std::map<std::string, unsigned> statusCounts;
  // Where the time went, for the summary: preparing programs (generate,
  // parse, analyze, build and sample the space), measuring baselines
  // (Measurer::create), applying schedules, and the measurers' own
  // breakdown.
  double prepareSeconds = 0, baselineSeconds = 0, applySeconds = 0;
  MeasureStats measureStats;
};

/// Measures configs of a generated program as the autotune pass does, but
/// applies each to the program parsed in an MLIR context of its own (a long
/// generation would otherwise grow one context without bound).
class GeneratedProgramEvaluator : public MeasuringEvaluator {
public:
  GeneratedProgramEvaluator(ModuleOp module, const DialectRegistry &registry,
                            llvm::StringRef program, const ProgramTree &tree,
                            const Space &space, Measurer &measurer,
                            double &applySeconds)
      : MeasuringEvaluator(module, tree, space, measurer), registry(registry),
        program(program), applySeconds(applySeconds) {}

  std::vector<Observation> evaluate(llvm::ArrayRef<Config> configs) override {
    std::vector<Observation> observations =
        MeasuringEvaluator::evaluate(configs);
    // The batch's candidates are gone: so may their contexts be.
    contexts.clear();
    return observations;
  }

protected:
  /// A schedule that crashes the transform interpreter is a failed
  /// candidate (applyTransformScript recovers), not a failed run.
  OwningOpRef<ModuleOp> apply(llvm::StringRef script,
                              std::string &message) override {
    auto start = std::chrono::steady_clock::now();
    llvm::scope_exit addTime([&] {
      applySeconds += std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - start)
                          .count();
    });
    contexts.push_back(std::make_unique<MLIRContext>(
        registry, MLIRContext::Threading::DISABLED));
    DiagnosticCapture capture(*contexts.back());
    llvm::Expected<OwningOpRef<ModuleOp>> module =
        gen::parseProgram(*contexts.back(), program);
    if (!module) {
      message = llvm::toString(module.takeError());
      return nullptr;
    }
    if (failed(applyTransformScript(**module, script))) {
      message = capture.text;
      return nullptr;
    }
    return std::move(*module);
  }

private:
  const DialectRegistry &registry;
  llvm::StringRef program;
  double &applySeconds;
  std::vector<std::unique_ptr<MLIRContext>> contexts;
};

/// Writes every outcome of a program's configs to the dataset (the configs
/// already recorded were left out of the list beforehand).
class DatasetRecorder : public Recorder {
public:
  /// `programStart`: when the run began to work on the program; `samples`:
  /// how many it measures (one batch).
  DatasetRecorder(Generation &generation, DatasetWriter &writer,
                  std::string id, const Space &space,
                  std::chrono::steady_clock::time_point programStart,
                  size_t samples)
      : generation(generation), writer(writer), id(std::move(id)),
        space(space), programStart(programStart), samples(samples) {}

  std::optional<Observation> recall(const Config &) override {
    return std::nullopt;
  }
  void record(const Observation &observation) override {
    if (database)
      database->record(observation);
    // The program's samples are measured in one batch and recorded when it
    // is done: each costs the time so far over the batch's samples.
    if (perSample < 0)
      perSample = std::chrono::duration<double>(
                      std::chrono::steady_clock::now() - programStart)
                      .count() /
                  double(std::max<size_t>(1, samples));
    if (llvm::Error error =
            generation.record(writer, id, space, observation, perSample))
      noteError(llvm::toString(std::move(error)));
  }
  /// Records every outcome in a tuning database too.
  void alsoRecordIn(DatabaseRecorder &recorder) { database = &recorder; }

private:
  Generation &generation;
  DatasetWriter &writer;
  std::string id;
  const Space &space;
  std::chrono::steady_clock::time_point programStart;
  size_t samples;
  double perSample = -1;
  DatabaseRecorder *database = nullptr;
};

/// A space as JSON text, to compare spaces.
static std::string spaceText(const Space &space) {
  std::string text;
  llvm::raw_string_ostream(text) << space.toJSON();
  return text;
}

llvm::Error Generation::resume(llvm::StringRef folder, llvm::StringRef suffix) {
  llvm::Expected<Dataset> existing = Dataset::readShard(folder, suffix);
  if (!existing)
    return llvm::createStringError("cannot resume from the shard's files: " +
                                   llvm::toString(existing.takeError()));
  for (const std::string &warning : existing->warnings)
    warn(warning);
  for (ProgramRecord &program : existing->programs) {
    recordedPrograms[program.id] = program.mlir;
    recordedSpaces.emplace(program.id, std::move(program.space));
  }
  for (const SampleRecord &sample : existing->samples)
    measuredConfigs[sample.programId].insert(sample.config.hash());
  samplesBefore = existing->samples.size();
  if (!existing->programs.empty())
    llvm::errs() << llvm::formatv(
        "tuner-gen: resuming: the shard's files hold {0} programs and {1} "
        "samples\n",
        existing->programs.size(), existing->samples.size());
  return llvm::Error::success();
}

llvm::Error Generation::record(DatasetWriter &writer, const std::string &id,
                               const Space &space,
                               const Observation &observation,
                               double generationSeconds) {
  SampleRecord sample;
  sample.programId = id;
  sample.config = observation.config;
  sample.status = observation.status;
  sample.generationSeconds = generationSeconds;
  if (observation.ok()) {
    sample.speedup = observation.value;
    sample.medianSeconds = observation.medianSeconds;
    sample.foreignLoad = observation.foreignLoad;
  } else {
    sample.message = observation.message.substr(0, 2000);
  }
  ++statusCounts[statusName(sample.status).str()];
  ++samplesWritten;
  return writer.add(sample, space);
}

llvm::Error Generation::runProgram(unsigned index, DatasetWriter &writer,
                                   llvm::StringRef progress) {
  std::string id = programId(index);
  uint64_t programSeed = gen::mixSeed(seed, index);
  auto prepareStart = std::chrono::steady_clock::now();
  auto secondsSince = [](std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  };
  auto skip = [&](const llvm::Twine &why) {
    warn("skipping program " + id + ": " + why);
    ++programsSkipped;
    return llvm::Error::success();
  };

  llvm::Expected<gen::GeneratedProgram> program = gen::generateProgram(
      programSeed, flavourFor(flavour, programSeed), generatorOptions);
  if (!program) {
    ++generatorBugs;
    return skip(llvm::toString(program.takeError()));
  }
  auto recorded = recordedPrograms.find(id);
  if (recorded != recordedPrograms.end() && recorded->second != program->mlir)
    return llvm::createStringError(
        "program " + id +
        " in the dataset differs from the one this command generates: "
        "resume with the options of the run that wrote it, or write to "
        "another folder");

  // A recorded program with a sample for each of its configs has nothing
  // left to measure, whatever its space: say so without rebuilding the
  // space (a resume walks every recorded program).
  if (recorded != recordedPrograms.end() &&
      measuredConfigs[id].size() >= configsPerProgram) {
    llvm::errs() << progress << " " << id << ": " << program->describe()
                 << ": complete\n";
    ++programsComplete;
    return llvm::Error::success();
  }

  llvm::Expected<OwningOpRef<ModuleOp>> module =
      gen::parseProgram(context, program->mlir);
  if (!module) {
    ++generatorBugs;
    return skip(llvm::toString(module.takeError()));
  }
  auto func = (**module).lookupSymbol<func::FuncOp>(program->spec.functionName);
  if (!func) {
    ++generatorBugs;
    return skip("generator bug: no function @" + program->spec.functionName);
  }
  FailureOr<ProgramTree> tree;
  {
    DiagnosticCapture capture(context);
    tree = buildProgramTree(func);
    if (failed(tree))
      return skip("the tuner cannot analyze it: " + capture.text);
  }
  llvm::Expected<Space> space = buildSpace(*tree, host);
  if (!space)
    return skip("no search space: " + llvm::toString(space.takeError()));
  llvm::Expected<ChainOfTrees> chain = ChainOfTrees::build(*space);
  if (!chain)
    return skip("cannot enumerate its space: " +
                llvm::toString(chain.takeError()));

  // A program recorded with another space (by an older tuner whose space
  // builder has since changed) keeps its samples as they are: configs of
  // this space would not read back against the recorded one.
  auto recordedSpace = recordedSpaces.find(id);
  if (recordedSpace != recordedSpaces.end() &&
      spaceText(recordedSpace->second) != spaceText(*space)) {
    llvm::errs() << progress << " " << id << ": " << program->describe()
                 << ": recorded with another space (an older tuner's); "
                    "its samples are kept as they are\n";
    ++programsComplete;
    return llvm::Error::success();
  }

  std::vector<Config> configs =
      sampleConfigs(*chain, configsPerProgram, neighbours,
                    gen::mixSeed(programSeed, 2));
  const std::set<uint64_t> &done = measuredConfigs[id];
  std::vector<Config> todo;
  size_t recordedDrawn = 0;
  for (Config &config : configs) {
    if (done.count(config.hash()))
      ++recordedDrawn;
    else
      todo.push_back(std::move(config));
  }
  // The configs measured so far must be among those this command draws (the
  // drawn configs are distinct): a program resumed with another
  // --neighbours would mix two samplings.
  if (recordedDrawn < done.size())
    return llvm::createStringError(llvm::formatv(
        "program {0}: {1} of its {2} recorded configs are not among those "
        "this command draws (written with another --neighbours?): resume "
        "with the options of the run that wrote it, or write to another "
        "folder",
        id, done.size() - recordedDrawn, done.size()));
  llvm::errs() << progress << " " << id << ": " << program->describe();
  if (todo.empty() && recorded != recordedPrograms.end()) {
    llvm::errs() << ": complete\n";
    ++programsComplete;
    return llvm::Error::success();
  }
  llvm::errs() << "\n";

  prepareSeconds += secondsSince(prepareStart);
  auto start = std::chrono::steady_clock::now();
  llvm::Expected<std::unique_ptr<Measurer>> measurer = Measurer::create(
      **module, program->spec.functionName, host, measureOptions);
  baselineSeconds += secondsSince(start);
  if (!measurer)
    return skip("its baseline cannot be measured: " +
                llvm::toString(measurer.takeError()));
  double baseline = (*measurer)->baseline().medianSeconds;
  if (baseline > maxBaseline)
    return skip("its untransformed run takes " + formatSeconds(baseline, 2) +
                ", more than --max-baseline");
  if (recorded == recordedPrograms.end()) {
    ProgramRecord record;
    record.id = id;
    record.tree = *tree;
    record.space = *space;
    record.mlir = program->mlir;
    record.generator = llvm::formatv(
        "{0} (tuner-gen --seed {1}, program {2}, --max-elements {3} "
        "--max-work {4} --max-computations {5}{6})",
        program->describe(), seed.getValue(), index,
        generatorOptions.maxElements, generatorOptions.maxWork,
        generatorOptions.maxComputations,
        // Only when not the default, so that records of the default set
        // read as they did before patterns could be chosen.
        generatorOptions.patternWeights == gen::defaultPatternWeights()
            ? std::string()
            : " --patterns " + gen::stringifyPatternWeights(
                                   generatorOptions.patternWeights));
    record.baselineSeconds = baseline;
    record.baselineForeignLoad = (*measurer)->baseline().foreignLoad;
    record.target = fingerprint;
    if (llvm::Error error = writer.add(record))
      return error;
    recordedPrograms[id] = program->mlir;
  }

  // The program's configs run through the tuning core: the chosen configs
  // in order, evaluated in batches, every outcome written to the dataset.
  GeneratedProgramEvaluator evaluator(**module, registry, program->mlir,
                                      *tree, *space, **measurer,
                                      applySeconds);
  DatasetRecorder recorder(*this, writer, id, *space, prepareStart,
                           todo.size());
  std::unique_ptr<Strategy> configsInOrder = createListSearch(todo);
  std::optional<DatabaseRecorder> databaseRecorder;
  if (database) {
    std::string workload = workloadHash(func);
    if (llvm::Error error = database->addWorkload(
            {workload, func.getSymName().str(), canonicalIR(func)}))
      return error;
    databaseRecorder.emplace(*database, *space,
                             DatabaseRecorder::Keys{
                                 workload, fingerprint, "tuner-gen",
                                 Objective::Speedup, baseline});
    recorder.alsoRecordIn(*databaseRecorder);
  }
  SessionOptions sessionOptions;
  sessionOptions.budget.evaluations = todo.size();
  // One batch per program: the Measurer compiles it with one clang call per
  // job and runs it in one harness process, with the inputs made once.
  sessionOptions.batch = std::max<size_t>(1, todo.size());
  sessionOptions.recorder = &recorder;
  TuningSession session(*configsInOrder, evaluator, std::move(sessionOptions));
  session.run();
  measureStats += (*measurer)->stats();
  if (!recorder.getError().empty())
    return llvm::createStringError(recorder.getError());
  if (databaseRecorder && !databaseRecorder->getError().empty())
    return llvm::createStringError("cannot record in the tuning database: " +
                                   databaseRecorder->getError());
  std::map<std::string, unsigned> counts;
  for (const Observation &observation : session.getResult().history)
    ++counts[statusName(observation.status).str()];
  ++programsMeasured;
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  std::vector<std::string> parts;
  for (const auto &[status, count] : counts)
    parts.push_back(llvm::formatv("{0} {1}", count, status));
  llvm::errs() << llvm::formatv(
      "  baseline {0}, {1} new samples ({2}) in {3}\n", formatSeconds(baseline, 2),
      todo.size(), parts.empty() ? "none" : llvm::join(parts, ", "),
      formatSeconds(seconds, 2));
  return llvm::Error::success();
}

void Generation::printSummary(double seconds) const {
  unsigned failures = 0;
  std::vector<std::string> parts;
  for (const auto &[status, count] : statusCounts) {
    parts.push_back(llvm::formatv("{0} {1}", count, status));
    if (status != "ok")
      failures += count;
  }
  llvm::outs() << llvm::formatv(
      "tuner-gen: shard {0}/{1}: {2} programs measured, {3} already "
      "complete, {4} skipped\n",
      shardIndex, shardCount, programsMeasured, programsComplete,
      programsSkipped);
  llvm::outs() << llvm::formatv(
      "tuner-gen: {0} samples written ({1}), {2} failed; {3} were already "
      "in the shard's files\n",
      samplesWritten, parts.empty() ? "none" : llvm::join(parts, ", "),
      failures, samplesBefore);
  llvm::outs() << llvm::formatv(
      "tuner-gen: wall time {0:F1} s, {1:F2} samples/s ({2:F0} per hour)\n",
      seconds, seconds > 0 ? samplesWritten / seconds : 0.0,
      seconds > 0 ? samplesWritten * 3600 / seconds : 0.0);
  const MeasureStats &m = measureStats;
  llvm::outs() << llvm::formatv(
      "tuner-gen: time: programs and spaces {0:F1} s, baselines {1:F1} s, "
      "applying schedules {2:F1} s; lowering {3:F1} s and clang {4:F1} s "
      "({5} calls; summed over parallel threads); {6} harness runs {7:F1} "
      "s (inputs and start-up {8:F1} s, verification calls {9:F1} s, "
      "warm-up {10:F1} s, timed repetitions {11:F1} s); {12} retries for "
      "foreign load after {13:F1} s of pauses; comparing outputs {14:F1} "
      "s\n",
      prepareSeconds, baselineSeconds, applySeconds, m.lowerSeconds,
      m.clangSeconds, m.clangCalls, m.harnessRuns, m.harnessSeconds,
      m.inputSeconds, m.firstCallSeconds, m.warmupSeconds, m.timedSeconds,
      m.retries, m.pauseSeconds, m.verifySeconds);
}

} // namespace

/// --summarize: what a dataset folder holds, over all its shards.
int printStats() {
  llvm::Expected<Dataset> dataset = Dataset::read(outputDir);
  if (!dataset)
    return fail(llvm::toString(dataset.takeError()));
  for (const std::string &warning : dataset->warnings)
    warn(warning);
  std::map<std::string, unsigned> statuses;
  std::map<std::string, unsigned> perProgram;
  for (const SampleRecord &sample : dataset->samples) {
    ++statuses[statusName(sample.status).str()];
    ++perProgram[sample.programId];
  }
  std::vector<std::string> parts;
  for (const auto &[status, count] : statuses)
    parts.push_back(llvm::formatv("{0} {1}", count, status));
  unsigned fewest = dataset->samples.empty() ? 0 : ~0u, most = 0;
  for (const ProgramRecord &program : dataset->programs) {
    unsigned count = perProgram[program.id];
    fewest = std::min(fewest, count);
    most = std::max(most, count);
  }
  llvm::outs() << llvm::formatv(
      "{0}: {1} programs, {2} samples ({3}), {4} to {5} samples per "
      "program\n",
      outputDir, dataset->programs.size(), dataset->samples.size(),
      parts.empty() ? "none" : llvm::join(parts, ", "), fewest, most);
  // What the samples cost to make, where their generator recorded it.
  double seconds = 0;
  size_t costed = 0;
  for (const SampleRecord &sample : dataset->samples)
    if (sample.generationSeconds >= 0) {
      seconds += sample.generationSeconds;
      ++costed;
    }
  llvm::outs() << llvm::formatv(
      "{0}: generation time {1:f2} hours for {2} samples ({3:f0} samples per "
      "hour); {4} samples without one (recorded by an older tuner-gen)\n",
      outputDir, seconds / 3600, costed,
      seconds > 0 ? double(costed) * 3600 / seconds : 0.0,
      dataset->samples.size() - costed);
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "tuner-gen: random programs x random schedules -> measured dataset\n");

  if (summarize) {
    if (outputDir.empty())
      return fail("--summarize reads the dataset folder given with -o DIR");
    return printStats();
  }
  if (numPrograms == 0)
    return fail("--programs must be at least 1");
  std::optional<std::pair<unsigned, unsigned>> shard = parseShard(shardSpec);
  if (!shard)
    return fail("--shard must be K/N with 0 <= K < N (got '" + shardSpec +
                "')");
  auto [shardIndex, shardCount] = *shard;
  std::optional<gen::Flavour> flavour;
  if (flavourName != "both") {
    flavour = gen::parseFlavour(flavourName);
    if (!flavour)
      return fail("--flavour must be linalg, affine or both (got '" +
                  flavourName + "')");
  }
  gen::GeneratorOptions generatorOptions;
  generatorOptions.maxElements = maxElements;
  generatorOptions.maxWork = maxWork ? int64_t(maxWork) : 16 * maxElements;
  generatorOptions.maxComputations = maxComputations;
  llvm::Expected<gen::PatternWeights> weights =
      gen::parsePatternWeights(patterns);
  if (!weights)
    return fail("--" + llvm::toString(weights.takeError()));
  generatorOptions.patternWeights = *weights;
  for (gen::Flavour used : {gen::Flavour::Linalg, gen::Flavour::Affine}) {
    if (flavour && *flavour != used)
      continue;
    if (llvm::Error error = generatorOptions.check(used))
      return fail(llvm::toString(std::move(error)) +
                  (used == gen::Flavour::Linalg && !flavour
                       ? " (--flavour both makes linalg programs too)"
                       : ""));
  }

  MLIRContext context;
  if (printOnly) {
    bool first = true;
    for (unsigned i = shardIndex; i < numPrograms; i += shardCount) {
      uint64_t programSeed = gen::mixSeed(seed, i);
      llvm::Expected<gen::GeneratedProgram> program = gen::generateProgram(
          programSeed, flavourFor(flavour, programSeed), generatorOptions);
      if (!program)
        return fail(llvm::toString(program.takeError()));
      if (!first)
        llvm::outs() << "// -----\n";
      first = false;
      llvm::outs() << "// program " << i << ": " << program->describe() << "\n"
                   << program->mlir;
    }
    return 0;
  }

  if (outputDir.empty())
    return fail("no dataset folder: give one with -o DIR");
  if (configsPerProgram == 0)
    return fail("--configs-per-program must be at least 1");
  if (repetitions < 5)
    return fail("--repetitions must be at least 5 (got " +
                llvm::Twine(repetitions.getValue()) +
                "): the median of fewer runs is noise");
  if (rounds == 0)
    return fail("--rounds must be at least 1");
  if (!(timeout > 0))
    return fail("--timeout must be positive");
  if (!(compileTimeout > 0))
    return fail("--compile-timeout must be positive");
  if (!(minTime > 0))
    return fail("--min-time must be positive");
  if (!(maxBaseline > 0))
    return fail("--max-baseline must be positive");

  MeasureOptions measureOptions;
  measureOptions.repetitions = repetitions;
  measureOptions.rounds = rounds;
  measureOptions.pairedBaseline = pairedBaseline;
  measureOptions.minRepetitionSeconds = minTime;
  measureOptions.timeoutSeconds = timeout;
  measureOptions.compileTimeoutSeconds = compileTimeout;
  measureOptions.lowering.maxOps = maxLoweredOps;
  measureOptions.jobs = jobs;
  // Once, now: a rebuild during a long run must not lose the harness (every
  // later program would be skipped).
  measureOptions.harnessPath = findHarness(measureOptions);
  if (measureOptions.harnessPath.empty())
    return fail("cannot find the harness 'tuner-run' next to tuner-gen or on "
                "PATH");

  std::string suffix =
      llvm::formatv("-s{0}-of-{1}", shardIndex, shardCount).str();
  llvm::Expected<DatasetWriter> writer = DatasetWriter::open(outputDir, suffix);
  if (!writer)
    return fail(llvm::toString(writer.takeError()));

  DialectRegistry registry;
  registerScheduleDialects(registry);
  context.appendDialectRegistry(registry);
  Generation generation(context, registry, generatorOptions, measureOptions,
                        shardIndex, shardCount, flavour);
  if (llvm::Error error = generation.resume(outputDir, suffix))
    return fail(llvm::toString(std::move(error)));
  std::optional<db::Database> database;
  if (!databasePath.empty()) {
    llvm::Expected<db::Database> opened = db::Database::open(databasePath);
    if (!opened)
      return fail(llvm::toString(opened.takeError()));
    database.emplace(std::move(*opened));
    generation.database = &*database;
  }

  auto start = std::chrono::steady_clock::now();
  unsigned total = 0;
  for (unsigned i = shardIndex; i < numPrograms; i += shardCount)
    ++total;
  unsigned done = 0;
  for (unsigned i = shardIndex; i < numPrograms; i += shardCount) {
    std::string progress = llvm::formatv("[{0}/{1}]", ++done, total);
    if (llvm::Error error = generation.runProgram(i, *writer, progress))
      return fail(llvm::toString(std::move(error)));
  }
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  generation.printSummary(seconds);
  if (generation.generatorBugs)
    return fail(llvm::Twine(generation.generatorBugs) +
                " generated programs were invalid (generator bugs; see "
                "above)");
  return 0;
}
