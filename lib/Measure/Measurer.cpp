//===- Measurer.cpp - Measure candidates against a baseline ---------------===//

#include "tuner/Measure/Measurer.h"

#include "tuner/Measure/Process.h"
#include "tuner/Measure/Verify.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <thread>

using namespace mlir;
using namespace tuner;

/// What compile() produced for one candidate: a shared object holding its
/// entry point `symbol` (the shared object may hold other candidates too),
/// or why there is none.
struct Measurer::Compiled {
  bool ok = false;
  std::string stem;
  std::string library;
  std::string symbol;
  std::string message;
  /// Whether it calls the OpenMP runtime (its threads outlive its calls).
  bool usesOpenMP = false;
};

/// A candidate lowered to LLVM IR, its externally visible symbols renamed
/// after its stem so that candidates share a shared object.
struct Measurer::Lowered {
  size_t index = 0;
  std::string stem;
  std::string ir;
  bool usesOpenMP = false;
  std::string error;
};

MeasureStats &MeasureStats::operator+=(const MeasureStats &other) {
  lowerSeconds += other.lowerSeconds;
  clangSeconds += other.clangSeconds;
  clangCalls += other.clangCalls;
  harnessSeconds += other.harnessSeconds;
  harnessRuns += other.harnessRuns;
  inputSeconds += other.inputSeconds;
  firstCallSeconds += other.firstCallSeconds;
  warmupSeconds += other.warmupSeconds;
  timedSeconds += other.timedSeconds;
  retries += other.retries;
  pauseSeconds += other.pauseSeconds;
  verifySeconds += other.verifySeconds;
  return *this;
}

/// Seconds since `start`.
static double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

//===----------------------------------------------------------------------===//
// Harness spec and reduction length
//===----------------------------------------------------------------------===//

static std::optional<ElementKind> toElementKind(Type type) {
  if (type.isIndex())
    return ElementKind::Index;
  if (auto integer = dyn_cast<IntegerType>(type)) {
    switch (integer.getWidth()) {
    case 1:
      return ElementKind::I1;
    case 8:
      return ElementKind::I8;
    case 16:
      return ElementKind::I16;
    case 32:
      return ElementKind::I32;
    case 64:
      return ElementKind::I64;
    default:
      return std::nullopt;
    }
  }
  if (type.isF16())
    return ElementKind::F16;
  if (type.isBF16())
    return ElementKind::BF16;
  if (type.isF32())
    return ElementKind::F32;
  if (type.isF64())
    return ElementKind::F64;
  return std::nullopt;
}

static std::string typeToString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

/// `type` with its ranked tensors as identity-layout memrefs: a GPU schedule
/// bufferizes (its Transform script ends on memrefs), so a GPU candidate
/// matches the original when their bufferized signatures do.
static FunctionType bufferizedType(FunctionType type) {
  auto bufferize = [](Type t) -> Type {
    if (auto tensor = dyn_cast<RankedTensorType>(t))
      return MemRefType::get(tensor.getShape(), tensor.getElementType());
    return t;
  };
  SmallVector<Type> inputs = llvm::map_to_vector(type.getInputs(), bufferize);
  SmallVector<Type> results =
      llvm::map_to_vector(type.getResults(), bufferize);
  return FunctionType::get(type.getContext(), inputs, results);
}

/// Whether `value` is exactly representable as an element of `type` (what a
/// user may give a scalar argument).
static bool fitsElementKind(ElementKind type, double value) {
  if (isFloatKind(type))
    return true;
  if (value != std::trunc(value))
    return false;
  switch (type) {
  case ElementKind::I1:
    return value == 0 || value == 1;
  case ElementKind::I8:
    return value >= -128 && value <= 127;
  case ElementKind::I16:
    return value >= -32768 && value <= 32767;
  case ElementKind::I32:
    return value >= -2147483648.0 && value <= 2147483647.0;
  default:
    // Integers the double holds exactly.
    return std::fabs(value) <= 9007199254740992.0;
  }
}

/// The element vector of a memref or tensor of vectors, or why the harness
/// cannot lay it out: LLVM pads a vector to a power-of-two size and packs
/// i1 vectors into bits, so only vectors whose innermost dimension fills a
/// power of two of bytes are contiguous arrays of their elements.
static llvm::Expected<std::pair<ElementKind, llvm::SmallVector<int64_t>>>
vectorElement(VectorType vector) {
  auto fail = [](const llvm::Twine &why) {
    return llvm::createStringError(why);
  };
  if (vector.isScalable())
    return fail("scalable vectors have no size the harness knows");
  std::optional<ElementKind> element = toElementKind(vector.getElementType());
  if (!element || *element == ElementKind::I1)
    return fail("the element type of the vector is not one the harness "
                "handles (i8, i16, i32, i64, index, f16, bf16, f32, f64)");
  uint64_t innermost =
      uint64_t(vector.getShape().back()) * elementKindBytes(*element);
  if (!llvm::isPowerOf2_64(innermost))
    return fail("LLVM pads a vector of " + llvm::Twine(innermost) +
                " bytes to a power of two, so its memory is not the "
                "contiguous elements the harness fills");
  return std::make_pair(*element, llvm::SmallVector<int64_t>(
                                      vector.getShape().begin(),
                                      vector.getShape().end()));
}

/// The buffer for one argument or result, or why the harness cannot feed it.
/// `scalarValue` is the user's value for a scalar argument.
static llvm::Expected<BufferSpec>
toBufferSpec(Type type, bool isResult, const llvm::Twine &what,
             std::optional<double> scalarValue = std::nullopt) {
  auto fail = [&](const llvm::Twine &why) {
    return llvm::createStringError(what + " has type " + typeToString(type) +
                                   ": " + why);
  };
  if (type.isIntOrIndexOrFloat()) {
    // A rank-0 memref of the lowered function (convertScalarsToMemrefs).
    std::optional<ElementKind> element = toElementKind(type);
    if (!element)
      return fail("unsupported scalar type (the harness handles i1, i8, i16, "
                  "i32, i64, index, f16, bf16, f32, f64)");
    BufferSpec buffer;
    buffer.type = *element;
    buffer.scalar = true;
    buffer.isResult = isResult;
    buffer.compared = isResult;
    if (!isResult) {
      double value = scalarValue.value_or(defaultScalarValue(*element));
      if (!fitsElementKind(*element, value))
        return fail("the value " + llvm::formatv("{0}", llvm::format("%g", value)).str() +
                    " given for it is not a value of type " +
                    typeToString(type));
      buffer.value = value;
    }
    return buffer;
  }
  if (scalarValue)
    return fail("a value is given for it, but it is not a scalar");
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !isa<RankedTensorType, MemRefType>(type))
    return fail("the harness feeds only ranked tensors, memrefs and integer, "
                "index or float scalars");
  if (!shaped.hasStaticShape())
    return fail("the harness needs static shapes");
  if (auto memref = dyn_cast<MemRefType>(type)) {
    if (!memref.getLayout().isIdentity())
      return fail("the harness passes contiguous row-major memrefs; use an "
                  "identity layout");
    if (Attribute space = memref.getMemorySpace()) {
      // Integer memory spaces are host memory (the lowering drops them).
      if (space.getDialect().getNamespace() == "gpu")
        return fail("its memory space is a GPU address space, which host code "
                    "cannot run (the harness runs the function on the CPU)");
      if (!isa<IntegerAttr>(space))
        return fail("the harness maps only integer memory spaces to host "
                    "memory");
    }
  }
  BufferSpec buffer;
  Type elementType = shaped.getElementType();
  if (auto vector = dyn_cast<VectorType>(elementType)) {
    auto element = vectorElement(vector);
    if (!element)
      return fail(llvm::toString(element.takeError()));
    buffer.type = element->first;
    buffer.vectorRank = element->second.size();
    buffer.shape.assign(shaped.getShape().begin(), shaped.getShape().end());
    buffer.shape.append(element->second.begin(), element->second.end());
  } else {
    std::optional<ElementKind> element = toElementKind(elementType);
    if (!element)
      return fail("unsupported element type (the harness handles i1, i8, i16, "
                  "i32, i64, index, f16, bf16, f32, f64 and vectors of them)");
    buffer.type = *element;
    buffer.shape.assign(shaped.getShape().begin(), shaped.getShape().end());
  }
  buffer.isResult = isResult;
  // A tensor argument's buffer may be reused in place by bufferization:
  // its contents afterwards are not a result of the function.
  buffer.compared = isResult || isa<MemRefType>(type);
  return buffer;
}

llvm::Expected<std::map<unsigned, double>>
tuner::parseScalarValues(llvm::StringRef text) {
  std::map<unsigned, double> values;
  llvm::SmallVector<llvm::StringRef> items;
  text.split(items, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (llvm::StringRef item : items) {
    auto [name, number] = item.trim().split('=');
    unsigned index;
    double value;
    if (!name.consume_front("arg") || name.getAsInteger(10, index) ||
        number.trim().getAsDouble(value))
      return llvm::createStringError(
          "scalar values: expected 'arg<N>=<number>' (e.g. arg0=2.5), got '" +
          item.trim() + "'");
    if (!values.emplace(index, value).second)
      return llvm::createStringError("scalar values: arg" +
                                     llvm::Twine(index) + " is given twice");
  }
  return values;
}

llvm::Expected<HarnessSpec>
tuner::buildHarnessSpec(func::FuncOp function, uint64_t seed,
                        const std::map<unsigned, double> &scalarValues) {
  HarnessSpec spec;
  spec.function = function.getSymName().str();
  spec.seed = seed;
  FunctionType type = function.getFunctionType();
  std::string name = "@" + spec.function;
  if (!scalarValues.empty() &&
      scalarValues.rbegin()->first >= type.getNumInputs())
    return llvm::createStringError(
        "a value is given for arg" + llvm::Twine(scalarValues.rbegin()->first) +
        " but " + name + " takes " + llvm::Twine(type.getNumInputs()) +
        " arguments");
  for (auto [index, input] : llvm::enumerate(type.getInputs())) {
    auto given = scalarValues.find(index);
    llvm::Expected<BufferSpec> buffer = toBufferSpec(
        input, false, "argument #" + llvm::Twine(index) + " of " + name,
        given == scalarValues.end() ? std::nullopt
                                    : std::optional<double>(given->second));
    if (!buffer)
      return buffer.takeError();
    spec.buffers.push_back(std::move(*buffer));
  }
  for (auto [index, result] : llvm::enumerate(type.getResults())) {
    llvm::Expected<BufferSpec> buffer = toBufferSpec(
        result, true, "result #" + llvm::Twine(index) + " of " + name);
    if (!buffer)
      return buffer.takeError();
    spec.buffers.push_back(std::move(*buffer));
  }
  if (spec.buffers.size() > kMaxHarnessBuffers)
    return llvm::createStringError(
        name + " has " + llvm::Twine(spec.buffers.size()) +
        " arguments and results; the harness passes at most " +
        llvm::Twine(kMaxHarnessBuffers));
  if (spec.comparedBytes() == 0)
    return llvm::createStringError(
        name + " has no outputs to verify: it returns nothing and takes no "
               "memref it could write");
  return spec;
}

int64_t tuner::estimateReductionLength(Operation *root) {
  int64_t longest = 1;
  bool sawLinalg = false;
  root->walk([&](linalg::LinalgOp op) {
    sawLinalg = true;
    int64_t product = 1;
    for (auto [range, iterator] :
         llvm::zip(op.getStaticLoopRanges(), op.getIteratorTypesArray()))
      if (iterator == utils::IteratorType::reduction &&
          !ShapedType::isDynamic(range))
        product *= std::max<int64_t>(range, 1);
    longest = std::max(longest, product);
  });
  if (sawLinalg)
    return longest;
  root->walk([&](Operation *op) {
    std::optional<uint64_t> tripCount;
    if (auto affineFor = dyn_cast<affine::AffineForOp>(op))
      tripCount = affine::getConstantTripCount(affineFor);
    else if (auto loop = dyn_cast<LoopLikeOpInterface>(op))
      if (std::optional<llvm::APInt> count = loop.getStaticTripCount())
        tripCount = count->getLimitedValue();
    if (tripCount)
      longest = std::max<int64_t>(
          longest, int64_t(std::min<uint64_t>(*tripCount, INT64_MAX)));
  });
  return longest;
}

//===----------------------------------------------------------------------===//
// Tools and files
//===----------------------------------------------------------------------===//

static std::string findClang(llvm::StringRef requested) {
  if (!requested.empty())
    return requested.str();
  if (llvm::ErrorOr<std::string> path =
          llvm::sys::findProgramByName("clang-22"))
    return *path;
  if (llvm::sys::fs::can_execute("/usr/lib/llvm-22/bin/clang"))
    return "/usr/lib/llvm-22/bin/clang";
  if (llvm::ErrorOr<std::string> path = llvm::sys::findProgramByName("clang"))
    return *path;
  return "";
}

std::string tuner::findHarness(const MeasureOptions &options) {
  if (!options.harnessPath.empty())
    return options.harnessPath;
  std::string self = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  if (!self.empty()) {
    llvm::SmallString<256> sibling(llvm::sys::path::parent_path(self));
    llvm::sys::path::append(sibling, "tuner-run");
    if (llvm::sys::fs::can_execute(sibling))
      return std::string(sibling);
  }
  if (llvm::ErrorOr<std::string> path =
          llvm::sys::findProgramByName("tuner-run"))
    return *path;
  return "";
}

/// libomp.so of clang's own installation (<prefix>/bin/clang ->
/// <prefix>/lib/libomp.so), or empty.
static std::string findLibomp(llvm::StringRef clang) {
  llvm::SmallString<256> real;
  if (llvm::sys::fs::real_path(clang, real))
    return "";
  llvm::SmallString<256> library(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(real)));
  llvm::sys::path::append(library, "lib", "libomp.so");
  return llvm::sys::fs::exists(library) ? std::string(library) : "";
}

/// `prefix` followed by "<seconds> s", e.g. "within 1.5 s".
static std::string formatSeconds(llvm::StringRef prefix, double seconds) {
  std::string text = prefix.str();
  llvm::raw_string_ostream(text) << llvm::format("%g s", seconds);
  return text;
}

static llvm::Error writeFile(llvm::StringRef path, llvm::StringRef contents) {
  std::error_code error;
  llvm::raw_fd_ostream os(path, error, llvm::sys::fs::OF_None);
  if (error)
    return llvm::createStringError("cannot write '" + path +
                                   "': " + error.message());
  os << contents;
  os.close();
  if (os.has_error())
    return llvm::createStringError("cannot write '" + path + "'");
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Measurer
//===----------------------------------------------------------------------===//

llvm::Expected<std::unique_ptr<Measurer>>
Measurer::create(ModuleOp original, llvm::StringRef function,
                 const Target &target, MeasureOptions options) {
  std::unique_ptr<Measurer> measurer(new Measurer());
  measurer->options = std::move(options);
  if (llvm::Error error = measurer->initialize(original, function, target))
    return std::move(error);
  return measurer;
}

Measurer::~Measurer() {
  if (!workDir.empty() && !options.keepFiles)
    llvm::sys::fs::remove_directories(workDir, /*IgnoreErrors=*/true);
}

llvm::Error Measurer::initialize(ModuleOp original, llvm::StringRef function,
                                 const Target &requestedTarget) {
  if (options.repetitions == 0)
    return llvm::createStringError("measure options: repetitions must be at "
                                   "least 1");
  if (options.rounds == 0)
    return llvm::createStringError("measure options: rounds must be at "
                                   "least 1");
  if (!(options.minRepetitionSeconds >= 0) || !(options.timeoutSeconds > 0) ||
      !(options.compileTimeoutSeconds > 0))
    return llvm::createStringError(
        "measure options: times must be positive (minimum repetition time "
        "non-negative)");
  target = requestedTarget;
  if (target.kind != "cpu" && !target.isGpu())
    return llvm::createStringError("cannot measure for a '" + target.kind +
                                   "' target: only cpu and gpu are supported");
  // A GPU target's host fields describe the machine it was written on; the
  // host code is compiled for this one.
  std::string hostCpu = llvm::sys::getHostCPUName().str();
  if (!target.isGpu() && !target.cpu.empty() && target.cpu != hostCpu)
    return llvm::createStringError(
        "measurements run on this machine (cpu '" + hostCpu +
        "'), but the target describes cpu '" + target.cpu + "'");
  if (target.triple.empty() || target.isGpu())
    target.triple = llvm::sys::getProcessTriple();

  auto func = dyn_cast_or_null<func::FuncOp>(
      SymbolTable::lookupSymbolIn(original, function));
  if (!func)
    return llvm::createStringError("no func.func @" + function +
                                   " in the module");
  if (func.isExternal())
    return llvm::createStringError("@" + function +
                                   " is a declaration without a body");
  llvm::Expected<HarnessSpec> spec = buildHarnessSpec(func, options.seed, options.scalarValues);
  if (!spec)
    return spec.takeError();
  harnessSpec = std::move(*spec);
  functionName = function.str();
  signature = typeToString(func.getFunctionType());
  gpuSignature = typeToString(bufferizedType(func.getFunctionType()));
  reduction = options.reductionLength > 0 ? options.reductionLength
                                          : estimateReductionLength(func);

  clang = findClang(options.clangPath);
  if (clang.empty())
    return llvm::createStringError(
        "cannot find clang-22 or clang; set the compiler path");
  libomp = findLibomp(clang);
  harness = findHarness(options);
  if (harness.empty())
    return llvm::createStringError(
        "cannot find the harness 'tuner-run' next to this program or on "
        "PATH; set the harness path");

  llvm::SmallString<256> dir;
  std::string prefix = "tuner-measure";
  if (!options.workDirectory.empty()) {
    if (std::error_code error =
            llvm::sys::fs::create_directories(options.workDirectory))
      return llvm::createStringError("cannot create '" + options.workDirectory +
                                     "': " + error.message());
    llvm::SmallString<256> absolute(options.workDirectory);
    llvm::sys::fs::make_absolute(absolute);
    llvm::sys::path::append(absolute, prefix);
    prefix = std::string(absolute);
  }
  if (std::error_code error = llvm::sys::fs::createUniqueDirectory(prefix, dir))
    return llvm::createStringError("cannot create a work directory: " +
                                   error.message());
  workDir = std::string(dir);
  llvm::SmallString<256> specFile(workDir);
  llvm::sys::path::append(specFile, "spec.json");
  specPath = std::string(specFile);
  std::string specText;
  llvm::raw_string_ostream specStream(specText);
  specStream << llvm::formatv("{0:2}", harnessSpec.toJSON()) << "\n";
  if (llvm::Error error = writeFile(specPath, specText))
    return error;

  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerOpenMPDialectTranslation(registry);
  registerGpuTranslations(registry);
  // Lets compile() turn a crash inside a pass into compile_failed.
  llvm::CrashRecoveryContext::Enable();

  std::string text = serialize(original);
  if (!target.isGpu()) {
    llvm::Expected<Measurement> measured = runOriginal(
        text, "baseline", baselineOutputs, options.pairedBaseline);
    if (!measured)
      return measured.takeError();
    baselineMeasurement = std::move(*measured);
    return llvm::Error::success();
  }

  // GPU: the reference outputs from the CPU (one call is enough), then the
  // naive GPU baseline, verified against them.
  gpuLowering = GpuLoweringOptions::forTarget(target.gpu);
  gpuLowering.toolkitPath = options.cudaToolkitPath;
  cudaRuntime = options.cudaRuntimePath;
  if (cudaRuntime.empty()) {
    llvm::SmallString<256> library(
        llvm::sys::path::parent_path(llvm::sys::path::parent_path(harness)));
    llvm::sys::path::append(library, "lib", "libTunerCudaRuntime.so");
    if (llvm::sys::fs::exists(library))
      cudaRuntime = std::string(library);
  } else if (!llvm::sys::fs::exists(cudaRuntime)) {
    return llvm::createStringError("the CUDA runtime '" + cudaRuntime +
                                   "' does not exist");
  }
  MeasureOptions measuring = options;
  options.repetitions = 1;
  options.rounds = 1;
  options.minRepetitionSeconds = 0;
  options.contentionRetries = 0;
  llvm::Expected<Measurement> reference =
      runOriginal(text, "reference", baselineOutputs);
  options = std::move(measuring);
  if (!reference)
    return llvm::createStringError(
        "the CPU reference (the untransformed function on the host): " +
        llvm::toString(reference.takeError()));
  lowerForGpu = true;
  std::string gpuOutputs;
  llvm::Expected<Measurement> measured =
      runOriginal(text, "baseline", gpuOutputs);
  if (!measured)
    return measured.takeError();
  if (std::optional<std::string> mismatch = compareOutputs(
          harnessSpec, baselineOutputs, gpuOutputs, reduction))
    return llvm::createStringError(
        "the GPU baseline (the untransformed function mapped naively onto "
        "the GPU) disagrees with the CPU reference: " +
        *mismatch);
  baselineMeasurement = std::move(*measured);
  return llvm::Error::success();
}

llvm::Expected<Measurement> Measurer::runOriginal(const std::string &text,
                                                  llvm::StringRef stem,
                                                  std::string &outputs,
                                                  bool keep) {
  std::string name = stem.str();
  // The original is never held to the candidates' size limit.
  Compiled compiled = compileAll({text}, {name}, /*limitSize=*/false).front();
  if (!compiled.ok) {
    removeFiles({name});
    return llvm::createStringError("the " + stem + " does not compile: " +
                                   compiled.message);
  }
  std::vector<std::string> ran;
  Measurement measured = runAll({&compiled}, ran).front();
  outputs = std::move(ran.front());
  if (keep && measured.ok())
    pairedBaseline = std::make_unique<Compiled>(std::move(compiled));
  else
    removeFiles({name});
  if (!measured.ok())
    return llvm::createStringError("the " + stem + " failed (" +
                                   statusName(measured.status) +
                                   "): " + measured.message);
  if (outputs.size() != harnessSpec.comparedBytes())
    return llvm::createStringError(
        "the " + stem + "'s outputs have " + llvm::Twine(outputs.size()) +
        " bytes, expected " + llvm::Twine(harnessSpec.comparedBytes()));
  measured.speedup = 1;
  return measured;
}

std::string Measurer::serialize(ModuleOp candidate) const {
  auto isTransform = [](Operation &op) {
    return op.getDialect() && op.getDialect()->getNamespace() == "transform";
  };
  // A schedule left in the file is dropped, on a copy; a candidate without
  // one (every candidate the tuner builds) is printed as it is.
  OwningOpRef<ModuleOp> copy;
  ModuleOp printed = candidate;
  if (llvm::any_of(candidate.getBody()->getOperations(), isTransform) ||
      candidate->hasAttr("transform.with_named_sequence")) {
    copy = candidate.clone();
    for (Operation &op :
         llvm::make_early_inc_range(copy->getBody()->getOperations()))
      if (isTransform(op))
        op.erase();
    copy.get()->removeAttr("transform.with_named_sequence");
    printed = *copy;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  // With locations, so that errors in the lowering point into the user's file.
  printed->print(os, OpPrintingFlags().enableDebugInfo());
  return text;
}

std::string Measurer::newStem() {
  return "c" + std::to_string(nextCandidate++);
}

/// "file:line:col" of the innermost file location (candidates keep the
/// locations of the file they were read from), else the location as printed.
static std::string formatLocation(Location location) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto file = location->findInstanceOf<FileLineColLoc>())
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn();
  else
    os << location;
  return text;
}

/// Parses, checks and lowers `text`, then translates it to LLVM IR in `ir`.
/// Runs inside a crash recovery context with a private MLIRContext.
static llvm::Error
lowerToLLVMIR(const DialectRegistry &registry, llvm::StringRef text,
              llvm::StringRef functionName, llvm::StringRef signature,
              const CpuLoweringOptions &lowering,
              const GpuLoweringOptions *gpuLowering, llvm::StringRef triple,
              llvm::StringRef symbolSuffix, std::string &ir, bool &usesOpenMP) {
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  std::string diagnostics;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
    if (diagnostic.getSeverity() != DiagnosticSeverity::Error)
      return success();
    if (!diagnostics.empty())
      diagnostics += "\n";
    llvm::raw_string_ostream os(diagnostics);
    os << formatLocation(diagnostic.getLocation()) << ": " << diagnostic;
    for (const Diagnostic &note : diagnostic.getNotes())
      os << "\n  note: " << note;
    return success();
  });
  auto fail = [&](const llvm::Twine &what) {
    return llvm::createStringError(
        what + (diagnostics.empty() ? "" : ": " + outputTail(diagnostics)));
  };

  ParserConfig config(&context);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(text, config, "candidate");
  if (!module)
    return fail("the module does not parse or verify");
  auto func = dyn_cast_or_null<func::FuncOp>(
      SymbolTable::lookupSymbolIn(*module, functionName));
  if (!func || func.isExternal())
    return fail("no func.func @" + functionName + " with a body");
  std::string candidateSignature =
      typeToString(gpuLowering ? bufferizedType(func.getFunctionType())
                               : func.getFunctionType());
  if (candidateSignature != signature)
    return fail("@" + functionName + " has type " + candidateSignature +
                ", the baseline's is " + signature);
  // The harness needs the symbol exported, and passes only memrefs.
  func.setPublic();
  if (failed(convertScalarsToMemrefs(func)))
    return fail("the harness cannot call @" + functionName);

  PassManager pm(&context, ModuleOp::getOperationName());
  if (gpuLowering)
    buildGpuLoweringPipeline(pm, *gpuLowering);
  else
    buildCpuLoweringPipeline(pm, lowering);
  if (failed(pm.run(*module)))
    return fail("lowering to the LLVM dialect failed");

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*module, llvmContext, "candidate");
  if (!llvmModule)
    return fail("translation to LLVM IR failed");
  llvmModule->setTargetTriple(llvm::Triple(triple));
  usesOpenMP = llvm::any_of(llvmModule->functions(), [](llvm::Function &f) {
    return f.isDeclaration() && f.getName().starts_with("__kmpc_");
  });
  // Candidates compiled into one shared object must not clash: every symbol
  // it defines and exports gets the candidate's suffix (local ones are the
  // linker's to rename). Only names change, not linkage: the optimizer
  // sees what it would see in a shared object of this candidate alone.
  if (!symbolSuffix.empty())
    for (llvm::GlobalValue &global : llvmModule->global_values())
      if (!global.isDeclaration() && !global.hasLocalLinkage() &&
          !global.getName().starts_with("llvm."))
        global.setName(global.getName() + symbolSuffix);
  llvm::raw_string_ostream os(ir);
  llvmModule->print(os, nullptr);
  return llvm::Error::success();
}

/// The suffix of a candidate's exported symbols in a shared object.
static std::string symbolSuffix(llvm::StringRef stem) {
  return ("__tuner_" + stem).str();
}

Measurer::Lowered Measurer::lower(const std::string &moduleText,
                                  const std::string &stem,
                                  bool limitSize) const {
  Lowered result;
  result.stem = stem;
  if (options.keepFiles)
    if (llvm::Error error = writeFile(pathFor(stem + ".mlir"), moduleText)) {
      result.error = llvm::toString(std::move(error));
      return result;
    }
  CpuLoweringOptions lowering = options.lowering;
  if (!limitSize)
    lowering.maxOps = 0;
  auto lowerStart = std::chrono::steady_clock::now();
  std::optional<std::string> loweringError;
  llvm::CrashRecoveryContext recovery;
  bool finished = recovery.RunSafely([&] {
    if (llvm::Error error = lowerToLLVMIR(
            registry, moduleText, functionName,
            lowerForGpu ? gpuSignature : signature, lowering,
            lowerForGpu ? &gpuLowering : nullptr, target.triple, symbolSuffix(stem), result.ir, result.usesOpenMP))
      loweringError = llvm::toString(std::move(error));
  });
  {
    std::lock_guard<std::mutex> lock(statsMutex);
    measureStats.lowerSeconds += secondsSince(lowerStart);
  }
  if (!finished)
    result.error = "the lowering crashed";
  else if (loweringError)
    result.error = *loweringError;
  if (!result.error.empty())
    result.ir.clear();
  return result;
}

std::string Measurer::pathFor(llvm::StringRef name) const {
  llvm::SmallString<256> path(workDir);
  llvm::sys::path::append(path, name);
  return std::string(path);
}

std::optional<std::string>
Measurer::runClang(const std::string &ir, const std::string &stem,
                   bool usesOpenMP, double timeoutSeconds,
                   const std::atomic<bool> *cancel) const {
  std::string irPath = pathFor(stem + ".ll");
  if (llvm::Error error = writeFile(irPath, ir))
    return llvm::toString(std::move(error));
  std::string library = pathFor(stem + ".so");
  std::string log = pathFor(stem + ".clang.txt");
  std::string rpath;
  llvm::SmallVector<llvm::StringRef> args = {
      clang,     "-O3",   "-march=native",
      "-shared", "-fPIC", "-Wno-override-module",
      irPath,    "-o",    library,
      "-lm"};
  // Lowered copies between memrefs of different layouts call memrefCopy
  // from MLIR's C runner utilities, installed beside clang's libomp.so.
  std::string runnerUtils;
  if (ir.find("memrefCopy") != std::string::npos) {
    llvm::SmallString<256> path(llvm::sys::path::parent_path(libomp));
    llvm::sys::path::append(path, "libmlir_c_runner_utils.so");
    if (libomp.empty() || !llvm::sys::fs::exists(path))
      return "the module copies memrefs (memrefCopy) but no "
             "libmlir_c_runner_utils.so was found beside " +
             clang;
    runnerUtils = std::string(path);
    args.push_back(runnerUtils);
    rpath = "-Wl,-rpath," + llvm::sys::path::parent_path(libomp).str();
    args.push_back(rpath);
  }
  // GPU host code calls the mgpu* functions of the project's CUDA runtime;
  // without one they stay undefined, and loading the object fails in the
  // harness.
  std::string cudaRpath;
  if (lowerForGpu && !cudaRuntime.empty()) {
    args.push_back(cudaRuntime);
    cudaRpath =
        "-Wl,-rpath," + llvm::sys::path::parent_path(cudaRuntime).str();
    args.push_back(cudaRpath);
  }
  if (usesOpenMP) {
    if (libomp.empty())
      return "the module uses OpenMP but no libomp.so was found beside " +
             clang;
    args.push_back(libomp);
    if (rpath.empty()) {
      rpath = "-Wl,-rpath," + llvm::sys::path::parent_path(libomp).str();
      args.push_back(rpath);
    }
  }
  auto clangStart = std::chrono::steady_clock::now();
  ProcessResult compiled =
      runProcess(clang, args, /*stdoutPath=*/log, log, timeoutSeconds,
                 /*memoryLimitMB=*/0, cancel);
  {
    std::lock_guard<std::mutex> lock(statsMutex);
    measureStats.clangSeconds += secondsSince(clangStart);
    ++measureStats.clangCalls;
  }
  if (compiled.succeeded())
    return std::nullopt;
  std::string why;
  switch (compiled.kind) {
  case ProcessResult::Kind::TimedOut:
    why = "clang timed out (" + compiled.message + ")";
    break;
  case ProcessResult::Kind::Cancelled:
    why = "clang cancelled: compiled otherwise";
    break;
  case ProcessResult::Kind::Signaled:
    why = "clang crashed (" + compiled.message + ")";
    break;
  case ProcessResult::Kind::FailedToStart:
    why = compiled.message;
    break;
  case ProcessResult::Kind::Exited:
    why = "clang failed with exit code " + std::to_string(compiled.exitCode);
    break;
  }
  std::string output = outputTail(readOutput(log));
  return output.empty() ? why : why + ": " + output;
}

/// `modules` (LLVM IR texts) linked into one module, printed; std::nullopt
/// when one does not parse or the link fails.
static std::optional<std::string>
linkIR(llvm::ArrayRef<const std::string *> modules) {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> linked;
  for (const std::string *text : modules) {
    llvm::SMDiagnostic diagnostic;
    std::unique_ptr<llvm::Module> module =
        llvm::parseAssemblyString(*text, diagnostic, context);
    if (!module)
      return std::nullopt;
    if (!linked) {
      linked = std::move(module);
      continue;
    }
    if (llvm::Linker::linkModules(*linked, std::move(module)))
      return std::nullopt;
  }
  std::string ir;
  llvm::raw_string_ostream os(ir);
  linked->print(os, nullptr);
  return ir;
}

/// One worker's group of candidates: compiled with one clang call and, while
/// that call runs, each member alone by any worker that has nothing else to
/// do. Whichever finishes first wins and the other is cancelled: a group
/// that is fast gives one shared object, and a group held up by a member
/// that compiles for minutes costs no more wall time than compiling its
/// members alone on an idle core (the member over its limit is
/// compile_failed either way). A group whose call fails (a member's inline
/// assembly, a crash, the group's limit) has its members compiled alone,
/// so that each failure is its own candidate's.
struct Measurer::CompileGroup {
  std::vector<Lowered *> members;
  std::string stem;
  /// Set once members, stem and alone are final.
  std::atomic<bool> ready{false};
  std::atomic<bool> cancelGroup{false};
  std::atomic<bool> cancelAlone{false};
  std::mutex mutex;
  // Under mutex: whether the group's call is (still) worth helping, the
  // outcome, and the members compiled alone.
  enum class Outcome { Pending, Group, Alone };
  Outcome outcome = Outcome::Pending;
  bool started = false;
  size_t nextAlone = 0;
  size_t aloneDone = 0;
  std::vector<Compiled> alone;
};

Measurer::Compiled Measurer::uncompiled(const Lowered &member) const {
  Compiled result;
  result.stem = member.stem;
  result.symbol = "_mlir_ciface_" + functionName + symbolSuffix(member.stem);
  result.usesOpenMP = member.usesOpenMP;
  result.message = member.error;
  return result;
}

Measurer::Compiled Measurer::compileAlone(const Lowered &member,
                                          const std::atomic<bool> *cancel) const {
  Compiled result = uncompiled(member);
  if (std::optional<std::string> error =
          runClang(member.ir, member.stem, member.usesOpenMP,
                   options.compileTimeoutSeconds, cancel)) {
    result.message = std::move(*error);
    return result;
  }
  result.library = pathFor(member.stem + ".so");
  result.ok = true;
  return result;
}

/// Compiles members of `group` alone until none is left or the group's own
/// call has won.
void Measurer::compileMembersAlone(CompileGroup &group) const {
  using Outcome = CompileGroup::Outcome;
  while (true) {
    size_t k;
    {
      std::lock_guard<std::mutex> lock(group.mutex);
      if (group.outcome == Outcome::Group ||
          group.nextAlone == group.members.size())
        return;
      k = group.nextAlone++;
    }
    Compiled result = compileAlone(*group.members[k], &group.cancelAlone);
    std::lock_guard<std::mutex> lock(group.mutex);
    if (group.outcome == Outcome::Group)
      return;
    group.alone[k] = std::move(result);
    if (++group.aloneDone == group.members.size() &&
        group.outcome == Outcome::Pending) {
      group.outcome = Outcome::Alone;
      group.cancelGroup = true;
    }
  }
}

void Measurer::compileGroupCall(CompileGroup &group) const {
  using Outcome = CompileGroup::Outcome;
  std::vector<const std::string *> texts;
  bool usesOpenMP = false;
  for (Lowered *member : group.members) {
    texts.push_back(&member->ir);
    usesOpenMP |= member->usesOpenMP;
  }
  std::optional<std::string> ir = linkIR(texts);
  bool ok = false;
  if (ir) {
    {
      std::lock_guard<std::mutex> lock(group.mutex);
      group.started = true;
    }
    // The group's limit is one candidate's and a quarter of it per other
    // member: a group takes a few seconds, and one whose member runs into
    // the limit is compiled a second time, member by member, so the sooner
    // it gives up the better (with the per-candidate limit times its
    // members, tuner-gen's groups of six could take 6 minutes before
    // falling back).
    double limit = options.compileTimeoutSeconds *
                   (1 + double(group.members.size() - 1) / 4);
    ok = !runClang(*ir, group.stem, usesOpenMP, limit, &group.cancelGroup);
  }
  {
    std::lock_guard<std::mutex> lock(group.mutex);
    if (group.outcome == Outcome::Pending)
      group.outcome = ok ? Outcome::Group : Outcome::Alone;
    if (group.outcome == Outcome::Group)
      group.cancelAlone = true;
  }
  compileMembersAlone(group);
}

std::vector<Measurer::Compiled>
Measurer::compileAll(llvm::ArrayRef<std::string> texts,
                     llvm::ArrayRef<std::string> stems, bool limitSize) const {
  using Outcome = CompileGroup::Outcome;
  size_t n = texts.size();
  std::vector<Compiled> compiled(n);
  if (n == 0)
    return compiled;
  unsigned workers = std::min<unsigned>(
      n, llvm::hardware_concurrency(options.jobs).compute_thread_count());
  // Each worker lowers candidates from a shared queue (one that lowers for
  // a minute holds up no other), then compiles what it lowered as one
  // group; a worker left without work compiles the members of groups still
  // compiling alone.
  std::vector<Lowered> lowered(n);
  std::vector<CompileGroup> groups(workers);
  std::atomic<size_t> nextToLower{0};
  auto work = [&](unsigned worker) {
    CompileGroup &group = groups[worker];
    std::vector<Lowered *> alone;
    for (size_t i; (i = nextToLower++) < n;) {
      lowered[i] = lower(texts[i], stems[i], limitSize);
      lowered[i].index = i;
      Lowered &member = lowered[i];
      compiled[i] = uncompiled(member);
      if (!member.error.empty())
        continue;
      if (member.ir.size() > options.compileAloneBytes)
        alone.push_back(&member);
      else
        group.members.push_back(&member);
    }
    if (group.members.size() == 1) {
      alone.push_back(group.members.front());
      group.members.clear();
    }
    if (!group.members.empty()) {
      group.stem = "g" + group.members.front()->stem;
      group.alone.resize(group.members.size());
    }
    group.ready = true;
    for (Lowered *member : alone)
      compiled[member->index] = compileAlone(*member, nullptr);
    if (!group.members.empty())
      compileGroupCall(group);
    // Help the other groups until each has won or has every member taken.
    while (true) {
      bool allDone = true;
      for (CompileGroup &other : groups) {
        if (&other == &group)
          continue;
        if (!other.ready) {
          allDone = false;
          continue;
        }
        bool helpable, done;
        {
          std::lock_guard<std::mutex> lock(other.mutex);
          bool left = other.nextAlone < other.members.size();
          helpable = left && (other.outcome == Outcome::Alone ||
                              (other.started && other.outcome == Outcome::Pending));
          done = !left || other.outcome == Outcome::Group;
        }
        if (helpable)
          compileMembersAlone(other);
        else if (!done)
          allDone = false;
      }
      if (allDone)
        return;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  };
  if (workers == 1) {
    work(0);
  } else {
    llvm::DefaultThreadPool pool(llvm::hardware_concurrency(workers));
    for (unsigned worker = 0; worker < workers; ++worker)
      pool.async([&, worker] { work(worker); });
    pool.wait();
  }
  for (CompileGroup &group : groups)
    for (size_t k = 0; k < group.members.size(); ++k) {
      size_t i = group.members[k]->index;
      if (group.outcome == Outcome::Group) {
        compiled[i].library = pathFor(group.stem + ".so");
        compiled[i].ok = true;
      } else {
        compiled[i] = std::move(group.alone[k]);
      }
    }
  return compiled;
}

/// A timing report of the harness as a measurement, or why it is not one.
static llvm::Expected<Measurement>
parseReport(const llvm::json::Object &report) {
  std::optional<double> minSeconds = report.getNumber("min_seconds");
  std::optional<double> medianSeconds = report.getNumber("median_seconds");
  std::optional<double> maxSeconds = report.getNumber("max_seconds");
  std::optional<int64_t> repetitions = report.getInteger("repetitions");
  if (!minSeconds || !medianSeconds || !maxSeconds || !repetitions)
    return llvm::createStringError("incomplete harness report");
  Measurement measurement;
  measurement.minSeconds = *minSeconds;
  measurement.medianSeconds = *medianSeconds;
  measurement.maxSeconds = *maxSeconds;
  measurement.repetitions = unsigned(*repetitions);
  if (std::optional<double> load = report.getNumber("foreign_load"))
    measurement.foreignLoad = *load;
  if (std::optional<double> faults = report.getNumber("page_faults_per_call"))
    measurement.pageFaultsPerCall = *faults;
  return measurement;
}

std::vector<Measurement>
Measurer::runAll(llvm::ArrayRef<const Compiled *> batch,
                 std::vector<std::string> &outputs) const {
  // The baseline is timed beside the candidates in every round once it is
  // known (not while it is being measured itself; only CPU targets keep
  // it, see initialize).
  const Compiled *pairWith = pairedBaseline.get();
  std::vector<std::vector<PairedTiming>> pairs(batch.size());
  auto addPairs = [&](llvm::ArrayRef<size_t> where,
                      llvm::ArrayRef<Measurement> timed,
                      llvm::ArrayRef<std::optional<Measurement>> paired) {
    for (size_t k = 0; k < where.size(); ++k)
      if (timed[k].ok() && k < paired.size() && paired[k])
        pairs[where[k]].push_back({paired[k]->medianSeconds,
                                   paired[k]->foreignLoad,
                                   timed[k].medianSeconds,
                                   timed[k].foreignLoad});
  };
  std::vector<std::optional<Measurement>> paired;
  std::vector<Measurement> results =
      runRound(batch, outputs, 0, pairWith, &paired);
  std::vector<size_t> all(batch.size());
  std::iota(all.begin(), all.end(), size_t(0));
  addPairs(all, results, paired);
  // The later rounds time again, each in a harness process of its own,
  // what ran. A failure is final, in any round: a candidate that crashes or
  // hangs in a fresh process (other addresses, other memory) is not safe
  // because an earlier one ran it.
  for (unsigned round = 1; round < timingRounds(); ++round) {
    std::vector<const Compiled *> again;
    std::vector<size_t> where;
    for (size_t i = 0; i < batch.size(); ++i)
      if (results[i].ok()) {
        again.push_back(batch[i]);
        where.push_back(i);
      }
    if (again.empty())
      break;
    std::vector<std::string> unused;
    std::vector<Measurement> more =
        runRound(again, unused, round, pairWith, &paired);
    addPairs(where, more, paired);
    for (size_t k = 0; k < again.size(); ++k) {
      Measurement &kept = results[where[k]];
      if (!more[k].ok()) {
        kept = std::move(more[k]);
        kept.message = "in timing round " + std::to_string(round + 1) +
                       ": " + kept.message;
      } else if (isBetterTiming(more[k].medianSeconds, more[k].foreignLoad,
                                kept.medianSeconds, kept.foreignLoad,
                                options.maxForeignLoad)) {
        kept = std::move(more[k]);
      }
    }
  }
  // The speedup from the pairs (measureAll divides the baseline's time by
  // the kept one where there are none).
  for (size_t i = 0; i < batch.size(); ++i)
    if (results[i].ok())
      results[i].speedup = pairedSpeedup(pairs[i], options.maxForeignLoad);
  if (!options.keepFiles)
    for (const Compiled *candidate : batch)
      llvm::sys::fs::remove(pathFor(candidate->stem + ".out"));
  return results;
}

std::vector<Measurement>
Measurer::runRound(llvm::ArrayRef<const Compiled *> batch,
                   std::vector<std::string> &outputs, unsigned round,
                   const Compiled *pairWith,
                   std::vector<std::optional<Measurement>> *pairedTimings)
    const {
  size_t count = batch.size();
  std::vector<Measurement> results(count);
  std::vector<bool> done(count, false);
  outputs.assign(count, std::string());
  if (pairedTimings)
    pairedTimings->assign(count, std::nullopt);
  // What a process's list holds: candidate indices, and kBaseline for the
  // paired baseline.
  constexpr size_t kBaseline = ~size_t(0);
  // Candidates without OpenMP first: the runtime's worker threads keep
  // spinning a while after a parallel candidate's last call, and must not
  // do so while a serial one is timed.
  std::vector<size_t> pending;
  for (size_t i = 0; i < count; ++i)
    if (!batch[i]->usesOpenMP)
      pending.push_back(i);
  for (size_t i = 0; i < count; ++i)
    if (batch[i]->usesOpenMP)
      pending.push_back(i);

  std::string repetitionsArg =
      "--repetitions=" + std::to_string(options.repetitions);
  std::string minTimeArg, timeoutArg, loadArg;
  llvm::raw_string_ostream(minTimeArg)
      << "--min-time=" << llvm::format("%.17g", options.minRepetitionSeconds);
  llvm::raw_string_ostream(timeoutArg)
      << "--timeout=" << llvm::format("%.17g", options.timeoutSeconds);
  llvm::raw_string_ostream(loadArg)
      << "--max-foreign-load=" << llvm::format("%.17g", options.maxForeignLoad);
  std::string retriesArg =
      "--retries=" + std::to_string(options.contentionRetries);
  std::string coreArg = "--core=" + std::to_string(options.pinCore);

  // One harness process for the pending candidates; a candidate that
  // crashes or hangs ends it, and the ones after it run in a fresh one.
  bool withBaseline = pairWith && pairedTimings;
  // The round's later processes are named apart from its first (a process
  // run again without a baseline that ended it starts with the same
  // candidate), so that --keep-files keeps every process's files.
  for (unsigned process = 0; !pending.empty(); ++process) {
    std::string stem = batch[pending.front()]->stem;
    if (round > 0)
      stem += ".r" + std::to_string(round);
    if (process > 0)
      stem += ".p" + std::to_string(process);
    std::string listPath = pathFor(stem + ".batch"),
                stdoutPath = pathFor(stem + ".stdout"),
                stderrPath = pathFor(stem + ".stderr");
    // The baseline first, or, when it uses OpenMP, after the candidates
    // without it.
    std::vector<size_t> entries;
    bool placed = !withBaseline;
    for (size_t i : pending) {
      if (!placed && (!pairWith->usesOpenMP || batch[i]->usesOpenMP)) {
        entries.push_back(kBaseline);
        placed = true;
      }
      entries.push_back(i);
    }
    if (!placed)
      entries.push_back(kBaseline);
    std::string list;
    // Only the first round writes outputs (the verification's); the
    // baseline's are known.
    for (size_t entry : entries) {
      const Compiled &function =
          entry == kBaseline ? *pairWith : *batch[entry];
      list += function.symbol + "\t" + function.library + "\t" +
              (round == 0 && entry != kBaseline
                   ? pathFor(function.stem + ".out")
                   : std::string()) +
              "\n";
    }
    if (llvm::Error error = writeFile(listPath, list)) {
      std::string message = llvm::toString(std::move(error));
      for (size_t i : pending)
        results[i] = Measurement::failure(Status::Crashed, message);
      break;
    }
    std::string listArg = "--batch=" + listPath;
    llvm::SmallVector<llvm::StringRef> args = {
        harness,    listArg, specPath,   repetitionsArg, minTimeArg,
        timeoutArg, loadArg, retriesArg, coreArg};
    if (lowerForGpu)
      args.push_back("--gpu");
    // The harness enforces each attempt's limit itself; this one only
    // catches a harness that hangs outside of them.
    double pauses = 0;
    for (unsigned round = 0; round < options.contentionRetries; ++round)
      pauses += 0.5 * double(1u << round);
    double deadline =
        options.timeoutSeconds *
            (1 + double(entries.size()) * (1 + options.contentionRetries)) +
        pauses + 10;
    auto harnessStart = std::chrono::steady_clock::now();
    ProcessResult ran = runProcess(harness, args, stdoutPath, stderrPath,
                                   deadline, options.memoryLimitMB);
    measureStats.harnessSeconds += secondsSince(harnessStart);
    ++measureStats.harnessRuns;
    std::string errors = outputTail(readOutput(stderrPath));

    // The events: "start" before each attempt, then its report.
    std::optional<size_t> running;
    std::optional<Measurement> baselineTiming;
    bool baselineFailed = false;
    std::vector<size_t> timedHere;
    llvm::SmallVector<llvm::StringRef> lines;
    std::string events = readOutput(stdoutPath);
    llvm::StringRef(events).split(lines, '\n', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef line : lines) {
      llvm::Expected<llvm::json::Value> json = llvm::json::parse(line);
      const llvm::json::Object *event = json ? json->getAsObject() : nullptr;
      if (!event) {
        if (!json)
          llvm::consumeError(json.takeError());
        continue; // The candidate's own output on stdout.
      }
      if (std::optional<double> pause = event->getNumber("pause_seconds")) {
        measureStats.pauseSeconds += *pause;
        continue;
      }
      std::optional<int64_t> started = event->getInteger("start");
      std::optional<int64_t> candidate = event->getInteger("candidate");
      if (started && *started >= 0 && size_t(*started) < entries.size()) {
        running = entries[*started];
        continue;
      }
      if (!candidate || *candidate < 0 || size_t(*candidate) >= entries.size())
        continue;
      size_t index = entries[*candidate];
      running.reset();
      // The harness's phases, the paired baseline's too (the process's
      // input generation comes with its first function's report).
      measureStats.inputSeconds +=
          event->getNumber("input_seconds").value_or(0);
      measureStats.firstCallSeconds +=
          event->getNumber("first_call_seconds").value_or(0);
      measureStats.warmupSeconds +=
          event->getNumber("warmup_seconds").value_or(0);
      measureStats.timedSeconds +=
          event->getNumber("timed_seconds").value_or(0);
      if (!event->getString("error") &&
          event->getInteger("attempt").value_or(0) > 0)
        ++measureStats.retries;
      if (index == kBaseline) {
        // Its timing in this process (the best of its attempts); a report
        // that is not one ends the pairing for this round.
        llvm::Expected<Measurement> measured =
            event->getString("error")
                ? llvm::Expected<Measurement>(
                      llvm::createStringError("the harness's error"))
                : parseReport(*event);
        if (!measured) {
          llvm::consumeError(measured.takeError());
          baselineFailed = true;
        } else if (!baselineTiming ||
                   isBetterTiming(measured->medianSeconds,
                                  measured->foreignLoad,
                                  baselineTiming->medianSeconds,
                                  baselineTiming->foreignLoad,
                                  options.maxForeignLoad)) {
          baselineTiming = std::move(*measured);
        }
        continue;
      }
      if (std::optional<llvm::StringRef> error = event->getString("error")) {
        results[index] = Measurement::failure(
            Status::Crashed, ("cannot run the harness: " + *error).str());
        done[index] = true;
        continue;
      }
      llvm::Expected<Measurement> measured = parseReport(*event);
      if (!measured) {
        std::string why = llvm::toString(measured.takeError());
        if (!done[index])
          results[index] = Measurement::failure(
              Status::Crashed, why + " '" + outputTail(line, 200) + "'");
        done[index] = true;
        continue;
      }
      // Of a candidate's timings (first and retries) the undisturbed one
      // with the least median counts.
      if (!done[index] ||
          (results[index].ok() &&
           isBetterTiming(measured->medianSeconds, measured->foreignLoad,
                          results[index].medianSeconds,
                          results[index].foreignLoad, options.maxForeignLoad)))
        results[index] = std::move(*measured);
      if (!done[index] && round == 0)
        outputs[index] = readOutput(pathFor(batch[index]->stem + ".out"));
      if (!done[index])
        timedHere.push_back(index);
      done[index] = true;
    }

    auto failure = [&](Status status, std::string message) {
      if (!errors.empty())
        message += "; stderr: " + errors;
      return Measurement::failure(status, std::move(message));
    };
    std::optional<Measurement> ended;
    switch (ran.kind) {
    case ProcessResult::Kind::TimedOut:
      ended = failure(Status::Timeout, formatSeconds("no result within ",
                                                     options.timeoutSeconds));
      break;
    case ProcessResult::Kind::Signaled:
    case ProcessResult::Kind::Cancelled: // never asked for here
      ended = failure(Status::Crashed, "killed by signal: " + ran.message);
      break;
    case ProcessResult::Kind::FailedToStart:
      ended =
          failure(Status::Crashed, "cannot run the harness: " + ran.message);
      break;
    case ProcessResult::Kind::Exited:
      if (ran.exitCode == 124)
        ended = failure(Status::Timeout, formatSeconds("no result within ",
                                                       options.timeoutSeconds));
      else if (ran.exitCode != 0)
        ended = failure(Status::Crashed, "the harness exited with code " +
                                             std::to_string(ran.exitCode));
      else if (running)
        ended =
            failure(Status::Crashed, "the harness exited before its report");
      break;
    }
    std::vector<size_t> rest;
    for (size_t i : pending)
      if (!done[i])
        rest.push_back(i);
    if (withBaseline && !baselineFailed && baselineTiming)
      for (size_t i : timedHere)
        (*pairedTimings)[i] = baselineTiming;
    // A baseline that failed here (it ran before: a flaky host or a limit)
    // is left out of the round's later processes; when it ended this one,
    // the candidates left run again, without it.
    bool baselineEnded = running == kBaseline;
    if (baselineFailed || baselineEnded)
      withBaseline = false;
    if (ended && !baselineEnded) {
      // The candidate that was running when the harness ended is the one
      // that ended it (one whose retry did keeps its first timing); without
      // one, the harness failed by itself and every candidate left with it.
      if (running && !done[*running]) {
        results[*running] = *ended;
        done[*running] = true;
      } else if (!running) {
        for (size_t i : rest) {
          results[i] = *ended;
          done[i] = true;
        }
      }
    } else if (!ended) {
      for (size_t i : rest) {
        results[i] =
            failure(Status::Crashed, "the harness gave no report for it");
        done[i] = true;
      }
    }
    if (!options.keepFiles)
      for (const std::string &path : {listPath, stdoutPath, stderrPath})
        llvm::sys::fs::remove(path);
    std::vector<size_t> next;
    for (size_t i : pending)
      if (!done[i])
        next.push_back(i);
    pending = std::move(next);
  }
  return results;
}

/// Removes the files of `stems` (and of their groups) from `workDir`.
void Measurer::removeFiles(llvm::ArrayRef<std::string> stems) const {
  if (options.keepFiles)
    return;
  for (const std::string &stem : stems)
    for (llvm::StringRef prefix : {"", "g"})
      for (llvm::StringRef suffix : {".ll", ".so", ".clang.txt"})
        llvm::sys::fs::remove(pathFor((prefix + stem + suffix).str()));
}

Measurement Measurer::measure(ModuleOp candidate) {
  return measureAll({candidate}).front();
}

std::vector<Measurement>
Measurer::measureAll(llvm::ArrayRef<ModuleOp> candidates) {
  std::vector<std::string> texts;
  std::vector<std::string> stems;
  for (ModuleOp candidate : candidates) {
    texts.push_back(serialize(candidate));
    stems.push_back(newStem());
  }
  std::vector<Compiled> compiled = compileAll(texts, stems);

  std::vector<const Compiled *> runnable;
  for (const Compiled &candidate : compiled)
    if (candidate.ok)
      runnable.push_back(&candidate);
  std::vector<std::string> outputs;
  std::vector<Measurement> ran = runAll(runnable, outputs);

  std::vector<Measurement> results;
  size_t next = 0;
  for (const Compiled &candidate : compiled) {
    if (!candidate.ok) {
      results.push_back(
          Measurement::failure(Status::CompileFailed, candidate.message));
      continue;
    }
    Measurement measurement = std::move(ran[next]);
    const std::string &candidateOutputs = outputs[next];
    ++next;
    if (measurement.ok()) {
      auto verifyStart = std::chrono::steady_clock::now();
      std::optional<std::string> mismatch = compareOutputs(
          harnessSpec, baselineOutputs, candidateOutputs, reduction);
      measureStats.verifySeconds += secondsSince(verifyStart);
      if (mismatch)
        measurement = Measurement::failure(Status::WrongResult, *mismatch);
      else if (!(measurement.speedup > 0) && measurement.medianSeconds > 0)
        measurement.speedup =
            baselineMeasurement.medianSeconds / measurement.medianSeconds;
    }
    results.push_back(std::move(measurement));
  }
  removeFiles(stems);
  return results;
}
