//===- GpuHarness.cpp - tuner-run --gpu and --query-gpu -------------------===//

#include "GpuHarness.h"

#include "tuner/Measure/CudaRuntime.h"
#include "tuner/Measure/DeviceBuffers.h"
#include "tuner/Target/Target.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <dlfcn.h>
#include <map>
#include <memory>
#include <vector>

using namespace tuner;
using cuda::Runtime;
using cuda::Status;

namespace {
[[noreturn]] void fail(const llvm::Twine &message, int code = 2) {
  llvm::outs().flush();
  llvm::errs() << "tuner-run: " << message << "\n";
  std::exit(code);
}

/// Ends the process on a failed runtime call, with the runtime's exit code.
void orFail(const Status &status) {
  if (!status.ok())
    fail(status.message, status.noDevice ? cuda::kNoDeviceExitCode
                                         : cuda::kDriverErrorExitCode);
}

/// DeviceMemory over the process's CUDA runtime.
class CudaMemory final : public DeviceMemory {
public:
  explicit CudaMemory(Runtime &runtime) : runtime(runtime) {}

  llvm::Expected<void *> allocate(uint64_t bytes) override {
    void *pointer = nullptr;
    if (llvm::Error error =
            wrap(runtime.allocate(bytes, /*managed=*/false, pointer)))
      return std::move(error);
    return pointer;
  }
  llvm::Error release(void *device) override {
    return wrap(runtime.free(device));
  }
  llvm::Error copyToDevice(void *device, const void *host,
                           uint64_t bytes) override {
    return wrap(runtime.copy(device, host, bytes, nullptr));
  }
  llvm::Error copyToHost(void *host, const void *device,
                         uint64_t bytes) override {
    return wrap(runtime.copy(host, device, bytes, nullptr));
  }
  llvm::Error copyOnDevice(void *destination, const void *source,
                           uint64_t bytes) override {
    return wrap(runtime.copy(destination, source, bytes, nullptr));
  }

  /// The last failure's status, for the exit code.
  Status last;

private:
  llvm::Error wrap(Status status) {
    if (status.ok())
      return llvm::Error::success();
    last = status;
    return llvm::createStringError(status.message);
  }

  Runtime &runtime;
};

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Loads the driver and opens `device`, or ends the process.
Runtime &openDevice(int device) {
  orFail(Runtime::processLoadStatus());
  Runtime &runtime = Runtime::process();
  orFail(runtime.setDevice(device));
  orFail(runtime.initialize());
  return runtime;
}
} // namespace

namespace {
/// The device, the spec's buffers on it, and the calls of one process: one
/// candidate (runGpu) or a batch of them (runGpuBatch).
class GpuSession {
public:
  GpuSession(const HarnessSpec &spec, const GpuRunOptions &options,
             llvm::ArrayRef<PointerCaller> callers, bool keepPristine)
      : options(options), callers(callers),
        // The device first: a library's GPU modules load onto it when it is
        // opened (global constructors calling mgpuModuleLoad).
        runtime(openDevice(options.device)), memory(runtime) {
    orFail(runtime.deviceFacts(facts));
    llvm::Expected<std::unique_ptr<DeviceBuffers>> created =
        DeviceBuffers::create(spec, memory, keepPristine);
    if (!created) {
      std::string message = llvm::toString(created.takeError());
      fail(message, memory.last.noDevice ? cuda::kNoDeviceExitCode
                                         : cuda::kDriverErrorExitCode);
    }
    buffers = std::move(*created);
    arguments.assign(buffers->arguments().begin(), buffers->arguments().end());
  }

  /// One attempt at `function`: the verification call (on fresh inputs
  /// where the session keeps them), its outputs written to `outputs` unless
  /// empty, then the warm-up and the timed repetitions.
  llvm::json::Object attempt(void *function, llvm::StringRef outputs,
                             bool restore) {
    if (restore)
      if (llvm::Error error = buffers->restoreInputs())
        fail(llvm::toString(std::move(error)), cuda::kDriverErrorExitCode);
    PointerCaller call = callers[arguments.size()];
    auto callOnce = [&] { call(function, arguments.data()); };

    // The verification call; the function synchronizes its streams before
    // it returns (gpu-to-llvm's synchronous launches), so its outputs are
    // there.
    auto firstCallStart = Clock::now();
    callOnce();
    double firstCallSeconds = secondsSince(firstCallStart);
    if (!outputs.empty()) {
      std::error_code error;
      llvm::raw_fd_ostream stream(outputs, error, llvm::sys::fs::OF_None);
      if (error)
        fail("cannot write '" + outputs + "': " + error.message());
      if (llvm::Error copyError = buffers->writeOutputs(stream))
        fail(llvm::toString(std::move(copyError)), cuda::kDriverErrorExitCode);
      stream.close();
      if (stream.has_error())
        fail("cannot write '" + outputs + "'");
    }

    llvm::json::Object report{{"repetitions", int64_t(options.repetitions)},
                              {"first_call_seconds", firstCallSeconds},
                              {"device", facts.name},
                              {"timer", "cuda_events"}};
    if (options.repetitions == 0)
      return report;
    CUevent start = nullptr, stop = nullptr;
    orFail(runtime.createEvent(/*timing=*/true, start));
    orFail(runtime.createEvent(/*timing=*/true, stop));
    // Events on the legacy default stream: the runtime's streams are
    // blocking, so the events bracket all the calls' work.
    auto timeCalls = [&](uint64_t calls) {
      orFail(runtime.recordEvent(start, nullptr));
      for (uint64_t i = 0; i < calls; ++i)
        callOnce();
      orFail(runtime.recordEvent(stop, nullptr));
      orFail(runtime.synchronizeEvent(stop));
      float ms = 0;
      orFail(runtime.elapsedMilliseconds(start, stop, ms));
      return double(ms) / 1000;
    };
    // Warm-up and calibration: grow the batch until it lasts --min-time.
    auto warmupStart = Clock::now();
    uint64_t calls = calibrateCalls(timeCalls, options.minTime);
    report["warmup_seconds"] = secondsSince(warmupStart);
    auto timedStart = Clock::now();
    std::vector<double> perCall;
    for (unsigned rep = 0; rep < options.repetitions; ++rep)
      perCall.push_back(timeCalls(calls) / double(calls));
    report["timed_seconds"] = secondsSince(timedStart);
    TimingSummary summary = summarizeTimes(perCall);
    report["min_seconds"] = summary.minSeconds;
    report["median_seconds"] = summary.medianSeconds;
    report["max_seconds"] = summary.maxSeconds;
    report["calls_per_repetition"] = int64_t(calls);
    orFail(runtime.destroyEvent(start));
    orFail(runtime.destroyEvent(stop));
    return report;
  }

  void release() {
    if (llvm::Error error = buffers->release())
      fail(llvm::toString(std::move(error)), cuda::kDriverErrorExitCode);
  }

private:
  const GpuRunOptions &options;
  llvm::ArrayRef<PointerCaller> callers;
  Runtime &runtime;
  CudaMemory memory;
  cuda::DeviceFacts facts;
  std::unique_ptr<DeviceBuffers> buffers;
  std::vector<void *> arguments;
};

/// Writes one event line to stdout and flushes it: the parent reads what
/// was written before a crash.
void emit(llvm::json::Object event) {
  llvm::outs() << llvm::json::Value(std::move(event)) << "\n";
  llvm::outs().flush();
}
} // namespace

void tuner::runGpu(const HarnessSpec &spec, llvm::StringRef library,
                   const GpuRunOptions &options,
                   llvm::ArrayRef<PointerCaller> callers,
                   double startupSeconds) {
  auto inputStart = Clock::now();
  GpuSession session(spec, options, callers, /*keepPristine=*/false);
  void *handle = dlopen(library.str().c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    fail("cannot load '" + library + "': " + dlerror());
  std::string symbol = "_mlir_ciface_" + spec.function;
  void *function = dlsym(handle, symbol.c_str());
  if (!function)
    fail("'" + library + "' has no symbol '" + symbol + "'");
  double inputSeconds = startupSeconds + secondsSince(inputStart);
  llvm::json::Object report =
      session.attempt(function, options.outputs, /*restore=*/false);
  report["input_seconds"] = inputSeconds;
  session.release();
  emit(std::move(report));
  // The library stays loaded: its GPU modules unload at exit.
}

void tuner::runGpuBatch(const HarnessSpec &spec,
                        llvm::ArrayRef<GpuCandidate> candidates,
                        const GpuRunOptions &options,
                        llvm::ArrayRef<PointerCaller> callers,
                        llvm::function_ref<void(double)> armDeadline,
                        double attemptTimeout) {
  auto inputStart = Clock::now();
  GpuSession session(spec, options, callers, /*keepPristine=*/true);
  double inputSeconds = secondsSince(inputStart);
  std::map<std::string, void *> libraries;
  for (auto [index, candidate] : llvm::enumerate(candidates)) {
    // Opening a library loads its GPU modules: under the deadline too.
    emit(llvm::json::Object{{"start", int64_t(index)}, {"attempt", 0}});
    armDeadline(attemptTimeout);
    void *&library = libraries[candidate.library];
    if (!library)
      library = dlopen(candidate.library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!library) {
      armDeadline(0);
      emit(llvm::json::Object{{"candidate", int64_t(index)},
                              {"error", "cannot load '" + candidate.library +
                                            "': " + std::string(dlerror())}});
      continue;
    }
    void *function = dlsym(library, candidate.symbol.c_str());
    if (!function) {
      armDeadline(0);
      emit(llvm::json::Object{{"candidate", int64_t(index)},
                              {"error", "'" + candidate.library +
                                            "' has no symbol '" +
                                            candidate.symbol + "'"}});
      continue;
    }
    llvm::json::Object report =
        session.attempt(function, candidate.outputs, /*restore=*/index > 0);
    armDeadline(0);
    report["candidate"] = int64_t(index);
    report["attempt"] = 0;
    if (index == 0)
      report["input_seconds"] = inputSeconds;
    emit(std::move(report));
  }
  session.release();
  // Libraries stay loaded: their GPU modules unload at exit.
}

void tuner::queryGpu(int device) {
  Runtime &runtime = openDevice(device);
  cuda::DeviceFacts facts;
  orFail(runtime.deviceFacts(facts));
  Target target = Target::host();
  target.kind = "gpu";
  GpuTarget &gpu = target.gpu;
  gpu.name = facts.name;
  gpu.computeMajor = unsigned(facts.computeMajor);
  gpu.computeMinor = unsigned(facts.computeMinor);
  gpu.ptxFeatures = GpuTarget::ptxFeaturesFor(gpu.computeMajor,
                                              gpu.computeMinor);
  gpu.smCount = unsigned(facts.smCount);
  gpu.sharedMemoryPerBlock = uint64_t(facts.sharedMemoryPerBlock);
  gpu.sharedMemoryPerSM = uint64_t(facts.sharedMemoryPerSM);
  // No attribute tells it: 255 on every chip since compute capability 3.5.
  gpu.registersPerThread = 255;
  gpu.registersPerBlock = unsigned(facts.registersPerBlock);
  gpu.maxThreadsPerBlock = unsigned(facts.maxThreadsPerBlock);
  gpu.warpSize = unsigned(facts.warpSize);
  gpu.l2Bytes = uint64_t(facts.l2Bytes);
  llvm::outs() << llvm::formatv("{0:2}", target.toJSON()) << "\n";
  llvm::outs().flush();
}
