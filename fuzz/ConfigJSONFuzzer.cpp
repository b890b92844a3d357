//===- ConfigJSONFuzzer.cpp - libFuzzer target: config JSON ---------------===//
//
// The input is a config of fuzzSpace() as JSON ({"name": value, ...}). A read
// either fails with an error or gives a config whose values are in their
// domains, that the space checks without crashing and that writes back to
// JSON that reads again to the same config.
//
//===----------------------------------------------------------------------===//

#include "FuzzSpace.h"

#include "llvm/Support/JSON.h"

#include <cstddef>
#include <cstdint>

using namespace tuner;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const Space &space = fuzz::fuzzSpace();
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(text);
  if (!json) {
    llvm::consumeError(json.takeError());
    return 0;
  }
  for (bool allowMissing : {false, true}) {
    llvm::Expected<Config> config = Config::fromJSON(space, *json, allowMissing);
    if (!config) {
      llvm::consumeError(config.takeError());
      continue;
    }
    if (config->size() != space.size())
      fuzz::propertyFailed("a config read has the wrong number of values");
    for (size_t i = 0; i < space.size(); ++i)
      if (!space[i].contains((*config)[i]))
        fuzz::propertyFailed("a config read holds a value outside the domain "
                             "of '" + space[i].name + "'");
    llvm::consumeError(space.check(*config));
    (void)config->hash();
    llvm::Expected<Config> again = Config::fromJSON(space, config->toJSON(space));
    if (!again)
      fuzz::propertyFailed("a config read does not read back: " +
                           llvm::toString(again.takeError()));
    if (!(*again == *config))
      fuzz::propertyFailed("a config read back is another config");
  }
  return 0;
}
