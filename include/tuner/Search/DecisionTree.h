//===- DecisionTree.h - Schedules as a tree of decisions --------*- C++ -*-===//
//
// The search tree of the Tiramisu paper (Figure 3): a schedule is built one
// decision at a time — fusion, then loop order, then tiling, then register
// tiling, then unrolling, then vectorization and parallelization — and every
// node is a partial schedule whose undecided parameters keep their defaults
// (which leave the program as it is). Every node is thus a complete, valid
// config that a cost model can score or a harness can measure; its children
// are the feasible values of the next decision.
//
// The tree is built from a Space alone, through the parameters' typed roles
// and nests (ParamRole, see tuner/Space/SpaceBuilder.h); parameters without
// a schedule role (None, Knob, Alternatives) are decided last, one decision
// each. Parameters that are only feasible together are decided together:
// skewing with the tile sizes, how a convolution is computed (conv) with
// the vectorization of its nest, and a fusion that the untransformed
// consumer cannot take (it needs the consumer's tile loops or scf.forall)
// with the consumer's vectorization and parallelization.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_SEARCH_DECISIONTREE_H
#define TUNER_SEARCH_DECISIONTREE_H

#include "tuner/Space/Space.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace tuner {

struct DecisionTreeOptions {
  /// At most this many values per tile parameter are offered: cache tiles
  /// of at least 8, register tiles of at most 16, evenly thinned over the
  /// domain, always including "not tiled".
  unsigned tileValues = 6;
  /// At most this many children per decision; larger products of per-loop
  /// values are thinned evenly.
  unsigned maxChildren = 256;
};

/// One decision: parameters decided together, and the value combinations
/// offered for them (each combination holds one value per parameter).
struct Decision {
  std::string name; ///< e.g. "matmul_1 tiling", "fuse.fill_0.matmul_1".
  std::vector<size_t> parameters;
  std::vector<std::vector<ParamValue>> choices;
};

class DecisionTree {
public:
  static llvm::Expected<DecisionTree>
  build(const Space &space, const DecisionTreeOptions &options = {});

  const Space &getSpace() const { return *space; }
  size_t depth() const { return decisions.size(); }
  const Decision &getDecision(size_t level) const { return decisions[level]; }

  /// The root: every parameter at its default (the untransformed program).
  Config root() const { return space->defaultConfig(); }
  /// The feasible children of `node` (a config decided up to `level`):
  /// `node` with decision `level` set to each of its choices, keeping only
  /// configs that satisfy every constraint.
  std::vector<Config> children(const Config &node, size_t level) const;

private:
  std::shared_ptr<const Space> space;
  std::vector<Decision> decisions;
};

} // namespace tuner

#endif // TUNER_SEARCH_DECISIONTREE_H
