//===- AffineDependences.cpp - Dependence distances of affine bands -------===//

#include "tuner/Analysis/AffineDependences.h"

#include "mlir/Dialect/Affine/Analysis/AffineAnalysis.h"
#include "mlir/Dialect/Affine/Analysis/AffineStructures.h"
#include "mlir/Dialect/Affine/Analysis/Utils.h"
#include "mlir/Dialect/Affine/LoopUtils.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace tuner;

FailureOr<AffineBand> tuner::getAffineBand(affine::AffineForOp root,
                                           unsigned depth, unsigned fusedDepth,
                                           std::string &why) {
  AffineBand band;
  SmallVector<affine::AffineForOp> nest;
  affine::getPerfectlyNestedLoops(nest, root);
  if (nest.size() < depth) {
    why = llvm::formatv("expected a perfect band of at least {0} loops, "
                        "found {1}",
                        depth, nest.size());
    return failure();
  }
  band.loops.assign(nest.begin(), nest.begin() + depth);
  band.fusedDepth = fusedDepth;
  if (fusedDepth == 0 || depth == 0)
    return band;
  for (Operation &op : band.loops.back().getBody()->without_terminator()) {
    auto sibling = dyn_cast<affine::AffineForOp>(op);
    if (!sibling) {
      why = llvm::formatv("the innermost band loop holds '{0}' besides loop "
                          "nests: only loop nests can be fused",
                          op.getName().getStringRef());
      return failure();
    }
    SmallVector<affine::AffineForOp> chain;
    affine::getPerfectlyNestedLoops(chain, sibling);
    if (chain.size() < fusedDepth) {
      why = llvm::formatv("a sibling nest has {0} perfectly nested loops, "
                          "fewer than the {1} to fuse",
                          chain.size(), fusedDepth);
      return failure();
    }
    band.siblings.push_back(sibling);
  }
  if (band.siblings.empty()) {
    why = "the innermost band loop holds no loop nest to fuse";
    return failure();
  }
  return band;
}

namespace {
/// An access and where its band loops are among its enclosing loop
/// variables (the dims of the dependence analysis' polyhedra).
struct Access {
  Operation *op;
  unsigned statement = 0;
  unsigned numDims = 0;
  SmallVector<unsigned> bandColumns;
};
} // namespace

/// The loop variables enclosing `op` (affine.for and affine.parallel, in
/// the order the dependence analysis numbers them) and the position of each
/// affine.for among them.
static unsigned enclosingDims(Operation *op,
                              DenseMap<Operation *, unsigned> &positions) {
  SmallVector<Operation *> enclosing;
  affine::getEnclosingAffineOps(*op, &enclosing);
  unsigned dims = 0;
  for (Operation *parent : enclosing) {
    if (isa<affine::AffineForOp>(parent))
      positions[parent] = dims++;
    else if (auto parallel = dyn_cast<affine::AffineParallelOp>(parent))
      dims += parallel.getNumDims();
  }
  return dims;
}

FailureOr<std::vector<BandDependence>>
tuner::getBandDependences(const AffineBand &band, std::string &why) {
  if (band.loops.empty()) {
    why = "the band has no loop";
    return failure();
  }
  Operation *root = band.loops.front();
  // Loop variables outside the band: dependences they carry are left out.
  DenseMap<Operation *, unsigned> rootPositions;
  unsigned outside = enclosingDims(root, rootPositions);

  std::vector<Access> accesses;
  WalkResult walk = root->walk([&](Operation *op) {
    if (!isa<affine::AffineReadOpInterface, affine::AffineWriteOpInterface>(op))
      return WalkResult::advance();
    Access access;
    access.op = op;
    DenseMap<Operation *, unsigned> positions;
    access.numDims = enclosingDims(op, positions);
    for (affine::AffineForOp loop : band.loops)
      access.bandColumns.push_back(positions.lookup(loop));
    if (band.fusedDepth > 0) {
      auto sibling = llvm::find_if(band.siblings, [&](affine::AffineForOp s) {
        return s->isAncestor(op);
      });
      if (sibling == band.siblings.end()) {
        why = "an access of the band lies outside every sibling nest";
        return WalkResult::interrupt();
      }
      access.statement = sibling - band.siblings.begin();
      SmallVector<affine::AffineForOp> chain;
      affine::getPerfectlyNestedLoops(chain, *sibling);
      for (unsigned d = 0; d < band.fusedDepth; ++d)
        access.bandColumns.push_back(positions.lookup(chain[d]));
    }
    accesses.push_back(std::move(access));
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();

  size_t depth = band.depth();
  std::vector<BandDependence> dependences;
  for (const Access &source : accesses) {
    affine::MemRefAccess sourceAccess(source.op);
    for (const Access &target : accesses) {
      affine::MemRefAccess targetAccess(target.op);
      if (sourceAccess.memref != targetAccess.memref ||
          (!sourceAccess.isStore() && !targetAccess.isStore()))
        continue;
      unsigned common =
          affine::getNumCommonSurroundingLoops(*source.op, *target.op);
      for (unsigned d = outside + 1; d <= common + 1; ++d) {
        affine::FlatAffineValueConstraints polyhedron;
        affine::DependenceResult result = affine::checkMemrefAccessDependence(
            sourceAccess, targetAccess, d, &polyhedron,
            /*dependenceComponents=*/nullptr);
        if (result.value == affine::DependenceResult::Failure) {
          why = "the affine dependence analysis cannot decide whether two "
                "accesses of the band conflict";
          return failure();
        }
        if (!affine::hasDependence(result))
          continue;
        if (polyhedron.getNumDimVars() != source.numDims + target.numDims) {
          why = llvm::formatv(
                    "the dependence polyhedron has {0} variables where the "
                    "loops are {1} + {2} (a guard on a value that is not a "
                    "loop variable?)",
                    polyhedron.getNumDimVars(), source.numDims, target.numDims)
                    .str();
          return failure();
        }
        // One variable per band loop: target iteration minus source
        // iteration; everything else projected out (as the affine
        // analysis computes its direction vectors).
        unsigned numOthers = polyhedron.getNumVars();
        polyhedron.insertDimVar(/*pos=*/0, /*num=*/depth);
        for (size_t k = 0; k < depth; ++k) {
          SmallVector<int64_t> equality(polyhedron.getNumCols(), 0);
          equality[k] = 1;
          equality[depth + source.bandColumns[k]] += 1;
          equality[depth + source.numDims + target.bandColumns[k]] -= 1;
          polyhedron.addEquality(equality);
        }
        polyhedron.projectOut(depth, numOthers);
        BandDependence dependence;
        dependence.source = source.statement;
        dependence.target = target.statement;
        for (size_t k = 0; k < depth; ++k)
          dependence.distance.push_back(
              {polyhedron.getConstantBound64(presburger::BoundType::LB, k),
               polyhedron.getConstantBound64(presburger::BoundType::UB, k)});
        dependences.push_back(std::move(dependence));
      }
    }
  }
  return dependences;
}

FailureOr<TimeTiling> tuner::planTimeTiling(const AffineBand &band,
                                            std::string &why) {
  FailureOr<std::vector<BandDependence>> dependences =
      getBandDependences(band, why);
  if (failed(dependences))
    return failure();
  TimeTiling plan;
  std::vector<BandDependence> fused = *dependences;
  if (band.fusedDepth > 0) {
    llvm::Expected<std::vector<std::vector<int64_t>>> shifts =
        computeFusionShifts(*dependences, band.siblings.size(),
                            band.loops.size(), band.depth());
    if (!shifts) {
      why = llvm::toString(shifts.takeError());
      return failure();
    }
    plan.shifts = std::move(*shifts);
    fused = shiftDependences(*dependences, plan.shifts, band.loops.size());
  }
  llvm::Expected<SkewMatrix> skew = computeSkew(fused, band.depth());
  if (!skew) {
    why = llvm::toString(skew.takeError());
    return failure();
  }
  plan.skew = std::move(*skew);
  return plan;
}

BandOrderLegality::BandOrderLegality(ArrayRef<affine::AffineForOp> band)
    : depth(band.size()) {
  hasIterArgs = llvm::any_of(band, [](affine::AffineForOp loop) {
    return loop.getNumIterOperands() != 0;
  });
  if (band.empty())
    return;
  std::vector<SmallVector<affine::DependenceComponent, 2>> dependences;
  affine::getDependenceComponents(band.front(), depth, &dependences);
  for (const SmallVector<affine::DependenceComponent, 2> &components :
       dependences) {
    std::vector<std::optional<int64_t>> bounds;
    for (const affine::DependenceComponent &c : components)
      bounds.push_back(c.lb);
    lowerBounds.push_back(std::move(bounds));
  }
  fullyPermutable =
      !hasIterArgs && llvm::all_of(lowerBounds, [&](const auto &bounds) {
        return bounds.size() >= depth &&
               llvm::all_of(bounds, [](const std::optional<int64_t> &lb) {
                 return lb && *lb >= 0;
               });
      });
}

bool BandOrderLegality::isLegal(ArrayRef<int64_t> order) const {
  bool identity = true;
  for (auto [position, loop] : llvm::enumerate(order))
    identity = identity && int64_t(position) == loop;
  if (identity)
    return true;
  if (hasIterArgs || order.size() != depth)
    return false;
  return llvm::all_of(lowerBounds, [&](const auto &bounds) {
    if (bounds.size() < depth)
      return false;
    for (int64_t loop : order) {
      const std::optional<int64_t> &lb = bounds[loop];
      if (!lb || *lb < 0)
        return false;
      if (*lb > 0)
        return true;
    }
    return true;
  });
}
