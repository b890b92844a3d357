//===- Lowering.cpp - From tuned IR to the LLVM dialect -------------------===//

#include "tuner/Measure/Lowering.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/Passes.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace {
/// Linalg vectorization expresses a contraction as transfer_reads with
/// broadcasting permutation maps, an elementwise multiply and a
/// vector.multi_reduction. Lowered as is, that materializes the whole 3-D
/// product and transposes it. This step (internal to the pipeline) moves the
/// broadcasts and transposes out of the transfers and folds the pattern into
/// vector.contract, which then lowers to outer products: one broadcast and
/// one FMA on a 1-D vector per row and reduction step.
struct FoldVectorContractions
    : public PassWrapper<FoldVectorContractions, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(FoldVectorContractions)

  StringRef getArgument() const final {
    return "tuner-fold-vector-contractions";
  }
  StringRef getDescription() const final {
    return "Fold broadcast-multiply-reduce vector patterns into "
           "vector.contract";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<vector::VectorDialect>();
  }
  void runOnOperation() override;
};
} // namespace

void FoldVectorContractions::runOnOperation() {
  RewritePatternSet patterns(&getContext());
  vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
  vector::populateVectorReductionToContractPatterns(patterns);
  // Not converging within the iteration limit leaves correct IR behind.
  (void)applyPatternsGreedily(getOperation(), std::move(patterns));
}

namespace {
/// Rewrites each `memref.copy` between buffers that are not both contiguous
/// (a tile of a larger buffer, as packing and padding copy) into
/// `linalg.copy`, which becomes loops that LLVM vectorizes. Lowered as is,
/// such a copy calls the runtime's generic `memrefCopy`, which walks the
/// strides element by element: a packed 256x32 panel copied that way cost
/// more than the matmul tile that reads it. Copies of sizes known only at
/// run time are rewritten too when both buffers' rows are contiguous (unit
/// innermost stride) and not both are contiguous as a whole (which lower to
/// one memcpy): the padded partial tile of a matmul on 1021 rows copies
/// 61x1021 floats three times per call (2 % of its instructions through
/// memrefCopy).
struct LowerStridedCopies
    : public PassWrapper<LowerStridedCopies, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LowerStridedCopies)

  StringRef getArgument() const final { return "tuner-lower-strided-copies"; }
  StringRef getDescription() const final {
    return "Rewrite memref.copy of strided buffers into linalg.copy";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<linalg::LinalgDialect>();
  }
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) {
      auto source = dyn_cast<MemRefType>(copy.getSource().getType());
      auto target = dyn_cast<MemRefType>(copy.getTarget().getType());
      if (!source || !target || source.getRank() == 0)
        return;
      if (source.hasStaticShape()) {
        if (memref::isStaticShapeAndContiguousRowMajor(source) &&
            memref::isStaticShapeAndContiguousRowMajor(target))
          return;
        copies.push_back(copy);
        return;
      }
      if (source.getLayout().isIdentity() && target.getLayout().isIdentity())
        return;
      auto unitInnerStride = [](MemRefType type) {
        SmallVector<int64_t> strides;
        int64_t offset;
        return succeeded(type.getStridesAndOffset(strides, offset)) &&
               strides.back() == 1;
      };
      if (unitInnerStride(source) && unitInnerStride(target))
        copies.push_back(copy);
    });
    for (memref::CopyOp copy : copies) {
      OpBuilder builder(copy);
      linalg::CopyOp::create(builder, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
      copy.erase();
    }
  }
};

/// Marks the pointer arguments of every defined public LLVM function
/// (the memref descriptors' allocated and aligned pointers) `noalias`: the
/// buffers a caller passes do not overlap (the harness allocates each one;
/// results are fresh out-params). Without it LLVM must assume that a store
/// through the output may change any input: tiled loops stay scalar, while
/// the untiled loop of the baseline gets a vectorized version behind a
/// runtime overlap check, and measured speedups would reward not tiling.
/// The C wrappers (`_mlir_ciface_*`) take pointers to descriptors and are
/// left alone; inlined into them, the attributes become alias scopes.
struct MarkArgumentsNoAlias
    : public PassWrapper<MarkArgumentsNoAlias, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MarkArgumentsNoAlias)

  StringRef getArgument() const final { return "tuner-mark-arguments-noalias"; }
  StringRef getDescription() const final {
    return "Mark the pointer arguments of public LLVM functions noalias";
  }
  void runOnOperation() override {
    UnitAttr unit = UnitAttr::get(&getContext());
    for (auto func : getOperation().getOps<LLVM::LLVMFuncOp>()) {
      if (func.isExternal() || func.isPrivate() ||
          func.getName().starts_with("_mlir_ciface_"))
        continue;
      for (auto [index, type] : llvm::enumerate(func.getArgumentTypes()))
        if (isa<LLVM::LLVMPointerType>(type))
          func.setArgAttr(index, LLVM::LLVMDialect::getNoAliasAttrName(),
                          unit);
    }
  }
};
} // namespace

namespace {
/// Fails the lowering when the module holds more than `limit` operations.
/// Placed right after the vector lowering, which unrolls every n-D vector
/// op into one op per 1-D row: a candidate whose ops are vectorized into
/// hundreds of thousands of one-lane rows (vector<872x1xf64>) or
/// transposed element by element there grows to millions of ops, on which
/// each later pass then spends seconds (a minute in all) before clang
/// spends minutes more.
struct LimitModuleSize
    : public PassWrapper<LimitModuleSize, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LimitModuleSize)

  explicit LimitModuleSize(uint64_t limit) : limit(limit) {}
  StringRef getArgument() const final { return "tuner-limit-module-size"; }
  StringRef getDescription() const final {
    return "Fail when the module holds more operations than a limit";
  }
  void runOnOperation() override {
    uint64_t count = 0;
    getOperation()->walk([&](Operation *) { ++count; });
    if (count <= limit)
      return;
    // At the module's location, without the op: a diagnostic on the op
    // would print the whole oversized module with it.
    mlir::emitError(getOperation()->getLoc())
        << "the module holds " << count
        << " operations once its vectors are unrolled into rows, more than "
           "the limit of "
        << limit << " (max-ops): too large to compile in reasonable time";
    signalPassFailure();
  }

  uint64_t limit;
};

/// Drops integer memory spaces from every memref type in host functions
/// (function types, block arguments, results and type attributes alike):
/// on the host, memory space 1 is the same memory as the default one, and
/// LLVM would otherwise give its pointers an address space the x86 backend
/// reads as a segment register. Functions inside gpu.module are left alone.
struct DropHostMemorySpaces
    : public PassWrapper<DropHostMemorySpaces, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(DropHostMemorySpaces)

  StringRef getArgument() const final { return "tuner-drop-memory-spaces"; }
  StringRef getDescription() const final {
    return "Map integer memory spaces of host memrefs to the default one";
  }
  void runOnOperation() override {
    AttrTypeReplacer replacer;
    replacer.addReplacement([](MemRefType type) -> std::optional<Type> {
      if (!isa_and_nonnull<IntegerAttr>(type.getMemorySpace()))
        return std::nullopt;
      return MemRefType::get(type.getShape(), type.getElementType(),
                             type.getLayout());
    });
    replacer.addReplacement(
        [](UnrankedMemRefType type) -> std::optional<Type> {
          if (!isa_and_nonnull<IntegerAttr>(type.getMemorySpace()))
            return std::nullopt;
          return UnrankedMemRefType::get(type.getElementType(), Attribute());
        });
    for (auto func : getOperation().getOps<func::FuncOp>())
      replacer.recursivelyReplaceElementsIn(func, /*replaceAttrs=*/true,
                                            /*replaceLocs=*/false,
                                            /*replaceTypes=*/true);
    }
  };
} // namespace

namespace {
/// Upstream's buffer-results-to-out-params, for the functions whose results
/// all have static shapes: a function with a dynamically shaped result (a
/// dynamic function tuned at given sizes, called by its measurement
/// wrapper) keeps returning it, since its caller cannot know the size to
/// allocate; upstream's pass fails on such a function.
struct StaticResultsToOutParams
    : public PassWrapper<StaticResultsToOutParams, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(StaticResultsToOutParams)
  StringRef getArgument() const final {
    return "tuner-static-results-to-out-params";
  }
  StringRef getDescription() const final {
    return "Converts the static memref results of functions to out-params";
  }
  void runOnOperation() override {
    bufferization::BufferResultsToOutParamsOpts options;
    options.hoistStaticAllocs = true;
    options.modifyPublicFunctions = true;
    options.filterFn = [](func::FuncOp *func) {
      return llvm::all_of(func->getFunctionType().getResults(), [](Type t) {
        auto memref = dyn_cast<MemRefType>(t);
        return !memref || memref.hasStaticShape();
      });
    };
    if (failed(bufferization::promoteBufferResultsToOutParams(getOperation(),
                                                              options)))
      signalPassFailure();
  }
};
} // namespace

LogicalResult tuner::convertScalarsToMemrefs(func::FuncOp function) {
  auto isScalar = [](Type type) { return type.isIntOrIndexOrFloat(); };
  FunctionType type = function.getFunctionType();
  if (!llvm::any_of(type.getInputs(), isScalar) &&
      !llvm::any_of(type.getResults(), isScalar))
    return success();
  if (auto module = function->getParentOfType<ModuleOp>())
    if (!SymbolTable::symbolKnownUseEmpty(function, module))
      return function.emitError()
             << "@" << function.getSymName()
             << " takes or returns scalars and is called within its module: "
                "the harness passes scalars in memory, which its callers "
                "would not";
  function->getContext()->getOrLoadDialect<memref::MemRefDialect>();
  Block &entry = function.getBody().front();
  OpBuilder builder = OpBuilder::atBlockBegin(&entry);
  SmallVector<Type> inputs;
  for (BlockArgument argument : entry.getArguments()) {
    Type argumentType = argument.getType();
    if (!isScalar(argumentType)) {
      inputs.push_back(argumentType);
      continue;
    }
    auto memref = MemRefType::get({}, argumentType);
    argument.setType(memref);
    auto load = memref::LoadOp::create(builder, argument.getLoc(), argument,
                                       ValueRange());
    argument.replaceAllUsesExcept(load.getResult(), load);
    inputs.push_back(memref);
  }
  SmallVector<Type> results;
  for (Type result : type.getResults())
    results.push_back(isScalar(result) ? MemRefType::get({}, result) : result);
  function.walk([&](func::ReturnOp ret) {
    OpBuilder returnBuilder(ret);
    for (OpOperand &operand : ret->getOpOperands()) {
      if (!isScalar(operand.get().getType()))
        continue;
      auto memref = MemRefType::get({}, operand.get().getType());
      Value out = memref::AllocOp::create(returnBuilder, ret.getLoc(), memref);
      memref::StoreOp::create(returnBuilder, ret.getLoc(), operand.get(), out,
                              ValueRange());
      operand.set(out);
    }
  });
  function.setFunctionType(builder.getFunctionType(inputs, results));
  return success();
}

void tuner::buildCpuLoweringPipeline(OpPassManager &pm,
                                     const CpuLoweringOptions &options) {
  pm.addPass(std::make_unique<DropHostMemorySpaces>());
  // Tensors to buffers: every function takes identity-layout memrefs and
  // returns nothing, its results written to out-params appended to its
  // arguments (which is the harness's calling convention).
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  // Tiled loops over buffers carry the buffer they write as an iteration
  // argument; folding those away lets a result be recognized as the
  // allocation it is and become the out-param itself, instead of a
  // temporary copied into it on every call. CSE first: a tile written back
  // where it was read bufferizes to a copy between two identical subviews,
  // which the canonicalizer erases once they are one value (peeled partial
  // register tiles made a memrefCopy call per tile, 5 % of matmul 1021's
  // time).
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(std::make_unique<StaticResultsToOutParams>());
  // Temporaries are freed, so repeated calls in the harness do not leak.
  bufferization::buildBufferDeallocationPipeline(pm);
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createConvertBufferizationToMemRefPass());

  // Structured ops and schedules to loops and 1-D vector ops.
  pm.addNestedPass<func::FuncOp>(std::make_unique<LowerStridedCopies>());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  pm.addPass(createForallToParallelLoopPass());
  pm.addNestedPass<func::FuncOp>(vector::createLowerVectorMaskPass());
  pm.addNestedPass<func::FuncOp>(std::make_unique<FoldVectorContractions>());
  pm.addNestedPass<func::FuncOp>(vector::createLowerVectorMultiReductionPass(
      vector::VectorMultiReductionLowering::InnerParallel));
  pm.addPass(createConvertVectorToSCFPass(
      VectorTransferToSCFOptions().enableFullUnroll()));
  pm.addPass(createLowerAffinePass());
  if (options.openmp) {
    ConvertSCFToOpenMPPassOptions openmp;
    openmp.numThreads = options.numThreads;
    pm.addPass(createConvertSCFToOpenMPPass(openmp));
  }
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addNestedPass<func::FuncOp>(arith::createArithExpandOpsPass());

  // To the LLVM dialect. Memrefs (and the alloca scopes that OpenMP bodies
  // get) are lowered before scf, since an alloca scope must stay one block.
  ConvertVectorToLLVMPassOptions vectorToLLVM;
  vectorToLLVM.vectorContractLowering =
      vector::VectorContractLowering::OuterProduct;
  pm.addPass(createConvertVectorToLLVMPass(vectorToLLVM));
  if (options.maxOps)
    pm.addPass(std::make_unique<LimitModuleSize>(options.maxOps));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addNestedPass<func::FuncOp>(LLVM::createLLVMRequestCWrappersPass());
  if (options.openmp)
    pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(std::make_unique<MarkArgumentsNoAlias>());
}

namespace {
struct LowerCpuPipelineOptions
    : public PassPipelineOptions<LowerCpuPipelineOptions> {
  Option<bool> openmp{*this, "openmp",
                      llvm::cl::desc("Lower parallel loops to OpenMP"),
                      llvm::cl::init(true)};
  Option<unsigned> numThreads{
      *this, "num-threads",
      llvm::cl::desc("OpenMP threads per parallel loop (0: runtime default)"),
      llvm::cl::init(0)};
  Option<uint64_t> maxOps{
      *this, "max-ops",
      llvm::cl::desc("Fail when the module holds more operations than this "
                     "once its vectors are unrolled into rows (0: no limit)"),
      llvm::cl::init(0)};
};
} // namespace

void tuner::registerLoweringPipelines() {
  static bool registered = [] {
    PassPipelineRegistration<LowerCpuPipelineOptions>(
        "tuner-lower-cpu",
        "Lower linalg/affine/scf/vector IR to the LLVM dialect for the host "
        "CPU, as the tuner measures it (results become out-params, functions "
        "get a C interface)",
        [](OpPassManager &pm, const LowerCpuPipelineOptions &options) {
          CpuLoweringOptions lowering;
          lowering.openmp = options.openmp;
          lowering.numThreads = options.numThreads;
          lowering.maxOps = options.maxOps;
          buildCpuLoweringPipeline(pm, lowering);
        });
    return true;
  }();
  (void)registered;
}
