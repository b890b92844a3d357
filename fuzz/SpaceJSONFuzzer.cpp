//===- SpaceJSONFuzzer.cpp - libFuzzer target: space files ----------------===//
//
// The input is a space file (JSON). A read either fails with an error or
// gives a space that writes back to JSON that reads again to the same space
// (same fingerprint); its Chain-of-Trees (built with a small node limit)
// samples only configs the space accepts.
//
//===----------------------------------------------------------------------===//

#include "FuzzSpace.h"

#include "tuner/Space/ChainOfTrees.h"

#include "llvm/Support/JSON.h"

#include <cstddef>
#include <cstdint>
#include <random>

using namespace tuner;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(text);
  if (!json) {
    llvm::consumeError(json.takeError());
    return 0;
  }
  llvm::Expected<Space> space = Space::fromJSON(*json);
  if (!space) {
    llvm::consumeError(space.takeError());
    return 0;
  }
  llvm::Expected<Space> again = Space::fromJSON(space->toJSON());
  if (!again)
    fuzz::propertyFailed("a space read does not read back: " +
                         llvm::toString(again.takeError()));
  if (again->fingerprint() != space->fingerprint())
    fuzz::propertyFailed("a space read back has another fingerprint");

  ChainOfTrees::Options options;
  options.maxNodesPerTree = 5000;
  options.sampleLargeGroups = false;
  llvm::Expected<ChainOfTrees> chain = ChainOfTrees::build(*space, options);
  if (!chain) {
    llvm::consumeError(chain.takeError());
    return 0;
  }
  (void)chain->countString();
  std::mt19937_64 rng(1);
  llvm::Expected<Config> config = chain->sample(rng);
  if (!config) {
    llvm::consumeError(config.takeError());
    return 0;
  }
  if (llvm::Error error = space->check(*config))
    fuzz::propertyFailed("a sampled config is not in its space: " +
                         llvm::toString(std::move(error)));
  llvm::Expected<Config> read = Config::fromJSON(*space, config->toJSON(*space));
  if (!read)
    fuzz::propertyFailed("a sampled config does not read back: " +
                         llvm::toString(read.takeError()));
  if (!(*read == *config))
    fuzz::propertyFailed("a sampled config reads back as another one");
  return 0;
}
