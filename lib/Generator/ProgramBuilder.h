//===- ProgramBuilder.h - Builds a random ProgramSpec -----------*- C++ -*-===//
//
// Internal to the Generator library: the random number generator and the
// builder whose patterns are spread over Generator.cpp (the original five
// patterns and the program's structure), ChannelConvolution.cpp and
// TimeStencil.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_LIB_GENERATOR_PROGRAMBUILDER_H
#define TUNER_LIB_GENERATOR_PROGRAMBUILDER_H

#include "tuner/Generator/Generator.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <vector>

namespace tuner {
namespace gen {
namespace detail {

inline uint64_t splitmix64(uint64_t &state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// Deterministic random numbers (splitmix64), integer range mapping only.
class Random {
public:
  explicit Random(uint64_t seed) : state(seed) {}

  uint64_t next() { return splitmix64(state); }
  /// Uniform in [lo, hi].
  int64_t uniform(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(next() % uint64_t(hi - lo + 1));
  }
  /// True with probability percent / 100.
  bool chance(unsigned percent) { return next() % 100 < percent; }
  /// An index drawn with the given (integer) weights; zero weights are never
  /// drawn. At least one weight must be positive.
  size_t weighted(llvm::ArrayRef<unsigned> weights) {
    unsigned total = std::accumulate(weights.begin(), weights.end(), 0u);
    uint64_t draw = next() % total;
    for (auto [i, weight] : llvm::enumerate(weights)) {
      if (draw < weight)
        return i;
      draw -= weight;
    }
    return weights.size() - 1;
  }
  template <typename T> const T &pick(llvm::ArrayRef<T> items) {
    return items[next() % items.size()];
  }
  /// Roughly log-uniform in [lo, hi] (lo >= 1): a uniform power-of-two
  /// octave, then a uniform value in it.
  int64_t logUniform(int64_t lo, int64_t hi) {
    int lowBit = 63 - __builtin_clzll(uint64_t(lo));
    int highBit = 63 - __builtin_clzll(uint64_t(hi));
    int bit = static_cast<int>(uniform(lowBit, highBit));
    int64_t from = std::max(lo, int64_t(1) << bit);
    int64_t to = std::min(hi, (int64_t(2) << bit) - 1);
    return uniform(from, to);
  }
  /// An extent in [lo, hi]: a power of two half of the time (when the range
  /// holds one), else any value, log-uniformly.
  int64_t extent(int64_t lo, int64_t hi) {
    if (chance(50)) {
      std::vector<int64_t> powers;
      for (int64_t p = 1; p <= hi; p *= 2)
        if (p >= lo)
          powers.push_back(p);
      if (!powers.empty())
        return pick(llvm::ArrayRef<int64_t>(powers));
    }
    return logUniform(lo, hi);
  }
  template <typename T> void shuffle(std::vector<T> &items) {
    for (size_t i = items.size(); i > 1; --i)
      std::swap(items[i - 1], items[next() % i]);
  }

private:
  uint64_t state;
};

/// The product of `values` (1 when empty).
int64_t product(llvm::ArrayRef<int64_t> values);

/// Halves the largest value (rounding up, never below 2) until the product
/// is at most `limit`. Returns false when that is impossible.
bool shrinkToFit(std::vector<int64_t> &values, int64_t limit);

/// Builds the program of one seed, computation by computation.
class ProgramBuilder {
public:
  ProgramBuilder(uint64_t seed, const GeneratorOptions &options,
                 std::optional<Flavour> flavour)
      : rng(seed), options(options), flavour(flavour) {}

  ProgramSpec build();

private:
  Random rng;
  const GeneratorOptions &options;
  /// The flavour the program is for (none: both).
  std::optional<Flavour> flavour;
  ProgramSpec spec;
  /// Budgets of one computation: its domain points and any tensor it reads
  /// or writes.
  int64_t workLimit = 0, tensorLimit = 0;
  /// The computation being built.
  ComputationSpec comp;

  // Tensors and index expressions.
  int addInput(std::vector<int64_t> shape);
  IndexExpr loopIndex(unsigned loop, int64_t offset = 0) const;
  Operand readLoops(int tensor, llvm::ArrayRef<unsigned> loops) const;
  void addOperand(Operand operand);
  /// A shape of `rank` extents >= 2, with between about limit / 8 and
  /// `limit` elements; std::nullopt when even the smallest is too big.
  std::optional<std::vector<int64_t>> randomShape(unsigned rank, int64_t limit);
  /// A tensor of the program with the given shape that the computation
  /// does not read yet, or -1.
  int existingWithShape(llvm::ArrayRef<int64_t> shape);

  // Bodies.
  int addNode(ExprNode node);
  int addConstant();
  int addBinary(BinaryOp op, int lhs, int rhs);
  /// node * c or node + c for a random constant c.
  int scaleByConstant(int node);
  BinaryOp randomOp();
  /// Combines nodes `leaves` into one value with random ops and constants.
  void randomBody(std::vector<int> leaves);
  /// Operand nodes for operands [0, count).
  std::vector<int> operandNodes(unsigned count);

  // Patterns: each fills `comp` (but its output) and returns false, leaving
  // the program unchanged, when it does not fit. `source` is a tensor to
  // read or -1 for fresh inputs.
  bool elementwise(int source);
  bool stencil(int source);
  bool reduction(int source);
  bool contraction(int source);
  bool convolution(int source);
  /// ChannelConvolution.cpp.
  bool channelConvolution(int source);
  /// TimeStencil.cpp.
  bool timeStencil(int source);
  /// The body of a time stencil over reads `reads` (operand nodes): one
  /// that keeps floating-point values bounded over many time steps.
  void timeStencilBody(std::vector<int> reads);
  bool tryPattern(Pattern pattern, int source);

  void startComputation(Pattern pattern);
  void finishComputation();
  void chooseAffineSchedule();
};

} // namespace detail
} // namespace gen
} // namespace tuner

#endif // TUNER_LIB_GENERATOR_PROGRAMBUILDER_H
