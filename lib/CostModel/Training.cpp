//===- Training.cpp - Training and evaluating cost models -----------------===//

#include "tuner/CostModel/Training.h"

#include "CostModelImpl.h"
#include "RankingLoss.h"

#include "tuner/Support/Measurement.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/ThreadPool.h"

#include <chrono>
#include <cmath>
#include <map>
#include <mutex>
#include <tuple>

using namespace tuner;

using Matrix = Network<float>::Matrix;

static llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Error TrainingOptions::check() const {
  if (epochs == 0)
    return error("the number of epochs must be positive");
  if (batchSize == 0)
    return error("the batch size must be positive");
  if (patience == 0)
    return error("the patience must be positive");
  if (ensemble == 0)
    return error("the ensemble needs at least one network");
  if (!(learningRate > 0))
    return error(llvm::formatv("the learning rate must be positive, got {0}",
                               learningRate)
                     .str());
  if (!(weightDecay >= 0))
    return error(llvm::formatv("the weight decay must not be negative, got {0}",
                               weightDecay)
                     .str());
  if (!(rankWeight > 0))
    return error(llvm::formatv("the rank weight must be positive, got {0}",
                               rankWeight)
                     .str());
  if (!(rankMargin >= 0))
    return error(llvm::formatv("the rank margin must not be negative, got {0}",
                               rankMargin)
                     .str());
  if (!(trainFraction > 0 && trainFraction <= 1))
    return error(llvm::formatv("the train fraction must be in (0, 1], got {0}",
                               trainFraction)
                     .str());
  if (initial && initial->getImpl().networks.empty())
    return error("the initial model has no networks to start from (a model "
                 "of trees)");
  if (initial) {
    // The layers must match; the dropout is training's own.
    NetworkShape layers = initial->getShape();
    layers.dropout = shape.dropout;
    if (!(layers == shape))
      return error("the initial model's network shape differs from the one "
                   "to train");
  }
  return shape.check();
}

//===----------------------------------------------------------------------===//
// Data
//===----------------------------------------------------------------------===//

llvm::Expected<std::vector<LabeledSchedule>>
tuner::featurizeDataset(const Dataset &dataset,
                        const std::set<std::string> *programs,
                        unsigned &skipped, std::vector<std::string> *excluded) {
  std::set<std::string> unfit;
  skipped = 0;
  std::map<std::string, size_t> index = dataset.programIndex();
  std::map<std::string, FeatureExtractor> extractors;
  std::map<std::string, std::shared_ptr<const ProgramFeatures>> references;
  std::vector<LabeledSchedule> result;
  for (const SampleRecord &sample : dataset.samples) {
    if (programs && !programs->count(sample.programId))
      continue;
    if (sample.status != Status::Ok || !(sample.speedup > 0) ||
        !std::isfinite(sample.speedup)) {
      ++skipped;
      continue;
    }
    auto found = index.find(sample.programId);
    if (found == index.end())
      return error("a sample of unknown program '" + sample.programId + "'");
    const ProgramRecord &program = dataset.programs[found->second];
    if (sample.foreignLoad > kMaxForeignLoad ||
        program.baselineForeignLoad > kMaxForeignLoad) {
      ++skipped;
      continue;
    }
    if (unfit.count(program.id)) {
      ++skipped;
      continue;
    }
    auto extractor = extractors.find(program.id);
    if (extractor == extractors.end()) {
      llvm::Expected<FeatureExtractor> created =
          FeatureExtractor::create(program.tree);
      if (!created && excluded) {
        excluded->push_back("program '" + program.id + "' left out: " +
                            llvm::toString(created.takeError()));
        unfit.insert(program.id);
        ++skipped;
        continue;
      }
      if (!created)
        return error("program '" + program.id +
                     "': " + llvm::toString(created.takeError()));
      llvm::Expected<ProgramFeatures> reference =
          created->extract(program.space, program.space.defaultConfig());
      if (!reference)
        return error("program '" + program.id + "', its untransformed "
                     "schedule: " + llvm::toString(reference.takeError()));
      references[program.id] =
          std::make_shared<const ProgramFeatures>(std::move(*reference));
      extractor = extractors.emplace(program.id, std::move(*created)).first;
    }
    llvm::Expected<ProgramFeatures> features =
        extractor->second.extract(program.space, sample.config);
    if (!features)
      return error("program '" + program.id + "', a sample's config: " +
                   llvm::toString(features.takeError()));
    result.push_back({program.id, std::move(*features), references[program.id],
                      sample.speedup});
  }
  return result;
}

namespace {
/// Splitmix64: seeds of independent streams from one seed.
uint64_t mix(uint64_t seed, uint64_t stream) {
  uint64_t z = seed + 0x9e3779b97f4a7c15ULL * (stream + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// Fisher-Yates with the engine's raw output (the same on every platform,
/// unlike std::shuffle).
template <typename T>
void shuffle(std::vector<T> &values, std::mt19937_64 &rng) {
  for (size_t i = values.size(); i > 1; --i)
    std::swap(values[i - 1], values[rng() % i]);
}
} // namespace

llvm::Expected<ProgramSplit> tuner::splitPrograms(std::vector<std::string> ids,
                                                  uint64_t seed) {
  if (ids.size() < 3)
    return error(llvm::formatv("{0} program(s) with measured speedups; "
                               "training needs at least 3, as programs are "
                               "split into training, validation and test sets",
                               ids.size())
                     .str());
  llvm::sort(ids);
  std::mt19937_64 rng(mix(seed, 0));
  shuffle(ids, rng);
  size_t n = ids.size();
  size_t held = std::max<size_t>(1, size_t(std::lround(0.2 * double(n))));
  if (2 * held >= n)
    held = (n - 1) / 2;
  ProgramSplit split;
  split.test.assign(ids.begin(), ids.begin() + held);
  split.validation.assign(ids.begin() + held, ids.begin() + 2 * held);
  split.train.assign(ids.begin() + 2 * held, ids.end());
  for (std::vector<std::string> *part :
       {&split.train, &split.validation, &split.test})
    llvm::sort(*part);
  return split;
}

namespace {
/// Schedules of one program with one tree shape: they batch together.
struct Group {
  std::vector<size_t> members; ///< Indices into the labeled schedules.
};

std::vector<Group> groupSchedules(const std::vector<LabeledSchedule> &labeled,
                                  const std::set<std::string> &programs) {
  std::map<std::pair<std::string, uint64_t>, Group> groups;
  for (auto [i, schedule] : llvm::enumerate(labeled))
    if (programs.count(schedule.program))
      groups[{schedule.program, schedule.features.tree.hash()}]
          .members.push_back(i);
  std::vector<Group> result;
  for (auto &[key, group] : groups)
    result.push_back(std::move(group));
  return result;
}

/// forwardRelative of `members` (one group: one program and tree).
Matrix predictRelative(const Network<float> &network,
                       const std::vector<LabeledSchedule> &labeled,
                       llvm::ArrayRef<size_t> members, const Matrix &inputs,
                       Network<float>::RelativeTape *tape = nullptr,
                       std::mt19937_64 *dropout = nullptr) {
  const LabeledSchedule &first = labeled[members.front()];
  return network.forwardRelative(
      first.features.tree, inputs, members.size(), first.reference->tree,
      Network<float>::packInputs({first.reference.get()}), tape, dropout);
}

Matrix packBatch(const std::vector<LabeledSchedule> &labeled,
                 llvm::ArrayRef<size_t> members, Matrix &targets) {
  std::vector<const ProgramFeatures *> schedules;
  targets.resize(1, members.size());
  for (auto [k, i] : llvm::enumerate(members)) {
    schedules.push_back(&labeled[i].features);
    targets(0, k) = float(labeled[i].speedup);
  }
  return Network<float>::packInputs(schedules);
}

/// Predictions (no dropout) of every member of `groups`, by index: the
/// geometric mean of those of `networks` (one network or an ensemble).
std::map<size_t, double> predictGroups(llvm::ArrayRef<Network<float>> networks,
                                       const std::vector<LabeledSchedule> &l,
                                       const std::vector<Group> &groups) {
  std::map<size_t, double> logSum;
  for (const Group &group : groups) {
    Matrix targets;
    Matrix inputs = packBatch(l, group.members, targets);
    for (const Network<float> &network : networks) {
      Matrix predictions = predictRelative(network, l, group.members, inputs);
      for (auto [k, i] : llvm::enumerate(group.members))
        logSum[i] += std::log(double(predictions(0, k)));
    }
  }
  std::map<size_t, double> result;
  for (auto [i, sum] : logSum)
    result[i] = std::exp(sum / double(networks.size()));
  return result;
}

/// MAPE and the loss `kind` (with the ranking term's `rankWeight` and
/// `margin`) of `networks` on `groups`; a ranking term compares the
/// schedules of each program.
std::pair<double, double> groupsErrors(llvm::ArrayRef<Network<float>> networks,
                                       const std::vector<LabeledSchedule> &l,
                                       const std::vector<Group> &groups,
                                       TrainingLoss kind,
                                       double rankWeight = 1,
                                       double margin = 0) {
  std::vector<double> measured, predicted;
  std::vector<unsigned> programOf;
  std::map<std::string, unsigned> programIds;
  for (auto [i, prediction] : predictGroups(networks, l, groups)) {
    measured.push_back(l[i].speedup);
    predicted.push_back(prediction);
    programOf.push_back(
        programIds.try_emplace(l[i].program, programIds.size()).first->second);
  }
  double mape = meanAbsolutePercentageError(measured, predicted);
  if (kind == TrainingLoss::MAPE)
    return {mape, mape};
  if (kind == TrainingLoss::LogError)
    return {mape, meanAbsoluteLogError(measured, predicted)};
  using MatrixD = Network<double>::Matrix;
  MatrixD p = Eigen::Map<const MatrixD>(predicted.data(), 1, predicted.size());
  MatrixD y = Eigen::Map<const MatrixD>(measured.data(), 1, measured.size());
  return {mape, combinedLoss<double>(kind, rankWeight, margin, p, y, programOf,
                                     nullptr)};
}

/// PyTorch's OneCycleLR (cosine annealing, three_phase=false, defaults
/// pct_start=0.3, div_factor=25, final_div_factor=1e4, momentum cycled
/// between 0.85 and 0.95 in Adam's beta1).
class OneCycle {
public:
  OneCycle(double maxRate, size_t totalSteps)
      : maxRate(maxRate), total(std::max<size_t>(totalSteps, 2)) {}

  /// Learning rate and beta1 at step (0-based).
  std::pair<double, double> at(size_t step) const {
    double initial = maxRate / 25, final = initial / 1e4;
    double warmupEnd = 0.3 * double(total) - 1;
    double s = double(step);
    if (s <= warmupEnd) {
      double pct = warmupEnd > 0 ? s / warmupEnd : 1;
      return {anneal(initial, maxRate, pct), anneal(0.95, 0.85, pct)};
    }
    double pct = (s - warmupEnd) / (double(total) - 1 - warmupEnd);
    return {anneal(maxRate, final, std::min(pct, 1.0)),
            anneal(0.85, 0.95, std::min(pct, 1.0))};
  }

private:
  static constexpr double kPi = 3.14159265358979323846;
  static double anneal(double start, double end, double pct) {
    return end + (start - end) / 2 * (std::cos(kPi * pct) + 1);
  }
  double maxRate;
  size_t total;
};

/// AdamW (Loshchilov & Hutter) with PyTorch's defaults (beta2 = 0.999,
/// epsilon = 1e-8). As the one-cycle schedule varies beta1, the bias
/// correction uses the product of the beta1s of the steps so far.
class AdamW {
public:
  AdamW(Network<float> &network, double weightDecay)
      : network(network), weightDecay(weightDecay) {
    network.forEachParameter([&](const std::string &, Matrix &value, Matrix &) {
      m.push_back(Matrix::Zero(value.rows(), value.cols()));
      v.push_back(Matrix::Zero(value.rows(), value.cols()));
    });
  }

  void step(double rate, double beta1) {
    const double beta2 = 0.999, epsilon = 1e-8;
    ++t;
    beta1Power *= beta1;
    double correction1 = 1 - beta1Power;
    double correction2 = 1 - std::pow(beta2, double(t));
    size_t k = 0;
    network.forEachParameter(
        [&](const std::string &, Matrix &value, Matrix &grad) {
          Matrix &mk = m[k], &vk = v[k];
          ++k;
          value *= float(1 - rate * weightDecay);
          mk = float(beta1) * mk + float(1 - beta1) * grad;
          vk = float(beta2) * vk + float(1 - beta2) * grad.cwiseProduct(grad);
          value.array() -=
              float(rate / correction1) * mk.array() /
              ((vk.array() / float(correction2)).sqrt() + float(epsilon));
        });
  }

private:
  Network<float> &network;
  double weightDecay;
  std::vector<Matrix> m, v;
  size_t t = 0;
  /// The product of the beta1s so far (beta1 changes with the schedule).
  double beta1Power = 1;
};
} // namespace

namespace {
/// What training one network needs: the featurized schedules and the
/// groups of the programs it trains on and stops early on (whose ids are
/// `validationPrograms`).
struct TrainingData {
  const std::vector<LabeledSchedule> &labeled;
  std::vector<Group> train, validation;
  std::vector<std::string> validationPrograms;
};

/// One trained network and how its training went.
struct TrainedNetwork {
  Network<float> network;
  MemberSummary summary;
};

/// The seed of member `member` of an ensemble trained with `seed`: the
/// first is `seed` itself, so that an ensemble of one is the single network
/// that seed always gave; the others have 53 bits, so that every JSON
/// reader reads them back exactly.
uint64_t memberSeed(uint64_t seed, unsigned member) {
  return member == 0 ? seed : mix(seed, 1000 + member) >> 11;
}

/// Trains network `member` of the ensemble from its own seed, keeping the
/// weights of its best validation epoch. `onEpoch` may be called from
/// several threads at once (the caller serializes).
llvm::Expected<TrainedNetwork>
trainNetwork(const TrainingData &data, const TrainingOptions &options,
             unsigned member, Network<float>::InputNormalization normalization,
             llvm::function_ref<void(const EpochReport &)> onEpoch) {
  const std::vector<LabeledSchedule> &labeled = data.labeled;
  uint64_t seed = memberSeed(options.seed, member);
  // An epoch's optimizer steps. A forward pass takes schedules of one group
  // (one tree), at most batchSize of them; a step gathers such chunks, in
  // random order, until it holds batchSize schedules, so that one step
  // learns from several programs rather than from one program's offset.
  //
  // A ranking loss compares the schedules of one program, so that a step
  // holds every schedule of each of its programs: the chunks of a program's
  // groups (one per tree shape) stay together.
  using Chunk = std::vector<size_t>;
  const bool ranking = rankingTerm(options.loss).has_value();
  auto rankingStepsOf = [&](std::mt19937_64 &rng) {
    std::map<std::string, std::vector<Chunk>> byProgram;
    for (const Group &group : data.train) {
      std::vector<size_t> members = group.members;
      shuffle(members, rng);
      std::vector<Chunk> &chunks = byProgram[labeled[members.front()].program];
      for (size_t start = 0; start < members.size(); start += options.batchSize)
        chunks.emplace_back(
            members.begin() + start,
            members.begin() +
                std::min(members.size(), start + options.batchSize));
    }
    std::vector<std::vector<Chunk>> programs;
    for (auto &[id, chunks] : byProgram)
      programs.push_back(std::move(chunks));
    shuffle(programs, rng);
    std::vector<std::vector<Chunk>> steps;
    size_t filled = options.batchSize;
    for (std::vector<Chunk> &chunks : programs) {
      if (filled >= options.batchSize) {
        steps.emplace_back();
        filled = 0;
      }
      for (Chunk &chunk : chunks) {
        filled += chunk.size();
        steps.back().push_back(std::move(chunk));
      }
    }
    return steps;
  };
  auto stepsOf = [&](std::mt19937_64 &rng) {
    if (ranking)
      return rankingStepsOf(rng);
    std::vector<Chunk> chunks;
    for (const Group &group : data.train) {
      std::vector<size_t> members = group.members;
      shuffle(members, rng);
      for (size_t start = 0; start < members.size(); start += options.batchSize)
        chunks.emplace_back(
            members.begin() + start,
            members.begin() +
                std::min(members.size(), start + options.batchSize));
    }
    shuffle(chunks, rng);
    std::vector<std::vector<Chunk>> steps;
    size_t filled = options.batchSize;
    for (Chunk &chunk : chunks) {
      if (filled >= options.batchSize) {
        steps.emplace_back();
        filled = 0;
      }
      filled += chunk.size();
      steps.back().push_back(std::move(chunk));
    }
    return steps;
  };
  size_t trainSamples = 0;
  for (const Group &group : data.train)
    trainSamples += group.members.size();
  // At most this many: a step may gather more than batchSize schedules.
  size_t stepsPerEpoch =
      (trainSamples + options.batchSize - 1) / options.batchSize;

  Network<float> network(options.shape);
  network.initialize(mix(seed, 1));
  network.setInputNormalization(std::move(normalization));
  if (options.initial) {
    // Fine-tuning: the initial model's weights and standardization.
    const auto &initial = options.initial->getImpl().networks;
    Network<float> source = initial[member % initial.size()];
    network.copyParameters(source);
  }
  Network<float> best = network;
  AdamW optimizer(network, options.weightDecay);
  OneCycle schedule(options.learningRate,
                    size_t(options.epochs) * stepsPerEpoch);
  std::mt19937_64 shuffleRng(mix(seed, 2));
  std::mt19937_64 dropoutRng(mix(seed, 3));

  MemberSummary summary;
  summary.seed = seed;
  double bestValidation = std::numeric_limits<double>::infinity();
  summary.validationMAPE = bestValidation;
  size_t step = 0;
  unsigned sinceBest = 0;
  for (unsigned epoch = 1; epoch <= options.epochs; ++epoch) {
    double lossSum = 0;
    size_t lossCount = 0;
    double rate = 0;
    for (const std::vector<Chunk> &chunks : stepsOf(shuffleRng)) {
      size_t stepSamples = 0;
      for (const Chunk &chunk : chunks)
        stepSamples += chunk.size();
      network.zeroGradients();
      if (ranking) {
        // Every chunk forward, the loss over the whole step (its pairs or
        // lists span the chunks of a program), every chunk backward.
        std::vector<Network<float>::RelativeTape> tapes(chunks.size());
        Matrix predictions(1, stepSamples), targets(1, stepSamples);
        std::vector<unsigned> programOf;
        std::map<std::string, unsigned> programIds;
        Eigen::Index column = 0;
        for (auto [c, chunk] : llvm::enumerate(chunks)) {
          Matrix targetsOfChunk;
          Matrix inputs = packBatch(labeled, chunk, targetsOfChunk);
          Matrix chunkPredictions = predictRelative(
              network, labeled, chunk, inputs, &tapes[c], &dropoutRng);
          predictions.middleCols(column, chunk.size()) = chunkPredictions;
          targets.middleCols(column, chunk.size()) = targetsOfChunk;
          column += Eigen::Index(chunk.size());
          unsigned id =
              programIds
                  .try_emplace(labeled[chunk.front()].program,
                               programIds.size())
                  .first->second;
          programOf.insert(programOf.end(), chunk.size(), id);
        }
        Matrix grad;
        float loss = combinedLoss<float>(options.loss, options.rankWeight,
                                         options.rankMargin, predictions,
                                         targets, programOf, &grad);
        lossSum += double(loss) * double(stepSamples);
        lossCount += stepSamples;
        column = 0;
        for (auto [c, chunk] : llvm::enumerate(chunks)) {
          const LabeledSchedule &first = labeled[chunk.front()];
          Matrix chunkGrad = grad.middleCols(column, chunk.size());
          column += Eigen::Index(chunk.size());
          network.backwardRelative(first.features.tree, first.reference->tree,
                                   tapes[c], chunkGrad);
        }
      } else {
        for (const Chunk &chunk : chunks) {
          Matrix targetsOfChunk;
          Matrix inputs = packBatch(labeled, chunk, targetsOfChunk);
          const LabeledSchedule &first = labeled[chunk.front()];
          Network<float>::RelativeTape tape;
          Matrix predictions = predictRelative(network, labeled, chunk, inputs,
                                               &tape, &dropoutRng);
          Matrix grad;
          float loss = trainingLoss<float>(options.loss, predictions,
                                           targetsOfChunk, &grad);
          lossSum += double(loss) * double(chunk.size());
          lossCount += chunk.size();
          // The loss is a mean over the chunk; the step's, over all of it.
          grad *= float(double(chunk.size()) / double(stepSamples));
          network.backwardRelative(first.features.tree, first.reference->tree,
                                   tape, grad);
        }
      }
      auto [r, beta1] = schedule.at(step++);
      rate = r;
      optimizer.step(rate, beta1);
    }
    EpochReport report;
    report.member = member;
    report.epoch = epoch;
    report.trainLoss = lossSum / double(std::max<size_t>(lossCount, 1));
    std::tie(report.validationMAPE, report.validationLoss) =
        groupsErrors(network, labeled, data.validation, options.loss,
                     options.rankWeight, options.rankMargin);
    report.learningRate = rate;
    report.best = report.validationLoss < bestValidation;
    summary.epochsRun = epoch;
    if (report.best) {
      bestValidation = report.validationLoss;
      summary.validationMAPE = report.validationMAPE;
      best = network;
      summary.bestEpoch = epoch;
      sinceBest = 0;
    } else {
      ++sinceBest;
    }
    onEpoch(report);
    if (!std::isfinite(report.trainLoss))
      return error(llvm::formatv("training diverged at epoch {0}{1} (the "
                                 "training loss is not finite); try a lower "
                                 "learning rate",
                                 epoch,
                                 options.ensemble > 1
                                     ? llvm::formatv(" of network {0}",
                                                     member + 1)
                                           .str()
                                     : std::string())
                       .str());
    if (sinceBest >= options.patience)
      break;
  }
  return TrainedNetwork{std::move(best), summary};
}
} // namespace

llvm::Expected<CostModel>
tuner::trainCostModel(const Dataset &dataset, llvm::StringRef datasetPath,
                      const TrainingOptions &options,
                      llvm::function_ref<void(const EpochReport &)> onEpoch) {
  auto started = std::chrono::steady_clock::now();
  if (auto err = options.check())
    return std::move(err);
  unsigned skipped = 0;
  std::vector<std::string> excluded;
  llvm::Expected<std::vector<LabeledSchedule>> labeledOr =
      featurizeDataset(dataset, nullptr, skipped, &excluded);
  for (const std::string &line : excluded)
    llvm::errs() << "warning: " << line << "\n";
  if (!labeledOr)
    return labeledOr.takeError();
  const std::vector<LabeledSchedule> &labeled = *labeledOr;

  std::set<std::string> measuredPrograms;
  for (const LabeledSchedule &schedule : labeled)
    measuredPrograms.insert(schedule.program);
  std::set<std::string> targets;
  for (const ProgramRecord &program : dataset.programs)
    if (measuredPrograms.count(program.id))
      targets.insert(program.target);
  if (targets.size() > 1)
    return error("the dataset mixes measurements of " +
                 llvm::Twine(targets.size()) + " machines ('" +
                 *targets.begin() + "', '" + *std::next(targets.begin()) +
                 "', ...); a model is trained for one machine");
  llvm::Expected<ProgramSplit> split =
      splitPrograms(std::vector<std::string>(measuredPrograms.begin(),
                                             measuredPrograms.end()),
                    options.seed);
  if (!split)
    return split.takeError();
  // Part of the training and validation programs; the test programs stay.
  if (options.trainFraction < 1) {
    std::mt19937_64 rng(mix(options.seed, 11));
    for (std::vector<std::string> *part : {&split->train, &split->validation}) {
      shuffle(*part, rng);
      part->resize(std::max<size_t>(
          1, size_t(std::ceil(options.trainFraction * double(part->size())))));
      llvm::sort(*part);
    }
  }
  auto asSet = [](const std::vector<std::string> &ids) {
    return std::set<std::string>(ids.begin(), ids.end());
  };
  // One network trains on the split's training programs and stops early on
  // its validation programs. An ensemble is trained by cross-validation:
  // the split's training and validation programs together are dealt into
  // max(N, 4) folds, network m stops early on fold m and trains on the
  // others, so that every program but the test ones trains the ensemble.
  std::vector<std::string> heldIn = split->train;
  heldIn.insert(heldIn.end(), split->validation.begin(),
                split->validation.end());
  llvm::sort(heldIn);
  std::vector<TrainingData> data;
  if (options.ensemble == 1) {
    data.push_back({labeled, groupSchedules(labeled, asSet(split->train)),
                    groupSchedules(labeled, asSet(split->validation)),
                    split->validation});
  } else {
    std::vector<std::string> dealt = heldIn;
    std::mt19937_64 rng(mix(options.seed, 7));
    shuffle(dealt, rng);
    size_t folds = std::max<size_t>(options.ensemble, 4);
    if (dealt.size() < folds)
      return error(llvm::formatv("an ensemble of {0} networks deals the {1} "
                                 "training and validation programs into {2} "
                                 "folds and needs at least one program per "
                                 "fold",
                                 options.ensemble, dealt.size(), folds)
                       .str());
    for (unsigned m = 0; m < options.ensemble; ++m) {
      std::vector<std::string> train, validation;
      for (auto [i, id] : llvm::enumerate(dealt))
        (i % folds == m ? validation : train).push_back(id);
      llvm::sort(validation);
      data.push_back({labeled, groupSchedules(labeled, asSet(train)),
                      groupSchedules(labeled, asSet(validation)),
                      std::move(validation)});
    }
  }
  std::vector<Group> testGroups = groupSchedules(labeled, asSet(split->test));
  // The programs the model trains on: the split's training programs for one
  // network, every non-test program for an ensemble.
  std::vector<Group> trainedOnGroups = groupSchedules(
      labeled, asSet(options.ensemble == 1 ? split->train : heldIn));

  // Every network standardizes its inputs with their statistics.
  Network<float>::InputNormalization normalization;
  {
    Network<float>::NormalizationFit fit;
    for (const Group &group : trainedOnGroups)
      for (size_t i : group.members)
        fit.add(Network<float>::packInputs({&labeled[i].features}));
    normalization = fit.result();
  }

  // The networks, on up to `jobs` threads; each depends only on its seed.
  std::vector<std::optional<TrainedNetwork>> trained(options.ensemble);
  std::vector<std::string> failures(options.ensemble);
  std::mutex reportMutex;
  auto report = [&](const EpochReport &epoch) {
    std::lock_guard<std::mutex> lock(reportMutex);
    onEpoch(epoch);
  };
  {
    llvm::DefaultThreadPool pool(llvm::hardware_concurrency(options.jobs));
    for (unsigned m = 0; m < options.ensemble; ++m)
      pool.async([&, m] {
        llvm::Expected<TrainedNetwork> network =
            trainNetwork(data[m], options, m, normalization, report);
        if (network)
          trained[m] = std::move(*network);
        else
          failures[m] = llvm::toString(network.takeError());
      });
    pool.wait();
  }
  for (const std::string &failure : failures)
    if (!failure.empty())
      return error(failure);

  TrainingSummary summary;
  summary.seed = options.seed;
  summary.loss = options.loss;
  summary.maxEpochs = options.epochs;
  summary.batchSize = options.batchSize;
  summary.patience = options.patience;
  summary.learningRate = options.learningRate;
  summary.weightDecay = options.weightDecay;
  summary.trainFraction = options.trainFraction;
  summary.rankWeight = options.rankWeight;
  summary.rankMargin = options.rankMargin;
  auto impl = std::make_shared<CostModel::Impl>(options.shape, 0);
  for (auto [m, network] : llvm::enumerate(trained)) {
    network->summary.validationPrograms = data[m].validationPrograms;
    summary.members.push_back(network->summary);
    impl->networks.push_back(std::move(network->network));
    impl->networks.back().prepareInference();
  }

  // Train MAPE: the model on the programs it trained on. Validation MAPE:
  // each validation program predicted by the network that stopped early on
  // it (for one network, the split's validation programs).
  summary.trainMAPE = groupsErrors(impl->networks, labeled, trainedOnGroups,
                                   TrainingLoss::MAPE)
                          .first;
  {
    std::vector<double> measured, predicted;
    for (auto [m, network] : llvm::enumerate(impl->networks))
      for (auto [i, prediction] :
           predictGroups(network, labeled, data[m].validation)) {
        measured.push_back(labeled[i].speedup);
        predicted.push_back(prediction);
      }
    summary.validationMAPE = meanAbsolutePercentageError(measured, predicted);
  }
  std::vector<double> measured, predicted;
  for (auto [i, prediction] : predictGroups(impl->networks, labeled, testGroups)) {
    measured.push_back(labeled[i].speedup);
    predicted.push_back(prediction);
  }
  Metrics test = computeMetrics(measured, predicted);
  summary.testMAPE = test.mape;
  summary.testPearson = test.pearson;
  summary.testSpearman = test.spearman;
  summary.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started)
          .count();

  impl->target = targets.empty() ? "" : *targets.begin();
  impl->training = summary;
  impl->dataset.path = datasetPath.str();
  impl->dataset.programs = measuredPrograms.size();
  impl->dataset.samples = labeled.size();
  impl->dataset.skippedSamples = skipped;
  impl->dataset.trainPrograms = options.ensemble == 1 ? split->train : heldIn;
  {
    std::set<std::string> validation;
    for (const TrainingData &network : data)
      validation.insert(network.validationPrograms.begin(),
                        network.validationPrograms.end());
    impl->dataset.validationPrograms.assign(validation.begin(),
                                            validation.end());
  }
  impl->dataset.testPrograms = split->test;
  return CostModel(std::move(impl));
}

llvm::Expected<Evaluation>
tuner::evaluateCostModel(const CostModel &model, const Dataset &dataset,
                         llvm::ArrayRef<std::string> programs) {
  std::set<std::string> wanted(programs.begin(), programs.end());
  unsigned skipped = 0;
  std::vector<std::string> excludedPrograms;
  llvm::Expected<std::vector<LabeledSchedule>> labeled =
      featurizeDataset(dataset, wanted.empty() ? nullptr : &wanted, skipped,
                       &excludedPrograms);
  for (const std::string &line : excludedPrograms)
    llvm::errs() << "warning: " << line << "\n";
  if (!labeled)
    return labeled.takeError();
  // One prediction per program, against its untransformed schedule.
  std::map<std::string, std::vector<size_t>> byProgram;
  for (auto [i, schedule] : llvm::enumerate(*labeled))
    byProgram[schedule.program].push_back(i);
  std::vector<PredictionRow> rows;
  for (const auto &[program, members] : byProgram) {
    std::vector<ProgramFeatures> schedules;
    for (size_t i : members)
      schedules.push_back(std::move((*labeled)[i].features));
    std::vector<double> predictions =
        model.predict(*(*labeled)[members.front()].reference, schedules);
    for (auto [i, prediction] : llvm::zip(members, predictions))
      rows.push_back({program, (*labeled)[i].speedup, prediction});
  }
  return Evaluation::of(std::move(rows));
}
