//===- RandomSearch.cpp - Uniform random sampling -------------------------===//

#include "tuner/Search/Strategies.h"

#include <algorithm>
#include <unordered_set>

using namespace tuner;

namespace {

class RandomSearch : public Strategy {
public:
  RandomSearch(const ChainOfTrees &chain, uint64_t seed)
      : chain(chain), rng(seed) {}

  llvm::StringRef getName() const override { return "random"; }

  std::vector<Config> propose(size_t count) override {
    std::vector<Config> result;
    while (result.size() < count) {
      std::optional<Config> next = nextConfig();
      if (!next)
        break;
      result.push_back(std::move(*next));
    }
    return result;
  }

  void observe(llvm::ArrayRef<Observation>) override {}

private:
  /// Consecutive duplicate samples after which a space counts as nearly
  /// exhausted and the rest is enumerated instead.
  static constexpr int kMaxDuplicateRun = 64;
  /// Spaces at most this large are enumerated when sampling stalls.
  static constexpr uint64_t kEnumerableSize = 1 << 20;

  std::optional<Config> nextConfig() {
    if (!remaining.empty() || enumerated) {
      while (!remaining.empty()) {
        Config config = std::move(remaining.back());
        remaining.pop_back();
        if (seen.insert(config.hash()).second)
          return config;
      }
      return std::nullopt;
    }
    for (int attempt = 0; attempt < kMaxDuplicateRun; ++attempt) {
      llvm::Expected<Config> config = chain.sample(rng);
      if (!config) {
        llvm::consumeError(config.takeError());
        return std::nullopt;
      }
      if (seen.insert(config->hash()).second)
        return std::move(*config);
    }
    // Sampling stalls: enumerate what is left, if the space is small.
    if (chain.hasRealParameters() || !chain.isExact())
      return std::nullopt;
    llvm::APInt size = chain.count();
    if (size.getActiveBits() > 63 || size.getZExtValue() > kEnumerableSize)
      return std::nullopt;
    enumerated = true;
    uint64_t n = size.getZExtValue();
    for (uint64_t i = 0; i < n; ++i) {
      Config config = chain.at(llvm::APInt(64, i));
      if (!seen.count(config.hash()))
        remaining.push_back(std::move(config));
    }
    std::shuffle(remaining.begin(), remaining.end(), rng);
    return nextConfig();
  }

  const ChainOfTrees &chain;
  std::mt19937_64 rng;
  std::unordered_set<uint64_t> seen;
  std::vector<Config> remaining;
  bool enumerated = false;
};

} // namespace

std::unique_ptr<Strategy> tuner::createRandomSearch(const ChainOfTrees &chain,
                                                    uint64_t seed) {
  return std::make_unique<RandomSearch>(chain, seed);
}
