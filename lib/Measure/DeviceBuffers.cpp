//===- DeviceBuffers.cpp - The GPU harness's buffers on a device ----------===//

#include "tuner/Measure/DeviceBuffers.h"

using namespace tuner;

DeviceMemory::~DeviceMemory() = default;

std::vector<int64_t> tuner::makeDescriptor(const BufferSpec &buffer,
                                           const void *pointer) {
  int64_t address = int64_t(reinterpret_cast<intptr_t>(pointer));
  std::vector<int64_t> descriptor = {address, address, /*offset=*/0};
  llvm::ArrayRef<int64_t> sizes =
      llvm::ArrayRef(buffer.shape).drop_back(buffer.vectorRank);
  descriptor.insert(descriptor.end(), sizes.begin(), sizes.end());
  std::vector<int64_t> strides(sizes.size());
  int64_t stride = 1;
  for (size_t dim = strides.size(); dim-- > 0;) {
    strides[dim] = stride;
    stride *= sizes[dim];
  }
  descriptor.insert(descriptor.end(), strides.begin(), strides.end());
  return descriptor;
}

llvm::Expected<std::unique_ptr<DeviceBuffers>>
DeviceBuffers::create(const HarnessSpec &spec, DeviceMemory &memory,
                      bool keepPristine) {
  std::unique_ptr<DeviceBuffers> buffers(new DeviceBuffers(spec, memory));
  size_t count = spec.buffers.size();
  buffers->device.assign(count, nullptr);
  buffers->pristine.assign(count, nullptr);
  buffers->descriptors.resize(count);
  std::vector<uint8_t> host;
  for (size_t index = 0; index < count; ++index) {
    const BufferSpec &bufferSpec = spec.buffers[index];
    uint64_t bytes = bufferSpec.byteSize();
    auto fail = [&](llvm::Error error) {
      return llvm::createStringError(
          "buffer " + llvm::Twine(index) + " (" + bufferSpec.typeString() +
          "): " + llvm::toString(std::move(error)));
    };
    host.assign(bytes, 0);
    fillRandom(bufferSpec, spec.seed, unsigned(index),
               llvm::MutableArrayRef<uint8_t>(host.data(), bytes));
    llvm::Expected<void *> pointer = memory.allocate(bytes);
    if (!pointer)
      return fail(pointer.takeError());
    buffers->device[index] = *pointer;
    if (llvm::Error error = memory.copyToDevice(*pointer, host.data(), bytes))
      return fail(std::move(error));
    if (keepPristine) {
      llvm::Expected<void *> copy = memory.allocate(bytes);
      if (!copy)
        return fail(copy.takeError());
      buffers->pristine[index] = *copy;
      if (llvm::Error error = memory.copyOnDevice(*copy, *pointer, bytes))
        return fail(std::move(error));
    }
    buffers->descriptors[index] = makeDescriptor(bufferSpec, *pointer);
  }
  for (std::vector<int64_t> &descriptor : buffers->descriptors)
    buffers->argumentPointers.push_back(descriptor.data());
  return buffers;
}

DeviceBuffers::~DeviceBuffers() { llvm::consumeError(release()); }

llvm::Error DeviceBuffers::restoreInputs() {
  for (auto [index, bufferSpec] : llvm::enumerate(spec.buffers)) {
    if (!pristine[index])
      return llvm::createStringError(
          "cannot restore the inputs: they were not kept");
    if (llvm::Error error = memory.copyOnDevice(device[index], pristine[index],
                                                bufferSpec.byteSize()))
      return error;
  }
  return llvm::Error::success();
}

llvm::Error DeviceBuffers::writeOutputs(llvm::raw_ostream &out) {
  std::vector<uint8_t> host;
  for (auto [index, bufferSpec] : llvm::enumerate(spec.buffers)) {
    if (!bufferSpec.compared)
      continue;
    host.assign(bufferSpec.byteSize(), 0);
    if (llvm::Error error =
            memory.copyToHost(host.data(), device[index], host.size()))
      return llvm::createStringError(
          "copying back buffer " + llvm::Twine(index) + " (" +
          bufferSpec.typeString() + "): " + llvm::toString(std::move(error)));
    out.write(reinterpret_cast<const char *>(host.data()), host.size());
  }
  return llvm::Error::success();
}

llvm::Error DeviceBuffers::release() {
  llvm::Error first = llvm::Error::success();
  for (std::vector<void *> *pointers : {&device, &pristine})
    for (void *&pointer : *pointers) {
      if (!pointer)
        continue;
      llvm::Error error = memory.release(pointer);
      pointer = nullptr;
      if (error && !first)
        first = std::move(error);
      else
        llvm::consumeError(std::move(error));
    }
  return first;
}
