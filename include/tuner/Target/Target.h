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

struct Target {
  std::string kind = "cpu";  ///< "cpu" (GPU targets come later).
  std::string cpu;           ///< LLVM CPU name, e.g. "skylake-avx512".
  std::string triple;        ///< e.g. "x86_64-unknown-linux-gnu".
  std::vector<std::string> features; ///< Enabled LLVM features, sorted.
  unsigned vectorBits = 128;         ///< Widest vector register.
  unsigned numVectorRegisters = 16;
  unsigned cores = 1;                ///< Physical cores usable for threads.
  uint64_t l1dBytes = 32 * 1024;
  uint64_t l2Bytes = 1024 * 1024;
  uint64_t l3Bytes = 8 * 1024 * 1024;

  /// The machine this process runs on (LLVM host queries and
  /// /sys/devices/system/cpu for caches).
  static Target host();
  /// Reads a description; a missing or mistyped field is an error naming the
  /// field, so that a file means the same on every machine.
  static llvm::Expected<Target> fromJSON(const llvm::json::Value &json);
  /// "host", or a path to a JSON file written by toJSON.
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
