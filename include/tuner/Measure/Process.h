//===- Process.h - Run a child process with a deadline ----------*- C++ -*-===//
//
// Safe to call from several threads at once: the deadline is enforced by
// polling, not by SIGALRM (which llvm::sys::Wait uses and which is shared by
// the whole process).
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_MEASURE_PROCESS_H
#define TUNER_MEASURE_PROCESS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <atomic>
#include <string>

namespace tuner {

/// How a child process ended.
struct ProcessResult {
  enum class Kind {
    Exited,        ///< Exited by itself; see exitCode.
    Signaled,      ///< Killed by a signal it raised or received.
    TimedOut,      ///< Killed by us after the deadline.
    Cancelled,     ///< Killed by us because `cancel` was set.
    FailedToStart, ///< Could not be started; see message.
  };
  Kind kind = Kind::FailedToStart;
  int exitCode = -1;
  /// Signal description for Signaled, error text for FailedToStart.
  std::string message;
  double wallSeconds = 0;

  bool succeeded() const { return kind == Kind::Exited && exitCode == 0; }
};

/// Runs `program` with `args` (args[0] is the program name), stdout and
/// stderr redirected to the given files (empty: /dev/null; an existing file
/// is replaced, never appended to or partly overwritten), killing it with
/// SIGKILL after `timeoutSeconds` (0: no limit). `memoryLimitMB` (0: none)
/// caps the child's data segment, so a runaway allocation fails in the child.
/// When `cancel` is given, the child is killed as soon as another thread
/// sets it (within the polling interval, 20 ms at most).
ProcessResult runProcess(llvm::StringRef program,
                         llvm::ArrayRef<llvm::StringRef> args,
                         llvm::StringRef stdoutPath, llvm::StringRef stderrPath,
                         double timeoutSeconds, unsigned memoryLimitMB = 0,
                         const std::atomic<bool> *cancel = nullptr);

/// The contents of a child's output file; empty when it cannot be read.
std::string readOutput(llvm::StringRef path);

/// The last `limit` characters of a child's output, trimmed ("..." marks a
/// cut), for messages.
std::string outputTail(llvm::StringRef text, size_t limit = 1500);

} // namespace tuner

#endif // TUNER_MEASURE_PROCESS_H
