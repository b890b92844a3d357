//===- Neighbourhood.h - Each parameter's own topology ----------*- C++ -*-===//
//
// The local moves of the sample-efficient strategies (Bayesian optimization's
// acquisition search, evolution's mutations, annealing's steps) follow the
// shape of each parameter's domain rather than treating every value as a
// stranger (OpEvo §3):
//
// - an ordinal over positive integers (tile sizes, unroll factors) is a
//   factorization lattice: a value's neighbours are the domain's values one
//   prime factor away (v*p or v/p), plus its neighbours in sorted order, so
//   that 12 reaches 6, 4, 24 and 36 but also 16 when the domain holds
//   powers of two beside divisors;
// - any other ordinal, an integer range: one step in sorted order (an
//   integer range in log scale: the next power of two up or down as well);
// - a real: a step of a twentieth of the range (of its logarithm in log
//   scale), clamped;
// - a boolean: the other value; a categorical: every other choice;
// - a permutation: every swap of two elements (among the allowed ones when
//   the parameter lists them).
//
// Constraints that couple parameters (a vectorized register tile must be
// small) make single steps infeasible; `repairs` finds the nearest feasible
// configs that keep a step, and `move` draws a step repaired that way.
//
// Nothing here knows about MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_SEARCH_NEIGHBOURHOOD_H
#define TUNER_SEARCH_NEIGHBOURHOOD_H

#include "tuner/Space/ChainOfTrees.h"
#include "tuner/Space/Space.h"

#include <random>
#include <vector>

namespace tuner {

class Neighbourhood {
public:
  /// `chain` decides feasibility; it (and its space) must outlive this.
  explicit Neighbourhood(const ChainOfTrees &chain);

  /// The values one move from `value` along parameter `i`'s topology (never
  /// `value` itself), in a deterministic order. Constraints are not read.
  std::vector<ParamValue> steps(size_t i, const ParamValue &value) const;

  /// The feasible configs that differ from `config` in one parameter moved
  /// one step (every parameter, every step).
  std::vector<Config> neighbours(const Config &config) const;

  /// A q-random walk of parameter `i` from `value` (OpEvo): one step to a
  /// uniformly chosen neighbour, then another with probability `q`, and so
  /// on (at most `maxSteps`). Returns `value` when it has no neighbour.
  ParamValue walk(size_t i, const ParamValue &value, double q,
                  std::mt19937_64 &rng, unsigned maxSteps = 16) const;

  /// `config` with each parameter walked with probability `rate` (at least
  /// one parameter always), retried until the result is feasible and
  /// differs from `config` (at most `attempts` times); nullopt when no
  /// feasible mutation was found.
  std::optional<Config> mutate(const Config &config, double rate, double q,
                               std::mt19937_64 &rng,
                               unsigned attempts = 64) const;

  /// The feasible configs nearest to `config` that keep the parameters in
  /// `fixed`: `config` itself when it is feasible, else those that change
  /// the fewest other parameters (at most `maxChanges`), each changed
  /// parameter one the violated constraints read, set to any value of its
  /// domain (to one of its steps when the domain has more than 32 values;
  /// reals are never changed). Constraints couple parameters so that one
  /// step alone is often infeasible (vectorizing needs a register tile
  /// small enough); its repair crosses such barriers. In a deterministic
  /// order; empty when no repair of at most `maxChanges` exists (or after
  /// 4096 candidates).
  std::vector<Config> repairs(const Config &config,
                              llvm::ArrayRef<size_t> fixed,
                              unsigned maxChanges = 2) const;

  /// A random move from `config`: a uniformly chosen parameter takes a
  /// uniformly chosen step along its topology, and when that is infeasible,
  /// a uniformly chosen repair keeping the moved parameter (see repairs).
  /// Nullopt when `attempts` draws found neither.
  std::optional<Config> move(const Config &config, std::mt19937_64 &rng,
                             unsigned attempts = 16) const;

  /// Whether `config` satisfies the space's constraints.
  bool feasible(const Config &config) const { return chain.contains(config); }

  const Space &getSpace() const { return chain.getSpace(); }
  const ChainOfTrees &getChain() const { return chain; }

private:
  const ChainOfTrees &chain;
};

} // namespace tuner

#endif // TUNER_SEARCH_NEIGHBOURHOOD_H
