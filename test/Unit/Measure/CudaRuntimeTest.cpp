//===- CudaRuntimeTest.cpp - The CUDA runtime without a device ------------===//
//
// Result names, failure messages and launch checks, over fake driver entry
// points and over the CUDA toolkit's stub libcuda (whose every call fails
// with CUDA_ERROR_STUB_LIBRARY).
//
//===----------------------------------------------------------------------===//

#include "tuner/Measure/CudaRuntime.h"

#include "gtest/gtest.h"

#include <fstream>

using namespace tuner::cuda;

namespace {

TEST(CudaRuntime, ResultNames) {
  EXPECT_EQ(resultName(CUDA_SUCCESS), "CUDA_SUCCESS");
  EXPECT_EQ(resultName(CUDA_ERROR_OUT_OF_MEMORY), "CUDA_ERROR_OUT_OF_MEMORY");
  EXPECT_EQ(resultName(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES),
            "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES");
  EXPECT_EQ(resultName(CUDA_ERROR_NO_DEVICE), "CUDA_ERROR_NO_DEVICE");
  EXPECT_EQ(resultName(CUresult(12345)), "CUresult 12345");
}

TEST(CudaRuntime, FailureMessages) {
  EXPECT_EQ(describeFailure("cuMemAlloc", CUDA_ERROR_OUT_OF_MEMORY,
                            "out of memory", "allocating 64 bytes"),
            "cuMemAlloc failed with CUDA_ERROR_OUT_OF_MEMORY (out of memory) "
            "while allocating 64 bytes");
  EXPECT_EQ(describeFailure("cuInit", CUDA_ERROR_STUB_LIBRARY, "", ""),
            "cuInit failed with CUDA_ERROR_STUB_LIBRARY");
}

TEST(CudaRuntime, MissingDriver) {
  DriverApi api;
  Status status = DriverApi::load("libtuner-no-such-driver.so.1", api);
  ASSERT_FALSE(status.ok());
  EXPECT_TRUE(status.noDevice);
  EXPECT_EQ(status.message.rfind(
                "no CUDA driver (libtuner-no-such-driver.so.1): ", 0),
            0u)
      << status.message;
  // A runtime over it returns that status from every call.
  Runtime runtime(api, status);
  void *pointer = nullptr;
  Status allocated = runtime.allocate(64, false, pointer);
  EXPECT_EQ(allocated.message, status.message);
  EXPECT_TRUE(allocated.noDevice);
}

TEST(CudaRuntime, StubDriverFailsWithItsResult) {
  if (!std::ifstream(TUNER_CUDA_STUB_LIBRARY))
    GTEST_SKIP() << "no stub libcuda at " << TUNER_CUDA_STUB_LIBRARY;
  DriverApi api;
  // The stub exports every entry point the runtime uses (so does a driver
  // as new as the toolkit).
  Status loaded = DriverApi::load(TUNER_CUDA_STUB_LIBRARY, api);
  ASSERT_TRUE(loaded.ok()) << loaded.message;
  Runtime runtime(api);
  Status status = runtime.initialize();
  ASSERT_FALSE(status.ok());
  EXPECT_TRUE(status.noDevice);
  EXPECT_EQ(status.result, CUDA_ERROR_STUB_LIBRARY);
  EXPECT_EQ(status.message.rfind("cuInit failed with CUDA_ERROR_STUB_LIBRARY",
                                 0),
            0u)
      << status.message;
  EXPECT_NE(status.message.find("while initializing the CUDA driver"),
            std::string::npos)
      << status.message;
  EXPECT_FALSE(runtime.initialized());
}

/// A fake driver with one device, whose allocations fail and whose launches
/// are recorded.
struct Fake {
  static inline int devices = 1;
  static inline CUcontext current = nullptr;
  static inline int contextSwitches = 0;
  static inline unsigned launched[6];
  static inline unsigned sharedBytes = 0;
  static inline void **params = nullptr;
  static inline CUresult launchResult = CUDA_SUCCESS;
  static inline int dummy = 0;

  static DriverApi api() {
    devices = 1;
    current = nullptr;
    contextSwitches = 0;
    launchResult = CUDA_SUCCESS;
    DriverApi api;
    api.cuInitFn = [](unsigned) { return CUDA_SUCCESS; };
    api.cuDeviceGetCountFn = [](int *count) {
      *count = devices;
      return CUDA_SUCCESS;
    };
    api.cuDeviceGetFn = [](CUdevice *device, int ordinal) {
      *device = ordinal;
      return CUDA_SUCCESS;
    };
    api.cuDevicePrimaryCtxRetainFn = [](CUcontext *context, CUdevice) {
      *context = reinterpret_cast<CUcontext>(&dummy);
      return CUDA_SUCCESS;
    };
    api.cuCtxGetCurrentFn = [](CUcontext *context) {
      *context = current;
      return CUDA_SUCCESS;
    };
    api.cuCtxSetCurrentFn = [](CUcontext context) {
      current = context;
      ++contextSwitches;
      return CUDA_SUCCESS;
    };
    api.cuMemAllocFn = [](CUdeviceptr *, size_t) {
      return CUDA_ERROR_OUT_OF_MEMORY;
    };
    api.cuGetErrorStringFn = [](CUresult result, const char **text) {
      *text = result == CUDA_ERROR_OUT_OF_MEMORY ? "out of memory" : "other";
      return CUDA_SUCCESS;
    };
    api.cuModuleGetFunctionFn = [](CUfunction *function, CUmodule,
                                   const char *) {
      *function = reinterpret_cast<CUfunction>(&dummy);
      return CUDA_SUCCESS;
    };
    api.cuLaunchKernelFn = [](CUfunction, unsigned gx, unsigned gy,
                              unsigned gz, unsigned bx, unsigned by,
                              unsigned bz, unsigned smem, CUstream,
                              void **kernelParams, void **) {
      unsigned dims[6] = {gx, gy, gz, bx, by, bz};
      std::copy(dims, dims + 6, launched);
      sharedBytes = smem;
      params = kernelParams;
      return launchResult;
    };
    return api;
  }
};

TEST(CudaRuntime, InitializesOnceAndKeepsTheContextCurrent) {
  DriverApi api = Fake::api();
  Runtime runtime(api);
  ASSERT_TRUE(runtime.initialize().ok());
  EXPECT_TRUE(runtime.initialized());
  EXPECT_EQ(Fake::contextSwitches, 1);
  ASSERT_TRUE(runtime.initialize().ok());
  EXPECT_EQ(Fake::contextSwitches, 1); // Already current: no switch.
  Fake::current = nullptr;             // Another thread, say.
  ASSERT_TRUE(runtime.initialize().ok());
  EXPECT_EQ(Fake::contextSwitches, 2);
  Status other = runtime.setDevice(1);
  EXPECT_EQ(other.message,
            "cannot switch to device 1: the runtime already runs on device 0");
}

TEST(CudaRuntime, MissingDeviceSaysHowManyThereAre) {
  DriverApi api = Fake::api();
  Runtime runtime(api);
  ASSERT_TRUE(runtime.setDevice(2).ok());
  Status status = runtime.initialize();
  EXPECT_EQ(status.message, "no CUDA device 2 (the driver sees 1)");
  EXPECT_TRUE(status.noDevice);
  EXPECT_FALSE(runtime.setDevice(-1).ok());
}

TEST(CudaRuntime, FailedCallNamesCallResultAndTask) {
  DriverApi api = Fake::api();
  Runtime runtime(api);
  void *pointer = &Fake::dummy;
  Status status = runtime.allocate(4096, /*managed=*/false, pointer);
  EXPECT_EQ(status.message,
            "cuMemAlloc failed with CUDA_ERROR_OUT_OF_MEMORY (out of memory) "
            "while allocating 4096 bytes of device memory");
  EXPECT_FALSE(status.noDevice);
  EXPECT_EQ(status.result, CUDA_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(pointer, nullptr);
}

TEST(CudaRuntime, LaunchPassesGeometryAndParameters) {
  DriverApi api = Fake::api();
  Runtime runtime(api);
  CUfunction function = nullptr;
  ASSERT_TRUE(runtime.getFunction(nullptr, "add_kernel", function).ok());
  void *arguments[2] = {&Fake::dummy, &Fake::dummy};
  LaunchDims dims{{4, 2, 1}, {128, 1, 1}, 256};
  ASSERT_TRUE(runtime.launch(function, dims, nullptr, arguments, nullptr).ok());
  unsigned expected[6] = {4, 2, 1, 128, 1, 1};
  EXPECT_TRUE(std::equal(expected, expected + 6, Fake::launched));
  EXPECT_EQ(Fake::sharedBytes, 256u);
  EXPECT_EQ(Fake::params, arguments);

  Fake::launchResult = CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
  Status status = runtime.launch(function, dims, nullptr, arguments, nullptr);
  EXPECT_EQ(status.message,
            "cuLaunchKernel failed with CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES "
            "(other) while launching kernel 'add_kernel' on a grid of 4x2x1 "
            "blocks of 128x1x1 threads with 256 bytes of dynamic shared "
            "memory");
}

TEST(CudaRuntime, LaunchChecksSizesBeforeTheDriver) {
  EXPECT_TRUE(checkLaunch("k", {{1, 1, 1}, {32, 1, 1}, 0}).ok());
  EXPECT_EQ(checkLaunch("k", {{1, 1, 1}, {32, 0, 1}, 0}).message,
            "cannot launch kernel 'k': block size 0 along y is not in "
            "[1, 2^32)");
  EXPECT_EQ(checkLaunch("k", {{intptr_t(1) << 32, 1, 1}, {1, 1, 1}, 0}).message,
            "cannot launch kernel 'k': grid size 4294967296 along x is not in "
            "[1, 2^32)");
  EXPECT_EQ(checkLaunch("k", {{1, 1, 1}, {1, 1, 1}, -4}).message,
            "cannot launch kernel 'k': dynamic shared memory of -4 bytes");
}

} // namespace
