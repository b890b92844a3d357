//===- SearchCommon.h - What the black-box strategies share -----*- C++ -*-===//
//
// Evolution, annealing, the genetic algorithm and the portfolio read their
// knobs from StrategyOptions::settings, keep a record of every config they
// know (proposed or observed, their own or, inside a portfolio, another
// member's), compare values on a relative scale, and draw fresh uniform
// samples of the space. This header holds those pieces once.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_LIB_SEARCH_SEARCHCOMMON_H
#define TUNER_LIB_SEARCH_SEARCHCOMMON_H

#include "tuner/Search/Strategy.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <unordered_map>

namespace tuner {
namespace search {

/// Reads one strategy's settings (key -> value as the user wrote them):
/// every getter returns the default when the key is absent, and records an
/// error naming the key, the accepted values and the value given when it is
/// malformed or out of range (the default is returned then). finish()
/// returns the first such error, or one for a key no getter asked for.
class SettingsReader {
public:
  SettingsReader(llvm::StringRef strategy,
                 const std::map<std::string, std::string> &settings);

  /// An integer in [lo, hi].
  uint64_t getInteger(llvm::StringRef key, uint64_t defaultValue, uint64_t lo,
                      uint64_t hi);
  /// A finite number in the interval from lo to hi, each end open or closed.
  double getNumber(llvm::StringRef key, double defaultValue, double lo,
                   double hi, bool loOpen = false, bool hiOpen = false);
  /// One of `choices`.
  std::string getChoice(llvm::StringRef key, llvm::StringRef defaultValue,
                        llvm::ArrayRef<llvm::StringRef> choices);
  /// Any non-empty text.
  std::string getText(llvm::StringRef key, llvm::StringRef defaultValue);
  /// The settings whose key starts with `prefix` followed by '.', with that
  /// part removed (e.g. a portfolio member's own settings).
  std::map<std::string, std::string> takePrefixed(llvm::StringRef prefix);
  /// Records an error of the caller's own (the first error wins).
  void fail(const llvm::Twine &message);

  llvm::Error finish();

private:
  const std::string *lookup(llvm::StringRef key);
  void invalid(llvm::StringRef key, const std::string &value,
               const llvm::Twine &expected);

  std::string strategy;
  const std::map<std::string, std::string> &settings;
  std::set<std::string> known;
  std::set<std::string> consumed;
  std::string error;
};

/// Maps the values of observations (higher is better) to a scale on which
/// differences are relative: the logarithm of a positive value (a speedup),
/// minus the logarithm of a negative one's magnitude (a minimized time,
/// negated), and, once values of both signs or zero have been seen, the
/// value divided by the spread of the values seen. Monotone in the value.
class ValueScale {
public:
  void add(double value);
  double operator()(double value) const;
  bool empty() const { return count == 0; }

private:
  size_t count = 0;
  double lowest = 0, highest = 0;
};

/// What a strategy knows about one config.
struct Known {
  bool observed = false;
  bool ok = false;
  double value = 0;
};

/// Every config a strategy has proposed or observed, keyed by the problem's
/// schedule hash (Config::hash when it has none), and the scale of the
/// values observed so far.
class History {
public:
  explicit History(ScheduleHash hash) : hash(std::move(hash)) {}

  uint64_t key(const Config &config) const {
    return hash ? hash(config) : config.hash();
  }
  bool known(const Config &config) const { return entries.count(key(config)); }
  /// The entry of `config`, or null when it is unknown.
  const Known *find(const Config &config) const;
  /// Marks `config` as proposed (pending until observed).
  void propose(const Config &config) { entries.try_emplace(key(config)); }
  /// Records an observation; false when `config` was observed before (the
  /// observation is then ignored).
  bool observe(const Observation &observation);
  size_t size() const { return entries.size(); }
  const ValueScale &getScale() const { return scale; }

private:
  ScheduleHash hash;
  std::unordered_map<uint64_t, Known> entries;
  ValueScale scale;
};

/// Uniform feasible samples (Chain-of-Trees) that no History knows; once
/// sampling keeps hitting known configs of a small space, the rest is
/// enumerated in random order (the random strategy underneath).
class Sampler {
public:
  Sampler(const ChainOfTrees &chain, uint64_t seed);
  /// A config `history` does not know; nullopt once there is none left.
  std::optional<Config> next(const History &history);

private:
  std::unique_ptr<Strategy> random;
};

/// `value` as printf's %g writes it (0.1, 1e+09).
std::string formatNumber(double value);

/// A seed for the `index`-th of several generators derived from `seed`
/// (SplitMix64), so that members and helpers draw independent streams.
uint64_t deriveSeed(uint64_t seed, uint64_t index);

/// An index drawn with probability proportional to `weights` (non-negative);
/// uniform when they are all zero. `weights` must not be empty.
size_t drawWeighted(llvm::ArrayRef<double> weights, std::mt19937_64 &rng);

} // namespace search
} // namespace tuner

#endif // TUNER_LIB_SEARCH_SEARCHCOMMON_H
