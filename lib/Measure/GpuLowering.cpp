//===- GpuLowering.cpp - From tuned IR to an NVIDIA GPU binary ------------===//

#include "tuner/Measure/GpuLowering.h"

#include "tuner/Target/Target.h"

#include "mlir/Conversion/GPUCommon/GPUToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/Passes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace tuner;

tuner::GpuLoweringOptions
tuner::GpuLoweringOptions::forTarget(const GpuTarget &gpu) {
  GpuLoweringOptions options;
  options.chip = gpu.chip();
  options.features = gpu.ptxFeatures;
  return options;
}

void tuner::registerGpuTranslations(DialectRegistry &registry) {
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerConvertNVVMToLLVMInterface(registry);
  gpu::registerConvertGpuToLLVMInterface(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  gpu::registerOffloadingLLVMTranslationInterfaceExternalModels(registry);
}

/// Whether `op` runs on the device: inside a gpu.launch or a gpu.module.
static bool isOnDevice(Operation *op) {
  return op->getParentOfType<gpu::LaunchOp>() ||
         op->getParentOfType<gpu::GPUModuleOp>();
}

/// Threads per block of the naive mapping: the innermost parallel dimension
/// in warps of 32, the next one filling the block up to 256 threads.
static SmallVector<int64_t> naiveTileSizes(scf::ParallelOp loop) {
  unsigned rank = loop.getNumLoops();
  SmallVector<int64_t> sizes(rank, 1);
  auto extent = [&](unsigned dim) -> std::optional<int64_t> {
    std::optional<int64_t> lower =
        getConstantIntValue(loop.getLowerBound()[dim]);
    std::optional<int64_t> upper =
        getConstantIntValue(loop.getUpperBound()[dim]);
    std::optional<int64_t> step = getConstantIntValue(loop.getStep()[dim]);
    if (!lower || !upper || !step || *step <= 0)
      return std::nullopt;
    return std::max<int64_t>(1, (*upper - *lower + *step - 1) / *step);
  };
  auto clamp = [&](unsigned dim, int64_t size) {
    std::optional<int64_t> trips = extent(dim);
    return trips ? std::min(size, *trips) : size;
  };
  if (rank == 1) {
    sizes[0] = clamp(0, 256);
    return sizes;
  }
  sizes[rank - 1] = clamp(rank - 1, 32);
  sizes[rank - 2] = clamp(rank - 2, 256 / sizes[rank - 1]);
  return sizes;
}

/// Mapping of a loop's dimensions, innermost first, to x, y, z of `first`
/// (block or thread); the dimensions beyond three run sequentially.
static SmallVector<gpu::ParallelLoopDimMappingAttr>
naiveMapping(MLIRContext *context, unsigned rank, bool blocks) {
  gpu::Processor blockProcessors[] = {gpu::Processor::BlockX,
                                      gpu::Processor::BlockY,
                                      gpu::Processor::BlockZ};
  gpu::Processor threadProcessors[] = {gpu::Processor::ThreadX,
                                       gpu::Processor::ThreadY,
                                       gpu::Processor::ThreadZ};
  AffineMap identity = AffineMap::getMultiDimIdentityMap(1, context);
  SmallVector<gpu::ParallelLoopDimMappingAttr> mapping;
  for (unsigned dim = 0; dim < rank; ++dim) {
    unsigned fromInnermost = rank - 1 - dim;
    gpu::Processor processor =
        fromInnermost < 3 ? (blocks ? blockProcessors : threadProcessors)
                                [fromInnermost]
                          : gpu::Processor::Sequential;
    mapping.push_back(gpu::ParallelLoopDimMappingAttr::get(
        context, processor, identity, identity));
  }
  return mapping;
}

/// Whether host code may keep `op` as it is: GPU ops, allocations (made
/// device memory later), views, constants and other ops without memory
/// effects or regions.
static bool staysOnHost(Operation *op) {
  if (isa_and_nonnull<gpu::GPUDialect>(op->getDialect()) ||
      isa<scf::ParallelOp, func::ReturnOp, memref::AllocOp, memref::AllocaOp,
          memref::DeallocOp, memref::GetGlobalOp, ViewLikeOpInterface,
          memref::CastOp, memref::ReinterpretCastOp,
          memref::ExtractStridedMetadataOp>(op))
    return true;
  return op->getNumRegions() == 0 && isMemoryEffectFree(op);
}

namespace {
/// Maps what the schedule left on the host onto the GPU, naively: copies
/// become linalg.copy; linalg ops in host code become parallel loops (inside
/// kernels: sequential loops); scf.forall in host code becomes scf.parallel
/// (inside kernels: scf.for); each host parallel loop is tiled into blocks
/// of threads and mapped for convert-parallel-loops-to-gpu; any other host
/// op that touches memory or holds a region (a serial loop, a load or a
/// store) is wrapped into a single-iteration parallel loop: a kernel of one
/// thread.
struct MapHostComputations
    : public PassWrapper<MapHostComputations, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MapHostComputations)

  StringRef getArgument() const final { return "tuner-map-host-computations"; }
  StringRef getDescription() const final {
    return "Map the computations left in host code onto the GPU";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<gpu::GPUDialect, linalg::LinalgDialect, scf::SCFDialect,
                    memref::MemRefDialect, arith::ArithDialect,
                    affine::AffineDialect>();
  }
  void runOnOperation() override;
};
} // namespace

void MapHostComputations::runOnOperation() {
  func::FuncOp func = getOperation();
  MLIRContext *context = &getContext();
  IRRewriter rewriter(context);

  SmallVector<memref::CopyOp> copies;
  func.walk([&](memref::CopyOp copy) { copies.push_back(copy); });
  for (memref::CopyOp copy : copies) {
    rewriter.setInsertionPoint(copy);
    rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(),
                                                copy.getTarget());
  }

  SmallVector<linalg::LinalgOp> linalgOps;
  func.walk([&](linalg::LinalgOp op) { linalgOps.push_back(op); });
  for (linalg::LinalgOp op : linalgOps) {
    if (!op.hasPureBufferSemantics()) {
      op->emitError("the GPU lowering needs linalg ops on buffers; this one "
                    "was not bufferized");
      return signalPassFailure();
    }
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::LinalgLoops> loops =
        isOnDevice(op) ? linalg::linalgOpToLoops(rewriter, op)
                       : linalg::linalgOpToParallelLoops(rewriter, op);
    if (failed(loops)) {
      op->emitError("cannot lower this linalg op to loops for the GPU");
      return signalPassFailure();
    }
    rewriter.eraseOp(op);
  }

  SmallVector<scf::ForallOp> foralls;
  func.walk([&](scf::ForallOp forall) { foralls.push_back(forall); });
  for (scf::ForallOp forall : foralls) {
    rewriter.setInsertionPoint(forall);
    LogicalResult converted =
        isOnDevice(forall) ? scf::forallToForLoop(rewriter, forall)
                           : scf::forallToParallelLoop(rewriter, forall);
    if (failed(converted)) {
      forall->emitError("cannot lower this scf.forall for the GPU (map it "
                        "to blocks and threads in the schedule)");
      return signalPassFailure();
    }
  }

  // Host code: whatever is left that touches memory runs in a kernel.
  for (Block &block : func.getBody()) {
    for (Operation &op : llvm::make_early_inc_range(block)) {
      if (staysOnHost(&op))
        continue;
      if (op.getNumResults() != 0 && !op.use_empty()) {
        op.emitError("the GPU lowering runs this op in a kernel, but host "
                     "code uses its results");
        return signalPassFailure();
      }
      rewriter.setInsertionPoint(&op);
      Location loc = op.getLoc();
      Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
      auto single = scf::ParallelOp::create(rewriter, loc, ValueRange{zero},
                                            ValueRange{one}, ValueRange{one});
      Operation *terminator = single.getBody()->getTerminator();
      op.moveBefore(terminator);
    }
  }

  SmallVector<scf::ParallelOp> roots;
  for (Block &block : func.getBody())
    for (auto loop : block.getOps<scf::ParallelOp>())
      roots.push_back(loop);
  for (scf::ParallelOp loop : roots) {
    if (loop.getNumReductions() != 0) {
      loop->emitError("the naive GPU mapping does not handle parallel loops "
                      "with reductions");
      return signalPassFailure();
    }
    SmallVector<int64_t> sizes = naiveTileSizes(loop);
    auto [outer, inner] =
        scf::tileParallelLoop(loop, sizes, /*noMinMaxBounds=*/true);
    unsigned rank = outer.getNumLoops();
    if (failed(gpu::setMappingAttr(outer, naiveMapping(context, rank,
                                                       /*blocks=*/true))) ||
        failed(gpu::setMappingAttr(inner, naiveMapping(context, rank,
                                                       /*blocks=*/false)))) {
      loop->emitError("cannot map this parallel loop onto the GPU");
      return signalPassFailure();
    }
  }
}

namespace {
/// Puts every buffer where the GPU can reach it. In host code, allocations
/// (memref.alloc, memref.alloca) become gpu.alloc, freed by gpu.dealloc
/// before each return (a memref.dealloc becomes gpu.dealloc), and global
/// constants read in a kernel are read there (the kernel then holds its own
/// copy). Inside a kernel, an allocation in the workgroup memory space
/// becomes a workgroup attribution of its launch (shared memory), any other
/// one a stack allocation per thread.
struct PlaceBuffersOnDevice
    : public PassWrapper<PlaceBuffersOnDevice, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PlaceBuffersOnDevice)

  StringRef getArgument() const final {
    return "tuner-place-buffers-on-device";
  }
  StringRef getDescription() const final {
    return "Device memory for host temporaries, shared memory for workgroup "
           "buffers";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<gpu::GPUDialect, memref::MemRefDialect>();
  }
  void runOnOperation() override;
};
} // namespace

static bool isWorkgroupMemory(MemRefType type) {
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
  if (space)
    return space.getValue() == gpu::AddressSpace::Workgroup;
  auto number = dyn_cast_or_null<IntegerAttr>(type.getMemorySpace());
  return number && number.getInt() == 3;
}

/// Replaces `allocation`, a workgroup buffer of host code, by a workgroup
/// attribution of each gpu.launch that uses it; fails on other uses.
static LogicalResult moveIntoLaunches(Operation *allocation,
                                      RewriterBase &rewriter) {
  auto type = cast<MemRefType>(allocation->getResult(0).getType());
  if (!type.hasStaticShape())
    return allocation->emitError(
        "the GPU lowering needs static shapes for workgroup buffers");
  llvm::MapVector<Operation *, SmallVector<OpOperand *>> usesByLaunch;
  for (OpOperand &use :
       llvm::make_early_inc_range(allocation->getResult(0).getUses())) {
    Operation *user = use.getOwner();
    if (isa<memref::DeallocOp>(user)) {
      rewriter.eraseOp(user);
      continue;
    }
    auto launch = user->getParentOfType<gpu::LaunchOp>();
    if (!launch)
      return user->emitError("host code uses a workgroup buffer (memory "
                             "space workgroup): only kernels can");
    while (auto outer = launch->getParentOfType<gpu::LaunchOp>())
      launch = outer;
    usesByLaunch[launch.getOperation()].push_back(&use);
  }
  for (auto &[launch, uses] : usesByLaunch) {
    BlockArgument attribution = cast<gpu::LaunchOp>(launch)
                                    .addWorkgroupAttribution(
                                        type, allocation->getLoc());
    for (OpOperand *use : uses)
      use->set(attribution);
  }
  rewriter.eraseOp(allocation);
  return success();
}

void PlaceBuffersOnDevice::runOnOperation() {
  func::FuncOp func = getOperation();
  IRRewriter rewriter(&getContext());

  // Inside kernels.
  SmallVector<Operation *> kernelAllocations;
  func.walk([&](Operation *op) {
    if (isa<memref::AllocOp, memref::AllocaOp>(op) && isOnDevice(op))
      kernelAllocations.push_back(op);
  });
  for (Operation *op : kernelAllocations) {
    auto type = cast<MemRefType>(op->getResult(0).getType());
    if (!type.hasStaticShape()) {
      op->emitError("the GPU lowering needs static shapes for buffers "
                    "allocated inside a kernel");
      return signalPassFailure();
    }
    Value buffer = op->getResult(0);
    for (Operation *user : llvm::make_early_inc_range(buffer.getUsers()))
      if (isa<memref::DeallocOp>(user))
        rewriter.eraseOp(user);
    if (isWorkgroupMemory(type)) {
      // One buffer per launch, shared by the block's threads: what a tile
      // buffer (reused by every iteration of the loops around it) means.
      auto launch = op->getParentOfType<gpu::LaunchOp>();
      if (!launch) {
        op->emitError("a workgroup buffer outside a gpu.launch");
        return signalPassFailure();
      }
      BlockArgument attribution =
          launch.addWorkgroupAttribution(type, op->getLoc());
      rewriter.replaceOp(op, attribution);
      continue;
    }
    if (isa<memref::AllocOp>(op)) {
      rewriter.setInsertionPoint(op);
      rewriter.replaceOpWithNewOp<memref::AllocaOp>(op, type);
    }
  }

  // Host code.
  SmallVector<Operation *> hostAllocations;
  SmallVector<memref::DeallocOp> hostDeallocations;
  SmallVector<memref::GetGlobalOp> globals;
  func.walk([&](Operation *op) {
    if (isOnDevice(op))
      return;
    if (isa<memref::AllocOp, memref::AllocaOp>(op))
      hostAllocations.push_back(op);
    else if (auto dealloc = dyn_cast<memref::DeallocOp>(op))
      hostDeallocations.push_back(dealloc);
    else if (auto global = dyn_cast<memref::GetGlobalOp>(op))
      globals.push_back(global);
  });
  for (Operation *op : hostAllocations) {
    auto type = cast<MemRefType>(op->getResult(0).getType());
    if (isWorkgroupMemory(type)) {
      // Promotion allocates workgroup buffers at the function's entry: each
      // launch that uses one gets its own (shared memory lives as long as
      // a block).
      if (failed(moveIntoLaunches(op, rewriter)))
        return signalPassFailure();
      continue;
    }
    if (op->getBlock() != &func.getBody().front()) {
      op->emitError("the GPU lowering allocates device buffers only at the "
                    "top level of a function");
      return signalPassFailure();
    }
    if (type.getMemorySpace() && !isa<IntegerAttr>(type.getMemorySpace())) {
      op->emitError("a buffer of host code in memory space ")
          << type.getMemorySpace() << ": the GPU lowering puts host "
          << "temporaries in global device memory";
      return signalPassFailure();
    }
    rewriter.setInsertionPoint(op);
    ValueRange dynamicSizes = isa<memref::AllocOp>(op)
                                  ? cast<memref::AllocOp>(op).getDynamicSizes()
                                  : cast<memref::AllocaOp>(op).getDynamicSizes();
    auto alloc = gpu::AllocOp::create(
        rewriter, op->getLoc(), type, /*asyncToken=*/Type(),
        /*asyncDependencies=*/ValueRange(), dynamicSizes,
        /*symbolOperands=*/ValueRange(), /*hostShared=*/false);
    Value buffer = alloc.getMemref();
    rewriter.replaceOp(op, buffer);
    bool freed = llvm::any_of(buffer.getUsers(), [](Operation *user) {
      return isa<memref::DeallocOp>(user);
    });
    if (freed)
      continue;
    func.walk([&](func::ReturnOp ret) {
      rewriter.setInsertionPoint(ret);
      gpu::DeallocOp::create(rewriter, ret.getLoc(), /*asyncToken=*/Type(),
                             ValueRange(), buffer);
    });
  }
  for (memref::DeallocOp dealloc : hostDeallocations) {
    rewriter.setInsertionPoint(dealloc);
    gpu::DeallocOp::create(rewriter, dealloc.getLoc(), Type(), ValueRange(),
                           dealloc.getMemref());
    rewriter.eraseOp(dealloc);
  }
  // Constants: read where they are used, so that outlining copies the global
  // into the kernel's module.
  for (memref::GetGlobalOp global : globals) {
    SmallVector<OpOperand *> deviceUses;
    for (OpOperand &use : global->getUses())
      if (isOnDevice(use.getOwner()))
        deviceUses.push_back(&use);
      else if (!isa<gpu::LaunchOp>(use.getOwner())) {
        global->emitError("host code uses this global buffer: the GPU "
                          "lowering can read globals only inside kernels");
        return signalPassFailure();
      }
    for (OpOperand *use : deviceUses) {
      auto launch = use->getOwner()->getParentOfType<gpu::LaunchOp>();
      rewriter.setInsertionPointToStart(&launch.getBody().front());
      Operation *copy = rewriter.clone(*global);
      use->set(copy->getResult(0));
    }
    if (global->use_empty())
      rewriter.eraseOp(global);
  }
}

void tuner::buildGpuLoweringPipeline(OpPassManager &pm,
                                     const GpuLoweringOptions &options) {
  // Tensors to buffers, results to out-params (the harness's calling
  // convention, as on the CPU).
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.hoistStaticAllocs = true;
  outParams.modifyPublicFunctions = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  pm.addPass(createConvertBufferizationToMemRefPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // Computations onto the GPU: what a schedule mapped already sits in
  // gpu.launch ops; the rest is mapped naively.
  pm.addPass(createLowerAffinePass());
  pm.addNestedPass<func::FuncOp>(std::make_unique<MapHostComputations>());
  pm.addPass(createConvertParallelLoopToGpuPass());
  pm.addNestedPass<func::FuncOp>(createParallelForToNestedForsPass());
  pm.addNestedPass<func::FuncOp>(std::make_unique<PlaceBuffersOnDevice>());
  // Vector ops of kernels (a vectorized schedule) to 1-D vector ops, while
  // the kernels are still inside their functions.
  pm.addNestedPass<func::FuncOp>(vector::createLowerVectorMaskPass());
  pm.addPass(createConvertVectorToSCFPass(
      VectorTransferToSCFOptions().enableFullUnroll()));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // Kernels into gpu.module ops, launched asynchronously on a stream (which
  // gpu.alloc needs to be lowered).
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());

  // Loops of kernels and host code.
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(arith::createArithExpandOpsPass());

  // Kernels to NVVM.
  GpuNVVMAttachTargetOptions attach;
  attach.chip = options.chip;
  attach.features = options.features;
  attach.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(attach));
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps());
  pm.addNestedPass<gpu::GPUModuleOp>(createCanonicalizerPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createCSEPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createReconcileUnrealizedCastsPass());

  // Host code to LLVM: the C interface for the harness, runtime calls for
  // the GPU ops; then the kernels to a binary.
  pm.addNestedPass<func::FuncOp>(LLVM::createLLVMRequestCWrappersPass());
  pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = options.format;
  binary.toolkitPath = options.toolkitPath;
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}
