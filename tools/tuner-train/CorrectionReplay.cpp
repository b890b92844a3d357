//===- CorrectionReplay.cpp - The execution step's corrections, replayed --===//

#include "CorrectionReplay.h"

#include "tuner/Search/ExecutionStep.h"
#include "tuner/Support/Measurement.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace tuner;

namespace {
constexpr ModelCorrection kModes[] = {
    ModelCorrection::None, ModelCorrection::Errors, ModelCorrection::Adapt,
    ModelCorrection::AdaptAndErrors};
constexpr size_t kModeCount = std::size(kModes);
} // namespace

llvm::Error tuner::replayCorrections(const Dataset &dataset,
                                     const std::set<std::string> &programs,
                                     const CostModel &model,
                                     const CorrectionReplayOptions &options,
                                     llvm::raw_ostream &out,
                                     llvm::json::Value *json) {
  if (options.topK == 0 || options.batch == 0)
    return llvm::createStringError(
        "the replay needs a positive top-k and batch");
  std::map<std::string, std::vector<const SampleRecord *>> usable;
  std::map<std::string, size_t> index = dataset.programIndex();
  for (const SampleRecord &sample : dataset.samples) {
    const ProgramRecord &program = dataset.programs[index.at(sample.programId)];
    if (!programs.empty() && !programs.count(program.id))
      continue;
    if (sample.status != Status::Ok || !(sample.speedup > 0) ||
        sample.foreignLoad > kMaxForeignLoad ||
        program.baselineForeignLoad > kMaxForeignLoad)
      continue;
    usable[program.id].push_back(&sample);
  }
  std::array<double, kModeCount> scoreSum{}, bestCount{};
  size_t replayed = 0, unscored = 0;
  llvm::json::Array rows;
  for (const auto &entry : usable) {
    const std::string &id = entry.first;
    const std::vector<const SampleRecord *> &samples = entry.second;
    if (samples.size() <= options.topK)
      continue;
    const ProgramRecord &program = dataset.programs[index.at(id)];
    llvm::Expected<CostModel::ProgramPredictor> predictor =
        model.forProgram(program.tree, program.space);
    if (!predictor) {
      llvm::consumeError(predictor.takeError());
      ++unscored;
      continue;
    }
    std::vector<Config> configs;
    double best = 0;
    for (const SampleRecord *sample : samples) {
      configs.push_back(sample->config);
      best = std::max(best, sample->speedup);
    }
    llvm::Expected<std::vector<double>> predicted = predictor->predict(configs);
    if (!predicted) {
      llvm::consumeError(predicted.takeError());
      ++unscored;
      continue;
    }
    auto measuredSpeedup = [&](const Config &config) {
      for (const SampleRecord *sample : samples)
        if (sample->config == config)
          return sample->speedup;
      return 0.0;
    };
    llvm::json::Object row{{"program", id},
                           {"schedules", int64_t(samples.size())},
                           {"best", best}};
    for (auto [m, mode] : llvm::enumerate(kModes)) {
      ExecutionStep step(options.topK, mode, /*diverse=*/false, nullptr);
      const CostModel::ProgramPredictor *p = &*predictor;
      step.setRepresentation(
          [p](llvm::ArrayRef<Config> c) { return p->represent(c); });
      std::vector<std::pair<Config, double>> candidates;
      for (auto [config, prediction] : llvm::zip(configs, *predicted))
        candidates.push_back({config, prediction});
      step.setCandidates(std::move(candidates));
      double found = 0;
      while (true) {
        std::vector<Config> proposed = step.propose(options.batch);
        if (proposed.empty())
          break;
        std::vector<Observation> observations;
        for (const Config &config : proposed) {
          Observation observation;
          observation.config = config;
          observation.status = Status::Ok;
          observation.value = measuredSpeedup(config);
          found = std::max(found, observation.value);
          observations.push_back(std::move(observation));
        }
        step.observe(observations);
      }
      scoreSum[m] += found / best;
      bestCount[m] += found >= best ? 1 : 0;
      row[modelCorrectionName(mode)] = found / best;
    }
    rows.push_back(std::move(row));
    ++replayed;
  }
  if (replayed == 0)
    return llvm::createStringError(
        "no program has more than " + llvm::Twine(options.topK) +
        " usable measured schedules to replay the corrections on");
  out << llvm::formatv("correction replay: {0} programs (more than {1} "
                       "usable schedules each{2}), {1} measured per program "
                       "in batches of {3}\n",
                       replayed, options.topK,
                       unscored ? llvm::formatv("; {0} the model cannot score "
                                                "left out",
                                                unscored)
                                      .str()
                                : std::string(),
                       options.batch);
  out << "correction  best found / program best  found the best\n";
  llvm::json::Object modes;
  for (auto [m, mode] : llvm::enumerate(kModes)) {
    double score = scoreSum[m] / double(replayed);
    double hit = bestCount[m] / double(replayed);
    out << llvm::formatv("{0,-10}  {1,23:F3}  {2,14:F3}\n",
                         modelCorrectionName(mode), score, hit);
    modes[modelCorrectionName(mode)] =
        llvm::json::Object{{"score", score}, {"found_best", hit}};
  }
  if (json)
    *json = llvm::json::Object{{"programs", int64_t(replayed)},
                               {"top_k", int64_t(options.topK)},
                               {"batch", int64_t(options.batch)},
                               {"modes", std::move(modes)},
                               {"rows", std::move(rows)}};
  return llvm::Error::success();
}
