//===- GpuTransformOps.cpp - transform.tuner.gpu_finalize -----------------===//
//
// The last step of a GPU schedule (see tuner/Schedule/GpuSchedule.h): after
// bufferization and the mapping of the scf.forall ops onto blocks and
// threads, the function's results become out-params, what still runs on the
// host and touches memory (copies) becomes a kernel, the host allocations
// become device allocations, and the workgroup allocations of the promoted
// operands become workgroup attributions of their launch.
//
//===----------------------------------------------------------------------===//

#include "tuner/Schedule/TunerTransformOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::transform;

namespace {

constexpr int64_t kCopyThreads = 256;

bool insideLaunch(Operation *op) {
  return op->getParentOfType<gpu::LaunchOp>() != nullptr;
}

bool isWorkgroup(MemRefType type) {
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
  return space && space.getValue() == gpu::AddressSpace::Workgroup;
}

/// A kernel copying `from` into `to` (same static shape): one thread per
/// element, kCopyThreads threads per block.
LogicalResult buildCopyKernel(OpBuilder &b, Location loc, Value from,
                              Value to) {
  auto type = dyn_cast<MemRefType>(from.getType());
  if (!type || !type.hasStaticShape() ||
      type.getShape() != cast<MemRefType>(to.getType()).getShape())
    return failure();
  int64_t total = type.getNumElements();
  if (total == 0)
    return success();
  auto index = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  Value one = index(1);
  Value grid = index((total + kCopyThreads - 1) / kCopyThreads);
  auto launch = gpu::LaunchOp::create(b, loc, grid, one, one,
                                      index(kCopyThreads), one, one);
  Block &body = launch.getBody().front();
  OpBuilder inner = OpBuilder::atBlockEnd(&body);
  auto innerIndex = [&](int64_t v) {
    return arith::ConstantIndexOp::create(inner, loc, v).getResult();
  };
  Value linear = arith::AddIOp::create(
      inner, loc,
      arith::MulIOp::create(inner, loc, launch.getBlockIds().x,
                            innerIndex(kCopyThreads)),
      launch.getThreadIds().x);
  Value inBounds = arith::CmpIOp::create(
      inner, loc, arith::CmpIPredicate::ult, linear, innerIndex(total));
  auto guard = scf::IfOp::create(inner, loc, inBounds, /*withElse=*/false);
  OpBuilder then = guard.getThenBodyBuilder();
  SmallVector<Value> indices(type.getRank());
  Value rest = linear;
  for (int64_t d = type.getRank() - 1; d >= 0; --d) {
    Value size =
        arith::ConstantIndexOp::create(then, loc, type.getDimSize(d));
    indices[d] = d == 0 ? rest : arith::RemUIOp::create(then, loc, rest, size);
    if (d > 0)
      rest = arith::DivUIOp::create(then, loc, rest, size);
  }
  Value value = memref::LoadOp::create(then, loc, from, indices);
  memref::StoreOp::create(then, loc, value, to, indices);
  gpu::TerminatorOp::create(inner, loc);
  return success();
}

} // namespace

DiagnosedSilenceableFailure tuner::transform::GpuFinalizeOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  auto module = dyn_cast<ModuleOp>(target);
  if (!module)
    return emitSilenceableError()
           << "expected a builtin.module, got '" << target->getName() << "'";

  // 1. Results to out-params; the copies it makes are turned into kernels
  // below with the others.
  bufferization::BufferResultsToOutParamsOpts options;
  options.hoistStaticAllocs = true;
  options.modifyPublicFunctions = true;
  options.filterFn = [](func::FuncOp *func) {
    return llvm::all_of(func->getFunctionType().getResults(), [](Type t) {
      auto memref = dyn_cast<MemRefType>(t);
      return !memref || memref.hasStaticShape();
    });
  };
  if (failed(bufferization::promoteBufferResultsToOutParams(module, options)))
    return emitSilenceableError()
           << "the function results could not become out-params";

  // 2. Copies on the host become copy kernels.
  SmallVector<Operation *> copies;
  module.walk([&](Operation *op) {
    if (insideLaunch(op))
      return;
    if (isa<memref::CopyOp>(op))
      copies.push_back(op);
    else if (auto copy = dyn_cast<linalg::CopyOp>(op))
      if (copy.hasPureBufferSemantics())
        copies.push_back(op);
  });
  for (Operation *op : copies) {
    Value from, to;
    if (auto memrefCopy = dyn_cast<memref::CopyOp>(op)) {
      from = memrefCopy.getSource();
      to = memrefCopy.getTarget();
    } else {
      auto linalgCopy = cast<linalg::CopyOp>(op);
      from = linalgCopy.getDpsInputs()[0];
      to = linalgCopy.getDpsInits()[0];
    }
    rewriter.setInsertionPoint(op);
    if (failed(buildCopyKernel(rewriter, op->getLoc(), from, to))) {
      DiagnosedSilenceableFailure diag =
          emitSilenceableError()
          << "a copy outside the kernels has no static shape";
      diag.attachNote(op->getLoc()) << "copy";
      return diag;
    }
    rewriter.eraseOp(op);
  }

  // 3. Host allocations become device allocations, freed before returning.
  SmallVector<memref::AllocOp> hostAllocs, workgroupAllocs;
  module.walk([&](memref::AllocOp alloc) {
    if (insideLaunch(alloc)) {
      if (isWorkgroup(alloc.getType()))
        workgroupAllocs.push_back(alloc);
    } else if (!alloc.getType().getMemorySpace()) {
      hostAllocs.push_back(alloc);
    }
  });
  for (memref::AllocOp alloc : hostAllocs) {
    auto func = alloc->getParentOfType<func::FuncOp>();
    if (!func || alloc->getBlock() != &func.getBody().front() ||
        !alloc.getType().hasStaticShape()) {
      DiagnosedSilenceableFailure diag =
          emitSilenceableError()
          << "a buffer allocated outside the kernels is not a static "
             "allocation in its function's entry block";
      diag.attachNote(alloc.getLoc()) << "allocation";
      return diag;
    }
    rewriter.setInsertionPoint(alloc);
    auto device = gpu::AllocOp::create(rewriter, alloc.getLoc(),
                                       alloc.getType(), Type(), ValueRange(),
                                       ValueRange(), ValueRange());
    for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
      if (isa<memref::DeallocOp>(user))
        rewriter.eraseOp(user);
    rewriter.replaceOp(alloc, device.getMemref());
    func.walk([&](func::ReturnOp ret) {
      rewriter.setInsertionPoint(ret);
      gpu::DeallocOp::create(rewriter, ret.getLoc(), Type(), ValueRange(),
                             device.getMemref());
    });
  }

  // 4. Workgroup allocations become workgroup attributions.
  for (memref::AllocOp alloc : workgroupAllocs) {
    if (!alloc.getType().hasStaticShape()) {
      DiagnosedSilenceableFailure diag =
          emitSilenceableError()
          << "a workgroup buffer has a dynamic shape";
      diag.attachNote(alloc.getLoc()) << "allocation";
      return diag;
    }
    auto launch = alloc->getParentOfType<gpu::LaunchOp>();
    MemRefType type = MemRefType::get(alloc.getType().getShape(),
                                      alloc.getType().getElementType(),
                                      MemRefLayoutAttrInterface(),
                                      alloc.getType().getMemorySpace());
    BlockArgument buffer = launch.addWorkgroupAttribution(type, alloc.getLoc());
    for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
      if (isa<memref::DeallocOp>(user))
        rewriter.eraseOp(user);
    rewriter.replaceOp(alloc, buffer);
  }
  return DiagnosedSilenceableFailure::success();
}
