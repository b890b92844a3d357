//===- CudaRuntime.h - The project's CUDA runtime (mgpu*) -------*- C++ -*-===//
//
// Debian's MLIR ships no libmlir_cuda_runtime, so the host code that MLIR's
// `gpu-to-llvm` emits (calls of mgpuModuleLoad, mgpuLaunchKernel,
// mgpuStreamCreate, mgpuMemAlloc, ...) links libTunerCudaRuntime.so instead:
// those C functions over the CUDA driver API, plus the C++ interface below
// that the GPU harness (`tuner-run --gpu`) uses for device buffers, CUDA
// events and device facts.
//
// The driver is loaded with dlopen("libcuda.so.1") on first use, so nothing
// needs a driver at link time. Every call of the C++ interface returns a
// Status that names the driver call, its CUresult and what was being done;
// the mgpu* functions, which have no way to report an error, print that
// message to stderr and exit the process (they run in the harness's child
// process: a failed candidate, never a crashed tuner) with
// kDriverErrorExitCode, or kNoDeviceExitCode when there is no driver or no
// device at all.
//
// No LLVM here: the library is loaded into every lowered GPU function.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_MEASURE_CUDARUNTIME_H
#define TUNER_MEASURE_CUDARUNTIME_H

#include <cuda.h>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>

namespace tuner::cuda {

/// Exit code of a process whose mgpu* call failed in the driver.
constexpr int kDriverErrorExitCode = 3;
/// Exit code of a process that found no CUDA driver or no device.
constexpr int kNoDeviceExitCode = 4;
/// The library the driver is loaded from by default.
constexpr const char *kDriverLibrary = "libcuda.so.1";

/// The CUresult's enumerator name, e.g. "CUDA_ERROR_OUT_OF_MEMORY" for 2,
/// from a table of cuda.h's names (the driver's cuGetErrorName is not
/// usable when the driver is a stub or missing); "CUresult <n>" for a value
/// the table lacks.
std::string resultName(CUresult result);

/// "cuMemAlloc failed with CUDA_ERROR_OUT_OF_MEMORY (out of memory) while
/// allocating 64 bytes of device memory": `call` is the driver function,
/// `description` the driver's text for the result (left out when empty),
/// `what` what the runtime was doing.
std::string describeFailure(const std::string &call, CUresult result,
                            const std::string &description,
                            const std::string &what);

/// The outcome of a runtime operation: success, or a message saying what
/// failed. `noDevice` marks a missing driver or device (nothing a candidate
/// did), for the exit code.
struct Status {
  std::string message;
  bool noDevice = false;
  /// The failed driver call's result (CUDA_SUCCESS for other failures).
  CUresult result = CUDA_SUCCESS;

  static Status success() { return {}; }
  bool ok() const { return message.empty(); }
};

/// The driver entry points the runtime calls, by their versioned names in
/// libcuda (cuMemAlloc is cuMemAlloc_v2, ...). A table of function pointers
/// so that tests can put fakes in.
#define TUNER_CUDA_DRIVER_FUNCTIONS(X)                                         \
  X(cuInit)                                                                    \
  X(cuDriverGetVersion)                                                        \
  X(cuDeviceGetCount)                                                          \
  X(cuDeviceGet)                                                               \
  X(cuDeviceGetName)                                                           \
  X(cuDeviceGetAttribute)                                                      \
  X(cuDevicePrimaryCtxRetain)                                                  \
  X(cuCtxGetCurrent)                                                           \
  X(cuCtxSetCurrent)                                                           \
  X(cuModuleLoadData)                                                          \
  X(cuModuleLoadDataEx)                                                        \
  X(cuModuleUnload)                                                            \
  X(cuModuleGetFunction)                                                       \
  X(cuLaunchKernel)                                                            \
  X(cuStreamCreate)                                                            \
  X(cuStreamDestroy)                                                           \
  X(cuStreamSynchronize)                                                       \
  X(cuStreamWaitEvent)                                                         \
  X(cuEventCreate)                                                             \
  X(cuEventDestroy)                                                            \
  X(cuEventRecord)                                                             \
  X(cuEventSynchronize)                                                        \
  X(cuEventElapsedTime)                                                        \
  X(cuMemAlloc)                                                                \
  X(cuMemAllocManaged)                                                         \
  X(cuMemFree)                                                                 \
  X(cuMemcpy)                                                                  \
  X(cuMemcpyAsync)                                                             \
  X(cuMemsetD32Async)                                                          \
  X(cuMemsetD16Async)                                                          \
  X(cuMemHostRegister)                                                         \
  X(cuMemHostUnregister)                                                       \
  X(cuGetErrorString)

struct DriverApi {
#define TUNER_CUDA_DRIVER_FIELD(name) decltype(&::name) name##Fn = nullptr;
  TUNER_CUDA_DRIVER_FUNCTIONS(TUNER_CUDA_DRIVER_FIELD)
#undef TUNER_CUDA_DRIVER_FIELD

  /// Loads every entry point from `library` (dlopen, then dlsym of the
  /// versioned names cuda.h maps to). A missing library gives "no CUDA
  /// driver (<library>): <dlerror>" with noDevice set; a missing entry point
  /// names it.
  static Status load(const char *library, DriverApi &api);
};

/// A launch's geometry, as the mgpu* launch function receives it (MLIR's
/// index type, so intptr_t) before narrowing to the driver's unsigned ints.
struct LaunchDims {
  intptr_t grid[3];
  intptr_t block[3];
  int32_t sharedMemoryBytes;
};

/// Checks what the driver cannot be asked with: every grid and block size
/// positive and within 32 bits, shared memory non-negative. The message
/// names the kernel and the offending size.
Status checkLaunch(const char *kernel, const LaunchDims &dims);

/// Facts about a device read with cuDeviceGetName and cuDeviceGetAttribute.
struct DeviceFacts {
  std::string name;
  int computeMajor = 0, computeMinor = 0;
  int smCount = 0;
  int64_t sharedMemoryPerBlock = 0; ///< Static limit (48 KiB on most).
  int64_t sharedMemoryPerSM = 0;
  int registersPerBlock = 0;
  int maxThreadsPerBlock = 0;
  int warpSize = 0;
  int64_t l2Bytes = 0;
};

/// The runtime: one driver, one device, its primary context current on the
/// threads that call in. The mgpu* functions use `Runtime::process()`.
class Runtime {
public:
  /// A runtime over `api` (loaded, or fakes); a failed `loadStatus` is
  /// what every call then returns.
  explicit Runtime(const DriverApi &api, Status loadStatus = {})
      : api(api), loadStatus(std::move(loadStatus)) {}

  /// The process's runtime over libcuda.so.1, loaded on first use; its
  /// status says whether loading worked.
  static Runtime &process();
  /// Why process() has no driver (ok when it has one).
  static const Status &processLoadStatus();

  /// Selects the device that initialize() opens (before it; 0 by default).
  Status setDevice(int device);
  int device() const { return deviceOrdinal; }
  /// cuInit, the device (it must exist: the message says how many the
  /// driver sees), its primary context made current on this thread. Once;
  /// later calls only make the context current on the calling thread. Every
  /// other call initializes first.
  Status initialize();
  bool initialized() const { return context != nullptr; }

  Status deviceFacts(DeviceFacts &facts);

  Status loadModule(const void *data, bool jit, int optLevel,
                    CUmodule &module);
  Status unloadModule(CUmodule module);
  Status getFunction(CUmodule module, const char *name, CUfunction &function);
  Status launch(CUfunction function, const LaunchDims &dims, CUstream stream,
                void **params, void **extra);

  /// Streams are created blocking (CU_STREAM_DEFAULT): they synchronize with
  /// the legacy default stream, on which the harness records its timing
  /// events, so the events bracket all work of a call.
  Status createStream(CUstream &stream);
  Status destroyStream(CUstream stream);
  Status synchronizeStream(CUstream stream);
  Status streamWaitEvent(CUstream stream, CUevent event);

  /// Events without timing (for dependencies) or with it (for the harness).
  Status createEvent(bool timing, CUevent &event);
  Status destroyEvent(CUevent event);
  Status recordEvent(CUevent event, CUstream stream);
  Status synchronizeEvent(CUevent event);
  /// Milliseconds between two recorded, completed events.
  Status elapsedMilliseconds(CUevent start, CUevent stop, float &ms);

  /// Device memory (managed: also reachable from the host) of `bytes` bytes
  /// (at least one, so that empty buffers get distinct pointers).
  Status allocate(uint64_t bytes, bool managed, void *&pointer);
  Status free(void *pointer);
  /// Copies between any two addresses (unified addressing); on `stream`
  /// when it is non-null (asynchronous), else synchronously.
  Status copy(void *destination, const void *source, uint64_t bytes,
              CUstream stream);
  Status memset32(void *destination, uint32_t value, uint64_t count,
                  CUstream stream);
  Status memset16(void *destination, uint16_t value, uint64_t count,
                  CUstream stream);
  Status hostRegister(void *pointer, uint64_t bytes);
  Status hostUnregister(void *pointer);

private:
  /// A Status for `result` of `call` while doing `what` (success for
  /// CUDA_SUCCESS).
  Status check(CUresult result, const char *call, const std::string &what);
  /// Makes the (initialized) context current on the calling thread.
  Status makeCurrent();

  const DriverApi &api;
  Status loadStatus;
  /// Kernel names by function, for launch errors.
  std::unordered_map<CUfunction, std::string> kernelNames;
  int deviceOrdinal = 0;
  CUcontext context = nullptr;
};

} // namespace tuner::cuda

#endif // TUNER_MEASURE_CUDARUNTIME_H
