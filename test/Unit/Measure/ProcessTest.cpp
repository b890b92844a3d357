//===- ProcessTest.cpp - Child processes with deadlines -------------------===//

#include "tuner/Measure/Process.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>
#include <string>

#include <unistd.h>

using namespace tuner;

namespace {

ProcessResult runShell(llvm::StringRef script, double timeout,
                       llvm::StringRef stdoutPath = "") {
  llvm::StringRef args[] = {"/bin/sh", "-c", script};
  return runProcess("/bin/sh", args, stdoutPath, "", timeout);
}

TEST(RunProcess, ExitCodeAndOutput) {
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("process-test", "txt", path));
  ProcessResult result = runShell("echo hello; exit 3", 10, path);
  EXPECT_EQ(result.kind, ProcessResult::Kind::Exited);
  EXPECT_EQ(result.exitCode, 3);
  EXPECT_FALSE(result.succeeded());
  auto text = llvm::MemoryBuffer::getFile(path);
  ASSERT_TRUE(bool(text));
  EXPECT_EQ((*text)->getBuffer(), "hello\n");
  llvm::sys::fs::remove(path);
  EXPECT_TRUE(runShell("exit 0", 10).succeeded());
}

TEST(RunProcess, OutputReplacesAnEarlierFile) {
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("process-test", "txt", path));
  ASSERT_TRUE(runShell("echo a longer first output", 10, path).succeeded());
  ASSERT_TRUE(runShell("echo 2", 10, path).succeeded());
  EXPECT_EQ(readOutput(path), "2\n");
  llvm::sys::fs::remove(path);
  EXPECT_EQ(readOutput(path), "");
}

TEST(RunProcess, OutputTail) {
  EXPECT_EQ(outputTail("  short \n"), "short");
  EXPECT_EQ(outputTail("0123456789", 4), "...6789");
}

TEST(RunProcess, Signal) {
  ProcessResult result = runShell("kill -SEGV $$", 10);
  EXPECT_EQ(result.kind, ProcessResult::Kind::Signaled);
  EXPECT_NE(result.message.find("Segmentation"), std::string::npos)
      << result.message;
}

TEST(RunProcess, Timeout) {
  ProcessResult result = runShell("sleep 20", 0.3);
  EXPECT_EQ(result.kind, ProcessResult::Kind::TimedOut);
  EXPECT_GE(result.wallSeconds, 0.3);
  EXPECT_LT(result.wallSeconds, 10.0);
}

TEST(RunProcess, Cancel) {
  // Set by another thread while the child runs: the child is killed.
  std::atomic<bool> cancel{false};
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    cancel = true;
  });
  llvm::StringRef args[] = {"/bin/sh", "-c", "sleep 20"};
  ProcessResult result = runProcess("/bin/sh", args, "", "", 60, 0, &cancel);
  canceller.join();
  EXPECT_EQ(result.kind, ProcessResult::Kind::Cancelled);
  EXPECT_EQ(result.message, "cancelled");
  EXPECT_LT(result.wallSeconds, 10.0);
  // Set before it starts: killed at the first poll; a flag left unset
  // changes nothing.
  ProcessResult early = runProcess("/bin/sh", args, "", "", 60, 0, &cancel);
  EXPECT_EQ(early.kind, ProcessResult::Kind::Cancelled);
  std::atomic<bool> never{false};
  llvm::StringRef quick[] = {"/bin/sh", "-c", "exit 0"};
  EXPECT_TRUE(runProcess("/bin/sh", quick, "", "", 60, 0, &never).succeeded());
}

/// Whether process `pid` is gone (or only a zombie waiting for its reaper).
bool gone(pid_t pid) {
  std::string stat = readOutput("/proc/" + std::to_string(pid) + "/stat");
  if (stat.empty())
    return true;
  size_t paren = stat.rfind(')');
  return paren != std::string::npos && paren + 2 < stat.size() &&
         stat[paren + 2] == 'Z';
}

/// Waits up to 10 s for `pid` to be gone (its new parent reaps it).
bool goneSoon(pid_t pid) {
  for (int i = 0; i < 1000 && !gone(pid); ++i)
    usleep(10000);
  return gone(pid);
}

pid_t readPid(llvm::StringRef path) {
  return static_cast<pid_t>(std::atol(readOutput(path).c_str()));
}

/// Runs `script` (which starts `sleep 60` in the background and writes its
/// pid to the file named by {pid}) with `timeout`; expects `kind`, and the
/// background sleep gone afterwards.
void expectBackgroundJobKilled(llvm::StringRef script, double timeout,
                               ProcessResult::Kind kind) {
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("process-test", "pid", path));
  std::string text = script.str();
  text.replace(text.find("{pid}"), 5, std::string(path));
  ProcessResult result = runShell(text, timeout);
  EXPECT_EQ(result.kind, kind);
  pid_t grandchild = readPid(path);
  ASSERT_GT(grandchild, 0);
  EXPECT_TRUE(goneSoon(grandchild));
  llvm::sys::fs::remove(path);
}

TEST(RunProcess, TimeoutKillsWhatTheChildStarted) {
  // The shell is killed at the deadline, and so is the command it runs in
  // the background: a timed-out user command must not keep running beside
  // the next measurement.
  expectBackgroundJobKilled("sleep 60 & echo $! > {pid}; wait", 1.0,
                            ProcessResult::Kind::TimedOut);
}

TEST(RunProcess, ExitKillsWhatTheChildLeftRunning) {
  expectBackgroundJobKilled("sleep 60 & echo $! > {pid}", 10,
                            ProcessResult::Kind::Exited);
}

TEST(RunProcess, SameFileForBothStreams) {
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("process-test", "txt", path));
  llvm::StringRef args[] = {"/bin/sh", "-c", "echo out; echo err >&2"};
  ASSERT_TRUE(runProcess("/bin/sh", args, path, path, 10).succeeded());
  EXPECT_EQ(readOutput(path), "out\nerr\n");
  llvm::sys::fs::remove(path);
}

TEST(RunProcess, MissingProgram) {
  llvm::StringRef args[] = {"/nonexistent/tuner-program"};
  ProcessResult result =
      runProcess("/nonexistent/tuner-program", args, "", "", 10);
  EXPECT_EQ(result.kind, ProcessResult::Kind::FailedToStart);
  EXPECT_NE(result.message.find("/nonexistent/tuner-program"),
            std::string::npos)
      << result.message;
}

TEST(RunProcess, MemoryLimit) {
  // 64 MiB of data segment cannot hold a 256 MiB buffer: the allocation in
  // the child fails (dd exits non-zero) instead of growing without bound.
  llvm::StringRef args[] = {"/bin/dd", "if=/dev/zero", "of=/dev/null",
                            "bs=256M", "count=1"};
  ProcessResult result = runProcess("/bin/dd", args, "", "", 10, 64);
  EXPECT_FALSE(result.succeeded());
  EXPECT_TRUE(runProcess("/bin/dd", args, "", "", 10, 0).succeeded());
}

} // namespace
