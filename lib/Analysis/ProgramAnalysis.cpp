//===- ProgramAnalysis.cpp - ProgramTree from linalg / affine IR ----------===//
//
// One nest per linalg op (its iteration space) and per outermost affine.for;
// buffers are memrefs and chains of tensor SSA values; dependence facts of
// affine nests come from MLIR's affine dependence analysis. The IR is never
// changed.
//
//===----------------------------------------------------------------------===//

#include "tuner/Analysis/ProgramAnalysis.h"
#include "tuner/Analysis/AffineDependences.h"

#include "mlir/Dialect/Affine/Analysis/AffineAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/IR/AffineValueMap.h"
#include "mlir/Dialect/Affine/LoopUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/AsmState.h"
#include "mlir/Interfaces/CastInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <set>
#include <tuple>

using namespace mlir;
using namespace tuner;

/// Deeper affine bands keep only their original order: enumerating the 9! and
/// more permutations would dwarf everything else the tuner does.
static constexpr size_t kMaxEnumeratedBandDepth = 8;

//===----------------------------------------------------------------------===//
// Helpers without state
//===----------------------------------------------------------------------===//

static ElementType convertElementType(Type type) {
  if (type.isF16())
    return ElementType::F16;
  if (type.isBF16())
    return ElementType::BF16;
  if (type.isF32())
    return ElementType::F32;
  if (type.isF64())
    return ElementType::F64;
  if (type.isIndex())
    return ElementType::Index;
  if (auto intType = dyn_cast<IntegerType>(type)) {
    switch (intType.getWidth()) {
    case 8:
      return ElementType::I8;
    case 16:
      return ElementType::I16;
    case 32:
      return ElementType::I32;
    case 64:
      return ElementType::I64;
    default:
      break;
    }
  }
  return ElementType::Other;
}

/// Adds `op` to `counts` when it is arithmetic: add/sub/mul/div by kind,
/// anything else of the arith and math dialects as `other`. Casts and
/// constants are not computation.
static void countOp(Operation *op, OpCounts &counts) {
  Dialect *dialect = op->getDialect();
  if (!dialect ||
      (dialect->getNamespace() != "arith" && dialect->getNamespace() != "math"))
    return;
  if (isa<CastOpInterface>(op) || op->hasTrait<OpTrait::ConstantLike>())
    return;
  if (isa<arith::AddFOp, arith::AddIOp, arith::AddUIExtendedOp>(op))
    ++counts.add;
  else if (isa<arith::SubFOp, arith::SubIOp>(op))
    ++counts.sub;
  else if (isa<arith::MulFOp, arith::MulIOp, arith::MulSIExtendedOp,
               arith::MulUIExtendedOp>(op))
    ++counts.mul;
  else if (isa<arith::DivFOp, arith::DivSIOp, arith::DivUIOp,
               arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp,
               arith::RemFOp, arith::RemSIOp, arith::RemUIOp>(op))
    ++counts.div;
  else
    ++counts.other;
}

/// Coefficients of an affine expression over `numInputs` dims and symbols
/// (symbols numbered after dims) plus a last constant entry; std::nullopt
/// when the expression is not linear (mod, floordiv, ceildiv or a product of
/// inputs).
static std::optional<SmallVector<int64_t>>
linearize(AffineExpr expr, unsigned numDims, unsigned numSymbols) {
  SmallVector<int64_t> result(numDims + numSymbols + 1, 0);
  if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    result[dim.getPosition()] = 1;
    return result;
  }
  if (auto symbol = dyn_cast<AffineSymbolExpr>(expr)) {
    result[numDims + symbol.getPosition()] = 1;
    return result;
  }
  if (auto constant = dyn_cast<AffineConstantExpr>(expr)) {
    result.back() = constant.getValue();
    return result;
  }
  auto binary = cast<AffineBinaryOpExpr>(expr);
  std::optional<SmallVector<int64_t>> lhs =
      linearize(binary.getLHS(), numDims, numSymbols);
  std::optional<SmallVector<int64_t>> rhs =
      linearize(binary.getRHS(), numDims, numSymbols);
  if (!lhs || !rhs)
    return std::nullopt;
  auto isConstant = [](ArrayRef<int64_t> coefficients) {
    return llvm::all_of(coefficients.drop_back(),
                        [](int64_t c) { return c == 0; });
  };
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    for (auto [r, l, rr] : llvm::zip_equal(result, *lhs, *rhs))
      r = l + rr;
    return result;
  case AffineExprKind::Mul: {
    if (!isConstant(*lhs) && !isConstant(*rhs))
      return std::nullopt;
    const SmallVector<int64_t> &scaled = isConstant(*rhs) ? *lhs : *rhs;
    int64_t factor = isConstant(*rhs) ? rhs->back() : lhs->back();
    for (auto [r, s] : llvm::zip_equal(result, scaled))
      r = s * factor;
    return result;
  }
  case AffineExprKind::Mod:
  case AffineExprKind::FloorDiv:
  case AffineExprKind::CeilDiv: {
    if (!isConstant(*lhs) || !isConstant(*rhs) || rhs->back() == 0)
      return std::nullopt;
    int64_t l = lhs->back(), r = rhs->back();
    if (expr.getKind() == AffineExprKind::Mod)
      result.back() = ((l % r) + r) % r;
    else if (expr.getKind() == AffineExprKind::FloorDiv)
      result.back() = llvm::divideFloorSigned(l, r);
    else
      result.back() = llvm::divideCeilSigned(l, r);
    return result;
  }
  default:
    return std::nullopt;
  }
}

/// Whether `op` may appear inside an affine nest: what affine dependence
/// analysis and our access matrices understand.
static bool isAllowedInAffineNest(Operation *op) {
  if (isa<affine::AffineForOp, affine::AffineIfOp, affine::AffineLoadOp,
          affine::AffineStoreOp, affine::AffineYieldOp, affine::AffineApplyOp,
          affine::AffineMinOp, affine::AffineMaxOp>(op))
    return true;
  Dialect *dialect = op->getDialect();
  return dialect && (dialect->getNamespace() == "arith" ||
                     dialect->getNamespace() == "math");
}

/// Whether `condition` may depend on the contents of memory or tensors
/// (which the harness fills with random data): its backward slice within
/// the function reads a memref or tensor, has memory effects, or holds an
/// op with regions. Scalars, constants and loop indices do not.
static bool dependsOnData(Value condition) {
  SmallVector<Value> worklist{condition};
  DenseSet<Operation *> visited;
  while (!worklist.empty()) {
    Operation *def = worklist.pop_back_val().getDefiningOp();
    if (!def || !visited.insert(def).second)
      continue;
    if (def->getNumRegions() != 0 || !isMemoryEffectFree(def) ||
        llvm::any_of(def->getOperandTypes(),
                     [](Type type) { return isa<ShapedType>(type); }))
      return true;
    llvm::append_range(worklist, def->getOperands());
  }
  return false;
}

/// Why the affine nest rooted at `root` (an outermost affine.for) is left
/// as it is, or std::nullopt when the tuner models it.
static std::optional<std::string> opaqueReason(affine::AffineForOp root) {
  std::optional<std::string> reason;
  root->walk([&](Operation *op) {
    if (op == root.getOperation() || op->getNumRegions() == 0 ||
        isa<affine::AffineForOp, affine::AffineIfOp>(op))
      return WalkResult::advance();
    reason = ("it holds " + op->getName().getStringRef() +
              ", which the tuner does not model (only affine.for and "
              "affine.if nest in an affine nest)")
                 .str();
    return WalkResult::interrupt();
  });
  if (reason)
    return reason;
  for (Operation *parent = root->getParentOp();
       parent && !isa<func::FuncOp>(parent); parent = parent->getParentOp()) {
    if (isa<affine::AffineParallelOp>(parent))
      return std::string("it is inside affine.parallel, whose loop the "
                         "dependence analysis of the nest would count as one "
                         "of its own");
    if (auto ifOp = dyn_cast<scf::IfOp>(parent))
      if (dependsOnData(ifOp.getCondition()))
        return std::string(
            "it is under an scf.if whose condition depends on the data, so "
            "the random inputs of a measurement decide whether it runs at "
            "all");
  }
  return std::nullopt;
}

bool tuner::hasLoopNests(func::FuncOp func) {
  WalkResult result = func.walk([](Operation *op) {
    return isa<linalg::LinalgOp, affine::AffineForOp>(op)
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return result.wasInterrupted();
}

//===----------------------------------------------------------------------===//
// TreeBuilder
//===----------------------------------------------------------------------===//

namespace {
class TreeBuilder {
public:
  explicit TreeBuilder(func::FuncOp func) : func(func), asmState(func) {}

  FailureOr<ProgramTree> build();

private:
  func::FuncOp func;
  AsmState asmState;
  ProgramTree tree;

  /// Memref values and tensor SSA values to their buffer.
  DenseMap<Value, int> bufferOfValue;
  /// Tensor results of linalg ops to the computation that produced them.
  DenseMap<Value, int> producerOfTensor;
  /// Memref buffer to the last computation (in program order) writing it.
  DenseMap<int, int> lastWriter;
  std::set<std::tuple<int, int, int>> edgeSet;
  /// Induction variables of affine loops to their loop id.
  DenseMap<Value, int> loopOfInductionVar;
  int numLinalgOps = 0;
  int numAffineNests = 0;

  LogicalResult checkStructure();
  std::string nameOf(Value value);
  /// The buffer of the value `use` reads or writes, created on first use;
  /// fails with an error at the user when its shape is not static.
  FailureOr<int> bufferFor(OpOperand &use);
  int createBuffer(Value value, ShapedType type);
  void addEdge(int producer, int consumer, int bufferId, bool viaTensor,
               bool intoInit = false);
  /// Edges into `consumer` reading `bufferId` through `use`.
  void addReadEdges(OpOperand &use, int consumer, int bufferId);
  int addLoop(std::string name, int parentId, int64_t lowerBound,
              int64_t extent, int64_t step);
  int addNest(std::string name, NestSource source, int opIndex);
  void markFunctionResults();

  LogicalResult addLinalgNest(linalg::LinalgOp op);

  /// What the walk over one affine nest carries along.
  struct AffineNestState {
    affine::AffineForOp root;
    int nestId = -1;
    /// Loops enclosing the current point of the walk, outermost first.
    std::vector<int> enclosing;
    /// Every affine.for of the nest, in pre-order.
    SmallVector<affine::AffineForOp> forOps;
    /// Position of each op of the nest in program order.
    DenseMap<Operation *, unsigned> position;
  };
  LogicalResult addAffineNest(affine::AffineForOp root);
  LogicalResult addAffineLoop(affine::AffineForOp forOp, int parentId,
                              AffineNestState &state);
  LogicalResult addAffineBody(Block &block, int loopId, AffineNestState &state);
  LogicalResult addAffineStatement(affine::AffineStoreOp store, int loopId,
                                   AffineNestState &state);
  FailureOr<Access> affineAccess(Operation *op,
                                 const std::vector<int> &enclosing);
  void markAffineReductions(const LoopNest &nest,
                            ArrayRef<affine::AffineForOp> forOps);
  void addSkewBand(LoopNest &nest, affine::AffineForOp root);
  void addLegalOrders(LoopNest &nest, affine::AffineForOp root,
                      size_t numLoops);
};
} // namespace

std::string TreeBuilder::nameOf(Value value) {
  std::string name;
  llvm::raw_string_ostream os(name);
  value.printAsOperand(os, asmState);
  return name;
}

FailureOr<int> TreeBuilder::bufferFor(OpOperand &use) {
  Value value = use.get();
  auto found = bufferOfValue.find(value);
  if (found != bufferOfValue.end())
    return found->second;
  auto shaped = dyn_cast<ShapedType>(value.getType());
  if (!shaped || !isa<MemRefType, RankedTensorType>(shaped) ||
      !shaped.hasStaticShape())
    return use.getOwner()->emitError()
           << "dynamic shapes are not supported: operand #"
           << use.getOperandNumber() << " of " << use.getOwner()->getName()
           << " has type " << value.getType();
  return createBuffer(value, shaped);
}

int TreeBuilder::createBuffer(Value value, ShapedType type) {
  Buffer buffer;
  buffer.id = tree.buffers.size();
  buffer.name = nameOf(value);
  buffer.shape.assign(type.getShape().begin(), type.getShape().end());
  buffer.elementType = convertElementType(type.getElementType());
  buffer.isTensor = isa<RankedTensorType>(type);
  auto argument = dyn_cast<BlockArgument>(value);
  buffer.isFunctionArgument =
      argument && argument.getOwner() == &func.getBody().front();
  bufferOfValue[value] = buffer.id;
  tree.buffers.push_back(std::move(buffer));
  return tree.buffers.back().id;
}

void TreeBuilder::addEdge(int producer, int consumer, int bufferId,
                          bool viaTensor, bool intoInit) {
  if (producer == consumer)
    return;
  if (!edgeSet.insert({producer, consumer, bufferId}).second) {
    // The same value read as an input and as an init: an init edge.
    for (ProducerConsumerEdge &edge : tree.edges)
      if (edge.producer == producer && edge.consumer == consumer &&
          edge.bufferId == bufferId)
        edge.intoInit |= intoInit;
    return;
  }
  tree.edges.push_back({producer, consumer, bufferId, viaTensor, intoInit});
}

void TreeBuilder::addReadEdges(OpOperand &use, int consumer, int bufferId) {
  if (isa<TensorType>(use.get().getType())) {
    auto producer = producerOfTensor.find(use.get());
    auto dps = dyn_cast<DestinationStyleOpInterface>(use.getOwner());
    bool intoInit = dps && dps.isDpsInit(&use);
    if (producer != producerOfTensor.end()) {
      addEdge(producer->second, consumer, bufferId, /*viaTensor=*/true,
              intoInit);
      return;
    }
    // An input read through windows of a producer's result: a chain of
    // unit-stride, rank-preserving tensor.extract_slice ops.
    if (intoInit)
      return;
    Value source = use.get();
    bool window = false;
    while (auto slice = source.getDefiningOp<tensor::ExtractSliceOp>()) {
      if (slice.getSourceType().getRank() != slice.getResultType().getRank() ||
          !llvm::all_of(slice.getMixedStrides(), [](OpFoldResult stride) {
            return isConstantIntValue(stride, 1);
          }))
        return;
      source = slice.getSource();
      window = true;
    }
    producer = producerOfTensor.find(source);
    if (window && producer != producerOfTensor.end()) {
      addEdge(producer->second, consumer, bufferId, /*viaTensor=*/true);
      tree.edges.back().throughWindows = true;
    }
    return;
  }
  auto writer = lastWriter.find(bufferId);
  if (writer != lastWriter.end())
    addEdge(writer->second, consumer, bufferId, /*viaTensor=*/false);
}

int TreeBuilder::addLoop(std::string name, int parentId, int64_t lowerBound,
                         int64_t extent, int64_t step) {
  Loop loop;
  loop.id = tree.loops.size();
  loop.name = std::move(name);
  loop.lowerBound = lowerBound;
  loop.extent = extent;
  loop.step = step;
  loop.parentId = parentId;
  if (parentId >= 0) {
    loop.depth = tree.loops[parentId].depth + 1;
    tree.loops[parentId].children.push_back({/*isLoop=*/true, loop.id});
  } else {
    tree.rootLoopIds.push_back(loop.id);
  }
  tree.loops.push_back(std::move(loop));
  return tree.loops.back().id;
}

int TreeBuilder::addNest(std::string name, NestSource source, int opIndex) {
  LoopNest nest;
  nest.id = tree.nests.size();
  nest.name = std::move(name);
  nest.source = source;
  nest.opIndex = opIndex;
  tree.nests.push_back(std::move(nest));
  return tree.nests.back().id;
}

LogicalResult TreeBuilder::checkStructure() {
  Operation *funcOp = func.getOperation();
  WalkResult result = func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == funcOp)
      return WalkResult::advance();
    if (isa<linalg::LinalgOp>(op)) {
      if (op->getParentOp() != funcOp) {
        op->emitError() << op->getName() << " nested in "
                        << op->getParentOp()->getName()
                        << " is not supported: the tuner models linalg ops "
                           "and affine.for nests at function level only";
        return WalkResult::interrupt();
      }
      return WalkResult::skip();
    }
    // Affine nests anywhere: opaqueReason decides whether they are modeled.
    // Other loops and conditionals are control flow the tuner leaves as it
    // is, and looks into for affine nests.
    if (isa<affine::AffineForOp>(op))
      return WalkResult::skip();
    if (op->getDialect() && op->getDialect()->getNamespace() == "linalg") {
      op->emitError() << op->getName()
                      << " is not a structured linalg op (LinalgOp) and is "
                         "not supported";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

FailureOr<ProgramTree> TreeBuilder::build() {
  tree.functionName = func.getSymName().str();
  if (failed(checkStructure()))
    return failure();
  // Function arguments first, so that their ids follow argument order.
  for (BlockArgument argument : func.getArguments()) {
    auto shaped = dyn_cast<ShapedType>(argument.getType());
    // Others get a buffer, or an error, where a computation uses them.
    if (shaped && isa<MemRefType, RankedTensorType>(shaped) &&
        shaped.hasStaticShape())
      createBuffer(argument, shaped);
  }
  // Nests in program order; an outermost affine.for under other control
  // flow (scf.for, scf.if) is a nest too, numbered as the transform ops
  // count them (every outermost affine.for, modeled or not).
  int numOpaque = 0;
  WalkResult walked = func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
      return failed(addLinalgNest(linalgOp)) ? WalkResult::interrupt()
                                             : WalkResult::skip();
    auto forOp = dyn_cast<affine::AffineForOp>(op);
    if (!forOp)
      return WalkResult::advance();
    if (std::optional<std::string> why = opaqueReason(forOp)) {
      forOp.emitWarning() << "affine nest nest_" << numAffineNests++
                          << " is left as it is: " << *why;
      ++numOpaque;
      return WalkResult::skip();
    }
    return failed(addAffineNest(forOp)) ? WalkResult::interrupt()
                                        : WalkResult::skip();
  });
  if (walked.wasInterrupted())
    return failure();
  if (numOpaque > 0 && tree.nests.empty())
    return func.emitError() << "function @" << func.getSymName()
                            << " has no loop nest the tuner can transform: "
                               "its "
                            << numOpaque
                            << " affine nest(s) are left as they are (see "
                               "the warnings)";
  markFunctionResults();
  std::string problem = tree.verify();
  if (!problem.empty())
    return func.emitError() << "internal error: inconsistent program tree of @"
                            << tree.functionName << ": " << problem;
  return std::move(tree);
}

void TreeBuilder::markFunctionResults() {
  std::vector<bool> written(tree.buffers.size(), false);
  for (const Computation &comp : tree.computations)
    for (const Access &access : comp.accesses)
      if (access.isWrite)
        written[access.bufferId] = true;
  func.walk([&](func::ReturnOp ret) {
    for (Value value : ret.getOperands()) {
      auto found = bufferOfValue.find(value);
      if (found != bufferOfValue.end() && written[found->second])
        tree.buffers[found->second].isFunctionResult = true;
    }
  });
}

//===----------------------------------------------------------------------===//
// Linalg
//===----------------------------------------------------------------------===//

/// The access of `bufferId` through indexing map `map`: one row per result
/// of the map, one column per loop plus the constant column.
static Access linalgAccess(int bufferId, bool isWrite, AffineMap map) {
  Access access;
  access.bufferId = bufferId;
  access.isWrite = isWrite;
  unsigned numLoops = map.getNumDims();
  for (AffineExpr expr : map.getResults()) {
    std::optional<SmallVector<int64_t>> coefficients =
        linearize(expr, numLoops, map.getNumSymbols());
    std::vector<int64_t> row(numLoops + 1, 0);
    // Symbols of an indexing map have no operand: not a function of loops.
    if (!coefficients ||
        llvm::any_of(
            ArrayRef(*coefficients).slice(numLoops, map.getNumSymbols()),
            [](int64_t c) { return c != 0; })) {
      access.isAffine = false;
    } else {
      std::copy_n(coefficients->begin(), numLoops, row.begin());
      row.back() = coefficients->back();
    }
    access.matrix.push_back(std::move(row));
  }
  return access;
}

LogicalResult TreeBuilder::addLinalgNest(linalg::LinalgOp op) {
  int opIndex = numLinalgOps++;
  std::string name =
      llvm::formatv("{0}_{1}", op->getName().stripDialect(), opIndex).str();

  // Check every shape first, so that the error names the operand.
  for (OpOperand &operand : op->getOpOperands()) {
    auto shaped = dyn_cast<ShapedType>(operand.get().getType());
    if (shaped && !shaped.hasStaticShape())
      return op->emitError() << "dynamic shapes are not supported: operand #"
                             << operand.getOperandNumber() << " of "
                             << op->getName() << " has type " << shaped;
  }
  // Static operand shapes give static loop ranges: the verifier of linalg
  // ops checks that the loops are a function of the operand dimensions.
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();

  int nestId = addNest(name, NestSource::Linalg, opIndex);
  Computation comp;
  comp.id = tree.computations.size();
  comp.name = name;
  comp.opName = op->getName().getStringRef().str();
  comp.nestId = nestId;

  int parentId = -1;
  for (auto [dim, range] : llvm::enumerate(ranges)) {
    parentId = addLoop(llvm::formatv("{0}.d{1}", name, dim).str(), parentId,
                       /*lowerBound=*/0, range, /*step=*/1);
    tree.loops[parentId].isReduction =
        iterators[dim] == utils::IteratorType::reduction;
    tree.loops[parentId].isParallel =
        iterators[dim] == utils::IteratorType::parallel;
    comp.loopIds.push_back(parentId);
  }

  for (OpOperand *input : op.getDpsInputOperands()) {
    if (!isa<ShapedType>(input->get().getType()))
      continue; // A scalar, e.g. the value of linalg.fill.
    FailureOr<int> bufferId = bufferFor(*input);
    if (failed(bufferId))
      return failure();
    comp.accesses.push_back(linalgAccess(*bufferId, /*isWrite=*/false,
                                         op.getMatchingIndexingMap(input)));
    addReadEdges(*input, comp.id, *bufferId);
  }
  for (OpOperand &init : op.getDpsInitsMutable()) {
    FailureOr<int> bufferId = bufferFor(init);
    if (failed(bufferId))
      return failure();
    AffineMap map = op.getMatchingIndexingMap(&init);
    bool readsInit = op.payloadUsesValueFromOperand(&init);
    if (readsInit)
      comp.accesses.push_back(linalgAccess(*bufferId, /*isWrite=*/false, map));
    // A tensor init flows into the op even when its value is not read: a
    // producer of the init can be fused.
    if (readsInit || isa<TensorType>(init.get().getType()))
      addReadEdges(init, comp.id, *bufferId);
    comp.accesses.push_back(linalgAccess(*bufferId, /*isWrite=*/true, map));
    if (comp.writtenBufferId < 0) {
      comp.writtenBufferId = *bufferId;
      comp.writtenShape = tree.buffers[*bufferId].shape;
      comp.elementType = tree.buffers[*bufferId].elementType;
    }
  }
  // Named ops carry their payload too.
  if (Block *body = op.getBlock())
    for (Operation &payloadOp : *body)
      payloadOp.walk(
          [&](Operation *nested) { countOp(nested, comp.opCounts); });

  // Results continue the buffer of their init (destination-passing style).
  for (auto [result, init] :
       llvm::zip_equal(op->getResults(), op.getDpsInitsMutable())) {
    bufferOfValue[result] = bufferOfValue.lookup(init.get());
    producerOfTensor[result] = comp.id;
  }
  for (const Access &access : comp.accesses)
    if (access.isWrite && !tree.buffers[access.bufferId].isTensor)
      lastWriter[access.bufferId] = comp.id;

  LoopNest &nest = tree.nests[nestId];
  nest.rootLoopId = comp.loopIds.empty() ? -1 : comp.loopIds.front();
  nest.computationIds.push_back(comp.id);
  nest.isPerfect = true;
  nest.outerLoopParallel =
      !iterators.empty() && iterators.front() == utils::IteratorType::parallel;
  if (parentId >= 0)
    tree.loops[parentId].children.push_back({/*isLoop=*/false, comp.id});
  tree.computations.push_back(std::move(comp));
  return success();
}

//===----------------------------------------------------------------------===//
// Affine
//===----------------------------------------------------------------------===//

LogicalResult TreeBuilder::addAffineNest(affine::AffineForOp root) {
  int opIndex = numAffineNests++;
  std::string name = llvm::formatv("nest_{0}", opIndex).str();

  WalkResult unsupported = root->walk([&](Operation *op) {
    if (isAllowedInAffineNest(op))
      return WalkResult::advance();
    op->emitError() << op->getName() << " inside affine nest " << name
                    << " is not supported: affine nests may hold only "
                       "affine.for, affine.if, affine.load, affine.store, "
                       "affine.apply, affine.min, affine.max, arith and math "
                       "ops";
    return WalkResult::interrupt();
  });
  if (unsupported.wasInterrupted())
    return failure();

  AffineNestState state;
  state.root = root;
  state.nestId = addNest(name, NestSource::Affine, opIndex);
  root->walk<WalkOrder::PreOrder>(
      [&](Operation *op) { state.position[op] = state.position.size(); });
  tree.nests[state.nestId].rootLoopId = tree.loops.size();
  if (failed(addAffineLoop(root, /*parentId=*/-1, state)))
    return failure();
  markAffineReductions(tree.nests[state.nestId], state.forOps);
  addLegalOrders(tree.nests[state.nestId], root, state.forOps.size());
  addSkewBand(tree.nests[state.nestId], root);
  return success();
}

LogicalResult TreeBuilder::addAffineLoop(affine::AffineForOp forOp,
                                         int parentId, AffineNestState &state) {
  const std::string &nestName = tree.nests[state.nestId].name;
  if (!forOp.hasConstantBounds())
    return forOp.emitError() << "non-constant loop bounds are not supported: "
                                "the bounds of every affine.for in nest "
                             << nestName << " must be constants";
  int64_t lb = forOp.getConstantLowerBound();
  int64_t ub = forOp.getConstantUpperBound();
  int64_t step = forOp.getStepAsInt();
  int64_t extent = ub > lb ? llvm::divideCeil(ub - lb, step) : 0;
  // Loops are numbered in pre-order within the nest.
  int loopId =
      addLoop(llvm::formatv("{0}.d{1}", nestName, state.forOps.size()).str(),
              parentId, lb, extent, step);
  loopOfInductionVar[forOp.getInductionVar()] = loopId;
  state.forOps.push_back(forOp);
  state.enclosing.push_back(loopId);
  LogicalResult result = addAffineBody(*forOp.getBody(), loopId, state);
  state.enclosing.pop_back();
  return result;
}

LogicalResult TreeBuilder::addAffineBody(Block &block, int loopId,
                                         AffineNestState &state) {
  for (Operation &op : block) {
    if (auto forOp = dyn_cast<affine::AffineForOp>(op)) {
      if (failed(addAffineLoop(forOp, loopId, state)))
        return failure();
    } else if (auto ifOp = dyn_cast<affine::AffineIfOp>(op)) {
      // Conditions do not change the loop structure: the statements under
      // either branch belong to the enclosing loop.
      for (Region &region : ifOp->getRegions())
        for (Block &branch : region)
          if (failed(addAffineBody(branch, loopId, state)))
            return failure();
    } else if (auto store = dyn_cast<affine::AffineStoreOp>(op)) {
      if (failed(addAffineStatement(store, loopId, state)))
        return failure();
    }
  }
  return success();
}

FailureOr<Access> TreeBuilder::affineAccess(Operation *op,
                                            const std::vector<int> &enclosing) {
  affine::MemRefAccess memrefAccess(op);
  unsigned memrefIndex =
      isa<affine::AffineLoadOp>(op)
          ? cast<affine::AffineLoadOp>(op).getMemRefOperandIndex()
          : cast<affine::AffineStoreOp>(op).getMemRefOperandIndex();
  FailureOr<int> bufferId = bufferFor(op->getOpOperand(memrefIndex));
  if (failed(bufferId))
    return failure();

  Access access;
  access.bufferId = *bufferId;
  access.isWrite = isa<affine::AffineWriteOpInterface>(op);
  DenseMap<int, size_t> columnOfLoop;
  for (auto [column, loopId] : llvm::enumerate(enclosing))
    columnOfLoop[loopId] = column;

  affine::AffineValueMap valueMap;
  memrefAccess.getAccessMap(&valueMap);
  AffineMap map = valueMap.getAffineMap();
  for (AffineExpr expr : map.getResults()) {
    std::vector<int64_t> row(enclosing.size() + 1, 0);
    std::optional<SmallVector<int64_t>> coefficients =
        linearize(expr, map.getNumDims(), map.getNumSymbols());
    bool affine = coefficients.has_value();
    if (affine) {
      row.back() = coefficients->back();
      for (unsigned input = 0, e = map.getNumInputs(); input < e; ++input) {
        int64_t coefficient = (*coefficients)[input];
        if (coefficient == 0)
          continue;
        Value operand = valueMap.getOperand(input);
        auto loop = loopOfInductionVar.find(operand);
        auto column = loop == loopOfInductionVar.end()
                          ? columnOfLoop.end()
                          : columnOfLoop.find(loop->second);
        if (column != columnOfLoop.end()) {
          row[column->second] += coefficient;
        } else if (std::optional<int64_t> constant =
                       getConstantIntValue(operand)) {
          row.back() += coefficient * *constant;
        } else {
          // Neither an enclosing induction variable nor a constant.
          affine = false;
          break;
        }
      }
    }
    if (!affine) {
      access.isAffine = false;
      std::fill(row.begin(), row.end(), 0);
    }
    access.matrix.push_back(std::move(row));
  }
  return access;
}

LogicalResult TreeBuilder::addAffineStatement(affine::AffineStoreOp store,
                                              int loopId,
                                              AffineNestState &state) {
  LoopNest &nest = tree.nests[state.nestId];
  affine::AffineForOp root = state.root;
  const std::vector<int> &enclosing = state.enclosing;
  Computation comp;
  comp.id = tree.computations.size();
  comp.name =
      llvm::formatv("{0}.s{1}", nest.name, nest.computationIds.size()).str();
  comp.opName = store->getName().getStringRef().str();
  comp.loopIds = enclosing;
  comp.nestId = nest.id;

  // The statement: the loads and arithmetic the stored value is computed
  // from, within the nest (the indices of loads are not followed).
  SmallVector<Operation *> loads;
  DenseSet<Operation *> visited;
  SmallVector<Value> worklist{store.getValueToStore()};
  auto visitNested = [&](Operation *op) {
    op->walk([&](Operation *nested) {
      if (nested == op || !visited.insert(nested).second)
        return;
      if (isa<affine::AffineReadOpInterface>(nested)) {
        loads.push_back(nested);
        return;
      }
      countOp(nested, comp.opCounts);
      llvm::append_range(worklist, nested->getOperands());
    });
  };
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    Operation *def = value.getDefiningOp();
    if (!def || !root->isProperAncestor(def) || !visited.insert(def).second)
      continue;
    if (isa<affine::AffineReadOpInterface>(def)) {
      loads.push_back(def);
      continue;
    }
    countOp(def, comp.opCounts);
    if (def->getNumRegions() != 0)
      visitNested(def);
    llvm::append_range(worklist, def->getOperands());
  }
  // Accesses in program order.
  llvm::sort(loads, [&](Operation *a, Operation *b) {
    return state.position.lookup(a) < state.position.lookup(b);
  });

  for (Operation *load : loads) {
    FailureOr<Access> access = affineAccess(load, enclosing);
    if (failed(access))
      return failure();
    auto writer = lastWriter.find(access->bufferId);
    if (writer != lastWriter.end())
      addEdge(writer->second, comp.id, access->bufferId, /*viaTensor=*/false);
    comp.accesses.push_back(std::move(*access));
  }
  FailureOr<Access> write = affineAccess(store, enclosing);
  if (failed(write))
    return failure();
  comp.writtenBufferId = write->bufferId;
  comp.writtenShape = tree.buffers[write->bufferId].shape;
  comp.elementType = tree.buffers[write->bufferId].elementType;
  comp.accesses.push_back(std::move(*write));
  lastWriter[comp.writtenBufferId] = comp.id;

  nest.computationIds.push_back(comp.id);
  tree.loops[loopId].children.push_back({/*isLoop=*/false, comp.id});
  tree.computations.push_back(std::move(comp));
  return success();
}

void TreeBuilder::markAffineReductions(const LoopNest &nest,
                                       ArrayRef<affine::AffineForOp> forOps) {
  // A loop reduces when every statement under it writes a location that does
  // not depend on the loop and reads that very location (accumulation); a
  // loop carrying values in iter_args reduces them. A loop is parallel when
  // it carries no dependence; a reduction loop is never called parallel.
  for (affine::AffineForOp forOp : forOps) {
    int loopId = loopOfInductionVar.lookup(forOp.getInductionVar());
    bool any = false, all = true;
    for (int compId : nest.computationIds) {
      const Computation &comp = tree.computations[compId];
      auto column = llvm::find(comp.loopIds, loopId);
      if (column == comp.loopIds.end())
        continue;
      size_t index = column - comp.loopIds.begin();
      any = true;
      const Access &write = comp.accesses.back();
      bool independent =
          write.isAffine && llvm::all_of(write.matrix, [&](const auto &row) {
            return row[index] == 0;
          });
      bool accumulates = llvm::any_of(comp.accesses, [&](const Access &read) {
        return !read.isWrite && read.isAffine &&
               read.bufferId == write.bufferId && read.matrix == write.matrix;
      });
      all = all && independent && accumulates;
    }
    tree.loops[loopId].isReduction =
        (any && all) || forOp.getNumIterOperands() != 0;
    tree.loops[loopId].isParallel =
        !tree.loops[loopId].isReduction && affine::isLoopParallel(forOp);
  }
}

void TreeBuilder::addSkewBand(LoopNest &nest, affine::AffineForOp root) {
  // A band that is not fully permutable is skewed as it is; a band whose
  // innermost loop holds several loop nests (sweeps under a time loop) gets
  // their outermost loops fused into it first. Either way, the band must
  // then become fully permutable, with at least two loops.
  SmallVector<affine::AffineForOp> chain;
  affine::getPerfectlyNestedLoops(chain, root);
  if (chain.size() > kMaxEnumeratedBandDepth)
    return;
  unsigned depth = chain.size();
  unsigned fusedDepth = 0;
  Block *innermost = chain.back().getBody();
  size_t nested = llvm::count_if(innermost->without_terminator(), [](auto &op) {
    return isa<affine::AffineForOp>(op);
  });
  if (nested >= 2)
    fusedDepth = 1;
  else if (nest.fullyPermutable || depth < 2)
    return;
  std::string why;
  FailureOr<AffineBand> band = getAffineBand(root, depth, fusedDepth, why);
  if (failed(band))
    return;
  // The transform ops skew and fuse loops of step 1 without iteration
  // arguments (bounds are constant in every affine nest the tree holds).
  auto isUnitLoop = [](affine::AffineForOp loop) {
    return loop.getStepAsInt() == 1 && loop.getNumIterOperands() == 0;
  };
  if (!llvm::all_of(band->loops, isUnitLoop) ||
      !llvm::all_of(band->siblings, isUnitLoop) ||
      failed(planTimeTiling(*band, why)))
    return;
  for (affine::AffineForOp loop : band->loops)
    nest.skewBand.push_back(loopOfInductionVar.lookup(loop.getInductionVar()));
  if (fusedDepth > 0)
    nest.skewBand.push_back(
        loopOfInductionVar.lookup(band->siblings.front().getInductionVar()));
}

void TreeBuilder::addLegalOrders(LoopNest &nest, affine::AffineForOp root,
                                 size_t numLoops) {
  SmallVector<affine::AffineForOp> band;
  affine::getPerfectlyNestedLoops(band, root);
  size_t depth = band.size();
  nest.isPerfect = depth == numLoops;
  nest.outerLoopParallel = tree.loops[nest.rootLoopId].isParallel;

  std::vector<int64_t> order(depth);
  std::iota(order.begin(), order.end(), 0);
  if (depth > kMaxEnumeratedBandDepth) {
    root.emitWarning() << "the band of " << depth << " loops of nest "
                       << nest.name << " is deeper than "
                       << kMaxEnumeratedBandDepth
                       << ": only its original loop order is kept";
    nest.legalOrders.push_back(order);
    nest.fullyPermutable = false;
    return;
  }
  // Dependences once for the band, then every permutation against them,
  // with the test transform.tuner.affine_interchange applies.
  BandOrderLegality legality(band);
  nest.fullyPermutable = legality.isFullyPermutable();
  do {
    if (legality.isLegal(order))
      nest.legalOrders.push_back(order);
  } while (std::next_permutation(order.begin(), order.end()));
}

//===----------------------------------------------------------------------===//
// Public entry points
//===----------------------------------------------------------------------===//

FailureOr<ProgramTree> tuner::buildProgramTree(func::FuncOp func) {
  if (func.isExternal())
    return func.emitError()
           << "function @" << func.getSymName() << " has no body to analyze";
  return TreeBuilder(func).build();
}

Operation *tuner::findNestOp(func::FuncOp func, const LoopNest &nest) {
  Operation *found = nullptr;
  int count = 0;
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    bool matches = nest.source == NestSource::Linalg
                       ? isa<linalg::LinalgOp>(op)
                       : isa<affine::AffineForOp>(op);
    if (!matches)
      return WalkResult::advance();
    if (count++ == nest.opIndex) {
      found = op;
      return WalkResult::interrupt();
    }
    // Nested affine.for ops are not outermost; linalg ops hold no others.
    return WalkResult::skip();
  });
  return found;
}
