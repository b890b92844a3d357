//===- Process.cpp - Run a child process with a deadline ------------------===//

#include "tuner/Measure/Process.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <thread>

#include <sys/wait.h>

using namespace tuner;

ProcessResult tuner::runProcess(llvm::StringRef program,
                                llvm::ArrayRef<llvm::StringRef> args,
                                llvm::StringRef stdoutPath,
                                llvm::StringRef stderrPath,
                                double timeoutSeconds, unsigned memoryLimitMB) {
  using Clock = std::chrono::steady_clock;
  ProcessResult result;
  // An empty path disconnects the stream (/dev/null).
  std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(), stdoutPath,
                                                stderrPath};
  // The redirection opens the files without truncating them: a shorter
  // output would leave the end of an earlier, longer one behind.
  for (llvm::StringRef path : {stdoutPath, stderrPath})
    if (!path.empty())
      llvm::sys::fs::remove(path);
  std::string error;
  bool executionFailed = false;
  Clock::time_point start = Clock::now();
  llvm::sys::ProcessInfo info =
      llvm::sys::ExecuteNoWait(program, args, /*Env=*/std::nullopt, redirects,
                               memoryLimitMB, &error, &executionFailed);
  if (executionFailed || info.Pid == llvm::sys::ProcessInfo::InvalidPid) {
    result.message = "cannot run '" + program.str() + "': " + error;
    return result;
  }

  auto elapsed = [&] {
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  int status = 0;
  // Poll with a growing sleep: quick children are reaped within a
  // millisecond, long ones cost a wake-up every 20 ms at most.
  std::chrono::microseconds pause(200);
  while (true) {
    pid_t waited = ::waitpid(info.Pid, &status, WNOHANG);
    if (waited == info.Pid)
      break;
    if (waited == -1 && errno != EINTR) {
      result.message =
          "waiting for '" + program.str() + "' failed: " + std::strerror(errno);
      ::kill(info.Pid, SIGKILL);
      return result;
    }
    if (timeoutSeconds > 0 && elapsed() >= timeoutSeconds) {
      ::kill(info.Pid, SIGKILL);
      while (::waitpid(info.Pid, &status, 0) == -1 && errno == EINTR)
        ;
      result.kind = ProcessResult::Kind::TimedOut;
      result.wallSeconds = elapsed();
      llvm::raw_string_ostream(result.message)
          << "killed after " << llvm::format("%g", timeoutSeconds) << " s";
      return result;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(20000));
  }
  result.wallSeconds = elapsed();
  if (WIFSIGNALED(status)) {
    result.kind = ProcessResult::Kind::Signaled;
    result.message = ::strsignal(WTERMSIG(status));
    return result;
  }
  result.exitCode = WEXITSTATUS(status);
  // The forked child exits 127 (not found) or 126 when exec fails.
  if (result.exitCode == 127 || result.exitCode == 126) {
    result.message = "cannot execute '" + program.str() + "'";
    return result;
  }
  result.kind = ProcessResult::Kind::Exited;
  return result;
}

std::string tuner::readOutput(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

std::string tuner::outputTail(llvm::StringRef text, size_t limit) {
  text = text.trim();
  if (text.size() <= limit)
    return text.str();
  return "..." + text.take_back(limit).str();
}
