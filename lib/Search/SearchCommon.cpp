//===- SearchCommon.cpp - What the black-box strategies share -------------===//

#include "SearchCommon.h"

#include "tuner/Search/Strategies.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstdio>

using namespace tuner;
using namespace tuner::search;

std::string search::formatNumber(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", value);
  return text;
}

//===----------------------------------------------------------------------===//
// SettingsReader
//===----------------------------------------------------------------------===//

SettingsReader::SettingsReader(
    llvm::StringRef strategy,
    const std::map<std::string, std::string> &settings)
    : strategy(strategy.str()), settings(settings) {}

const std::string *SettingsReader::lookup(llvm::StringRef key) {
  known.insert(key.str());
  auto it = settings.find(key.str());
  if (it == settings.end())
    return nullptr;
  consumed.insert(it->first);
  return &it->second;
}

void SettingsReader::fail(const llvm::Twine &message) {
  if (error.empty())
    error = message.str();
}

void SettingsReader::invalid(llvm::StringRef key, const std::string &value,
                             const llvm::Twine &expected) {
  fail("strategy '" + strategy + "': setting '" + key + "' must be " +
       expected + ", not '" + value + "'");
}

uint64_t SettingsReader::getInteger(llvm::StringRef key, uint64_t defaultValue,
                                    uint64_t lo, uint64_t hi) {
  const std::string *text = lookup(key);
  if (!text)
    return defaultValue;
  uint64_t value = 0;
  if (llvm::StringRef(*text).trim().getAsInteger(10, value) || value < lo ||
      value > hi) {
    invalid(key, *text, llvm::formatv("an integer from {0} to {1}", lo, hi));
    return defaultValue;
  }
  return value;
}

double SettingsReader::getNumber(llvm::StringRef key, double defaultValue,
                                 double lo, double hi, bool loOpen,
                                 bool hiOpen) {
  const std::string *text = lookup(key);
  if (!text)
    return defaultValue;
  double value = 0;
  bool bad = llvm::StringRef(*text).trim().getAsDouble(value) ||
             !std::isfinite(value) || value < lo || value > hi ||
             (loOpen && value == lo) || (hiOpen && value == hi);
  if (bad) {
    invalid(key, *text,
            llvm::Twine("a number in ") + (loOpen ? "(" : "[") +
                formatNumber(lo) + ", " + formatNumber(hi) +
                (hiOpen ? ")" : "]"));
    return defaultValue;
  }
  return value;
}

std::string SettingsReader::getChoice(llvm::StringRef key,
                                      llvm::StringRef defaultValue,
                                      llvm::ArrayRef<llvm::StringRef> choices) {
  const std::string *text = lookup(key);
  if (!text)
    return defaultValue.str();
  llvm::StringRef value = llvm::StringRef(*text).trim();
  if (!llvm::is_contained(choices, value)) {
    invalid(key, *text, "one of " + llvm::join(choices, ", "));
    return defaultValue.str();
  }
  return value.str();
}

std::string SettingsReader::getText(llvm::StringRef key,
                                    llvm::StringRef defaultValue) {
  const std::string *text = lookup(key);
  if (!text)
    return defaultValue.str();
  if (llvm::StringRef(*text).trim().empty()) {
    invalid(key, *text, "non-empty");
    return defaultValue.str();
  }
  return llvm::StringRef(*text).trim().str();
}

std::map<std::string, std::string>
SettingsReader::takePrefixed(llvm::StringRef prefix) {
  std::map<std::string, std::string> result;
  std::string start = prefix.str() + ".";
  for (const auto &[key, value] : settings)
    if (llvm::StringRef(key).starts_with(start)) {
      result[key.substr(start.size())] = value;
      consumed.insert(key);
    }
  return result;
}

llvm::Error SettingsReader::finish() {
  if (!error.empty())
    return llvm::createStringError(error);
  for (const auto &entry : settings) {
    if (consumed.count(entry.first))
      continue;
    std::string list = known.empty()
                           ? std::string("none")
                           : llvm::join(known.begin(), known.end(), ", ");
    return llvm::createStringError("strategy '" + strategy +
                                   "' has no setting '" + entry.first +
                                   "' (known: " + list + ")");
  }
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// ValueScale, History, Sampler
//===----------------------------------------------------------------------===//

void ValueScale::add(double value) {
  if (!std::isfinite(value))
    return;
  lowest = count ? std::min(lowest, value) : value;
  highest = count ? std::max(highest, value) : value;
  ++count;
}

double ValueScale::operator()(double value) const {
  if (count == 0 || (lowest > 0 && value > 0))
    return value > 0 ? std::log(value) : value;
  if (highest < 0 && value < 0)
    return -std::log(-value);
  double spread = highest - lowest;
  return spread > 0 ? value / spread : value;
}

const Known *History::find(const Config &config) const {
  auto it = entries.find(key(config));
  return it == entries.end() ? nullptr : &it->second;
}

bool History::observe(const Observation &observation) {
  Known &entry = entries[key(observation.config)];
  if (entry.observed)
    return false;
  entry.observed = true;
  entry.ok = observation.ok() && std::isfinite(observation.value);
  entry.value = observation.value;
  if (entry.ok)
    scale.add(observation.value);
  return true;
}

Sampler::Sampler(const ChainOfTrees &chain, uint64_t seed)
    : random(createRandomSearch(chain, seed)) {}

std::optional<Config> Sampler::next(const History &history) {
  while (true) {
    std::vector<Config> configs = random->propose(1);
    if (configs.empty())
      return std::nullopt;
    if (!history.known(configs.front()))
      return std::move(configs.front());
  }
}

uint64_t search::deriveSeed(uint64_t seed, uint64_t index) {
  uint64_t z = seed + (index + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

size_t search::drawWeighted(llvm::ArrayRef<double> weights,
                            std::mt19937_64 &rng) {
  double total = 0;
  for (double w : weights)
    total += std::max(w, 0.0);
  if (!(total > 0))
    return std::uniform_int_distribution<size_t>(0, weights.size() - 1)(rng);
  double point = std::uniform_real_distribution<double>(0, total)(rng);
  for (size_t i = 0; i < weights.size(); ++i) {
    point -= std::max(weights[i], 0.0);
    if (point < 0)
      return i;
  }
  // Rounding: the last index with weight.
  for (size_t i = weights.size(); i-- > 0;)
    if (weights[i] > 0)
      return i;
  return weights.size() - 1;
}
