//===- ChainOfTrees.h - Exact counting and uniform sampling -----*- C++ -*-===//
//
// BaCO §4.2: parameters that share a constraint are grouped (transitively);
// each group's feasible assignments are enumerated into a tree (one level per
// parameter, each node knowing how many feasible leaves lie below it). The
// space is the product of the trees: its size is the product of their leaf
// counts, a uniform sample picks a uniform leaf in every tree, and a config
// is feasible iff each group's part is a leaf of its tree.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_SPACE_CHAINOFTREES_H
#define TUNER_SPACE_CHAINOFTREES_H

#include "tuner/Space/Space.h"

#include "llvm/ADT/APInt.h"

#include <random>

namespace tuner {

class ChainOfTrees {
public:
  struct Options {
    /// A group whose enumeration visits more tree nodes (candidate values
    /// tried at some level) than this is refused with an error naming the
    /// group's parameters; so is a group holding a parameter with more values
    /// than this. At most 2^32 - 2 (larger values are clamped).
    uint64_t maxNodesPerTree = 20'000'000;
    /// A group that exceeds maxNodesPerTree is sampled by rejection and its
    /// size estimated (seeded by `seed`), instead of being an error; the
    /// chain is then not exact: count() is an estimate and at() is
    /// unavailable.
    bool sampleLargeGroups = true;
    /// With sampleLargeGroups: a group whose enumeration would certainly
    /// visit more than maxNodesPerTree nodes is not enumerated at all. The
    /// draws that a sampled group makes anyway, counted level by level,
    /// estimate how many prefixes of each length pass the constraints, and
    /// so how many values enumeration would try; when even five standard
    /// errors below that estimate exceeds maxNodesPerTree, enumeration would
    /// give up, so the group is sampled straight away. The result is the one
    /// enumeration would have reached (the same estimate, the same samples),
    /// without its up to maxNodesPerTree visits and nodes (seconds and
    /// hundreds of MB for a 7-loop convolution).
    bool predictLargeGroups = true;
    uint64_t seed = 1;
  };

  /// Builds the chain. Real parameters never enter a tree: they are sampled
  /// independently (uniformly, or log-uniformly with log scale), and
  /// constraints that read a real parameter are enforced by rejection when
  /// sampling. An unconstrained discrete parameter is a tree of its own that
  /// is never materialized, so its domain may be huge.
  ///
  /// A space without feasible configs is an error: "the space has no
  /// feasible config: " followed by the constraints that leave nothing, i.e.
  /// the constraints reading no parameter that are false, or the group of
  /// parameters whose tree is empty and the constraints of that group, quoted.
  /// (Constraints that read a real parameter are not decided here: see
  /// sample.)
  static llvm::Expected<ChainOfTrees> build(const Space &space,
                                            Options options);
  static llvm::Expected<ChainOfTrees> build(const Space &space) {
    return build(space, Options());
  }

  /// Exact number of feasible configs, at least 1 (unsigned, as wide as
  /// needed and at least 64 bits). With real parameters: the number of feasible
  /// assignments of the discrete parameters, ignoring constraints that read a
  /// real (see hasRealParameters).
  llvm::APInt count() const;
  /// count() in decimal, or "infinite" with real parameters.
  std::string countString() const;
  bool hasRealParameters() const;
  /// False when some group was too large to enumerate (see Options).
  bool isExact() const;

  /// Uniform sample over the feasible configs. Returns an error only when
  /// rejection fails: for real-valued constraints 10000 times in a row, or
  /// within a group too large to enumerate.
  llvm::Expected<Config> sample(std::mt19937_64 &rng) const;
  /// The index-th feasible config in a fixed order (mixed radix over the
  /// trees, the first tree most significant); index < count() (any bit
  /// width). For exhaustive enumeration. Spaces with real parameters put each
  /// real at its lower bound (which may violate constraints that read it).
  Config at(const llvm::APInt &index) const;
  /// Whether `config` is feasible (domains and every constraint).
  bool contains(const Config &config) const;

  /// The groups: indices of the parameters in each tree, in the tree's level
  /// order (chosen so that constraints can be checked early). Groups are
  /// ordered by their smallest parameter index; reals are in no group.
  const std::vector<std::vector<size_t>> &getGroups() const { return groups; }
  /// Number of feasible leaves of each tree.
  std::vector<uint64_t> leafCounts() const;
  /// Candidate values tried while enumerating the trees, over all groups
  /// (the work of build(), bounded by maxNodesPerTree per group), including
  /// those of enumerations that gave up.
  uint64_t visitedNodes() const { return visited; }

  const Space &getSpace() const { return *space; }

  struct Tree; ///< Defined in the .cpp.

private:
  std::shared_ptr<const Space> space; ///< A copy of the space built from.
  std::vector<std::vector<size_t>> groups;
  std::vector<std::shared_ptr<const Tree>> trees;
  std::vector<size_t> realParameters;
  std::vector<size_t> realConstraints; ///< Constraints reading a real.
  bool exact = true;
  uint64_t visited = 0;
};

} // namespace tuner

#endif // TUNER_SPACE_CHAINOFTREES_H
