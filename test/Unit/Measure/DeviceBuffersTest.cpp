//===- DeviceBuffersTest.cpp - The GPU harness's device buffers, faked ----===//

#include "tuner/Measure/DeviceBuffers.h"

#include "gtest/gtest.h"

#include <cstring>
#include <map>
#include <memory>
#include <vector>

using namespace tuner;

namespace {

/// Device memory as host allocations; counts what is live and can fail the
/// n-th allocation.
class FakeMemory final : public DeviceMemory {
public:
  llvm::Expected<void *> allocate(uint64_t bytes) override {
    if (allocations++ == failAllocation)
      return llvm::createStringError("out of fake memory");
    auto block = std::make_unique<uint8_t[]>(bytes ? bytes : 1);
    void *pointer = block.get();
    live[pointer] = {std::move(block), bytes};
    return pointer;
  }
  llvm::Error release(void *device) override {
    if (!live.erase(device))
      return llvm::createStringError("double free");
    return llvm::Error::success();
  }
  llvm::Error copyToDevice(void *device, const void *host,
                           uint64_t bytes) override {
    if (llvm::Error error = check(device, bytes))
      return error;
    std::memcpy(device, host, bytes);
    ++uploads;
    return llvm::Error::success();
  }
  llvm::Error copyToHost(void *host, const void *device,
                         uint64_t bytes) override {
    if (llvm::Error error = check(device, bytes))
      return error;
    std::memcpy(host, device, bytes);
    return llvm::Error::success();
  }
  llvm::Error copyOnDevice(void *destination, const void *source,
                           uint64_t bytes) override {
    if (llvm::Error error = check(destination, bytes))
      return error;
    if (llvm::Error error = check(source, bytes))
      return error;
    std::memcpy(destination, source, bytes);
    return llvm::Error::success();
  }

  struct Block {
    std::unique_ptr<uint8_t[]> data;
    uint64_t bytes;
  };
  std::map<const void *, Block> live;
  unsigned allocations = 0, uploads = 0;
  unsigned failAllocation = ~0u;

private:
  llvm::Error check(const void *device, uint64_t bytes) {
    auto found = live.find(device);
    if (found == live.end() || found->second.bytes < bytes)
      return llvm::createStringError("not a device buffer of that size");
    return llvm::Error::success();
  }
};

HarnessSpec makeSpec() {
  HarnessSpec spec;
  spec.function = "f";
  spec.seed = 7;
  spec.buffers.push_back({ElementKind::F32, {2, 3}, false, false});
  spec.buffers.push_back({ElementKind::I32, {4}, false, true});
  spec.buffers.push_back({ElementKind::F16, {}, true, true});
  return spec;
}

std::vector<uint8_t> hostInputs(const HarnessSpec &spec, unsigned index) {
  std::vector<uint8_t> data(spec.buffers[index].byteSize());
  fillRandom(spec.buffers[index], spec.seed, index, data);
  return data;
}

std::vector<uint8_t> deviceBytes(FakeMemory &memory, void *pointer) {
  FakeMemory::Block &block = memory.live.at(pointer);
  return {block.data.get(), block.data.get() + block.bytes};
}

TEST(DeviceBuffers, DescriptorsOfContiguousBuffers) {
  BufferSpec matrix{ElementKind::F32, {2, 3}, false, true};
  int dummy;
  int64_t address = int64_t(reinterpret_cast<intptr_t>(&dummy));
  EXPECT_EQ(makeDescriptor(matrix, &dummy),
            (std::vector<int64_t>{address, address, 0, 2, 3, 3, 1}));
  BufferSpec scalar{ElementKind::F64, {}, false, true};
  EXPECT_EQ(makeDescriptor(scalar, &dummy),
            (std::vector<int64_t>{address, address, 0}));
  BufferSpec vectors{ElementKind::F32, {5, 8}, false, true};
  vectors.vectorRank = 1; // memref<5xvector<8xf32>>
  EXPECT_EQ(makeDescriptor(vectors, &dummy),
            (std::vector<int64_t>{address, address, 0, 5, 1}));
}

TEST(DeviceBuffers, InputsAreTheCpuHarnessInputsCopiedOnce) {
  HarnessSpec spec = makeSpec();
  FakeMemory memory;
  auto buffers = DeviceBuffers::create(spec, memory, /*keepPristine=*/false);
  ASSERT_TRUE(bool(buffers)) << llvm::toString(buffers.takeError());
  EXPECT_EQ(memory.live.size(), 3u);
  EXPECT_EQ(memory.uploads, 3u);
  ASSERT_EQ((*buffers)->arguments().size(), 3u);
  for (unsigned index = 0; index < 3; ++index) {
    void *device = (*buffers)->devicePointer(index);
    EXPECT_EQ(deviceBytes(memory, device), hostInputs(spec, index));
    // The argument points at a descriptor of the device pointer.
    auto *words = static_cast<int64_t *>((*buffers)->arguments()[index]);
    EXPECT_EQ(words[1], int64_t(reinterpret_cast<intptr_t>(device)));
    EXPECT_EQ((*buffers)->descriptor(index),
              llvm::ArrayRef(makeDescriptor(spec.buffers[index], device)));
  }
}

TEST(DeviceBuffers, OutputsAreTheComparedBuffersInOrder) {
  HarnessSpec spec = makeSpec();
  FakeMemory memory;
  auto buffers = DeviceBuffers::create(spec, memory, false);
  ASSERT_TRUE(bool(buffers)) << llvm::toString(buffers.takeError());
  // The "kernel" writes its result.
  auto *result = static_cast<uint8_t *>((*buffers)->devicePointer(2));
  result[0] = 0x12;
  result[1] = 0x34;
  std::string written;
  llvm::raw_string_ostream stream(written);
  ASSERT_FALSE(bool((*buffers)->writeOutputs(stream)));
  std::vector<uint8_t> expected = hostInputs(spec, 1);
  expected.push_back(0x12);
  expected.push_back(0x34);
  EXPECT_EQ(std::vector<uint8_t>(written.begin(), written.end()), expected);
  EXPECT_EQ(written.size(), spec.comparedBytes());
}

TEST(DeviceBuffers, PristineInputsAreRestored) {
  HarnessSpec spec = makeSpec();
  FakeMemory memory;
  auto buffers = DeviceBuffers::create(spec, memory, /*keepPristine=*/true);
  ASSERT_TRUE(bool(buffers)) << llvm::toString(buffers.takeError());
  EXPECT_EQ(memory.live.size(), 6u);
  std::memset((*buffers)->devicePointer(0), 0, spec.buffers[0].byteSize());
  ASSERT_FALSE(bool((*buffers)->restoreInputs()));
  EXPECT_EQ(deviceBytes(memory, (*buffers)->devicePointer(0)),
            hostInputs(spec, 0));

  auto plain = DeviceBuffers::create(spec, memory, /*keepPristine=*/false);
  ASSERT_TRUE(bool(plain)) << llvm::toString(plain.takeError());
  llvm::Error error = (*plain)->restoreInputs();
  ASSERT_TRUE(bool(error));
  EXPECT_EQ(llvm::toString(std::move(error)),
            "cannot restore the inputs: they were not kept");
}

TEST(DeviceBuffers, FailedAllocationNamesTheBufferAndReleasesTheRest) {
  HarnessSpec spec = makeSpec();
  FakeMemory memory;
  memory.failAllocation = 1;
  auto buffers = DeviceBuffers::create(spec, memory, false);
  ASSERT_FALSE(bool(buffers));
  EXPECT_EQ(llvm::toString(buffers.takeError()),
            "buffer 1 (memref<4xi32>): out of fake memory");
  EXPECT_TRUE(memory.live.empty());
}

TEST(DeviceBuffers, ReleaseFreesEachBufferOnce) {
  HarnessSpec spec = makeSpec();
  FakeMemory memory;
  {
    auto buffers = DeviceBuffers::create(spec, memory, true);
    ASSERT_TRUE(bool(buffers)) << llvm::toString(buffers.takeError());
    ASSERT_FALSE(bool((*buffers)->release()));
    EXPECT_TRUE(memory.live.empty());
    // Released twice (again here and by the destructor): no double free.
    ASSERT_FALSE(bool((*buffers)->release()));
  }
  EXPECT_TRUE(memory.live.empty());
}

} // namespace
