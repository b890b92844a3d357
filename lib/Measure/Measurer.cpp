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

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

using namespace mlir;
using namespace tuner;

/// What compile() produced: a shared object, or why there is none.
struct Measurer::Compiled {
  bool ok = false;
  std::string stem;
  std::string library;
  std::string message;
  /// Files to delete once the candidate is measured.
  std::vector<std::string> files;
};

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

/// The buffer for one argument or result, or why the harness cannot feed it.
static llvm::Expected<BufferSpec> toBufferSpec(Type type, bool isResult,
                                               const llvm::Twine &what) {
  auto fail = [&](const llvm::Twine &why) {
    return llvm::createStringError(what + " has type " + typeToString(type) +
                                   ": " + why);
  };
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !isa<RankedTensorType, MemRefType>(type))
    return fail("the harness feeds only ranked tensors and memrefs, not "
                "scalars or other types");
  if (!shaped.hasStaticShape())
    return fail("the harness needs static shapes");
  if (auto memref = dyn_cast<MemRefType>(type)) {
    if (!memref.getLayout().isIdentity())
      return fail("the harness passes contiguous row-major memrefs; use an "
                  "identity layout");
    if (memref.getMemorySpace())
      return fail("the harness passes host memory; drop the memory space");
  }
  std::optional<ElementKind> element = toElementKind(shaped.getElementType());
  if (!element)
    return fail("unsupported element type (the harness handles i1, i8, i16, "
                "i32, i64, index, f16, bf16, f32, f64)");
  BufferSpec buffer;
  buffer.type = *element;
  buffer.shape.assign(shaped.getShape().begin(), shaped.getShape().end());
  buffer.isResult = isResult;
  // A tensor argument's buffer may be reused in place by bufferization:
  // its contents afterwards are not a result of the function.
  buffer.compared = isResult || isa<MemRefType>(type);
  return buffer;
}

llvm::Expected<HarnessSpec> tuner::buildHarnessSpec(func::FuncOp function,
                                                    uint64_t seed) {
  HarnessSpec spec;
  spec.function = function.getSymName().str();
  spec.seed = seed;
  FunctionType type = function.getFunctionType();
  std::string name = "@" + spec.function;
  for (auto [index, input] : llvm::enumerate(type.getInputs())) {
    llvm::Expected<BufferSpec> buffer = toBufferSpec(
        input, false, "argument #" + llvm::Twine(index) + " of " + name);
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
  if (!(options.minRepetitionSeconds >= 0) || !(options.timeoutSeconds > 0) ||
      !(options.compileTimeoutSeconds > 0))
    return llvm::createStringError(
        "measure options: times must be positive (minimum repetition time "
        "non-negative)");
  target = requestedTarget;
  if (target.kind != "cpu")
    return llvm::createStringError("cannot measure for a '" + target.kind +
                                   "' target: only cpu is supported");
  std::string hostCpu = llvm::sys::getHostCPUName().str();
  if (!target.cpu.empty() && target.cpu != hostCpu)
    return llvm::createStringError(
        "measurements run on this machine (cpu '" + hostCpu +
        "'), but the target describes cpu '" + target.cpu + "'");
  if (target.triple.empty())
    target.triple = llvm::sys::getProcessTriple();

  auto func = dyn_cast_or_null<func::FuncOp>(
      SymbolTable::lookupSymbolIn(original, function));
  if (!func)
    return llvm::createStringError("no func.func @" + function +
                                   " in the module");
  if (func.isExternal())
    return llvm::createStringError("@" + function +
                                   " is a declaration without a body");
  llvm::Expected<HarnessSpec> spec = buildHarnessSpec(func, options.seed);
  if (!spec)
    return spec.takeError();
  harnessSpec = std::move(*spec);
  functionName = function.str();
  signature = typeToString(func.getFunctionType());
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
  // Lets compile() turn a crash inside a pass into compile_failed.
  llvm::CrashRecoveryContext::Enable();

  Compiled compiled = compile(serialize(original), "baseline");
  if (!compiled.ok)
    return llvm::createStringError("the baseline does not compile: " +
                                   compiled.message);
  Measurement measured = run(compiled, baselineOutputs);
  if (!options.keepFiles)
    for (const std::string &file : compiled.files)
      llvm::sys::fs::remove(file);
  if (!measured.ok())
    return llvm::createStringError("the baseline failed (" +
                                   statusName(measured.status) +
                                   "): " + measured.message);
  if (baselineOutputs.size() != harnessSpec.comparedBytes())
    return llvm::createStringError(
        "the baseline's outputs have " + llvm::Twine(baselineOutputs.size()) +
        " bytes, expected " + llvm::Twine(harnessSpec.comparedBytes()));
  measured.speedup = 1;
  baselineMeasurement = measured;
  return llvm::Error::success();
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
              const CpuLoweringOptions &lowering, llvm::StringRef triple,
              std::string &ir, bool &usesOpenMP) {
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
  std::string candidateSignature = typeToString(func.getFunctionType());
  if (candidateSignature != signature)
    return fail("@" + functionName + " has type " + candidateSignature +
                ", the baseline's is " + signature);
  // The harness needs the symbol exported.
  func.setPublic();

  PassManager pm(&context, ModuleOp::getOperationName());
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
  llvm::raw_string_ostream os(ir);
  llvmModule->print(os, nullptr);
  return llvm::Error::success();
}

Measurer::Compiled Measurer::compile(const std::string &moduleText,
                                     const std::string &stem) const {
  Compiled result;
  result.stem = stem;
  auto pathFor = [&](llvm::StringRef suffix) {
    llvm::SmallString<256> path(workDir);
    llvm::sys::path::append(path, stem + suffix);
    result.files.push_back(std::string(path));
    return std::string(path);
  };
  auto failWith = [&](std::string message) {
    result.message = std::move(message);
    return result;
  };
  if (options.keepFiles)
    if (llvm::Error error = writeFile(pathFor(".mlir"), moduleText))
      return failWith(llvm::toString(std::move(error)));

  std::string ir;
  bool usesOpenMP = false;
  std::optional<std::string> loweringError;
  llvm::CrashRecoveryContext recovery;
  bool finished = recovery.RunSafely([&] {
    if (llvm::Error error =
            lowerToLLVMIR(registry, moduleText, functionName, signature,
                          options.lowering, target.triple, ir, usesOpenMP))
      loweringError = llvm::toString(std::move(error));
  });
  if (!finished)
    return failWith("the lowering crashed");
  if (loweringError)
    return failWith(*loweringError);

  std::string irPath = pathFor(".ll");
  if (llvm::Error error = writeFile(irPath, ir))
    return failWith(llvm::toString(std::move(error)));
  std::string library = pathFor(".so");
  std::string log = pathFor(".clang.txt");
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
      return failWith("the module copies memrefs (memrefCopy) but no "
                      "libmlir_c_runner_utils.so was found beside " +
                      clang);
    runnerUtils = std::string(path);
    args.push_back(runnerUtils);
    rpath = "-Wl,-rpath," + llvm::sys::path::parent_path(libomp).str();
    args.push_back(rpath);
  }
  if (usesOpenMP) {
    if (libomp.empty())
      return failWith("the module uses OpenMP but no libomp.so was found "
                      "beside " +
                      clang);
    args.push_back(libomp);
    if (rpath.empty()) {
      rpath = "-Wl,-rpath," + llvm::sys::path::parent_path(libomp).str();
      args.push_back(rpath);
    }
  }
  ProcessResult compiled = runProcess(clang, args, /*stdoutPath=*/log, log,
                                      options.compileTimeoutSeconds);
  if (!compiled.succeeded()) {
    std::string why;
    switch (compiled.kind) {
    case ProcessResult::Kind::TimedOut:
      why = "clang timed out (" + compiled.message + ")";
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
    return failWith(output.empty() ? why : why + ": " + output);
  }
  result.library = library;
  result.ok = true;
  return result;
}

Measurement Measurer::run(const Compiled &compiled,
                          std::string &outputs) const {
  Measurement best = runOnce(compiled, outputs);
  for (unsigned retry = 0; retry < options.contentionRetries && best.ok() &&
                           best.foreignLoad > options.maxForeignLoad;
       ++retry) {
    // Another process shared the cores: wait for it, then time again.
    std::this_thread::sleep_for(std::chrono::milliseconds(500 << retry));
    std::string againOutputs;
    Measurement again = runOnce(compiled, againOutputs);
    if (again.ok() && again.foreignLoad < best.foreignLoad) {
      best = std::move(again);
      outputs = std::move(againOutputs);
    }
  }
  return best;
}

Measurement Measurer::runOnce(const Compiled &compiled,
                              std::string &outputs) const {
  auto pathFor = [&](llvm::StringRef suffix) {
    llvm::SmallString<256> path(workDir);
    llvm::sys::path::append(path, compiled.stem + suffix);
    return std::string(path);
  };
  std::string outputsPath = pathFor(".out"), stdoutPath = pathFor(".stdout"),
              stderrPath = pathFor(".stderr");
  std::string outputsArg = "--outputs=" + outputsPath;
  std::string repetitionsArg =
      "--repetitions=" + std::to_string(options.repetitions);
  std::string minTimeArg;
  llvm::raw_string_ostream(minTimeArg)
      << "--min-time=" << llvm::format("%.17g", options.minRepetitionSeconds);
  std::string coreArg = "--core=" + std::to_string(options.pinCore);
  llvm::StringRef args[] = {harness,    compiled.library, specPath,
                            outputsArg, repetitionsArg,   minTimeArg,
                            coreArg};
  ProcessResult ran = runProcess(harness, args, stdoutPath, stderrPath,
                                 options.timeoutSeconds, options.memoryLimitMB);
  std::string errors = outputTail(readOutput(stderrPath));
  auto cleanup = [&] {
    if (!options.keepFiles)
      for (const std::string &path : {outputsPath, stdoutPath, stderrPath})
        llvm::sys::fs::remove(path);
  };
  auto failure = [&](Status status, std::string message) {
    cleanup();
    if (!errors.empty())
      message += "; stderr: " + errors;
    return Measurement::failure(status, std::move(message));
  };
  switch (ran.kind) {
  case ProcessResult::Kind::TimedOut:
    return failure(Status::Timeout,
                   formatSeconds("no result within ", options.timeoutSeconds));
  case ProcessResult::Kind::Signaled:
    return failure(Status::Crashed, "killed by signal: " + ran.message);
  case ProcessResult::Kind::FailedToStart:
    return failure(Status::Crashed, "cannot run the harness: " + ran.message);
  case ProcessResult::Kind::Exited:
    if (ran.exitCode != 0)
      return failure(Status::Crashed, "the harness exited with code " +
                                          std::to_string(ran.exitCode));
    break;
  }

  std::string report = readOutput(stdoutPath);
  outputs = readOutput(outputsPath);
  cleanup();
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(report);
  if (!json) {
    std::string why = llvm::toString(json.takeError());
    return failure(Status::Crashed, "unreadable harness report '" +
                                        outputTail(report, 200) + "': " + why);
  }
  const llvm::json::Object *object = json->getAsObject();
  std::optional<double> minSeconds, medianSeconds, maxSeconds;
  std::optional<int64_t> repetitions;
  if (object) {
    minSeconds = object->getNumber("min_seconds");
    medianSeconds = object->getNumber("median_seconds");
    maxSeconds = object->getNumber("max_seconds");
    repetitions = object->getInteger("repetitions");
  }
  if (!minSeconds || !medianSeconds || !maxSeconds || !repetitions)
    return failure(Status::Crashed,
                   "incomplete harness report '" + outputTail(report, 200) + "'");
  Measurement measurement;
  measurement.minSeconds = *minSeconds;
  measurement.medianSeconds = *medianSeconds;
  measurement.maxSeconds = *maxSeconds;
  measurement.repetitions = unsigned(*repetitions);
  if (std::optional<double> load = object->getNumber("foreign_load"))
    measurement.foreignLoad = *load;
  if (std::optional<double> faults = object->getNumber("page_faults_per_call"))
    measurement.pageFaultsPerCall = *faults;
  return measurement;
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

  std::vector<Compiled> compiled(candidates.size());
  {
    llvm::DefaultThreadPool pool(llvm::hardware_concurrency(options.jobs));
    for (size_t i = 0; i < candidates.size(); ++i)
      pool.async([&, i] { compiled[i] = compile(texts[i], stems[i]); });
    pool.wait();
  }

  std::vector<Measurement> results;
  for (const Compiled &candidate : compiled) {
    Measurement measurement;
    if (!candidate.ok) {
      measurement =
          Measurement::failure(Status::CompileFailed, candidate.message);
    } else {
      std::string outputs;
      measurement = run(candidate, outputs);
      if (measurement.ok()) {
        if (std::optional<std::string> mismatch = compareOutputs(
                harnessSpec, baselineOutputs, outputs, reduction))
          measurement = Measurement::failure(Status::WrongResult, *mismatch);
        else if (measurement.medianSeconds > 0)
          measurement.speedup =
              baselineMeasurement.medianSeconds / measurement.medianSeconds;
      }
    }
    if (!options.keepFiles)
      for (const std::string &file : candidate.files)
        llvm::sys::fs::remove(file);
    results.push_back(std::move(measurement));
  }
  return results;
}
