//===- Target.cpp - Facts about the machine code is tuned for -------------===//

#include "tuner/Target/Target.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Threading.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>
#include <thread>

using namespace tuner;
using llvm::json::Object;

/// Reads a cache size such as "32K" or "1024K" from sysfs; 0 when missing.
static uint64_t readCacheSize(const llvm::Twine &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return 0;
  llvm::StringRef text = (*buffer)->getBuffer().trim();
  uint64_t scale = 1;
  if (text.consume_back("K"))
    scale = 1024;
  else if (text.consume_back("M"))
    scale = 1024 * 1024;
  uint64_t value = 0;
  if (text.getAsInteger(10, value))
    return 0;
  return value * scale;
}

static std::string readTrimmed(const llvm::Twine &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return "";
  return (*buffer)->getBuffer().trim().str();
}

Target Target::host() {
  Target target;
  target.cpu = llvm::sys::getHostCPUName().str();
  target.triple = llvm::sys::getProcessTriple();
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  for (const auto &entry : features)
    if (entry.second)
      target.features.push_back(entry.first().str());
  llvm::sort(target.features);

  if (target.hasFeature("avx512f")) {
    target.vectorBits = 512;
    target.numVectorRegisters = 32;
  } else if (target.hasFeature("avx")) {
    target.vectorBits = 256;
    target.numVectorRegisters = 16;
  } else if (target.hasFeature("sse2") || target.hasFeature("neon")) {
    target.vectorBits = 128;
    target.numVectorRegisters = target.hasFeature("neon") ? 32 : 16;
  }

  int physical = llvm::get_physical_cores();
  unsigned logical = std::max(1u, std::thread::hardware_concurrency());
  target.cores = physical > 0 ? unsigned(physical) : logical;
  // Containers often expose fewer logical CPUs than the package has cores.
  target.cores = std::min(target.cores, logical);

  // Data and unified caches of cpu0, by level.
  for (int index = 0; index < 8; ++index) {
    std::string dir =
        ("/sys/devices/system/cpu/cpu0/cache/index" + llvm::Twine(index)).str();
    if (!llvm::sys::fs::exists(dir))
      break;
    std::string type = readTrimmed(dir + "/type");
    std::string level = readTrimmed(dir + "/level");
    uint64_t size = readCacheSize(dir + "/size");
    if (!size || type == "Instruction")
      continue;
    if (level == "1")
      target.l1dBytes = size;
    else if (level == "2")
      target.l2Bytes = size;
    else if (level == "3")
      target.l3Bytes = size;
  }
  return target;
}

bool Target::hasFeature(llvm::StringRef feature) const {
  return llvm::is_contained(features, feature.str());
}

std::string Target::fingerprint() const {
  if (isGpu())
    return "gpu:" + gpu.chip() + ":" + gpu.name + ":" +
           std::to_string(gpu.smCount) + "sm";
  // Only the features that change generated code for loops matter; keeping
  // the list short makes fingerprints readable in the database.
  static const char *const relevant[] = {
      "avx", "avx2", "avx512f", "avx512bw", "avx512vl", "fma", "sse4.2", "neon",
      "sve", "amx-tile"};
  std::string result = kind + ":" + cpu;
  for (const char *feature : relevant)
    if (hasFeature(feature))
      result += std::string("+") + feature;
  result += ":" + std::to_string(cores) + "c";
  return result;
}

llvm::json::Value Target::toJSON() const {
  llvm::json::Array featureArray;
  for (const std::string &feature : features)
    featureArray.push_back(feature);
  Object object{{"kind", kind},
                {"cpu", cpu},
                {"triple", triple},
                {"features", std::move(featureArray)},
                {"vector_bits", int64_t(vectorBits)},
                {"vector_registers", int64_t(numVectorRegisters)},
                {"cores", int64_t(cores)},
                {"l1d_bytes", int64_t(l1dBytes)},
                {"l2_bytes", int64_t(l2Bytes)},
                {"l3_bytes", int64_t(l3Bytes)}};
  if (isGpu())
    object["gpu"] = gpu.toJSON();
  return object;
}

llvm::json::Value GpuTarget::toJSON() const {
  return Object{{"name", name},
                {"compute_capability",
                 std::to_string(computeMajor) + "." +
                     std::to_string(computeMinor)},
                {"ptx_features", ptxFeatures},
                {"sm_count", int64_t(smCount)},
                {"shared_memory_per_block", int64_t(sharedMemoryPerBlock)},
                {"shared_memory_per_sm", int64_t(sharedMemoryPerSM)},
                {"registers_per_thread", int64_t(registersPerThread)},
                {"registers_per_block", int64_t(registersPerBlock)},
                {"max_threads_per_block", int64_t(maxThreadsPerBlock)},
                {"warp_size", int64_t(warpSize)},
                {"l2_bytes", int64_t(l2Bytes)}};
}

llvm::Expected<GpuTarget> GpuTarget::fromJSON(const llvm::json::Value &json) {
  const Object *object = json.getAsObject();
  if (!object)
    return llvm::createStringError(
        "target description: 'gpu' must be an object");
  GpuTarget target;
  auto getString = [&](llvm::StringRef key, std::string &out) -> llvm::Error {
    std::optional<llvm::StringRef> value = object->getString(key);
    if (!value)
      return llvm::createStringError(
          "target description: missing or non-string field 'gpu." + key + "'");
    out = value->str();
    return llvm::Error::success();
  };
  auto getPositive = [&](llvm::StringRef key, auto &out) -> llvm::Error {
    std::optional<int64_t> value = object->getInteger(key);
    if (!value || *value <= 0)
      return llvm::createStringError("target description: field 'gpu." + key +
                                     "' must be a positive integer");
    out = static_cast<std::remove_reference_t<decltype(out)>>(*value);
    return llvm::Error::success();
  };
  if (auto err = getString("name", target.name))
    return std::move(err);
  std::string capability;
  if (auto err = getString("compute_capability", capability))
    return std::move(err);
  auto [major, minor] = llvm::StringRef(capability).split('.');
  if (major.getAsInteger(10, target.computeMajor) ||
      minor.getAsInteger(10, target.computeMinor) || target.computeMajor == 0 ||
      target.computeMinor > 9)
    return llvm::createStringError(
        "target description: 'gpu.compute_capability' must read like \"9.0\", "
        "not \"" + capability + "\"");
  if (auto err = getString("ptx_features", target.ptxFeatures))
    return std::move(err);
  for (auto [key, field] : {std::pair<const char *, unsigned *>{
                                "sm_count", &target.smCount},
                            {"registers_per_thread", &target.registersPerThread},
                            {"registers_per_block", &target.registersPerBlock},
                            {"max_threads_per_block",
                             &target.maxThreadsPerBlock},
                            {"warp_size", &target.warpSize}})
    if (auto err = getPositive(key, *field))
      return std::move(err);
  for (auto [key, field] :
       {std::pair<const char *, uint64_t *>{"shared_memory_per_block",
                                            &target.sharedMemoryPerBlock},
        {"shared_memory_per_sm", &target.sharedMemoryPerSM},
        {"l2_bytes", &target.l2Bytes}})
    if (auto err = getPositive(key, *field))
      return std::move(err);
  if (target.maxThreadsPerBlock % target.warpSize != 0)
    return llvm::createStringError(
        "target description: 'gpu.max_threads_per_block' must be a multiple "
        "of 'gpu.warp_size'");
  return target;
}

llvm::Expected<Target> Target::fromJSON(const llvm::json::Value &json) {
  const Object *object = json.getAsObject();
  if (!object)
    return llvm::createStringError("target description: expected an object");
  Target target;
  auto getString = [&](llvm::StringRef key, std::string &out) -> llvm::Error {
    std::optional<llvm::StringRef> value = object->getString(key);
    if (!value)
      return llvm::createStringError(
          "target description: missing or non-string field '" + key + "'");
    out = value->str();
    return llvm::Error::success();
  };
  auto getPositive = [&](llvm::StringRef key, auto &out) -> llvm::Error {
    std::optional<int64_t> value = object->getInteger(key);
    if (!value || *value <= 0)
      return llvm::createStringError(
          "target description: field '" + key +
          "' must be a positive integer");
    out = static_cast<std::remove_reference_t<decltype(out)>>(*value);
    return llvm::Error::success();
  };
  if (auto err = getString("kind", target.kind))
    return std::move(err);
  if (target.kind != "cpu" && target.kind != "gpu")
    return llvm::createStringError("target description: kind '" +
                                   target.kind +
                                   "' is not supported (cpu, gpu)");
  if (auto err = getString("cpu", target.cpu))
    return std::move(err);
  if (auto err = getString("triple", target.triple))
    return std::move(err);
  const llvm::json::Array *featureArray = object->getArray("features");
  if (!featureArray)
    return llvm::createStringError(
        "target description: missing array field 'features'");
  for (const llvm::json::Value &feature : *featureArray) {
    std::optional<llvm::StringRef> text = feature.getAsString();
    if (!text)
      return llvm::createStringError(
          "target description: 'features' must hold strings");
    target.features.push_back(text->str());
  }
  llvm::sort(target.features);
  for (auto [key, field] :
       {std::pair<const char *, unsigned *>{"vector_bits", &target.vectorBits},
        {"vector_registers", &target.numVectorRegisters},
        {"cores", &target.cores}})
    if (auto err = getPositive(key, *field))
      return std::move(err);
  for (auto [key, field] :
       {std::pair<const char *, uint64_t *>{"l1d_bytes", &target.l1dBytes},
        {"l2_bytes", &target.l2Bytes},
        {"l3_bytes", &target.l3Bytes}})
    if (auto err = getPositive(key, *field))
      return std::move(err);
  if (target.vectorBits % 8 != 0)
    return llvm::createStringError(
        "target description: 'vector_bits' must be a multiple of 8");
  if (target.isGpu()) {
    const llvm::json::Value *gpu = object->get("gpu");
    if (!gpu)
      return llvm::createStringError(
          "target description: kind 'gpu' needs a 'gpu' object");
    llvm::Expected<GpuTarget> facts = GpuTarget::fromJSON(*gpu);
    if (!facts)
      return facts.takeError();
    target.gpu = std::move(*facts);
  }
  return target;
}

std::string GpuTarget::ptxFeaturesFor(unsigned major, unsigned minor) {
  // (compute capability, PTX ISA version that introduced its target),
  // newest first.
  static const struct {
    unsigned major, minor;
    const char *features;
  } table[] = {{12, 0, "+ptx87"}, {10, 0, "+ptx86"}, {9, 0, "+ptx80"},
               {8, 9, "+ptx78"},  {8, 7, "+ptx74"},  {8, 6, "+ptx71"},
               {8, 0, "+ptx70"},  {7, 5, "+ptx63"},  {7, 2, "+ptx61"},
               {7, 0, "+ptx60"}};
  for (const auto &row : table)
    if (major > row.major || (major == row.major && minor >= row.minor))
      return row.features;
  return "+ptx60";
}

/// Reads device `device`'s facts with `tuner-run --query-gpu` in a child
/// process (the CUDA driver stays out of this process).
static llvm::Expected<Target> queryGpu(llvm::StringRef spec, unsigned device) {
  std::string harness;
  std::string self = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  if (!self.empty()) {
    llvm::SmallString<256> sibling(llvm::sys::path::parent_path(self));
    llvm::sys::path::append(sibling, "tuner-run");
    if (llvm::sys::fs::can_execute(sibling))
      harness = std::string(sibling);
  }
  if (harness.empty()) {
    llvm::ErrorOr<std::string> path = llvm::sys::findProgramByName("tuner-run");
    if (!path)
      return llvm::createStringError(
          "target '" + spec +
          "': cannot find 'tuner-run' (next to this program or on PATH) to "
          "query the GPU");
    harness = *path;
  }
  llvm::SmallString<128> outPath, errPath;
  for (auto *path : {&outPath, &errPath})
    if (std::error_code error =
            llvm::sys::fs::createTemporaryFile("tuner-query-gpu", "txt", *path))
      return llvm::createStringError("target '" + spec +
                                     "': cannot create a temporary file: " +
                                     error.message());
  std::string deviceText = std::to_string(device);
  llvm::SmallVector<llvm::StringRef> args = {harness, "--query-gpu",
                                             "--device", deviceText};
  std::optional<llvm::StringRef> redirects[] = {
      llvm::StringRef(""), llvm::StringRef(outPath), llvm::StringRef(errPath)};
  std::string message;
  int code = llvm::sys::ExecuteAndWait(harness, args, std::nullopt, redirects,
                                       /*SecondsToWait=*/120, 0, &message);
  auto readAll = [](llvm::StringRef path) {
    auto buffer = llvm::MemoryBuffer::getFile(path);
    std::string text = buffer ? (*buffer)->getBuffer().trim().str() : "";
    llvm::sys::fs::remove(path);
    return text;
  };
  std::string out = readAll(outPath), err = readAll(errPath);
  if (code != 0)
    return llvm::createStringError(
        "target '" + spec + "': '" + harness + " --query-gpu --device " +
        deviceText + "' failed (" +
        (code < 0 ? message : "exit code " + std::to_string(code)) + ")" +
        (err.empty() ? "" : ": " + err));
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(out);
  if (!json)
    return llvm::createStringError("target '" + spec +
                                   "': tuner-run --query-gpu printed no JSON: " +
                                   llvm::toString(json.takeError()));
  llvm::Expected<Target> target = Target::fromJSON(*json);
  if (!target)
    return llvm::createStringError("target '" + spec + "': " +
                                   llvm::toString(target.takeError()));
  if (!target->isGpu())
    return llvm::createStringError("target '" + spec +
                                   "': tuner-run --query-gpu described a "
                                   "target of kind '" + target->kind + "'");
  return target;
}

llvm::Expected<Target> Target::resolve(llvm::StringRef spec) {
  if (spec.empty() || spec == "host")
    return host();
  if (spec == "gpu")
    return queryGpu(spec, 0);
  if (spec.starts_with("gpu:")) {
    unsigned device = 0;
    if (spec.drop_front(4).getAsInteger(10, device))
      return llvm::createStringError("target '" + spec +
                                     "': expected gpu:<device number>");
    return queryGpu(spec, device);
  }
  auto buffer = llvm::MemoryBuffer::getFile(spec);
  if (!buffer)
    return llvm::createStringError("cannot read target description '" + spec +
                                   "': " + buffer.getError().message());
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*buffer)->getBuffer());
  if (!json)
    return llvm::createStringError("target description '" + spec +
                                   "': " + llvm::toString(json.takeError()));
  llvm::Expected<Target> target = fromJSON(*json);
  if (!target)
    return llvm::createStringError("'" + spec +
                                   "': " + llvm::toString(target.takeError()));
  return target;
}
