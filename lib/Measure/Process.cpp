//===- Process.cpp - Run a child process with a deadline ------------------===//

#include "tuner/Measure/Process.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace tuner;

namespace {

/// The process groups of the children running now, so that a tool
/// interrupted by a signal (SIGINT, SIGTERM, SIGHUP) takes them down with it
/// instead of leaving compilers and harnesses running as orphans. Lock-free,
/// since the signal handler reads it.
constexpr unsigned kMaxLiveChildren = 256;
std::atomic<pid_t> liveChildren[kMaxLiveChildren];

constexpr int kInterruptSignals[] = {SIGINT, SIGTERM, SIGHUP};
struct sigaction previousActions[NSIG];

/// Kills the live children's groups, then hands the signal on to whatever
/// handled it before (LLVM's handler, which removes its temporary files, or
/// the default action, which ends the process with this signal).
/// Async-signal-safe calls only.
void killLiveChildren(int signal) {
  for (std::atomic<pid_t> &slot : liveChildren) {
    pid_t group = slot.load();
    if (group > 0)
      ::kill(-group, SIGKILL);
  }
  ::sigaction(signal, &previousActions[signal], nullptr);
  ::raise(signal);
}

/// Remembers a running child's group; its slot, or -1 when the table is full
/// (the child then just is not killed on interruption).
int registerChild(pid_t group) {
  static std::once_flag installed;
  std::call_once(installed, [] {
    for (int signal : kInterruptSignals) {
      struct sigaction action;
      std::memset(&action, 0, sizeof(action));
      action.sa_handler = killLiveChildren;
      sigemptyset(&action.sa_mask);
      struct sigaction previous;
      if (::sigaction(signal, nullptr, &previous) != 0 ||
          previous.sa_handler == SIG_IGN)
        continue; // An ignored signal (nohup) stays ignored.
      previousActions[signal] = previous;
      ::sigaction(signal, &action, nullptr);
    }
  });
  for (unsigned i = 0; i < kMaxLiveChildren; ++i) {
    pid_t expected = 0;
    if (liveChildren[i].compare_exchange_strong(expected, group))
      return static_cast<int>(i);
  }
  return -1;
}

void unregisterChild(int slot) {
  if (slot >= 0)
    liveChildren[slot].store(0);
}

/// Opens a redirection target (empty: /dev/null) for the child; -1 and
/// `error` set on failure.
int openRedirect(llvm::StringRef path, int flags, std::string &error) {
  std::string name = path.empty() ? "/dev/null" : path.str();
  int fd = ::open(name.c_str(), flags | O_CLOEXEC, 0644);
  if (fd < 0)
    error = "cannot open '" + name + "': " + std::strerror(errno);
  return fd;
}

} // namespace

ProcessResult tuner::runProcess(llvm::StringRef program,
                                llvm::ArrayRef<llvm::StringRef> args,
                                llvm::StringRef stdoutPath,
                                llvm::StringRef stderrPath,
                                double timeoutSeconds, unsigned memoryLimitMB,
                                const std::atomic<bool> *cancel) {
  using Clock = std::chrono::steady_clock;
  ProcessResult result;
  if (!llvm::sys::fs::can_execute(program)) {
    result.message = "cannot run '" + program.str() + "': no such executable";
    return result;
  }
  // The redirections open the files without truncating them: a shorter
  // output would leave the end of an earlier, longer one behind.
  for (llvm::StringRef path : {stdoutPath, stderrPath})
    if (!path.empty())
      llvm::sys::fs::remove(path);
  // Everything the child needs is prepared here: between fork and exec it
  // may only make async-signal-safe calls (other threads may hold locks).
  std::string error;
  int input = openRedirect("", O_RDONLY, error);
  int output = input < 0 ? -1 : openRedirect(stdoutPath, O_WRONLY | O_CREAT,
                                             error);
  int errors = output;
  if (output >= 0 && stderrPath != stdoutPath)
    errors = openRedirect(stderrPath, O_WRONLY | O_CREAT, error);
  auto closeAll = [&] {
    for (int fd : {input, output})
      if (fd >= 0)
        ::close(fd);
    if (errors >= 0 && errors != output)
      ::close(errors);
  };
  if (input < 0 || output < 0 || errors < 0) {
    closeAll();
    result.message = "cannot run '" + program.str() + "': " + error;
    return result;
  }
  std::string path = program.str();
  std::vector<std::string> argStorage(args.begin(), args.end());
  std::vector<char *> argv;
  for (std::string &arg : argStorage)
    argv.push_back(arg.data());
  argv.push_back(nullptr);
  rlim_t limit = static_cast<rlim_t>(memoryLimitMB) * 1048576;

  Clock::time_point start = Clock::now();
  pid_t pid = ::fork();
  if (pid == 0) {
    // The child leads a process group of its own, so that a timeout or an
    // interruption kills what it started too (a shell's commands, the
    // compiler's linker), not just the child.
    ::setpgid(0, 0);
    if (memoryLimitMB) {
      struct rlimit r;
      for (int resource : {RLIMIT_DATA, RLIMIT_RSS})
        if (::getrlimit(resource, &r) == 0) {
          r.rlim_cur = limit;
          ::setrlimit(resource, &r);
        }
    }
    if (::dup2(input, 0) < 0 || ::dup2(output, 1) < 0 || ::dup2(errors, 2) < 0)
      ::_exit(126);
    ::execv(path.c_str(), argv.data());
    ::_exit(errno == ENOENT ? 127 : 126);
  }
  closeAll();
  if (pid < 0) {
    result.message = "cannot run '" + program.str() +
                     "': fork failed: " + std::strerror(errno);
    return result;
  }
  // Also set here: whichever of parent and child runs first, the group
  // exists before the parent may kill it.
  ::setpgid(pid, pid);
  int slot = registerChild(pid);
  auto elapsed = [&] {
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  // Kills what the child left running in its group, then reaps the child.
  // Called while the child is still unreaped (running or a zombie), so its
  // pid, and with it the group id, cannot have been reused.
  int status = 0;
  auto killGroupAndReap = [&] {
    ::kill(-pid, SIGKILL);
    while (::waitpid(pid, &status, 0) == -1 && errno == EINTR)
      ;
    unregisterChild(slot);
  };
  // Poll with a growing sleep: quick children are reaped within a
  // millisecond, long ones cost a wake-up every 20 ms at most. WNOWAIT
  // leaves an exited child a zombie until its group is killed.
  std::chrono::microseconds pause(200);
  while (true) {
    siginfo_t info;
    info.si_pid = 0;
    int waited = ::waitid(P_PID, pid, &info, WEXITED | WNOHANG | WNOWAIT);
    if (waited == 0 && info.si_pid == pid)
      break;
    if (waited == -1 && errno != EINTR) {
      result.message =
          "waiting for '" + program.str() + "' failed: " + std::strerror(errno);
      killGroupAndReap();
      return result;
    }
    if (cancel && cancel->load()) {
      killGroupAndReap();
      result.kind = ProcessResult::Kind::Cancelled;
      result.wallSeconds = elapsed();
      result.message = "cancelled";
      return result;
    }
    if (timeoutSeconds > 0 && elapsed() >= timeoutSeconds) {
      killGroupAndReap();
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
  killGroupAndReap();
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
