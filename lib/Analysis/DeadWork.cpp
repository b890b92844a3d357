//===- DeadWork.cpp - Loop nests whose work nothing observes --------------===//
//
// A liveness fixpoint over the ops of the function's body: an op is live
// when it returns, when its memory effects are unknown, when it writes
// memory the caller can see, when a live op uses one of its results, or when
// a live op reads a local buffer it writes. Nested ops count as their
// top-level ancestor.
//
//===----------------------------------------------------------------------===//

#include "tuner/Analysis/DeadWork.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace tuner;

namespace {

/// What one top-level op does to memory, its nested ops included.
struct OpSummary {
  /// Effects the analysis cannot follow: the op is live.
  bool unknown = false;
  /// Roots of the buffers written and read, defined outside the op.
  llvm::SmallSetVector<Value, 4> writes, reads;
};

class DeadWorkAnalysis {
public:
  explicit DeadWorkAnalysis(func::FuncOp func) : func(func) {}

  std::vector<DeadNest> run();

private:
  mutable func::FuncOp func;
  llvm::DenseMap<Operation *, OpSummary> summaries;
  llvm::DenseSet<Operation *> live;
  /// Local buffers (memref.alloc / alloca in the body) whose address leaves
  /// what the analysis follows.
  llvm::DenseSet<Value> escaped;

  /// The buffer a memref value is a view of.
  static Value rootOf(Value value) {
    while (Operation *def = value.getDefiningOp()) {
      auto view = dyn_cast<ViewLikeOpInterface>(def);
      if (!view || view.getViewSource() == value)
        break;
      value = view.getViewSource();
    }
    return value;
  }
  /// The op of the function's body that holds `op` (null when none).
  Operation *topLevel(Operation *op) const {
    Block *body = &func.getBody().front();
    while (op && op->getBlock() != body)
      op = op->getParentOp();
    return op;
  }
  /// Whether `root` is a buffer the function allocates itself.
  bool isLocalBuffer(Value root) const {
    Operation *def = root.getDefiningOp();
    if (!def || def->getBlock() != &func.getBody().front())
      return false;
    auto effects = dyn_cast<MemoryEffectOpInterface>(def);
    return effects &&
           effects.getEffectOnValue<MemoryEffects::Allocate>(root).has_value();
  }
  /// Whether writes to `root` are seen by the caller.
  bool isObservable(Value root) const {
    return !isLocalBuffer(root) || escaped.contains(root);
  }
  OpSummary summarize(Operation *op) const;
  void findEscapes();
};

} // namespace

OpSummary DeadWorkAnalysis::summarize(Operation *op) const {
  OpSummary summary;
  if (op->hasTrait<OpTrait::IsTerminator>()) {
    summary.unknown = true;
    return summary;
  }
  std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
      getEffectsRecursively(op);
  if (!effects) {
    summary.unknown = true;
    return summary;
  }
  auto definedInside = [&](Value value) {
    Operation *scope = value.getParentRegion()->getParentOp();
    return scope != func.getOperation() && op->isAncestor(scope);
  };
  for (const MemoryEffects::EffectInstance &effect : *effects) {
    bool isWrite = isa<MemoryEffects::Write>(effect.getEffect());
    bool isRead = isa<MemoryEffects::Read>(effect.getEffect());
    if (!isWrite && !isRead)
      continue;
    Value value = effect.getValue();
    if (!value) {
      // A write to memory the effect does not name may be anything the
      // caller sees; a read of it may be of any buffer the op touches.
      if (isWrite)
        summary.unknown = true;
      else
        op->walk([&](Operation *nested) {
          for (Value operand : nested->getOperands())
            if (isa<BaseMemRefType>(operand.getType()) &&
                !definedInside(operand))
              summary.reads.insert(rootOf(operand));
        });
      continue;
    }
    Value root = rootOf(value);
    if (definedInside(root))
      continue;
    (isWrite ? summary.writes : summary.reads).insert(root);
  }
  return summary;
}

void DeadWorkAnalysis::findEscapes() {
  for (Operation &op : func.getBody().front()) {
    if (op.getNumResults() != 1 || !isLocalBuffer(op.getResult(0)))
      continue;
    Value buffer = op.getResult(0);
    // Every use of the buffer or of a view of it must be an op whose own
    // effects name it, inside a top-level op the analysis follows.
    SmallVector<Value> worklist{buffer};
    while (!worklist.empty() && !escaped.contains(buffer)) {
      Value value = worklist.pop_back_val();
      for (OpOperand &use : value.getUses()) {
        Operation *user = use.getOwner();
        if (auto view = dyn_cast<ViewLikeOpInterface>(user);
            view && view.getViewSource() == value) {
          for (Value result : user->getResults())
            if (isa<BaseMemRefType>(result.getType()))
              worklist.push_back(result);
          continue;
        }
        auto effects = dyn_cast<MemoryEffectOpInterface>(user);
        bool named = false;
        if (effects) {
          SmallVector<MemoryEffects::EffectInstance> list;
          effects.getEffectsOnValue(value, list);
          named = !list.empty();
        }
        if (!named || summaries.lookup(topLevel(user)).unknown) {
          escaped.insert(buffer);
          break;
        }
      }
    }
  }
}

std::vector<DeadNest> DeadWorkAnalysis::run() {
  if (!func.getBody().hasOneBlock())
    return {};
  Block &body = func.getBody().front();
  for (Operation &op : body)
    summaries[&op] = summarize(&op);
  findEscapes();

  // Seeds: ops that return, that the analysis cannot follow, or that write
  // what the caller sees.
  for (Operation &op : body) {
    const OpSummary &summary = summaries[&op];
    if (summary.unknown || llvm::any_of(summary.writes, [&](Value root) {
          return isObservable(root);
        }))
      live.insert(&op);
  }
  // Then what live ops use, until nothing changes.
  bool changed = true;
  while (changed) {
    changed = false;
    for (Operation &op : body) {
      if (live.contains(&op))
        continue;
      bool used = llvm::any_of(op.getUsers(), [&](Operation *user) {
        return live.contains(topLevel(user));
      });
      bool read = !used && llvm::any_of(summaries[&op].writes, [&](Value root) {
        return llvm::any_of(body, [&](Operation &reader) {
          return &reader != &op && live.contains(&reader) &&
                 summaries[&reader].reads.contains(root);
        });
      });
      if (used || read) {
        live.insert(&op);
        changed = true;
      }
    }
  }

  std::vector<DeadNest> dead;
  for (Operation &op : body) {
    if (live.contains(&op) || !isa<linalg::LinalgOp, affine::AffineForOp>(op))
      continue;
    std::string reason;
    if (op.getNumResults() && op.use_empty())
      reason = "the result of this op is not used";
    else if (op.getNumResults())
      reason = "the result of this op is used only by work that is dead "
               "itself";
    else if (!summaries[&op].writes.empty())
      reason = "this op writes only buffers the function allocates itself "
               "and that nothing it returns or writes to its arguments "
               "reads";
    else
      reason = "this op neither returns a value nor writes memory";
    dead.push_back({&op, std::move(reason)});
  }
  return dead;
}

std::vector<DeadNest> tuner::findDeadNests(func::FuncOp func) {
  return DeadWorkAnalysis(func).run();
}
