//===- tuner-run.cpp - Run one lowered function and time it ---------------===//
//
// The child-process harness of the Measure library. It loads a shared object
// holding `_mlir_ciface_<function>`, builds a memref descriptor for every
// buffer of a harness spec, fills all of them with deterministic random data,
// calls the function once and writes the compared buffers to an outputs file
// (for verification by the parent), then times it: a calibrating warm-up,
// then repetitions that each call the function enough times to last at least
// --min-time seconds. Per-call min, median and max go to stdout as JSON.
//
// Memory the function frees stays in this process for its next call (the
// allocator neither trims its heap nor maps large blocks), as in a
// long-running program. Otherwise each call of a function with temporaries
// above glibc's thresholds would map them afresh and page-fault on every
// page: the timing would measure the kernel zeroing pages, not the schedule.
// The report counts the page faults per timed call, so that one can see it.
//
// Crashes, hangs and runaway allocations are the parent's to classify: this
// process only has to die or exit non-zero with a message on stderr.
//
//===----------------------------------------------------------------------===//

#include "tuner/Measure/Harness.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>

#include <dlfcn.h>
#include <malloc.h>
#include <fstream>
#include <sys/resource.h>
#include <unistd.h>
#include <sched.h>

using namespace tuner;

static llvm::cl::opt<std::string> libraryPath(llvm::cl::Positional,
                                              llvm::cl::Required,
                                              llvm::cl::desc("<library.so>"));
static llvm::cl::opt<std::string> specPath(llvm::cl::Positional,
                                           llvm::cl::Required,
                                           llvm::cl::desc("<spec.json>"));
static llvm::cl::opt<std::string>
    outputsPath("outputs",
                llvm::cl::desc("Write the compared buffers after "
                               "the first call to this file"),
                llvm::cl::value_desc("file"));
static llvm::cl::opt<unsigned>
    repetitions("repetitions",
                llvm::cl::desc("Timed repetitions (0: call once, no timing)"),
                llvm::cl::init(5));
static llvm::cl::opt<double>
    minTime("min-time",
            llvm::cl::desc("Seconds each repetition lasts at least"),
            llvm::cl::init(0.02));
static llvm::cl::opt<int>
    pinCore("core", llvm::cl::desc("Pin the process to this core (-1: no)"),
            llvm::cl::init(-1));

namespace {
/// A contiguous row-major buffer and its memref descriptor
/// {allocated, aligned, offset, sizes[rank], strides[rank]}.
struct Buffer {
  std::unique_ptr<uint8_t, decltype(&std::free)> data{nullptr, &std::free};
  uint64_t bytes = 0;
  std::vector<int64_t> descriptor;
};

using Caller = void (*)(void *function, void **arguments);

template <size_t... I>
void callWithPointers(void *function, void **arguments,
                      std::index_sequence<I...>) {
  using Function = void (*)(decltype((void)I, (void *)nullptr)...);
  reinterpret_cast<Function>(function)(arguments[I]...);
}

template <size_t N> void callN(void *function, void **arguments) {
  callWithPointers(function, arguments, std::make_index_sequence<N>());
}

template <size_t... N>
constexpr std::array<Caller, sizeof...(N)>
makeCallers(std::index_sequence<N...>) {
  return {&callN<N>...};
}

/// callers[n] calls a `void(void *, ..., void *)` with n arguments.
constexpr auto callers =
    makeCallers(std::make_index_sequence<kMaxHarnessBuffers + 1>());
} // namespace

[[noreturn]] static void fail(const llvm::Twine &message) {
  llvm::errs() << "tuner-run: " << message << "\n";
  std::exit(2);
}

int main(int argc, char **argv) {
  // Before anything allocates: every block from the heap, and the heap never
  // given back (see the file comment).
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, -1);
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "tuner-run: call a lowered function on random inputs, "
      "save its outputs and time it\n");

  auto specText = llvm::MemoryBuffer::getFile(specPath);
  if (!specText)
    fail("cannot read '" + specPath + "': " + specText.getError().message());
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*specText)->getBuffer());
  if (!json)
    fail("'" + specPath + "': " + llvm::toString(json.takeError()));
  llvm::Expected<HarnessSpec> spec = HarnessSpec::fromJSON(*json);
  if (!spec)
    fail("'" + specPath + "': " + llvm::toString(spec.takeError()));
  if (!(minTime >= 0) || !std::isfinite(minTime))
    fail("--min-time must be a non-negative number of seconds");

  if (pinCore >= 0) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(pinCore, &set);
    if (sched_setaffinity(0, sizeof(set), &set) != 0)
      fail("cannot pin to core " + llvm::Twine(pinCore.getValue()));
  }

  void *library = dlopen(libraryPath.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library)
    fail("cannot load '" + libraryPath + "': " + dlerror());
  std::string symbol = "_mlir_ciface_" + spec->function;
  void *function = dlsym(library, symbol.c_str());
  if (!function)
    fail("'" + libraryPath + "' has no symbol '" + symbol + "'");

  std::vector<Buffer> buffers(spec->buffers.size());
  std::vector<void *> arguments;
  for (auto [index, bufferSpec] : llvm::enumerate(spec->buffers)) {
    Buffer &buffer = buffers[index];
    buffer.bytes = bufferSpec.byteSize();
    // 64-byte aligned (a cache line, an AVX-512 register), never empty.
    uint64_t allocated = std::max<uint64_t>(64, (buffer.bytes + 63) / 64 * 64);
    buffer.data.reset(
        static_cast<uint8_t *>(std::aligned_alloc(64, allocated)));
    if (!buffer.data)
      fail("cannot allocate " + llvm::Twine(allocated) + " bytes for " +
           bufferSpec.typeString());
    fillRandom(bufferSpec, spec->seed, unsigned(index),
               llvm::MutableArrayRef<uint8_t>(buffer.data.get(), buffer.bytes));
    int64_t pointer = int64_t(reinterpret_cast<intptr_t>(buffer.data.get()));
    buffer.descriptor = {pointer, pointer, /*offset=*/0};
    for (int64_t size : bufferSpec.shape)
      buffer.descriptor.push_back(size);
    std::vector<int64_t> strides(bufferSpec.shape.size());
    int64_t stride = 1;
    for (size_t dim = strides.size(); dim-- > 0;) {
      strides[dim] = stride;
      stride *= bufferSpec.shape[dim];
    }
    buffer.descriptor.insert(buffer.descriptor.end(), strides.begin(),
                             strides.end());
    arguments.push_back(buffer.descriptor.data());
  }
  Caller call = callers[arguments.size()];
  auto callOnce = [&] { call(function, arguments.data()); };

  // The verification call, on fresh inputs.
  callOnce();
  if (!outputsPath.empty()) {
    std::error_code error;
    llvm::raw_fd_ostream outputs(outputsPath, error, llvm::sys::fs::OF_None);
    if (error)
      fail("cannot write '" + outputsPath + "': " + error.message());
    for (auto [buffer, bufferSpec] : llvm::zip(buffers, spec->buffers))
      if (bufferSpec.compared)
        outputs.write(reinterpret_cast<const char *>(buffer.data.get()),
                      buffer.bytes);
    outputs.close();
    if (outputs.has_error())
      fail("cannot write '" + outputsPath + "'");
  }

  llvm::json::Object report{{"repetitions", int64_t(repetitions)}};
  if (repetitions > 0) {
    // What other processes ran meanwhile: the machine's busy CPU time
    // (/proc/stat) less this process's own (every thread, OpenMP's too),
    // over the wall time, in cores. Absent where /proc/stat is not.
    auto machineBusySeconds = []() -> std::optional<double> {
      std::ifstream stat("/proc/stat");
      std::string cpu;
      unsigned long long user, nice, system, idle, iowait, irq, softirq,
          steal;
      if (!(stat >> cpu >> user >> nice >> system >> idle >> iowait >> irq >>
            softirq >> steal) ||
          cpu != "cpu")
        return std::nullopt;
      return double(user + nice + system + irq + softirq + steal) /
             double(sysconf(_SC_CLK_TCK));
    };
    auto ownSeconds = [] {
      struct rusage usage;
      getrusage(RUSAGE_SELF, &usage);
      auto seconds = [](const struct timeval &t) {
        return double(t.tv_sec) + double(t.tv_usec) * 1e-6;
      };
      return seconds(usage.ru_utime) + seconds(usage.ru_stime);
    };
    auto pageFaults = [] {
      struct rusage usage;
      getrusage(RUSAGE_SELF, &usage);
      return double(usage.ru_minflt) + double(usage.ru_majflt);
    };
    std::optional<double> busyBefore = machineBusySeconds();
    double ownBefore = ownSeconds();
    auto wallBefore = std::chrono::steady_clock::now();
    using Clock = std::chrono::steady_clock;
    auto timeCalls = [&](uint64_t calls) {
      Clock::time_point start = Clock::now();
      for (uint64_t i = 0; i < calls; ++i)
        callOnce();
      return std::chrono::duration<double>(Clock::now() - start).count();
    };
    // Warm-up and calibration: grow the batch until it lasts --min-time.
    uint64_t calls = 1;
    while (true) {
      double seconds = timeCalls(calls);
      if (seconds >= minTime)
        break;
      uint64_t estimate =
          seconds > 0 ? uint64_t(std::ceil(calls * 1.2 * minTime / seconds))
                      : calls * 16;
      calls = std::max(calls * 2, std::min(estimate, calls * 1000));
    }
    std::vector<double> perCall;
    double faultsBefore = pageFaults();
    for (unsigned rep = 0; rep < repetitions; ++rep)
      perCall.push_back(timeCalls(calls) / double(calls));
    report["page_faults_per_call"] =
        (pageFaults() - faultsBefore) / double(calls * repetitions);
    TimingSummary summary = summarizeTimes(perCall);
    report["min_seconds"] = summary.minSeconds;
    report["median_seconds"] = summary.medianSeconds;
    report["max_seconds"] = summary.maxSeconds;
    report["calls_per_repetition"] = int64_t(calls);
    std::optional<double> busyAfter = machineBusySeconds();
    double wall = std::chrono::duration<double>(
                      std::chrono::steady_clock::now() - wallBefore)
                      .count();
    if (busyBefore && busyAfter && wall > 0)
      report["foreign_load"] = std::max(
          0.0, (*busyAfter - *busyBefore - (ownSeconds() - ownBefore)) / wall);
  }
  llvm::outs() << llvm::json::Value(std::move(report)) << "\n";
  llvm::outs().flush();
  // The library stays loaded: an OpenMP runtime it pulled in may still own
  // threads, and unloading it under them would crash at exit.
  return 0;
}
