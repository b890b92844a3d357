//===- tuner-train.cpp - Train and evaluate the cost model ----------------===//
//
//   tuner-train INPUT... -o MODEL [--seed S] [--epochs N] [--hidden 160,96]
//               [--embedding E] [--merge-hidden ...] [--regression-hidden ...]
//               [--dropout P] [--batch B] [--lr R] [--weight-decay W]
//               [--patience P] [--target SPEC]
//               [--loss mape|log|ranknet|lambdarank|listnet|log+ranknet|
//                       log+lambdarank|log+listnet]
//               [--rank-weight W] [--rank-margin M]
//       trains a model on the inputs, printing each epoch's training and
//       validation MAPE, and writes the model file. An input that is a
//       folder is a dataset (tuner-gen); any other is a tuning database
//       (SQLite: its records, see DatabaseInput.h). Every mode that reads a
//       DATASET reads such a list of inputs, merged into one dataset;
//   tuner-train INPUT... -o MODEL --model-kind gbt [--seed S]
//               [--gbt-objective squared|pairwise] [--gbt-rounds N] ...
//       trains gradient-boosted trees (XGBoost) on the same split instead,
//       printing each round's metrics (GradientBoostedTrees.h);
//   tuner-train --evaluate --model MODEL DATASET [--all]
//               [--test-programs-of MODEL2] [--json FILE]
//       reports MAPE, Pearson and Spearman overall and per program on the
//       model's held-out test programs (MODEL2's with --test-programs-of,
//       every program with --all); --json
//       writes the metrics and the (program, measured, predicted) rows;
//   tuner-train --list-features
//       documents the computation vector (from Features.def);
//   tuner-train --dump-features FILE DATASET
//       writes the computation vectors of the dataset's measured schedules
//       as CSV, one column per feature.
//
//===----------------------------------------------------------------------===//

#include "CorrectionReplay.h"
#include "DatabaseInput.h"

#include "tuner/CostModel/CostModel.h"
#include "tuner/CostModel/Dataset.h"
#include "tuner/CostModel/GradientBoostedTrees.h"
#include "tuner/CostModel/Training.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdio>
#include <set>

using namespace tuner;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;

namespace cl = llvm::cl;

static cl::OptionCategory toolCategory("tuner-train options");

static cl::list<std::string>
    inputsOption(cl::Positional,
                 cl::desc("<dataset folder or tuning database>..."),
                 cl::cat(toolCategory));
static cl::opt<std::string> targetOption(
    "target",
    cl::desc("Target for which the spaces of tuning databases' workloads are "
             "rebuilt: 'host' or a target description JSON file (records "
             "made in another space are left out)"),
    cl::init("host"), cl::value_desc("spec"), cl::cat(toolCategory));
static cl::opt<std::string> outputOption("o", cl::desc("Model file to write"),
                                         cl::value_desc("file"),
                                         cl::cat(toolCategory));

// Modes.
static cl::opt<bool>
    evaluateOption("evaluate",
                   cl::desc("Evaluate --model on the dataset instead of "
                            "training"),
                   cl::cat(toolCategory));
static cl::opt<std::string> modelOption("model",
                                        cl::desc("Model file to evaluate"),
                                        cl::value_desc("file"),
                                        cl::cat(toolCategory));
static cl::opt<bool>
    allOption("all",
              cl::desc("Evaluate on every program of the dataset, not only "
                       "the model's held-out test programs"),
              cl::cat(toolCategory));
static cl::opt<std::string> testProgramsOfOption(
    "test-programs-of",
    cl::desc("Evaluate on the held-out test programs of this model file "
             "instead of --model's (to compare a model with another on the "
             "programs that one never saw)"),
    cl::value_desc("model"), cl::cat(toolCategory));
static cl::opt<std::string>
    jsonOption("json",
               cl::desc("Write the evaluation (metrics and rows of program, "
                        "measured and predicted speedup) as JSON"),
               cl::value_desc("file"), cl::cat(toolCategory));
static cl::opt<bool> replayCorrectionsOption(
    "replay-corrections",
    cl::desc("Replay the execution step's corrections of --model (none, gp, "
             "adapt, adapt+gp) on the dataset's measured schedules: per "
             "program, the model's best --replay-top-k measured in batches "
             "of --replay-batch, corrected between batches"),
    cl::cat(toolCategory));
static cl::opt<unsigned>
    replayTopKOption("replay-top-k",
                     cl::desc("Schedules measured per program in the replay"),
                     cl::init(4), cl::cat(toolCategory));
static cl::opt<unsigned>
    replayBatchOption("replay-batch",
                      cl::desc("Schedules per batch in the replay"),
                      cl::init(2), cl::cat(toolCategory));
static cl::opt<bool>
    listFeaturesOption("list-features",
                       cl::desc("Document the features of the computation "
                                "vector and exit"),
                       cl::cat(toolCategory));
static cl::opt<std::string> upgradeOption(
    "upgrade",
    cl::desc("Rewrite a model file of an older format this build reads in "
             "its format (to -o FILE)"),
    cl::value_desc("model"), cl::cat(toolCategory));
static cl::opt<std::string> dumpFeaturesOption(
    "dump-features",
    cl::desc("Write the computation vectors of the dataset's measured "
             "schedules as CSV"),
    cl::value_desc("file"), cl::cat(toolCategory));

// Training.
static const TrainingOptions kDefaults;
static cl::opt<uint64_t> seedOption("seed", cl::desc("Random seed"),
                                    cl::init(kDefaults.seed),
                                    cl::cat(toolCategory));
static cl::opt<unsigned>
    epochsOption("epochs",
                 cl::desc("Length of the one-cycle schedule, in epochs"),
                 cl::init(kDefaults.epochs), cl::cat(toolCategory));
static cl::opt<unsigned>
    batchOption("batch", cl::desc("Schedules per optimizer step (whole groups of one program "
                         "and tree, several programs per step)"),
                cl::init(kDefaults.batchSize), cl::cat(toolCategory));
static cl::opt<double> learningRateOption("lr", cl::desc("Peak learning rate"),
                                          cl::init(kDefaults.learningRate),
                                          cl::cat(toolCategory));
static cl::opt<double> weightDecayOption("weight-decay",
                                         cl::desc("AdamW weight decay"),
                                         cl::init(kDefaults.weightDecay),
                                         cl::cat(toolCategory));
static cl::opt<std::string> initFromOption(
    "init-from",
    cl::desc("Fine-tune: start every network from this model's weights and "
             "input standardization (its network shape; the shape options "
             "do not apply)"),
    cl::value_desc("model"), cl::cat(toolCategory));
static cl::opt<std::string> lossOption(
    "loss",
    cl::desc("What training minimizes: 'mape' (the paper's mean absolute "
             "percentage error), 'log' (mean absolute log error), "
             "'ranknet' (pairwise ranking of each program's schedules), "
             "'lambdarank' (RankNet's pairs weighted toward the top of "
             "the order), 'listnet' (listwise ranking), or 'log+ranknet' / "
             "'log+lambdarank' / 'log+listnet' (the log error plus "
             "--rank-weight times the ranking loss)"),
    cl::init(std::string(trainingLossName(kDefaults.loss))),
    cl::cat(toolCategory));
static cl::opt<double> rankWeightOption(
    "rank-weight",
    cl::desc("Weight of the ranking loss beside the log error in "
             "'log+ranknet', 'log+lambdarank' and 'log+listnet'"),
    cl::init(kDefaults.rankWeight), cl::cat(toolCategory));
static cl::opt<double> rankMarginOption(
    "rank-margin",
    cl::desc("RankNet and LambdaRank leave out pairs of schedules whose "
             "measured speedups differ by a factor of at most 1 + this (the "
             "labels' noise)"),
    cl::init(kDefaults.rankMargin), cl::cat(toolCategory));
static cl::opt<unsigned> patienceOption(
    "patience",
    cl::desc("Stop after this many epochs without a better validation loss"),
    cl::init(kDefaults.patience), cl::cat(toolCategory));
static cl::opt<unsigned> ensembleOption(
    "ensemble",
    cl::desc("Networks to train from different seeds, by cross-validation "
             "over the programs not held out for testing; the model averages "
             "their predictions"),
    cl::init(kDefaults.ensemble), cl::cat(toolCategory));
static cl::opt<double> trainFractionOption(
    "train-fraction",
    cl::desc("Train on this part of the training and validation programs "
             "(0 < F <= 1), testing on the same programs as with all of them: "
             "a point of a learning curve"),
    cl::init(kDefaults.trainFraction), cl::cat(toolCategory));
static cl::opt<unsigned> jobsOption(
    "jobs",
    cl::desc("Networks trained at once (0: one per core); the model does not "
             "depend on it"),
    cl::init(kDefaults.jobs), cl::cat(toolCategory));
static cl::list<unsigned>
    hiddenOption("hidden",
                 cl::desc("Hidden layer sizes of the computation embedding MLP "
                          "(default 160,96)"),
                 cl::CommaSeparated, cl::cat(toolCategory));
static cl::opt<unsigned>
    embeddingOption("embedding",
                    cl::desc("Size of computation and loop embeddings"),
                    cl::init(kDefaults.shape.embedding), cl::cat(toolCategory));
static cl::list<unsigned> mergeOption(
    "merge-hidden",
    cl::desc("Hidden layer sizes of the loop embedding's merge layer "
             "(default 80)"),
    cl::CommaSeparated, cl::cat(toolCategory));
static cl::list<unsigned> regressionOption(
    "regression-hidden",
    cl::desc("Hidden layer sizes of the regression MLP (default 64,32)"),
    cl::CommaSeparated, cl::cat(toolCategory));
static cl::opt<double> dropoutOption("dropout", cl::desc("Dropout probability"),
                                     cl::init(kDefaults.shape.dropout),
                                     cl::cat(toolCategory));

// Gradient-boosted trees (--model-kind gbt).
static cl::opt<std::string> modelKindOption(
    "model-kind",
    cl::desc("What to train: 'network' (the tree-LSTM) or 'gbt' "
             "(gradient-boosted trees on flattened features, XGBoost)"),
    cl::init("network"), cl::value_desc("kind"), cl::cat(toolCategory));
static const TreeTrainingOptions kTreeDefaults;
static cl::opt<std::string> gbtObjectiveOption(
    "gbt-objective",
    cl::desc("What the trees fit: 'squared' (squared error on the log "
             "speedup) or 'pairwise' (XGBoost's rank:pairwise, the program "
             "as the group)"),
    cl::init(std::string(treeObjectiveName(kTreeDefaults.objective))),
    cl::cat(toolCategory));
static cl::opt<unsigned>
    gbtRoundsOption("gbt-rounds", cl::desc("Most boosting rounds (trees)"),
                    cl::init(kTreeDefaults.rounds), cl::cat(toolCategory));
static cl::opt<unsigned> gbtPatienceOption(
    "gbt-patience",
    cl::desc("Stop after this many rounds without a better validation "
             "metric"),
    cl::init(kTreeDefaults.patience), cl::cat(toolCategory));
static cl::opt<double> gbtEtaOption("gbt-eta",
                                    cl::desc("Learning rate (XGBoost's eta)"),
                                    cl::init(kTreeDefaults.learningRate),
                                    cl::cat(toolCategory));
static cl::opt<unsigned> gbtDepthOption("gbt-depth",
                                        cl::desc("Maximum tree depth"),
                                        cl::init(kTreeDefaults.maxDepth),
                                        cl::cat(toolCategory));
static cl::opt<double> gbtSubsampleOption(
    "gbt-subsample", cl::desc("Part of the rows each tree sees"),
    cl::init(kTreeDefaults.subsample), cl::cat(toolCategory));
static cl::opt<double> gbtColumnSampleOption(
    "gbt-colsample", cl::desc("Part of the features each tree may split on"),
    cl::init(kTreeDefaults.columnSample), cl::cat(toolCategory));
static cl::opt<unsigned> gbtThreadsOption(
    "gbt-threads",
    cl::desc("XGBoost's threads while training (0: one per core); "
             "squared-error trees do not depend on it, pairwise ones do"),
    cl::init(kTreeDefaults.threads), cl::cat(toolCategory));

static constexpr const char *kOverview =
    "trains and evaluates the tuner's cost model\n\n"
    "  tuner-train INPUT... -o MODEL [training options]\n"
    "  tuner-train INPUT... -o MODEL --model-kind gbt [--gbt-* options]\n"
    "  tuner-train --evaluate --model MODEL INPUT... [--all | "
    "--test-programs-of MODEL2]\n"
    "              [--json FILE]\n"
    "  tuner-train --list-features\n"
    "  tuner-train --dump-features FILE INPUT...\n"
    "  tuner-train --upgrade OLD-MODEL -o MODEL\n\n"
    "An INPUT is a dataset folder (tuner-gen) or a tuning database file "
    "(the\nrecords of tuning runs); several are merged into one dataset.\n";

static Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Four decimals, or "n/a" for an undefined metric.
static std::string fixed(double value) {
  if (!std::isfinite(value))
    return "n/a";
  char text[64];
  std::snprintf(text, sizeof(text), "%.4f", value);
  return text;
}

/// A CSV number: nine significant digits (exact for floats), no padding.
static std::string csvNumber(double value) {
  char text[64];
  std::snprintf(text, sizeof(text), "%.9g", value);
  return text;
}

/// The inputs, for messages and the model file: "a, b".
static std::string inputsDescription() {
  return llvm::join(inputsOption, ", ");
}

/// Reads every input into one dataset: a folder is a dataset (tuner-gen's
/// JSON lines), anything else a tuning database (SQLite).
static Expected<Dataset> readDataset() {
  if (inputsOption.empty())
    return error("no dataset folder or tuning database given (see --help)");
  Dataset dataset;
  std::vector<std::string> databases;
  for (const std::string &input : inputsOption) {
    if (!llvm::sys::fs::exists(input))
      return error("cannot read '" + input +
                   "': no such file or folder (expected a dataset folder or "
                   "a tuning database)");
    if (!llvm::sys::fs::is_directory(input)) {
      databases.push_back(input);
      continue;
    }
    Expected<Dataset> folder = Dataset::read(input);
    if (!folder)
      return folder.takeError();
    if (Error err = dataset.append(std::move(*folder), input))
      return std::move(err);
  }
  if (!databases.empty()) {
    Expected<Target> target = Target::resolve(targetOption);
    if (!target)
      return error("--target: " + llvm::toString(target.takeError()));
    DatabaseInputStats stats;
    Expected<Dataset> records = readTuningDatabases(
        databases, *target, stats, [](const llvm::Twine &line) {
          llvm::WithColor::note(llvm::errs(), "tuner-train") << line << "\n";
        });
    if (!records)
      return records.takeError();
    std::string names = llvm::join(databases, ", ");
    std::vector<std::string> leftOut;
    auto count = [&](uint64_t n, llvm::StringRef what) {
      if (n)
        leftOut.push_back(llvm::formatv("{0} {1}", n, what));
    };
    count(stats.otherSpace, "made in another space");
    count(stats.unreadable, "whose config does not read in the space");
    count(stats.incomplete, "'ok' without a speedup");
    count(stats.unusableWorkload, "of workloads left out");
    count(stats.duplicates, "read before, from another database");
    llvm::WithColor::note(llvm::errs(), "tuner-train")
        << llvm::formatv("tuning database{0} {1}: {2} programs of {3} "
                         "workloads, {4} samples of {5} records",
                         databases.size() == 1 ? "" : "s", names,
                         stats.programs, stats.workloads, stats.samples,
                         stats.records)
        << (leftOut.empty() ? ""
                            : " (left out: " + llvm::join(leftOut, ", ") + ")")
        << "\n";
    if (Error err = dataset.append(std::move(*records), names))
      return std::move(err);
  }
  for (const std::string &warning : dataset.warnings)
    llvm::WithColor::warning(llvm::errs(), "tuner-train") << warning << "\n";
  return dataset;
}

static Error writeText(StringRef path,
                       llvm::function_ref<void(llvm::raw_ostream &)> write) {
  std::error_code ec;
  llvm::ToolOutputFile out(path, ec, llvm::sys::fs::OF_Text);
  if (ec)
    return error("cannot write '" + path + "': " + ec.message());
  write(out.os());
  out.os().flush();
  if (out.os().has_error())
    return error("cannot write '" + path + "': " + out.os().error().message());
  out.keep();
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Modes
//===----------------------------------------------------------------------===//

/// The options given on the command line among `options`, as "--name".
static std::vector<std::string>
givenOptions(std::initializer_list<const cl::Option *> options) {
  std::vector<std::string> given;
  for (const cl::Option *option : options)
    if (option->getNumOccurrences())
      given.push_back(("--" + option->ArgStr).str());
  return given;
}

/// readDataset, and a line saying what was read (both trainers print it).
static Expected<Dataset> readTrainingDataset() {
  Expected<Dataset> dataset = readDataset();
  if (!dataset)
    return dataset.takeError();
  llvm::outs() << "dataset " << inputsDescription() << ": "
               << dataset->programs.size() << " programs, "
               << dataset->samples.size() << " samples\n";
  llvm::outs().flush();
  return dataset;
}

/// The train / validation / test split a trained model records.
static void printSplit(const DatasetSummary &d) {
  llvm::outs() << llvm::formatv(
      "split by program: {0} train, {1} validation, {2} test ({3} samples "
      "used, {4} not ok)\n",
      d.trainPrograms.size(), d.validationPrograms.size(),
      d.testPrograms.size(), d.samples, d.skippedSamples);
}

/// Writes a trained model to -o and says so.
static Error saveModel(const CostModel &model) {
  if (Error err = model.save(outputOption))
    return err;
  llvm::outs() << "wrote " << outputOption << "\n";
  return Error::success();
}

static Error trainTrees();

static Error train() {
  if (outputOption.empty())
    return error("no model file given: use -o FILE (or --evaluate)");
  if (modelKindOption == "gbt")
    return trainTrees();
  if (modelKindOption != "network")
    return error("--model-kind: unknown kind '" + modelKindOption +
                 "' (expected 'network' or 'gbt')");
  std::vector<std::string> treeOnly =
      givenOptions({&gbtObjectiveOption, &gbtRoundsOption, &gbtPatienceOption,
                    &gbtEtaOption, &gbtDepthOption, &gbtSubsampleOption,
                    &gbtColumnSampleOption, &gbtThreadsOption});
  if (!treeOnly.empty())
    return error(llvm::join(treeOnly, ", ") +
                 " train gradient-boosted trees: use them with --model-kind "
                 "gbt");
  TrainingOptions options;
  options.seed = seedOption;
  options.epochs = epochsOption;
  options.batchSize = batchOption;
  options.learningRate = learningRateOption;
  options.weightDecay = weightDecayOption;
  options.patience = patienceOption;
  options.ensemble = ensembleOption;
  options.jobs = jobsOption;
  options.trainFraction = trainFractionOption;
  std::optional<TrainingLoss> loss = parseTrainingLoss(lossOption);
  if (!loss)
    return error("--loss: unknown loss '" + lossOption + "' (expected " +
                 trainingLossNames() + ")");
  options.loss = *loss;
  options.rankWeight = rankWeightOption;
  options.rankMargin = rankMarginOption;
  if (rankWeightOption.getNumOccurrences() && !pointwiseTerm(*loss))
    return error("--rank-weight weighs the ranking loss beside the log "
                 "error: use it with --loss log+ranknet, log+lambdarank or "
                 "log+listnet");
  if (rankWeightOption.getNumOccurrences() && !rankingTerm(*loss))
    return error("--rank-weight is for a loss with a ranking term "
                 "(log+ranknet, log+lambdarank, log+listnet), not '" +
                 lossOption + "'");
  if (rankMarginOption.getNumOccurrences() && !hasRankMargin(*loss))
    return error("--rank-margin is for the pairwise losses (ranknet, "
                 "lambdarank, log+ranknet, log+lambdarank), not '" +
                 lossOption + "'");
  if (!hiddenOption.empty())
    options.shape.computationLayers.assign(hiddenOption.begin(),
                                           hiddenOption.end());
  options.shape.embedding = embeddingOption;
  if (!mergeOption.empty())
    options.shape.mergeLayers.assign(mergeOption.begin(), mergeOption.end());
  if (!regressionOption.empty())
    options.shape.regressionLayers.assign(regressionOption.begin(),
                                          regressionOption.end());
  options.shape.dropout = dropoutOption;
  if (!initFromOption.empty()) {
    std::vector<std::string> shapeOptions = givenOptions(
        {std::addressof(hiddenOption), &embeddingOption,
         std::addressof(mergeOption), std::addressof(regressionOption)});
    if (!shapeOptions.empty())
      return error(llvm::join(shapeOptions, ", ") +
                   " shape a new network: --init-from keeps its model's "
                   "shape");
    Expected<CostModel> initial = CostModel::load(initFromOption);
    if (!initial)
      return error("--init-from: " + llvm::toString(initial.takeError()));
    NetworkShape shape = initial->getShape();
    if (dropoutOption.getNumOccurrences())
      shape.dropout = dropoutOption;
    options.shape = shape;
    options.initial = std::make_shared<const CostModel>(std::move(*initial));
  }
  if (Error err = options.check())
    return err;

  Expected<Dataset> dataset = readTrainingDataset();
  if (!dataset)
    return dataset.takeError();
  Expected<CostModel> model = trainCostModel(
      *dataset, inputsDescription(), options, [&](const EpochReport &report) {
        if (options.ensemble > 1)
          llvm::outs() << llvm::formatv("network {0}/{1}  ", report.member + 1,
                                        options.ensemble);
        llvm::outs() << llvm::formatv(
            "epoch {0,4}/{1}  train loss {2}  validation loss {3} (MAPE {4})  "
            "lr {5}{6}\n",
            report.epoch, options.epochs, fixed(report.trainLoss),
            fixed(report.validationLoss), fixed(report.validationMAPE),
            llvm::format("%.2e", report.learningRate),
            report.best ? "  *" : "");
        llvm::outs().flush();
      });
  if (!model)
    return model.takeError();
  const TrainingSummary &t = model->getTraining();
  const DatasetSummary &d = model->getDataset();
  if (t.members.size() == 1)
    printSplit(d);
  else
    llvm::outs() << llvm::formatv(
        "split by program: {0} train, each network stopping early on its "
        "fold of them, {1} test ({2} samples used, {3} not ok)\n",
        d.trainPrograms.size(), d.testPrograms.size(), d.samples,
        d.skippedSamples);
  auto ofNetwork = [](const MemberSummary &m) {
    return llvm::formatv("best epoch {0} of {1}", m.bestEpoch, m.epochsRun)
        .str();
  };
  std::string what = ofNetwork(t.members.front());
  if (t.members.size() > 1) {
    for (auto [i, m] : llvm::enumerate(t.members))
      llvm::outs() << llvm::formatv(
          "network {0}/{1} (seed {2}, {3} validation programs): {4}, "
          "validation MAPE {5}\n",
          i + 1, t.members.size(), m.seed, m.validationPrograms.size(),
          ofNetwork(m), fixed(m.validationMAPE));
    what = llvm::formatv("ensemble of {0} networks", t.members.size()).str();
  }
  llvm::outs() << llvm::formatv(
      "{0}: train MAPE {1}, validation MAPE {2}; test MAPE {3}, Pearson {4}, "
      "Spearman {5}\n",
      what, fixed(t.trainMAPE), fixed(t.validationMAPE), fixed(t.testMAPE),
      fixed(t.testPearson), fixed(t.testSpearman));
  return saveModel(*model);
}

static Error trainTrees() {
  std::vector<std::string> networkOnly = givenOptions(
      {&epochsOption, &batchOption, &learningRateOption, &weightDecayOption,
       &lossOption, &patienceOption, &ensembleOption, &trainFractionOption,
       &jobsOption, std::addressof(hiddenOption), &embeddingOption,
       std::addressof(mergeOption), std::addressof(regressionOption),
       &dropoutOption, &initFromOption});
  if (!networkOnly.empty())
    return error(llvm::join(networkOnly, ", ") +
                 " train the network, not --model-kind gbt (its options are "
                 "--gbt-*)");
  TreeTrainingOptions options;
  options.seed = seedOption;
  std::optional<TreeObjective> objective =
      parseTreeObjective(gbtObjectiveOption);
  if (!objective)
    return error("--gbt-objective: unknown objective '" + gbtObjectiveOption +
                 "' (expected 'squared' or 'pairwise')");
  options.objective = *objective;
  options.rounds = gbtRoundsOption;
  options.patience = gbtPatienceOption;
  options.learningRate = gbtEtaOption;
  options.maxDepth = gbtDepthOption;
  options.subsample = gbtSubsampleOption;
  options.columnSample = gbtColumnSampleOption;
  options.threads = gbtThreadsOption;
  if (Error err = options.check())
    return err;

  Expected<Dataset> dataset = readTrainingDataset();
  if (!dataset)
    return dataset.takeError();
  llvm::StringRef metric = options.objective == TreeObjective::SquaredLogError
                               ? "RMSE of log speedup"
                               : "within-program Spearman";
  Expected<CostModel> model = trainGradientBoostedTrees(
      *dataset, inputsDescription(), options, [&](const TreeRoundReport &r) {
        llvm::outs() << llvm::formatv(
            "round {0,4}/{1}  train {2} {3}  validation {4}{5}\n", r.round,
            options.rounds, metric, fixed(r.trainMetric),
            fixed(r.validationMetric), r.best ? "  *" : "");
      });
  if (!model)
    return model.takeError();
  const TreeTrainingSummary &t = *treeTrainingSummary(*model);
  const DatasetSummary &d = model->getDataset();
  printSplit(d);
  llvm::outs() << llvm::formatv(
      "gradient-boosted trees ({0}): best round {1} of {2} (validation {3} "
      "{4}); train MAPE {5}, validation MAPE {6}; test MAPE {7}, Pearson {8}, "
      "Spearman {9}\n",
      treeObjectiveName(options.objective), t.bestRound, t.roundsRun, metric,
      fixed(t.validationMetric), fixed(t.trainMAPE), fixed(t.validationMAPE),
      fixed(t.testMAPE), fixed(t.testPearson), fixed(t.testSpearman));
  return saveModel(*model);
}

/// The programs --evaluate and --replay-corrections use: the model's
/// held-out test programs in the dataset (those of --test-programs-of's
/// model when given), or with --all every program (an empty list).
static Expected<std::vector<std::string>>
evaluationPrograms(const CostModel &model, const Dataset &dataset) {
  std::vector<std::string> programs;
  if (allOption && !testProgramsOfOption.empty())
    return error("--all and --test-programs-of choose the programs to "
                 "evaluate on; give one of them");
  if (!allOption) {
    // The test programs of --model, or of --test-programs-of.
    std::optional<CostModel> splitModel;
    if (!testProgramsOfOption.empty()) {
      Expected<CostModel> other = CostModel::load(testProgramsOfOption);
      if (!other)
        return error("--test-programs-of: " +
                     llvm::toString(other.takeError()));
      splitModel = std::move(*other);
    }
    const std::vector<std::string> &testPrograms =
        (splitModel ? *splitModel : model).getDataset().testPrograms;
    auto whose = [&](size_t count) {
      return splitModel ? llvm::formatv("the {0} test programs of {1}", count,
                                        testProgramsOfOption.getValue())
                              .str()
                        : llvm::formatv("the model's {0} test programs", count)
                              .str();
    };
    std::set<std::string> present;
    for (const ProgramRecord &program : dataset.programs)
      present.insert(program.id);
    for (const std::string &id : testPrograms)
      if (present.count(id))
        programs.push_back(id);
    if (programs.empty())
      return error("none of " + whose(testPrograms.size()) + " is in " +
                   inputsDescription() +
                   " (was the model trained on another dataset?); use --all "
                   "to evaluate on every program");
    if (programs.size() < testPrograms.size())
      llvm::WithColor::warning(llvm::errs(), "tuner-train")
          << (testPrograms.size() - programs.size()) << " of "
          << (splitModel ? "the test programs of " + testProgramsOfOption
                         : std::string("the model's test programs"))
          << " are not in " << inputsDescription() << "\n";
  }
  return programs;
}

/// What --evaluate and --replay-corrections read: --model, the inputs and
/// the programs to use of them.
struct EvaluationInput {
  CostModel model;
  Dataset dataset;
  std::vector<std::string> programs;
};

static Expected<EvaluationInput> readEvaluationInput(StringRef mode) {
  if (modelOption.empty())
    return error(mode + " needs --model FILE");
  Expected<CostModel> model = CostModel::load(modelOption);
  if (!model)
    return model.takeError();
  Expected<Dataset> dataset = readDataset();
  if (!dataset)
    return dataset.takeError();
  Expected<std::vector<std::string>> programs =
      evaluationPrograms(*model, *dataset);
  if (!programs)
    return programs.takeError();
  return EvaluationInput{std::move(*model), std::move(*dataset),
                         std::move(*programs)};
}

static Error evaluate() {
  Expected<EvaluationInput> input = readEvaluationInput("--evaluate");
  if (!input)
    return input.takeError();
  CostModel *model = &input->model;
  Dataset *dataset = &input->dataset;
  std::vector<std::string> *programs = &input->programs;
  std::set<std::string> targets;
  for (const ProgramRecord &program : dataset->programs)
    targets.insert(program.target);
  for (const std::string &target : targets)
    if (target != model->getTarget())
      llvm::WithColor::warning(llvm::errs(), "tuner-train")
          << "the dataset was measured on '" << target
          << "' but the model was trained for '" << model->getTarget() << "'\n";

  Expected<Evaluation> evaluation =
      evaluateCostModel(*model, *dataset, *programs);
  if (!evaluation)
    return evaluation.takeError();
  if (evaluation->rows.empty())
    return error("no measured (\"ok\") samples to evaluate on in " +
                 inputsDescription());

  llvm::raw_ostream &os = llvm::outs();
  os << "model " << modelOption << " on " << inputsDescription() << ", "
     << (allOption ? "all programs"
         : testProgramsOfOption.empty()
             ? "held-out test programs"
             : "the held-out test programs of " + testProgramsOfOption)
     << "\n";
  const Metrics &all = evaluation->overall;
  os << llvm::formatv("overall: {0} samples, MAPE {1}, Pearson {2}, "
                      "Spearman {3}\n",
                      all.count, fixed(all.mape), fixed(all.pearson),
                      fixed(all.spearman));
  const RankingMetrics &ranking = evaluation->ranking;
  os << llvm::formatv("within programs ({0}): mean Spearman {1}; the "
                      "schedule predicted best reaches {2} of the best "
                      "measured speedup, the best of the first 3 {3}, of "
                      "the first 5 {4}\n",
                      ranking.programs, fixed(ranking.meanSpearman),
                      fixed(ranking.top1), fixed(ranking.top3),
                      fixed(ranking.top5));
  size_t width = 7;
  for (const auto &[program, metrics] : evaluation->perProgram)
    width = std::max(width, program.size());
  os << llvm::left_justify("program", width) << "  samples  MAPE    "
     << "Pearson  Spearman\n";
  for (const auto &[program, m] : evaluation->perProgram)
    os << llvm::left_justify(program, width) << "  "
       << llvm::right_justify(std::to_string(m.count), 7) << "  "
       << llvm::left_justify(fixed(m.mape), 6) << "  "
       << llvm::left_justify(fixed(m.pearson), 7) << "  " << fixed(m.spearman)
       << "\n";

  if (jsonOption.empty())
    return Error::success();
  llvm::json::Value json = evaluation->toJSON(/*withRows=*/true);
  llvm::json::Object &object = *json.getAsObject();
  object["model"] = modelOption.getValue();
  object["dataset"] = inputsDescription();
  object["split"] = allOption ? "all" : "test";
  if (!testProgramsOfOption.empty())
    object["test_programs_of"] = testProgramsOfOption.getValue();
  return writeText(jsonOption, [&](llvm::raw_ostream &out) {
    out << llvm::formatv("{0:2}", json) << "\n";
  });
}

static Error replay() {
  Expected<EvaluationInput> input =
      readEvaluationInput("--replay-corrections");
  if (!input)
    return input.takeError();
  CostModel *model = &input->model;
  Dataset *dataset = &input->dataset;
  std::vector<std::string> *programs = &input->programs;
  llvm::outs() << "model " << modelOption << " on " << inputsDescription()
               << ", " << (allOption ? "all programs" : "held-out test programs")
               << "\n";
  llvm::json::Value json = nullptr;
  CorrectionReplayOptions options;
  options.topK = replayTopKOption;
  options.batch = replayBatchOption;
  if (Error err = replayCorrections(
          *dataset, std::set<std::string>(programs->begin(), programs->end()),
          *model, options, llvm::outs(), &json))
    return err;
  if (jsonOption.empty())
    return Error::success();
  return writeText(jsonOption, [&](llvm::raw_ostream &out) {
    out << llvm::formatv("{0:2}", json) << "\n";
  });
}

static Error dumpFeatures() {
  Expected<Dataset> dataset = readDataset();
  if (!dataset)
    return dataset.takeError();
  unsigned skipped = 0;
  std::vector<std::string> excluded;
  Expected<std::vector<LabeledSchedule>> schedules =
      featurizeDataset(*dataset, nullptr, skipped, &excluded);
  for (const std::string &line : excluded)
    llvm::errs() << "warning: " << line << "\n";
  if (!schedules)
    return schedules.takeError();
  return writeText(dumpFeaturesOption, [&](llvm::raw_ostream &os) {
    os << "program,sample,speedup,computation";
    for (const FeatureInfo &feature : featureList())
      os << "," << feature.name;
    os << "\n";
    for (auto [i, schedule] : llvm::enumerate(*schedules))
      for (unsigned c = 0; c < schedule.features.tree.numComputations; ++c) {
        os << schedule.program << "," << i << "," << csvNumber(schedule.speedup)
           << "," << c;
        for (unsigned f = 0; f < features::kNumFeatures; ++f)
          os << "," << csvNumber(schedule.features.at(c, f));
        os << "\n";
      }
  });
}

static Error upgrade() {
  if (outputOption.empty())
    return error("--upgrade needs -o FILE for the rewritten model");
  Expected<CostModel> model = CostModel::load(upgradeOption);
  if (!model)
    return model.takeError();
  if (Error err = model->save(outputOption))
    return err;
  if (treeTrainingSummary(*model))
    llvm::outs() << "wrote " << outputOption
                 << " (tree model file format 1, the only one)\n";
  else
    llvm::outs() << "wrote " << outputOption << " (model file format "
                 << CostModel::kFormatVersion << ")\n";
  return Error::success();
}

static Error run() {
  if (!upgradeOption.empty())
    return upgrade();
  if (listFeaturesOption) {
    printFeatureDocumentation(llvm::outs());
    return Error::success();
  }
  if (!dumpFeaturesOption.empty())
    return dumpFeatures();
  if (evaluateOption && replayCorrectionsOption)
    return error("--evaluate and --replay-corrections are separate modes");
  if (evaluateOption)
    return evaluate();
  if (replayCorrectionsOption)
    return replay();
  if (!modelOption.empty() || allOption || !jsonOption.empty() ||
      !testProgramsOfOption.empty())
    return error("--model, --all, --test-programs-of and --json are for "
                 "--evaluate and --replay-corrections");
  return train();
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(toolCategory);
  cl::ParseCommandLineOptions(argc, argv, kOverview);
  if (Error err = run()) {
    llvm::WithColor::error(llvm::errs(), "tuner-train")
        << llvm::toString(std::move(err)) << "\n";
    return 1;
  }
  return 0;
}
