//===- GpuHarness.h - tuner-run --gpu and --query-gpu -----------*- C++ -*-===//
//
// The GPU mode of the harness (built with TUNER_ENABLE_CUDA): the same spec,
// inputs, outputs file and JSON report as the CPU mode, with the buffers on
// the device and the calls timed with CUDA events. Failures print
// "tuner-run: <what>" on stderr and exit with 2 (usage, files), 3 (a driver
// call failed: cuda::kDriverErrorExitCode) or 4 (no driver or no device:
// cuda::kNoDeviceExitCode).
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_TOOLS_TUNER_RUN_GPUHARNESS_H
#define TUNER_TOOLS_TUNER_RUN_GPUHARNESS_H

#include "tuner/Measure/Harness.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace tuner {

/// Calls a `void(void *, ..., void *)` function with the given arguments.
using PointerCaller = void (*)(void *function, void **arguments);

struct GpuRunOptions {
  int device = 0;
  unsigned repetitions = 5;
  double minTime = 0.02;
  /// The outputs file (empty: none).
  std::string outputs;
};

/// Opens device `options.device`, loads `library` (whose GPU modules load
/// onto that device), copies the spec's inputs to the device once, calls
/// `_mlir_ciface_<function>` on descriptors of device pointers, writes the
/// compared buffers to the outputs file, then times it: calibrating warm-up
/// and repetitions of calls between two CUDA events on the default stream.
/// `callers[n]` calls a function of n pointers. Prints the JSON report.
void runGpu(const HarnessSpec &spec, llvm::StringRef library,
            const GpuRunOptions &options, llvm::ArrayRef<PointerCaller> callers,
            double startupSeconds);

/// One candidate of a GPU batch: the symbol to call, the shared object that
/// holds it, and its outputs file.
struct GpuCandidate {
  std::string symbol, library, outputs;
};

/// Runs a batch in one process with the CPU batch's protocol (see
/// tuner-run.cpp): the device and the inputs once, then per candidate a
/// {"start": K, "attempt": 0} line, its library opened (its GPU modules
/// loaded) and its attempt under `armDeadline(attemptTimeout)` (0 disarms),
/// on the inputs restored on the device, and its report with "candidate": K
/// (or "candidate": K and "error" when it cannot be loaded). GPU timings
/// are not retried for foreign load: other processes' CPU time does not
/// disturb CUDA event timings the way it disturbs CPU timings.
void runGpuBatch(const HarnessSpec &spec,
                 llvm::ArrayRef<GpuCandidate> candidates,
                 const GpuRunOptions &options,
                 llvm::ArrayRef<PointerCaller> callers,
                 llvm::function_ref<void(double)> armDeadline,
                 double attemptTimeout);

/// Prints the Target JSON of kind "gpu" for device `device`: the host's CPU
/// fields (Target::host()) and the device's facts.
void queryGpu(int device);

} // namespace tuner

#endif // TUNER_TOOLS_TUNER_RUN_GPUHARNESS_H
