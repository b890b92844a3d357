//===- Portfolio.cpp - A bandit over strategies (OpenTuner's AUC) ---------===//
//
// OpenTuner's AUCBanditMetaTechnique: one budget shared by member
// strategies. Each config to propose goes to the member with the highest
// bandit score, exploitation + C · exploration, where exploitation is the
// area under the curve of the member's recent results (over the last
// `window` results of the portfolio, each 1 when it was a new best and 0
// otherwise, later ones weighing more) and exploration is
// sqrt(2 log2(results in the window) / member's uses); a member not used
// yet comes first. Every member observes every result, so all of them
// learn from each evaluation; a config that is known already (another
// member proposed it) is never evaluated again: the member is asked again.
//
//===----------------------------------------------------------------------===//

#include "SearchCommon.h"

#include "tuner/Search/Strategies.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <unordered_map>

using namespace tuner;
using namespace tuner::search;

namespace {

/// OpenTuner's AUCBanditQueue over members 0..n-1.
class AUCBandit {
public:
  AUCBandit(size_t members, unsigned window, double exploration)
      : window(window), exploration(exploration), uses(members, 0),
        aucSum(members, 0), aucDecay(members, 0) {}

  /// The members, best bandit score first (ties in random order).
  std::vector<size_t> ordered(std::mt19937_64 &rng) const {
    std::vector<size_t> keys(uses.size()), tieBreak(uses.size());
    std::vector<double> scores(uses.size());
    for (size_t i = 0; i < keys.size(); ++i) {
      keys[i] = tieBreak[i] = i;
      scores[i] = score(i);
    }
    std::shuffle(tieBreak.begin(), tieBreak.end(), rng);
    std::sort(keys.begin(), keys.end(), [&](size_t a, size_t b) {
      if (scores[a] != scores[b])
        return scores[a] > scores[b];
      return tieBreak[a] < tieBreak[b];
    });
    return keys;
  }

  void onResult(size_t member, bool newBest) {
    int value = newBest ? 1 : 0;
    history.push_back({member, value});
    aucDecay[member] += uses[member];
    aucSum[member] += uses[member] * value;
    ++uses[member];
    if (history.size() > window) {
      auto [old, oldValue] = history.front();
      history.pop_front();
      aucSum[old] -= aucDecay[old];
      aucDecay[old] -= oldValue;
      --uses[old];
    }
  }

  double score(size_t member) const {
    if (uses[member] == 0)
      return std::numeric_limits<double>::infinity();
    double n = uses[member];
    double exploitation = aucSum[member] / (n * (n + 1) / 2);
    double explore = std::sqrt(2 * std::log2(double(history.size())) / n);
    return exploitation + exploration * explore;
  }

private:
  unsigned window;
  double exploration;
  std::deque<std::pair<size_t, int>> history;
  std::vector<int64_t> uses, aucSum, aucDecay;
};

class Portfolio : public Strategy {
public:
  Portfolio(std::vector<PortfolioMember> members,
            const PortfolioOptions &options)
      : members(std::move(members)), history(options.hash),
        bandit(this->members.size(), options.window, options.exploration),
        rng(options.seed), evaluations(this->members.size(), 0),
        newBests(this->members.size(), 0) {}

  llvm::StringRef getName() const override { return "portfolio"; }

  std::vector<Config> propose(size_t count) override {
    std::vector<Config> result;
    while (result.size() < count) {
      std::optional<std::pair<Config, size_t>> next = nextConfig();
      if (!next)
        break;
      history.propose(next->first);
      proposer[history.key(next->first)] = next->second;
      result.push_back(std::move(next->first));
    }
    return result;
  }

  void observe(llvm::ArrayRef<Observation> observations) override {
    for (const Observation &observation : observations) {
      if (!history.observe(observation))
        continue;
      bool newBest = observation.ok() && std::isfinite(observation.value) &&
                     (!best || observation.value > *best);
      if (newBest)
        best = observation.value;
      auto it = proposer.find(history.key(observation.config));
      if (it == proposer.end())
        continue;
      bandit.onResult(it->second, newBest);
      ++evaluations[it->second];
      newBests[it->second] += newBest;
      proposer.erase(it);
    }
    for (PortfolioMember &member : members)
      member.strategy->observe(observations);
  }

  /// Per member: the evaluations it was given, how many found a new best,
  /// and its own statistics.
  llvm::json::Object statistics() const override {
    llvm::json::Object perMember;
    for (size_t i = 0; i < members.size(); ++i) {
      llvm::json::Object entry{{"evaluations", int64_t(evaluations[i])},
                               {"new_bests", int64_t(newBests[i])}};
      llvm::json::Object own = members[i].strategy->statistics();
      if (!own.empty())
        entry["statistics"] = std::move(own);
      perMember[members[i].name] = std::move(entry);
    }
    return llvm::json::Object{{"members", std::move(perMember)}};
  }

private:
  /// Proposals of known configs a member may make in a row before the
  /// next member is asked.
  static constexpr unsigned kDuplicateAttempts = 16;

  /// A new config and the member that proposed it.
  std::optional<std::pair<Config, size_t>> nextConfig() {
    for (size_t index : bandit.ordered(rng)) {
      Strategy &member = *members[index].strategy;
      for (unsigned attempt = 0; attempt < kDuplicateAttempts; ++attempt) {
        std::vector<Config> configs = member.propose(1);
        if (configs.empty())
          break;
        if (!history.known(configs.front()))
          return std::make_pair(std::move(configs.front()), index);
      }
    }
    return std::nullopt;
  }

  std::vector<PortfolioMember> members;
  History history;
  AUCBandit bandit;
  std::mt19937_64 rng;
  std::optional<double> best;
  /// The member that proposed each config not yet observed.
  std::unordered_map<uint64_t, size_t> proposer;
  /// Per member: evaluations given, and those that found a new best.
  std::vector<size_t> evaluations, newBests;
};

} // namespace

static const StrategySetting kPortfolioSettings[] = {
    {"members", "registered strategies separated by commas or '+' "
                "(default random+evolution+annealing+genetic+bo)"},
    {"window", "results the area-under-the-curve credit looks back over "
               "(default 500)"},
    {"exploration", "weight of the bandit's exploration term, >= 0 "
                    "(default 0.05)"},
    {"<member>.<key>", "setting <key> of member <member>, e.g. "
                       "evolution.q=0.3"},
};

llvm::ArrayRef<StrategySetting> tuner::portfolioSettings() {
  return kPortfolioSettings;
}

std::unique_ptr<Strategy>
tuner::createPortfolio(std::vector<PortfolioMember> members,
                       const PortfolioOptions &options) {
  return std::make_unique<Portfolio>(std::move(members), options);
}

std::vector<std::string> tuner::defaultPortfolioMembers() {
  std::vector<std::string> names = {"random", "evolution", "annealing",
                                    "genetic"};
  // Bayesian optimization joins when it is registered.
  for (const StrategyInfo &info : strategyRegistry())
    if (llvm::StringRef(info.name) == "bo")
      names.push_back(info.name);
  return names;
}

llvm::Expected<std::unique_ptr<Strategy>>
tuner::createPortfolio(const SearchProblem &problem,
                       const StrategyOptions &options) {
  SettingsReader reader("portfolio", options.settings);
  PortfolioOptions portfolio;
  portfolio.seed = options.seed;
  portfolio.hash = problem.hash;
  portfolio.window =
      reader.getInteger("window", portfolio.window, 1, 100000000);
  portfolio.exploration =
      reader.getNumber("exploration", portfolio.exploration, 0, 1e9);
  std::string list =
      reader.getText("members", llvm::join(defaultPortfolioMembers(), ","));
  // Comma- or plus-separated: the pass's strategy-options= separates its
  // items by commas already.
  std::string separated = list;
  std::replace(separated.begin(), separated.end(), '+', ',');
  llvm::SmallVector<llvm::StringRef> names;
  llvm::StringRef(separated).split(names, ',');
  std::vector<std::string> seen;
  std::vector<std::map<std::string, std::string>> memberSettings;
  for (llvm::StringRef &name : names) {
    name = name.trim();
    if (name.empty())
      reader.fail("strategy 'portfolio': setting 'members' has an empty "
                  "name in '" +
                  list + "'");
    else if (name == "portfolio")
      reader.fail("strategy 'portfolio': a portfolio cannot be a member of "
                  "itself");
    else if (llvm::is_contained(seen, name))
      reader.fail("strategy 'portfolio': member '" + name +
                  "' is listed twice");
    seen.push_back(name.str());
    memberSettings.push_back(reader.takePrefixed(name));
  }
  if (llvm::Error error = reader.finish())
    return std::move(error);

  std::vector<PortfolioMember> members;
  for (size_t i = 0; i < names.size(); ++i) {
    StrategyOptions memberOptions = options;
    memberOptions.seed = deriveSeed(options.seed, i + 1);
    memberOptions.settings = std::move(memberSettings[i]);
    llvm::Expected<std::unique_ptr<Strategy>> member =
        createStrategy(names[i], problem, memberOptions);
    if (!member)
      return llvm::createStringError(
          "strategy 'portfolio': member '" + names[i] +
          "': " + llvm::toString(member.takeError()));
    members.push_back({names[i].str(), std::move(*member)});
  }
  return createPortfolio(std::move(members), portfolio);
}
