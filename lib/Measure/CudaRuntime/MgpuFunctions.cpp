//===- MgpuFunctions.cpp - The mgpu* functions MLIR's host code calls -----===//
//
// The C functions that MLIR 22's `gpu-to-llvm` lowering and the LLVM IR
// translation of `gpu.binary` / `gpu.launch_func` call (names and signatures
// as they declare them: `mlir-opt --gpu-to-llvm` on gpu.alloc, gpu.memcpy,
// gpu.memset, gpu.wait, gpu.host_register, and `mlir-translate
// --mlir-to-llvmir` on a launch), over tuner::cuda::Runtime::process(). They
// cannot return an error: a failure prints "tuner-cuda-runtime: <what
// failed>" on stderr and ends the process (see CudaRuntime.h).
//
//===----------------------------------------------------------------------===//

#include "tuner/Measure/CudaRuntime.h"

#include <cstdio>
#include <unistd.h>

using namespace tuner::cuda;

#define TUNER_CUDA_EXPORT extern "C" __attribute__((visibility("default")))

namespace {
/// Ends the process on a failed `status`. _exit, not exit: exit would run
/// the global destructors of the loaded GPU modules, which call back in.
void orDie(const Status &status) {
  if (status.ok())
    return;
  std::fprintf(stderr, "tuner-cuda-runtime: %s\n", status.message.c_str());
  std::fflush(stderr);
  std::fflush(stdout);
  _exit(status.noDevice ? kNoDeviceExitCode : kDriverErrorExitCode);
}

Runtime &runtime() { return Runtime::process(); }

/// MLIR's ranked memref descriptor, as far as the rank-generic functions
/// read it: {allocated, aligned, offset, sizes[rank], strides[rank]}.
struct MemRefPrefix {
  char *allocated;
  char *aligned;
  int64_t offset;
  int64_t sizesAndStrides[1];
};

/// The first byte and the byte size a dense memref of `rank` spans.
std::pair<char *, uint64_t> memrefSpan(int64_t rank,
                                       const MemRefPrefix *descriptor,
                                       int64_t elementBytes) {
  uint64_t elements = 1;
  for (int64_t dim = 0; dim < rank; ++dim)
    elements *= uint64_t(descriptor->sizesAndStrides[dim]);
  return {descriptor->aligned + descriptor->offset * elementBytes,
          elements * uint64_t(elementBytes)};
}
} // namespace

TUNER_CUDA_EXPORT void mgpuSetDefaultDevice(int32_t device) {
  orDie(runtime().setDevice(device));
}

TUNER_CUDA_EXPORT CUmodule mgpuModuleLoad(void *data, size_t /*size*/) {
  CUmodule module = nullptr;
  orDie(runtime().loadModule(data, /*jit=*/false, 0, module));
  return module;
}

TUNER_CUDA_EXPORT CUmodule mgpuModuleLoadJIT(void *data, int optLevel) {
  CUmodule module = nullptr;
  orDie(runtime().loadModule(data, /*jit=*/true, optLevel, module));
  return module;
}

TUNER_CUDA_EXPORT void mgpuModuleUnload(CUmodule module) {
  Status status = runtime().unloadModule(module);
  // At process exit the driver may be torn down before the module's global
  // destructor runs: nothing is left to unload then.
  if (status.result == CUDA_ERROR_DEINITIALIZED)
    return;
  orDie(status);
}

TUNER_CUDA_EXPORT CUfunction mgpuModuleGetFunction(CUmodule module,
                                                   const char *name) {
  CUfunction function = nullptr;
  orDie(runtime().getFunction(module, name, function));
  return function;
}

TUNER_CUDA_EXPORT void mgpuLaunchKernel(CUfunction function, intptr_t gridX,
                                        intptr_t gridY, intptr_t gridZ,
                                        intptr_t blockX, intptr_t blockY,
                                        intptr_t blockZ, int32_t smem,
                                        CUstream stream, void **params,
                                        void **extra, size_t /*paramsCount*/) {
  LaunchDims dims{{gridX, gridY, gridZ}, {blockX, blockY, blockZ}, smem};
  orDie(runtime().launch(function, dims, stream, params, extra));
}

TUNER_CUDA_EXPORT CUstream mgpuStreamCreate() {
  CUstream stream = nullptr;
  orDie(runtime().createStream(stream));
  return stream;
}

TUNER_CUDA_EXPORT void mgpuStreamDestroy(CUstream stream) {
  orDie(runtime().destroyStream(stream));
}

TUNER_CUDA_EXPORT void mgpuStreamSynchronize(CUstream stream) {
  orDie(runtime().synchronizeStream(stream));
}

TUNER_CUDA_EXPORT void mgpuStreamWaitEvent(CUstream stream, CUevent event) {
  orDie(runtime().streamWaitEvent(stream, event));
}

TUNER_CUDA_EXPORT CUevent mgpuEventCreate() {
  CUevent event = nullptr;
  orDie(runtime().createEvent(/*timing=*/false, event));
  return event;
}

TUNER_CUDA_EXPORT void mgpuEventDestroy(CUevent event) {
  orDie(runtime().destroyEvent(event));
}

TUNER_CUDA_EXPORT void mgpuEventSynchronize(CUevent event) {
  orDie(runtime().synchronizeEvent(event));
}

TUNER_CUDA_EXPORT void mgpuEventRecord(CUevent event, CUstream stream) {
  orDie(runtime().recordEvent(event, stream));
}

TUNER_CUDA_EXPORT void *mgpuMemAlloc(uint64_t sizeBytes, CUstream /*stream*/,
                                     bool isHostShared) {
  void *pointer = nullptr;
  orDie(runtime().allocate(sizeBytes, isHostShared, pointer));
  return pointer;
}

TUNER_CUDA_EXPORT void mgpuMemFree(void *pointer, CUstream /*stream*/) {
  orDie(runtime().free(pointer));
}

TUNER_CUDA_EXPORT void mgpuMemcpy(void *destination, void *source,
                                  size_t sizeBytes, CUstream stream) {
  orDie(runtime().copy(destination, source, sizeBytes, stream));
}

TUNER_CUDA_EXPORT void mgpuMemset32(void *destination, unsigned int value,
                                    size_t count, CUstream stream) {
  orDie(runtime().memset32(destination, value, count, stream));
}

TUNER_CUDA_EXPORT void mgpuMemset16(void *destination, unsigned short value,
                                    size_t count, CUstream stream) {
  orDie(runtime().memset16(destination, value, count, stream));
}

TUNER_CUDA_EXPORT void mgpuMemHostRegister(void *pointer, uint64_t sizeBytes) {
  orDie(runtime().hostRegister(pointer, sizeBytes));
}

TUNER_CUDA_EXPORT void mgpuMemHostRegisterMemRef(int64_t rank,
                                                 MemRefPrefix *descriptor,
                                                 int64_t elementSizeBytes) {
  auto [pointer, bytes] = memrefSpan(rank, descriptor, elementSizeBytes);
  orDie(runtime().hostRegister(pointer, bytes));
}

TUNER_CUDA_EXPORT void mgpuMemHostUnregister(void *pointer) {
  orDie(runtime().hostUnregister(pointer));
}

TUNER_CUDA_EXPORT void mgpuMemHostUnregisterMemRef(int64_t rank,
                                                   MemRefPrefix *descriptor,
                                                   int64_t elementSizeBytes) {
  orDie(runtime().hostUnregister(
      memrefSpan(rank, descriptor, elementSizeBytes).first));
}
