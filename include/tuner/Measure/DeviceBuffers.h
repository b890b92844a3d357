//===- DeviceBuffers.h - The GPU harness's buffers on a device --*- C++ -*-===//
//
// What `tuner-run --gpu` keeps on the device: for every buffer of a harness
// spec, the same deterministic random inputs as the CPU harness (generated on
// the host, copied once), a memref descriptor whose pointers are device
// pointers, and on request a pristine device copy of the inputs to restore
// before a later call; the compared buffers are copied back for the outputs
// file. Device memory is reached through the DeviceMemory interface: the
// CUDA runtime implements it in tuner-run, tests fake it. No CUDA here.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_MEASURE_DEVICEBUFFERS_H
#define TUNER_MEASURE_DEVICEBUFFERS_H

#include "tuner/Measure/Harness.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace tuner {

/// The memref descriptor {allocated, aligned, offset = 0, sizes, strides} of
/// a contiguous row-major buffer of `buffer` at `pointer`, as int64 words.
/// Its rank is buffer.descriptorRank(): a vector element's sizes are not
/// among its dimensions.
std::vector<int64_t> makeDescriptor(const BufferSpec &buffer,
                                    const void *pointer);

/// Device memory as the GPU harness uses it.
class DeviceMemory {
public:
  virtual ~DeviceMemory();
  /// `bytes` bytes of device memory (a distinct pointer even for 0 bytes).
  virtual llvm::Expected<void *> allocate(uint64_t bytes) = 0;
  virtual llvm::Error release(void *device) = 0;
  virtual llvm::Error copyToDevice(void *device, const void *host,
                                   uint64_t bytes) = 0;
  virtual llvm::Error copyToHost(void *host, const void *device,
                                 uint64_t bytes) = 0;
  virtual llvm::Error copyOnDevice(void *destination, const void *source,
                                   uint64_t bytes) = 0;
};

/// The buffers of one harness spec on a device (see the file comment).
class DeviceBuffers {
public:
  /// Generates the inputs of `spec` (fillRandom with its seed, as the CPU
  /// harness does), allocates a device buffer for each and copies it there;
  /// with `keepPristine`, a second device buffer keeps the inputs for
  /// restoreInputs(). What was allocated before an error is released.
  static llvm::Expected<std::unique_ptr<DeviceBuffers>>
  create(const HarnessSpec &spec, DeviceMemory &memory, bool keepPristine);

  /// Releases what release() has not (errors then are dropped).
  ~DeviceBuffers();
  DeviceBuffers(const DeviceBuffers &) = delete;
  DeviceBuffers &operator=(const DeviceBuffers &) = delete;

  /// One pointer per buffer to its descriptor: the arguments of
  /// `_mlir_ciface_<function>`.
  llvm::ArrayRef<void *> arguments() const { return argumentPointers; }
  /// The descriptor of buffer `index` (device pointers).
  llvm::ArrayRef<int64_t> descriptor(unsigned index) const {
    return descriptors[index];
  }
  void *devicePointer(unsigned index) const { return device[index]; }

  /// Copies the pristine inputs back over every buffer (needs keepPristine).
  llvm::Error restoreInputs();
  /// Copies the compared buffers to the host and writes them to `out` in
  /// spec order: the outputs file of the CPU harness, byte for byte.
  llvm::Error writeOutputs(llvm::raw_ostream &out);
  /// Releases every device buffer; the first error is returned.
  llvm::Error release();

private:
  DeviceBuffers(const HarnessSpec &spec, DeviceMemory &memory)
      : spec(spec), memory(memory) {}

  const HarnessSpec &spec;
  DeviceMemory &memory;
  std::vector<void *> device, pristine;
  std::vector<std::vector<int64_t>> descriptors;
  std::vector<void *> argumentPointers;
};

} // namespace tuner

#endif // TUNER_MEASURE_DEVICEBUFFERS_H
