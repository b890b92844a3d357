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
// With --batch LIST it runs several candidates (each line of LIST: symbol,
// shared object and outputs file, separated by tabs) in this one process:
// the inputs are generated once and copied back before each candidate's
// verification call, and each candidate is timed as above under a
// wall-clock limit of its own (--timeout; past it the process exits with
// code 124). One JSON line per event goes to stdout, flushed at once:
// {"start": K, "attempt": A} before candidate K's attempt A, then its report
// with "candidate": K (or "candidate": K and "error" when its symbol cannot
// be loaded). A timing during which other processes kept more than
// --max-foreign-load cores busy is taken again, after the whole batch and a
// pause (0.5 s, doubling each round), up to --retries times.
//
// With --gpu [--device N] (builds with TUNER_ENABLE_CUDA) the function runs
// on a GPU: the same inputs on device buffers, calls timed with CUDA events
// (GpuHarness.cpp), and --batch works there too (the device and inputs
// once; no retries for foreign load); --query-gpu prints the device's target
// description.
//
// Crashes, hangs and runaway allocations are the parent's to classify: this
// process only has to die or exit non-zero with a message on stderr; in a
// batch, the last "start" without its report names the candidate that did.
//
//===----------------------------------------------------------------------===//

#include "tuner/Measure/DeviceBuffers.h"
#ifdef TUNER_ENABLE_CUDA
#include "GpuHarness.h"
#endif
#include "tuner/Measure/Harness.h"
#include "tuner/Support/Measurement.h"

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
#include <fstream>
#include <malloc.h>
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <unistd.h>

#include <cstring>
#include <map>
#include <thread>
#include <vector>

using namespace tuner;

[[noreturn]] static void fail(const llvm::Twine &message);

static llvm::cl::list<std::string>
    positional(llvm::cl::Positional, llvm::cl::ZeroOrMore,
               llvm::cl::desc("<library.so> <spec.json> | --batch LIST "
                              "<spec.json>"));
static llvm::cl::opt<std::string>
    batchPath("batch",
              llvm::cl::desc("Run the candidates listed in this file (one "
                             "per line: symbol, library, outputs file, "
                             "separated by tabs)"),
              llvm::cl::value_desc("file"));
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
static llvm::cl::opt<double> attemptTimeout(
    "timeout",
    llvm::cl::desc("With --batch: seconds one attempt of a candidate (its "
                   "call, warm-up and repetitions) may take; past it the "
                   "process exits with code 124 (0: no limit)"),
    llvm::cl::init(0));
static llvm::cl::opt<double> maxForeignLoad(
    "max-foreign-load",
    llvm::cl::desc("With --batch: time a candidate again when other "
                   "processes kept more cores busy meanwhile"),
    llvm::cl::init(kMaxForeignLoad));
static llvm::cl::opt<bool>
    gpu("gpu", llvm::cl::desc("The function runs on a GPU: buffers on the "
                              "device, calls timed with CUDA events"));
static llvm::cl::opt<bool>
    queryGpuFacts("query-gpu",
                  llvm::cl::desc("Print the target description (kind gpu) of "
                                 "--device and exit"));
static llvm::cl::opt<int> gpuDevice("device",
                                    llvm::cl::desc("With --gpu, --query-gpu: "
                                                   "the CUDA device number"),
                                    llvm::cl::init(0));
static llvm::cl::opt<unsigned>
    retries("retries",
            llvm::cl::desc("With --batch: rounds of timing disturbed "
                           "candidates again"),
            llvm::cl::init(0));

namespace {
/// A contiguous row-major buffer and its memref descriptor
/// {allocated, aligned, offset, sizes[rank], strides[rank]}.
struct Buffer {
  std::unique_ptr<uint8_t, decltype(&std::free)> data{nullptr, &std::free};
  /// The inputs as generated, copied back before each verification call.
  std::unique_ptr<uint8_t, decltype(&std::free)> pristine{nullptr, &std::free};
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

/// One candidate of a batch.
struct Candidate {
  std::string symbol, library, outputs;
  void *function = nullptr;
  /// The least foreign load of its timings so far (negative: unknown).
  double bestLoad = -1;
  bool timed = false;
};

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// The machine's busy CPU time (/proc/stat), in seconds.
std::optional<double> machineBusySeconds() {
  std::ifstream stat("/proc/stat");
  std::string cpu;
  unsigned long long user, nice, system, idle, iowait, irq, softirq, steal;
  if (!(stat >> cpu >> user >> nice >> system >> idle >> iowait >> irq >>
        softirq >> steal) ||
      cpu != "cpu")
    return std::nullopt;
  return double(user + nice + system + irq + softirq + steal) /
         double(sysconf(_SC_CLK_TCK));
}

/// This process's CPU time (every thread, OpenMP's too).
double ownSeconds() {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const struct timeval &t) {
    return double(t.tv_sec) + double(t.tv_usec) * 1e-6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

double pageFaults() {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_minflt) + double(usage.ru_majflt);
}

/// Exit code of a batch whose candidate ran past --timeout.
constexpr int kTimeoutExitCode = 124;

extern "C" void onAttemptTimeout(int) { _exit(kTimeoutExitCode); }

/// Arms (seconds > 0) or disarms (0) the per-attempt deadline.
void armDeadline(double seconds) {
  struct itimerval timer = {};
  if (seconds > 0) {
    timer.it_value.tv_sec = time_t(seconds);
    timer.it_value.tv_usec =
        suseconds_t((seconds - double(time_t(seconds))) * 1e6);
    if (timer.it_value.tv_sec == 0 && timer.it_value.tv_usec == 0)
      timer.it_value.tv_usec = 1;
  }
  setitimer(ITIMER_REAL, &timer, nullptr);
}

/// The buffers of a spec, filled with its random inputs, and the calls.
class Runner {
public:
  explicit Runner(const HarnessSpec &spec) : spec(spec) {}

  /// Allocates and fills the buffers; `keepPristine` keeps a copy of the
  /// inputs to restore before later candidates.
  void prepare(bool keepPristine) {
    buffers.resize(spec.buffers.size());
    for (auto [index, bufferSpec] : llvm::enumerate(spec.buffers)) {
      Buffer &buffer = buffers[index];
      buffer.bytes = bufferSpec.byteSize();
      // 64-byte aligned (a cache line, an AVX-512 register; more for
      // larger vector elements), never empty.
      uint64_t alignment = bufferSpec.alignment();
      uint64_t allocated = std::max<uint64_t>(
          alignment, (buffer.bytes + alignment - 1) / alignment * alignment);
      buffer.data.reset(
          static_cast<uint8_t *>(std::aligned_alloc(alignment, allocated)));
      if (!buffer.data)
        fail("cannot allocate " + llvm::Twine(allocated) + " bytes for " +
             bufferSpec.typeString());
      fillRandom(
          bufferSpec, spec.seed, unsigned(index),
          llvm::MutableArrayRef<uint8_t>(buffer.data.get(), buffer.bytes));
      if (keepPristine) {
        buffer.pristine.reset(
            static_cast<uint8_t *>(std::aligned_alloc(alignment, allocated)));
        if (!buffer.pristine)
          fail("cannot allocate " + llvm::Twine(allocated) + " bytes for " +
               bufferSpec.typeString());
        std::memcpy(buffer.pristine.get(), buffer.data.get(), buffer.bytes);
      }
      buffer.descriptor = makeDescriptor(bufferSpec, buffer.data.get());
      arguments.push_back(buffer.descriptor.data());
    }
  }

  /// One attempt at `function`: the verification call on fresh inputs
  /// (its outputs written to `outputs` unless empty), then, with
  /// repetitions, the warm-up and the timed repetitions.
  llvm::json::Object attempt(void *function, llvm::StringRef outputs) {
    for (Buffer &buffer : buffers)
      if (buffer.pristine)
        std::memcpy(buffer.data.get(), buffer.pristine.get(), buffer.bytes);
    Caller call = callers[arguments.size()];
    auto callOnce = [&] { call(function, arguments.data()); };

    // The verification call, on fresh inputs.
    auto firstCallStart = Clock::now();
    callOnce();
    double firstCallSeconds = secondsSince(firstCallStart);
    if (!outputs.empty()) {
      std::error_code error;
      llvm::raw_fd_ostream stream(outputs, error, llvm::sys::fs::OF_None);
      if (error)
        fail("cannot write '" + outputs + "': " + error.message());
      for (auto [buffer, bufferSpec] : llvm::zip(buffers, spec.buffers))
        if (bufferSpec.compared)
          stream.write(reinterpret_cast<const char *>(buffer.data.get()),
                       buffer.bytes);
      stream.close();
      if (stream.has_error())
        fail("cannot write '" + outputs + "'");
    }

    llvm::json::Object report{{"repetitions", int64_t(repetitions)},
                              {"first_call_seconds", firstCallSeconds}};
    if (repetitions == 0)
      return report;
    // What other processes ran meanwhile: the machine's busy CPU time less
    // this process's own, over the wall time, in cores. Absent where
    // /proc/stat is not.
    std::optional<double> busyBefore = machineBusySeconds();
    double ownBefore = ownSeconds();
    auto wallBefore = Clock::now();
    auto timeCalls = [&](uint64_t calls) {
      Clock::time_point start = Clock::now();
      for (uint64_t i = 0; i < calls; ++i)
        callOnce();
      return std::chrono::duration<double>(Clock::now() - start).count();
    };
    // Warm-up and calibration: grow the batch until it lasts --min-time.
    auto warmupStart = Clock::now();
    uint64_t calls = calibrateCalls(timeCalls, minTime);
    report["warmup_seconds"] = secondsSince(warmupStart);
    auto timedStart = Clock::now();
    std::vector<double> perCall;
    double faultsBefore = pageFaults();
    for (unsigned rep = 0; rep < repetitions; ++rep)
      perCall.push_back(timeCalls(calls) / double(calls));
    report["timed_seconds"] = secondsSince(timedStart);
    report["page_faults_per_call"] =
        (pageFaults() - faultsBefore) / double(calls * repetitions);
    TimingSummary summary = summarizeTimes(perCall);
    report["min_seconds"] = summary.minSeconds;
    report["median_seconds"] = summary.medianSeconds;
    report["max_seconds"] = summary.maxSeconds;
    report["calls_per_repetition"] = int64_t(calls);
    std::optional<double> busyAfter = machineBusySeconds();
    double wall = secondsSince(wallBefore);
    if (busyBefore && busyAfter && wall > 0)
      report["foreign_load"] = std::max(
          0.0, (*busyAfter - *busyBefore - (ownSeconds() - ownBefore)) / wall);
    return report;
  }

private:
  const HarnessSpec &spec;
  std::vector<Buffer> buffers;
  std::vector<void *> arguments;
};

/// Writes one event line to stdout and flushes it: the parent reads what
/// was written before a crash.
void emit(llvm::json::Object event) {
  llvm::outs() << llvm::json::Value(std::move(event)) << "\n";
  llvm::outs().flush();
}

/// The candidates of a --batch file.
std::vector<Candidate> readBatch(llvm::StringRef path) {
  auto text = llvm::MemoryBuffer::getFile(path);
  if (!text)
    fail("cannot read '" + path + "': " + text.getError().message());
  std::vector<Candidate> candidates;
  llvm::SmallVector<llvm::StringRef> lines;
  (*text)->getBuffer().split(lines, '\n', -1, /*KeepEmpty=*/false);
  for (auto [number, line] : llvm::enumerate(lines)) {
    llvm::SmallVector<llvm::StringRef, 3> fields;
    line.split(fields, '\t');
    if (fields.size() != 3 || fields[0].empty() || fields[1].empty())
      fail("'" + path + "':" + llvm::Twine(number + 1) +
           ": expected symbol, library and outputs file separated by tabs");
    candidates.push_back({fields[0].str(), fields[1].str(), fields[2].str()});
  }
  return candidates;
}

/// Runs the candidates of a batch (see the file comment).
void runBatch(const HarnessSpec &spec, std::vector<Candidate> &candidates) {
  struct sigaction action = {};
  action.sa_handler = onAttemptTimeout;
  sigemptyset(&action.sa_mask);
  sigaction(SIGALRM, &action, nullptr);

  auto inputStart = Clock::now();
  Runner runner(spec);
  runner.prepare(/*keepPristine=*/true);
  double inputSeconds = secondsSince(inputStart);

  std::map<std::string, void *> libraries;
  auto attempt = [&](size_t index, unsigned number) {
    Candidate &candidate = candidates[index];
    emit(llvm::json::Object{{"start", int64_t(index)},
                            {"attempt", int64_t(number)}});
    armDeadline(attemptTimeout);
    llvm::json::Object report = runner.attempt(
        candidate.function, number == 0 ? candidate.outputs : std::string());
    armDeadline(0);
    report["candidate"] = int64_t(index);
    report["attempt"] = int64_t(number);
    if (number == 0 && inputSeconds >= 0) {
      report["input_seconds"] = inputSeconds;
      inputSeconds = -1; // Reported once per process.
    }
    std::optional<double> load = report.getNumber("foreign_load");
    if (load && (!candidate.timed || *load < candidate.bestLoad))
      candidate.bestLoad = *load;
    candidate.timed = true;
    emit(std::move(report));
  };

  for (auto [index, candidate] : llvm::enumerate(candidates)) {
    void *&library = libraries[candidate.library];
    if (!library)
      library = dlopen(candidate.library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!library) {
      emit(llvm::json::Object{{"candidate", int64_t(index)},
                              {"error", "cannot load '" + candidate.library +
                                            "': " + std::string(dlerror())}});
      continue;
    }
    candidate.function = dlsym(library, candidate.symbol.c_str());
    if (!candidate.function) {
      emit(llvm::json::Object{{"candidate", int64_t(index)},
                              {"error", "'" + candidate.library +
                                            "' has no symbol '" +
                                            candidate.symbol + "'"}});
      continue;
    }
    attempt(index, 0);
  }
  // Timings disturbed by other processes are taken again after a pause
  // (their outputs are already written), the least disturbed one counts.
  for (unsigned round = 0; repetitions > 0 && round < retries; ++round) {
    std::vector<size_t> disturbed;
    for (auto [index, candidate] : llvm::enumerate(candidates))
      if (candidate.timed && candidate.bestLoad > maxForeignLoad)
        disturbed.push_back(index);
    if (disturbed.empty())
      break;
    std::chrono::milliseconds pause(500 << round);
    std::this_thread::sleep_for(pause);
    emit(llvm::json::Object{{"pause_seconds", double(pause.count()) / 1000}});
    for (size_t index : disturbed)
      attempt(index, round + 1);
  }
}
} // namespace

[[noreturn]] static void fail(const llvm::Twine &message) {
  llvm::errs() << "tuner-run: " << message << "\n";
  std::exit(2);
}

int main(int argc, char **argv) {
  auto processStart = Clock::now();
  // Before anything allocates: every block from the heap, and the heap never
  // given back (see the file comment).
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, -1);
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "tuner-run: call a lowered function on random inputs, "
      "save its outputs and time it\n");
  bool batch = !batchPath.empty();
  if (gpuDevice < 0)
    fail("--device must be a device number (0, 1, ...)");
  if (gpuDevice.getNumOccurrences() && !gpu && !queryGpuFacts)
    fail("--device needs --gpu or --query-gpu");
  if (queryGpuFacts) {
    if (!positional.empty() || gpu || batch)
      fail("--query-gpu takes no other arguments than --device");
#ifdef TUNER_ENABLE_CUDA
    queryGpu(gpuDevice);
    return 0;
#else
    fail("--query-gpu: tuner-run was built without CUDA (configure with the "
         "CUDA toolkit and TUNER_ENABLE_CUDA=ON)");
#endif
  }
  if (positional.size() != (batch ? 1u : 2u))
    fail(batch ? "with --batch, give the spec only: tuner-run --batch LIST "
                 "<spec.json>"
               : "expected <library.so> <spec.json>");
  std::string specPath = positional[positional.size() - 1];

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
  if (!(attemptTimeout >= 0) || !std::isfinite(attemptTimeout))
    fail("--timeout must be a non-negative number of seconds");

  if (pinCore >= 0) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(pinCore, &set);
    if (sched_setaffinity(0, sizeof(set), &set) != 0)
      fail("cannot pin to core " + llvm::Twine(pinCore.getValue()));
  }

  if (batch && gpu) {
#ifdef TUNER_ENABLE_CUDA
    std::vector<GpuCandidate> candidates;
    for (const Candidate &candidate : readBatch(batchPath))
      candidates.push_back(
          {candidate.symbol, candidate.library, candidate.outputs});
    struct sigaction action = {};
    action.sa_handler = onAttemptTimeout;
    sigemptyset(&action.sa_mask);
    sigaction(SIGALRM, &action, nullptr);
    runGpuBatch(*spec, candidates, {gpuDevice, repetitions, minTime, ""},
                callers, armDeadline, attemptTimeout);
    return 0;
#else
    fail("--gpu: tuner-run was built without CUDA (configure with the CUDA "
         "toolkit and TUNER_ENABLE_CUDA=ON)");
#endif
  }
  if (batch) {
    std::vector<Candidate> candidates = readBatch(batchPath);
    runBatch(*spec, candidates);
    // Libraries stay loaded: an OpenMP runtime one pulled in may still own
    // threads, and unloading it under them would crash at exit.
    return 0;
  }

  std::string libraryPath = positional.front();
  if (gpu) {
#ifdef TUNER_ENABLE_CUDA
    runGpu(*spec, libraryPath,
           {gpuDevice, repetitions, minTime, outputsPath}, callers,
           secondsSince(processStart));
    return 0;
#else
    fail("--gpu: tuner-run was built without CUDA (configure with the CUDA "
         "toolkit and TUNER_ENABLE_CUDA=ON)");
#endif
  }
  void *library = dlopen(libraryPath.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library)
    fail("cannot load '" + libraryPath + "': " + dlerror());
  std::string symbol = "_mlir_ciface_" + spec->function;
  void *function = dlsym(library, symbol.c_str());
  if (!function)
    fail("'" + libraryPath + "' has no symbol '" + symbol + "'");

  Runner runner(*spec);
  runner.prepare(/*keepPristine=*/false);
  double inputSeconds = secondsSince(processStart);
  llvm::json::Object report = runner.attempt(function, outputsPath);
  report["input_seconds"] = inputSeconds;
  llvm::outs() << llvm::json::Value(std::move(report)) << "\n";
  llvm::outs().flush();
  // The library stays loaded: an OpenMP runtime it pulled in may still own
  // threads, and unloading it under them would crash at exit.
  return 0;
}
