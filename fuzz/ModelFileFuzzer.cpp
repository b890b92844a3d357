//===- ModelFileFuzzer.cpp - libFuzzer target: cost model files -----------===//
//
// The input is a model file (JSON): networks (format versions 2 to 4) or
// gradient-boosted trees. A read either fails with an error or gives a model
// that writes back to JSON that reads again.
//
//===----------------------------------------------------------------------===//

#include "FuzzSpace.h"

#include "tuner/CostModel/CostModel.h"

#include "llvm/Support/JSON.h"

#include <cstddef>
#include <cstdint>

using namespace tuner;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(text);
  if (!json) {
    llvm::consumeError(json.takeError());
    return 0;
  }
  llvm::Expected<CostModel> model = CostModel::fromJSON(*json, "fuzz");
  if (!model) {
    llvm::consumeError(model.takeError());
    return 0;
  }
  llvm::Expected<CostModel> again = CostModel::fromJSON(model->toJSON(), "fuzz");
  if (!again)
    fuzz::propertyFailed("a model read does not read back: " +
                         llvm::toString(again.takeError()));
  return 0;
}
