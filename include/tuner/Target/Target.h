//===- Target.h - Facts about the machine code is tuned for -----*- C++ -*-===//
//
// What the space and the lowering need to know about a CPU (or, later, a
// GPU): vector width, register budget, cores, cache sizes. Read from the host,
// or from a JSON description so that a space can be built for another machine.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_TARGET_TARGET_H
#define TUNER_TARGET_TARGET_H

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tuner {

/// Facts about an NVIDIA GPU that schedules and their constraints depend on
/// (the `gpu` part of a target of kind "gpu"). Read from the device by the
/// project's CUDA runtime or from a JSON file.
struct GpuTarget {
  std::string name;               ///< Device name, e.g. "NVIDIA H100 80GB HBM3".
  unsigned computeMajor = 9;      ///< Compute capability, major.
  unsigned computeMinor = 0;      ///< Compute capability, minor.
  std::string ptxFeatures = "+ptx80"; ///< NVVM target features for the chip.
  unsigned smCount = 132;             ///< Streaming multiprocessors.
  uint64_t sharedMemoryPerBlock = 48 * 1024; ///< Static shared memory limit.
  uint64_t sharedMemoryPerSM = 228 * 1024;
  unsigned registersPerThread = 255;
  unsigned registersPerBlock = 64 * 1024;
  unsigned maxThreadsPerBlock = 1024;
  unsigned warpSize = 32;
  uint64_t l2Bytes = 50 * 1024 * 1024;

  /// The NVVM chip name, e.g. "sm_90".
  std::string chip() const {
    return "sm_" + std::to_string(computeMajor) + std::to_string(computeMinor);
  }
  llvm::json::Value toJSON() const;
  /// Reads what toJSON writes; errors name the field.
  static llvm::Expected<GpuTarget> fromJSON(const llvm::json::Value &json);
  /// The NVVM features of the oldest PTX ISA that supports the chip of
  /// compute capability major.minor ("+ptx80" for 9.0, whose sm_90 target
  /// MLIR 22 lowers with PTX 8.0; "+ptx60" for anything older than 7.0).
  static std::string ptxFeaturesFor(unsigned major, unsigned minor);
};

struct Target {
  std::string kind = "cpu";  ///< "cpu" or "gpu" (then `gpu` holds the facts).
  std::string cpu;           ///< LLVM CPU name, e.g. "skylake-avx512".
  std::string triple;        ///< e.g. "x86_64-unknown-linux-gnu".
  std::vector<std::string> features; ///< Enabled LLVM features, sorted.
  unsigned vectorBits = 128;         ///< Widest vector register.
  unsigned numVectorRegisters = 16;
  unsigned cores = 1;                ///< Physical cores usable for threads.
  uint64_t l1dBytes = 32 * 1024;
  uint64_t l2Bytes = 1024 * 1024;
  uint64_t l3Bytes = 8 * 1024 * 1024;
  /// For kind "gpu": the device. The CPU fields then describe the host that
  /// compiles and launches.
  GpuTarget gpu;

  bool isGpu() const { return kind == "gpu"; }

  /// The machine this process runs on (LLVM host queries and
  /// /sys/devices/system/cpu for caches).
  static Target host();
  /// Reads a description; a missing or mistyped field is an error naming the
  /// field, so that a file means the same on every machine.
  static llvm::Expected<Target> fromJSON(const llvm::json::Value &json);
  /// "host"; "gpu" or "gpu:N" (device 0 or N, read by `tuner-run
  /// --query-gpu` in a child process: tuner-run next to the running
  /// executable, else on PATH); or a path to a JSON file written by toJSON.
  static llvm::Expected<Target> resolve(llvm::StringRef spec);
  llvm::json::Value toJSON() const;

  /// Lanes of a vector register for elements of `bytes` bytes.
  unsigned vectorLanes(unsigned elementBytes) const {
    return elementBytes ? vectorBits / 8 / elementBytes : 1;
  }
  bool hasFeature(llvm::StringRef feature) const;
  /// Identifies the machine for the tuning database: CPU, features, cores.
  std::string fingerprint() const;
};

} // namespace tuner

#endif // TUNER_TARGET_TARGET_H
