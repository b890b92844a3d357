//===- ListSearch.cpp - Configs chosen beforehand, in order ---------------===//
//
// For clients that pick their configs themselves (tuner-gen samples each
// program's configs with a seed of its own) but run them through the tuning
// core like any search.
//
//===----------------------------------------------------------------------===//

#include "tuner/Search/Strategies.h"

using namespace tuner;

namespace {

class ListSearch : public Strategy {
public:
  explicit ListSearch(std::vector<Config> configs)
      : configs(std::move(configs)) {}

  llvm::StringRef getName() const override { return "list"; }

  std::vector<Config> propose(size_t count) override {
    std::vector<Config> batch;
    while (batch.size() < count && next < configs.size())
      batch.push_back(configs[next++]);
    return batch;
  }

  void observe(llvm::ArrayRef<Observation>) override {}

private:
  std::vector<Config> configs;
  size_t next = 0;
};

} // namespace

std::unique_ptr<Strategy> tuner::createListSearch(std::vector<Config> configs) {
  return std::make_unique<ListSearch>(std::move(configs));
}
