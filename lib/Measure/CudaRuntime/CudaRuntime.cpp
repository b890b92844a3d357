//===- CudaRuntime.cpp - The runtime over the CUDA driver API -------------===//

#include "tuner/Measure/CudaRuntime.h"

#include <dlfcn.h>

using namespace tuner::cuda;

std::string tuner::cuda::resultName(CUresult result) {
  switch (result) {
#define X(name)                                                                \
  case name:                                                                   \
    return #name;
#include "ResultNames.def"
#undef X
  }
  return "CUresult " + std::to_string(int(result));
}

std::string tuner::cuda::describeFailure(const std::string &call,
                                         CUresult result,
                                         const std::string &description,
                                         const std::string &what) {
  std::string message = call + " failed with " + resultName(result);
  if (!description.empty())
    message += " (" + description + ")";
  if (!what.empty())
    message += " while " + what;
  return message;
}

#define TUNER_CUDA_STRINGIFY(x) #x
#define TUNER_CUDA_EXPANDED_NAME(x) TUNER_CUDA_STRINGIFY(x)

Status DriverApi::load(const char *library, DriverApi &api) {
  void *handle = dlopen(library, RTLD_NOW | RTLD_GLOBAL);
  if (!handle) {
    const char *why = dlerror();
    return {std::string("no CUDA driver (") + library +
                "): " + (why ? why : "dlopen failed"),
            /*noDevice=*/true};
  }
  // The versioned name cuda.h maps each function to, e.g. cuMemAlloc_v2.
#define TUNER_CUDA_DRIVER_LOAD(name)                                           \
  api.name##Fn = reinterpret_cast<decltype(api.name##Fn)>(                     \
      dlsym(handle, TUNER_CUDA_EXPANDED_NAME(name)));                          \
  if (!api.name##Fn)                                                           \
    return {std::string("the CUDA driver (") + library + ") has no '" +        \
                TUNER_CUDA_EXPANDED_NAME(name) + "': it is older than the "    \
                "CUDA toolkit the runtime was built with",                     \
            /*noDevice=*/true};
  TUNER_CUDA_DRIVER_FUNCTIONS(TUNER_CUDA_DRIVER_LOAD)
#undef TUNER_CUDA_DRIVER_LOAD
  return Status::success();
}

Status tuner::cuda::checkLaunch(const char *kernel, const LaunchDims &dims) {
  static const char *const axes[] = {"x", "y", "z"};
  auto check = [&](const char *what, const intptr_t *sizes) -> Status {
    for (int axis = 0; axis < 3; ++axis)
      if (sizes[axis] <= 0 || uint64_t(sizes[axis]) > UINT32_MAX)
        return {std::string("cannot launch kernel '") + kernel + "': " +
                what + " size " + std::to_string(sizes[axis]) + " along " +
                axes[axis] + " is not in [1, 2^32)"};
    return Status::success();
  };
  if (Status status = check("grid", dims.grid); !status.ok())
    return status;
  if (Status status = check("block", dims.block); !status.ok())
    return status;
  if (dims.sharedMemoryBytes < 0)
    return {std::string("cannot launch kernel '") + kernel +
            "': dynamic shared memory of " +
            std::to_string(dims.sharedMemoryBytes) + " bytes"};
  return Status::success();
}

namespace {
/// The process's driver table and why loading it failed, if it did.
struct ProcessDriver {
  DriverApi api;
  Status loaded;
  ProcessDriver() { loaded = DriverApi::load(kDriverLibrary, api); }
};

ProcessDriver &processDriver() {
  static ProcessDriver driver;
  return driver;
}
} // namespace

Runtime &Runtime::process() {
  static Runtime runtime(processDriver().api, processDriver().loaded);
  return runtime;
}

const Status &Runtime::processLoadStatus() { return processDriver().loaded; }

Status Runtime::check(CUresult result, const char *call,
                      const std::string &what) {
  if (result == CUDA_SUCCESS)
    return Status::success();
  std::string description;
  const char *text = nullptr;
  if (api.cuGetErrorStringFn &&
      api.cuGetErrorStringFn(result, &text) == CUDA_SUCCESS && text)
    description = text;
  // No driver that works, or no device: nothing a candidate did.
  bool noDevice = result == CUDA_ERROR_NO_DEVICE ||
                  result == CUDA_ERROR_STUB_LIBRARY ||
                  result == CUDA_ERROR_NOT_INITIALIZED ||
                  result == CUDA_ERROR_INVALID_DEVICE ||
                  result == CUDA_ERROR_SYSTEM_DRIVER_MISMATCH ||
                  result == CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE;
  return {describeFailure(call, result, description, what), noDevice, result};
}

Status Runtime::setDevice(int device) {
  if (device < 0)
    return {"device " + std::to_string(device) + " is not a device number"};
  if (context && device != deviceOrdinal)
    return {"cannot switch to device " + std::to_string(device) +
            ": the runtime already runs on device " +
            std::to_string(deviceOrdinal)};
  deviceOrdinal = device;
  return Status::success();
}

Status Runtime::initialize() {
  if (!loadStatus.ok())
    return loadStatus;
  if (context)
    return makeCurrent();
  if (Status status = check(api.cuInitFn(0), "cuInit",
                            "initializing the CUDA driver");
      !status.ok())
    return status;
  int count = 0;
  if (Status status = check(api.cuDeviceGetCountFn(&count),
                            "cuDeviceGetCount", "counting CUDA devices");
      !status.ok())
    return status;
  if (deviceOrdinal >= count)
    return {"no CUDA device " + std::to_string(deviceOrdinal) +
                " (the driver sees " + std::to_string(count) + ")",
            /*noDevice=*/true};
  CUdevice device;
  if (Status status =
          check(api.cuDeviceGetFn(&device, deviceOrdinal), "cuDeviceGet",
                "opening CUDA device " + std::to_string(deviceOrdinal));
      !status.ok())
    return status;
  CUcontext primary = nullptr;
  if (Status status = check(api.cuDevicePrimaryCtxRetainFn(&primary, device),
                            "cuDevicePrimaryCtxRetain",
                            "creating the context of CUDA device " +
                                std::to_string(deviceOrdinal));
      !status.ok())
    return status;
  context = primary;
  return makeCurrent();
}

Status Runtime::makeCurrent() {
  CUcontext current = nullptr;
  if (Status status = check(api.cuCtxGetCurrentFn(&current), "cuCtxGetCurrent",
                            "looking up the current CUDA context");
      !status.ok())
    return status;
  if (current == context)
    return Status::success();
  return check(api.cuCtxSetCurrentFn(context), "cuCtxSetCurrent",
               "making the context of CUDA device " +
                   std::to_string(deviceOrdinal) + " current");
}

Status Runtime::deviceFacts(DeviceFacts &facts) {
  if (Status status = initialize(); !status.ok())
    return status;
  CUdevice device;
  if (Status status = check(api.cuDeviceGetFn(&device, deviceOrdinal),
                            "cuDeviceGet", "reading the device's facts");
      !status.ok())
    return status;
  char name[256] = {};
  if (Status status = check(api.cuDeviceGetNameFn(name, sizeof(name), device),
                            "cuDeviceGetName", "reading the device's name");
      !status.ok())
    return status;
  facts.name = name;
  struct Query {
    CUdevice_attribute attribute;
    const char *what;
    int64_t *wide;
    int *narrow;
  };
  int sharedPerBlock = 0, sharedPerSM = 0, l2 = 0;
  const Query queries[] = {
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, "compute capability",
       nullptr, &facts.computeMajor},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, "compute capability",
       nullptr, &facts.computeMinor},
      {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, "multiprocessor count",
       nullptr, &facts.smCount},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK,
       "shared memory per block", nullptr, &sharedPerBlock},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR,
       "shared memory per multiprocessor", nullptr, &sharedPerSM},
      {CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, "registers per block",
       nullptr, &facts.registersPerBlock},
      {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, "threads per block", nullptr,
       &facts.maxThreadsPerBlock},
      {CU_DEVICE_ATTRIBUTE_WARP_SIZE, "warp size", nullptr, &facts.warpSize},
      {CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, "L2 cache size", nullptr, &l2},
  };
  for (const Query &query : queries) {
    if (Status status =
            check(api.cuDeviceGetAttributeFn(query.narrow, query.attribute,
                                             device),
                  "cuDeviceGetAttribute",
                  std::string("reading the device's ") + query.what);
        !status.ok())
      return status;
  }
  facts.sharedMemoryPerBlock = sharedPerBlock;
  facts.sharedMemoryPerSM = sharedPerSM;
  facts.l2Bytes = l2;
  return Status::success();
}

Status Runtime::loadModule(const void *data, bool jit, int optLevel,
                           CUmodule &module) {
  if (Status status = initialize(); !status.ok())
    return status;
  module = nullptr;
  if (!jit)
    return check(api.cuModuleLoadDataFn(&module, data), "cuModuleLoadData",
                 "loading a GPU module (cubin)");
  // PTX goes through the driver's JIT compiler; its log says why it failed.
  char log[8192] = {};
  CUjit_option options[] = {CU_JIT_OPTIMIZATION_LEVEL, CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {reinterpret_cast<void *>(intptr_t(optLevel)), log,
                    reinterpret_cast<void *>(intptr_t(sizeof(log)))};
  Status status = check(
      api.cuModuleLoadDataExFn(&module, data, 3, options, values),
      "cuModuleLoadDataEx",
      "compiling a GPU module from PTX at -O" + std::to_string(optLevel));
  if (!status.ok() && log[0])
    status.message += ": " + std::string(log);
  return status;
}

Status Runtime::unloadModule(CUmodule module) {
  if (Status status = initialize(); !status.ok())
    return status;
  return check(api.cuModuleUnloadFn(module), "cuModuleUnload",
               "unloading a GPU module");
}

Status Runtime::getFunction(CUmodule module, const char *name,
                            CUfunction &function) {
  function = nullptr;
  if (Status status = initialize(); !status.ok())
    return status;
  Status status = check(api.cuModuleGetFunctionFn(&function, module, name),
                        "cuModuleGetFunction",
                        std::string("looking up kernel '") + name + "'");
  if (status.ok())
    kernelNames[function] = name;
  return status;
}

Status Runtime::launch(CUfunction function, const LaunchDims &dims,
                       CUstream stream, void **params, void **extra) {
  auto known = kernelNames.find(function);
  std::string kernel =
      known == kernelNames.end() ? "<unnamed>" : known->second;
  if (Status status = checkLaunch(kernel.c_str(), dims); !status.ok())
    return status;
  if (Status status = initialize(); !status.ok())
    return status;
  std::string what =
      "launching kernel '" + kernel + "' on a grid of " + std::to_string(dims.grid[0]) + "x" +
      std::to_string(dims.grid[1]) + "x" + std::to_string(dims.grid[2]) +
      " blocks of " + std::to_string(dims.block[0]) + "x" +
      std::to_string(dims.block[1]) + "x" + std::to_string(dims.block[2]) +
      " threads with " + std::to_string(dims.sharedMemoryBytes) +
      " bytes of dynamic shared memory";
  return check(api.cuLaunchKernelFn(
                   function, unsigned(dims.grid[0]), unsigned(dims.grid[1]),
                   unsigned(dims.grid[2]), unsigned(dims.block[0]),
                   unsigned(dims.block[1]), unsigned(dims.block[2]),
                   unsigned(dims.sharedMemoryBytes), stream, params, extra),
               "cuLaunchKernel", what);
}

Status Runtime::createStream(CUstream &stream) {
  stream = nullptr;
  if (Status status = initialize(); !status.ok())
    return status;
  return check(api.cuStreamCreateFn(&stream, CU_STREAM_DEFAULT),
               "cuStreamCreate", "creating a stream");
}

Status Runtime::destroyStream(CUstream stream) {
  return check(api.cuStreamDestroyFn(stream), "cuStreamDestroy",
               "destroying a stream");
}

Status Runtime::synchronizeStream(CUstream stream) {
  return check(api.cuStreamSynchronizeFn(stream), "cuStreamSynchronize",
               "waiting for a stream (a kernel failed before)");
}

Status Runtime::streamWaitEvent(CUstream stream, CUevent event) {
  return check(api.cuStreamWaitEventFn(stream, event, 0), "cuStreamWaitEvent",
               "making a stream wait for an event");
}

Status Runtime::createEvent(bool timing, CUevent &event) {
  event = nullptr;
  if (Status status = initialize(); !status.ok())
    return status;
  return check(api.cuEventCreateFn(&event, timing ? CU_EVENT_DEFAULT
                                                  : CU_EVENT_DISABLE_TIMING),
               "cuEventCreate", "creating an event");
}

Status Runtime::destroyEvent(CUevent event) {
  return check(api.cuEventDestroyFn(event), "cuEventDestroy",
               "destroying an event");
}

Status Runtime::recordEvent(CUevent event, CUstream stream) {
  return check(api.cuEventRecordFn(event, stream), "cuEventRecord",
               "recording an event");
}

Status Runtime::synchronizeEvent(CUevent event) {
  return check(api.cuEventSynchronizeFn(event), "cuEventSynchronize",
               "waiting for an event (a kernel failed before)");
}

Status Runtime::elapsedMilliseconds(CUevent start, CUevent stop, float &ms) {
  return check(api.cuEventElapsedTimeFn(&ms, start, stop),
               "cuEventElapsedTime", "reading the time between two events");
}

Status Runtime::allocate(uint64_t bytes, bool managed, void *&pointer) {
  pointer = nullptr;
  if (Status status = initialize(); !status.ok())
    return status;
  CUdeviceptr address = 0;
  uint64_t size = bytes ? bytes : 1;
  Status status =
      managed ? check(api.cuMemAllocManagedFn(&address, size,
                                              CU_MEM_ATTACH_GLOBAL),
                      "cuMemAllocManaged",
                      "allocating " + std::to_string(bytes) +
                          " bytes of managed memory")
              : check(api.cuMemAllocFn(&address, size), "cuMemAlloc",
                      "allocating " + std::to_string(bytes) +
                          " bytes of device memory");
  pointer = reinterpret_cast<void *>(address);
  return status;
}

Status Runtime::free(void *pointer) {
  if (!pointer)
    return Status::success();
  if (Status status = initialize(); !status.ok())
    return status;
  return check(api.cuMemFreeFn(reinterpret_cast<CUdeviceptr>(pointer)),
               "cuMemFree", "freeing device memory");
}

Status Runtime::copy(void *destination, const void *source, uint64_t bytes,
                     CUstream stream) {
  if (bytes == 0)
    return Status::success();
  if (Status status = initialize(); !status.ok())
    return status;
  auto to = reinterpret_cast<CUdeviceptr>(destination);
  auto from = reinterpret_cast<CUdeviceptr>(source);
  std::string what = "copying " + std::to_string(bytes) + " bytes";
  if (stream)
    return check(api.cuMemcpyAsyncFn(to, from, bytes, stream), "cuMemcpyAsync",
                 what);
  return check(api.cuMemcpyFn(to, from, bytes), "cuMemcpy", what);
}

Status Runtime::memset32(void *destination, uint32_t value, uint64_t count,
                         CUstream stream) {
  if (Status status = initialize(); !status.ok())
    return status;
  return check(api.cuMemsetD32AsyncFn(reinterpret_cast<CUdeviceptr>(destination),
                                      value, count, stream),
               "cuMemsetD32Async",
               "setting " + std::to_string(count) + " 32-bit words");
}

Status Runtime::memset16(void *destination, uint16_t value, uint64_t count,
                         CUstream stream) {
  if (Status status = initialize(); !status.ok())
    return status;
  return check(api.cuMemsetD16AsyncFn(reinterpret_cast<CUdeviceptr>(destination),
                                      value, count, stream),
               "cuMemsetD16Async",
               "setting " + std::to_string(count) + " 16-bit words");
}

Status Runtime::hostRegister(void *pointer, uint64_t bytes) {
  if (Status status = initialize(); !status.ok())
    return status;
  return check(api.cuMemHostRegisterFn(pointer, bytes, 0), "cuMemHostRegister",
               "registering " + std::to_string(bytes) + " bytes of host memory");
}

Status Runtime::hostUnregister(void *pointer) {
  if (Status status = initialize(); !status.ok())
    return status;
  return check(api.cuMemHostUnregisterFn(pointer), "cuMemHostUnregister",
               "unregistering host memory");
}
