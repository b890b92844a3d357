//===- ExhaustiveSearch.cpp - Every feasible config once ------------------===//

#include "tuner/Search/Strategies.h"

using namespace tuner;

namespace {

class ExhaustiveSearch : public Strategy {
public:
  explicit ExhaustiveSearch(const ChainOfTrees &chain)
      : chain(chain), size(chain.count()), next(size.getBitWidth(), 0) {}

  llvm::StringRef getName() const override { return "exhaustive"; }

  std::vector<Config> propose(size_t count) override {
    std::vector<Config> result;
    while (result.size() < count && next.ult(size)) {
      result.push_back(chain.at(next));
      ++next;
    }
    return result;
  }

  void observe(llvm::ArrayRef<Observation>) override {}

private:
  const ChainOfTrees &chain;
  llvm::APInt size;
  llvm::APInt next;
};

} // namespace

std::unique_ptr<Strategy> tuner::createExhaustiveSearch(const ChainOfTrees &chain) {
  return std::make_unique<ExhaustiveSearch>(chain);
}
