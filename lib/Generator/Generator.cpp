//===- Generator.cpp - Random programs for training data ------------------===//
//
// Builds a ProgramSpec computation by computation. Each computation picks a
// pattern and, most of the time, a tensor computed before it as its main
// input (producer/consumer chains); the pattern derives its loop domain
// from that tensor, or draws fresh shapes, within the per-computation
// budgets. A pattern that does not fit (a tensor too small for the window,
// of the wrong rank, or a product over budget) gives way to another, and an
// elementwise computation always fits. The five original patterns are
// here; the opt-in ones in ChannelConvolution.cpp and TimeStencil.cpp.
//
// Randomness comes from splitmix64 with integer-only range mapping, so a
// seed means the same program with any standard library.
//
//===----------------------------------------------------------------------===//

#include "ProgramBuilder.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cassert>
#include <numeric>

using namespace tuner;
using namespace tuner::gen;
using namespace tuner::gen::detail;

llvm::StringRef gen::stringifyFlavour(Flavour flavour) {
  return flavour == Flavour::Linalg ? "linalg" : "affine";
}

std::optional<Flavour> gen::parseFlavour(llvm::StringRef name) {
  if (name == "linalg")
    return Flavour::Linalg;
  if (name == "affine")
    return Flavour::Affine;
  return std::nullopt;
}

unsigned gen::defaultPatternWeight(Pattern pattern) {
  switch (pattern) {
  case Pattern::Elementwise:
    return 25;
  case Pattern::Stencil:
  case Pattern::Reduction:
  case Pattern::Contraction:
    return 20;
  case Pattern::Convolution:
  case Pattern::ChannelConvolution:
  case Pattern::TimeStencil:
    return 15;
  }
  return 0;
}

PatternWeights gen::defaultPatternWeights() {
  PatternWeights weights{};
  for (Pattern pattern :
       {Pattern::Elementwise, Pattern::Stencil, Pattern::Reduction,
        Pattern::Contraction, Pattern::Convolution})
    weights[static_cast<size_t>(pattern)] = defaultPatternWeight(pattern);
  return weights;
}

llvm::Expected<PatternWeights> gen::parsePatternWeights(llvm::StringRef text) {
  auto known = [] {
    std::vector<std::string> names;
    for (Pattern pattern : kAllPatterns)
      names.push_back(stringifyPattern(pattern).str());
    return llvm::join(names, ", ") + " or all";
  };
  PatternWeights weights{};
  std::array<bool, kNumPatterns> named{};
  llvm::SmallVector<llvm::StringRef> items;
  text.split(items, ',');
  for (llvm::StringRef item : items) {
    auto [name, weightText] = item.trim().split(':');
    name = name.trim();
    if (name.empty())
      return llvm::createStringError(
          llvm::formatv("patterns '{0}': an empty item (expected a pattern "
                        "name, optionally followed by ':weight')",
                        text));
    std::optional<unsigned> weight;
    if (item.contains(':')) {
      unsigned value = 0;
      if (weightText.trim().getAsInteger(10, value) || value > 1000)
        return llvm::createStringError(llvm::formatv(
            "patterns: the weight of '{0}' must be an integer in [0, 1000] "
            "(got '{1}')",
            name, weightText.trim()));
      weight = value;
    }
    std::vector<Pattern> patterns;
    if (name == "all") {
      patterns.assign(std::begin(kAllPatterns), std::end(kAllPatterns));
    } else if (std::optional<Pattern> pattern = parsePattern(name)) {
      patterns.push_back(*pattern);
    } else {
      return llvm::createStringError(llvm::formatv(
          "patterns: unknown pattern '{0}' (known: {1})", name, known()));
    }
    for (Pattern pattern : patterns) {
      size_t index = static_cast<size_t>(pattern);
      if (named[index])
        return llvm::createStringError(llvm::formatv(
            "patterns: '{0}' is named twice", stringifyPattern(pattern)));
      named[index] = true;
      weights[index] = weight ? *weight : defaultPatternWeight(pattern);
    }
  }
  if (llvm::all_of(weights, [](unsigned weight) { return weight == 0; }))
    return llvm::createStringError(llvm::formatv(
        "patterns '{0}': every weight is 0, no pattern can be drawn", text));
  return weights;
}

std::string gen::stringifyPatternWeights(const PatternWeights &weights) {
  std::vector<std::string> items;
  for (Pattern pattern : kAllPatterns)
    if (unsigned weight = weights[static_cast<size_t>(pattern)])
      items.push_back(
          llvm::formatv("{0}:{1}", stringifyPattern(pattern), weight).str());
  return llvm::join(items, ",");
}

llvm::Error GeneratorOptions::check(std::optional<Flavour> flavour) const {
  if (maxElements < 64)
    return llvm::createStringError(
        llvm::formatv("the largest tensor must be allowed at least 64 "
                      "elements (got {0})",
                      maxElements));
  if (maxWork < maxElements)
    return llvm::createStringError(
        llvm::formatv("the work limit ({0} loop iterations) must be at least "
                      "the element limit ({1})",
                      maxWork, maxElements));
  if (maxComputations < 1 || maxComputations > 8)
    return llvm::createStringError(
        llvm::formatv("computations per program must be in [1, 8] (got {0})",
                      maxComputations));
  unsigned total = 0, linalgTotal = 0;
  for (Pattern pattern : kAllPatterns) {
    unsigned weight = patternWeights[static_cast<size_t>(pattern)];
    if (weight > 1000)
      return llvm::createStringError(
          llvm::formatv("the weight of pattern {0} must be at most 1000 (got "
                        "{1})",
                        stringifyPattern(pattern), weight));
    total += weight;
    if (linalgCanExpress(pattern))
      linalgTotal += weight;
  }
  if (total == 0)
    return llvm::createStringError(
        "every pattern has weight 0: no pattern can be drawn");
  if (flavour != Flavour::Affine && linalgTotal == 0)
    return llvm::createStringError(llvm::formatv(
        "no pattern of positive weight can be drawn in a {0} program ({1} "
        "is affine only)",
        flavour ? "linalg" : "linalg or affine",
        stringifyPatternWeights(patternWeights)));
  return llvm::Error::success();
}

uint64_t gen::mixSeed(uint64_t seed, uint64_t index) {
  uint64_t state = seed;
  uint64_t mixed = splitmix64(state);
  state = mixed ^ index;
  return splitmix64(state);
}

namespace tuner {
namespace gen {
namespace detail {

int64_t product(llvm::ArrayRef<int64_t> values) {
  int64_t result = 1;
  for (int64_t value : values)
    result *= value;
  return result;
}

bool shrinkToFit(std::vector<int64_t> &values, int64_t limit) {
  while (product(values) > limit) {
    auto largest = std::max_element(values.begin(), values.end());
    if (*largest <= 2)
      return false;
    *largest = std::max<int64_t>(2, (*largest + 1) / 2);
  }
  return true;
}


int ProgramBuilder::addInput(std::vector<int64_t> shape) {
  TensorSpec tensor;
  tensor.shape = std::move(shape);
  tensor.role = TensorSpec::Role::Input;
  spec.tensors.push_back(std::move(tensor));
  return static_cast<int>(spec.tensors.size()) - 1;
}

IndexExpr ProgramBuilder::loopIndex(unsigned loop, int64_t offset) const {
  IndexExpr index;
  index.coefficients.assign(comp.extents.size(), 0);
  index.coefficients[loop] = 1;
  index.offset = offset;
  return index;
}

Operand ProgramBuilder::readLoops(int tensor,
                                  llvm::ArrayRef<unsigned> loops) const {
  Operand operand;
  operand.tensor = tensor;
  for (unsigned loop : loops)
    operand.indices.push_back(loopIndex(loop));
  return operand;
}

void ProgramBuilder::addOperand(Operand operand) {
  comp.operands.push_back(std::move(operand));
}

std::optional<std::vector<int64_t>> ProgramBuilder::randomShape(unsigned rank,
                                                                int64_t limit) {
  std::vector<int64_t> shape(rank);
  for (int64_t &extent : shape)
    extent = rng.extent(2, 1024);
  if (!shrinkToFit(shape, limit))
    return std::nullopt;
  // Not much smaller than the budget: the programs should take a while.
  int64_t target = std::max<int64_t>(1, limit / 8);
  while (product(shape) < target) {
    auto smallest = std::min_element(shape.begin(), shape.end());
    if (product(shape) / *smallest * (*smallest * 2) > limit)
      break;
    *smallest *= 2;
  }
  return shape;
}

int ProgramBuilder::existingWithShape(llvm::ArrayRef<int64_t> shape) {
  std::vector<int> matches;
  for (auto [t, tensor] : llvm::enumerate(spec.tensors))
    if (llvm::ArrayRef<int64_t>(tensor.shape) == shape &&
        tensor.role != TensorSpec::Role::Scratch &&
        llvm::none_of(comp.operands, [&, t = t](const Operand &operand) {
          return operand.tensor == static_cast<int>(t);
        }))
      matches.push_back(static_cast<int>(t));
  if (matches.empty())
    return -1;
  return rng.pick(llvm::ArrayRef<int>(matches));
}

int ProgramBuilder::addNode(ExprNode node) {
  comp.body.push_back(node);
  return static_cast<int>(comp.body.size()) - 1;
}

int ProgramBuilder::addConstant() {
  ExprNode node;
  node.kind = ExprNode::Kind::Constant;
  // One draw per statement: the order of draws must not depend on the
  // compiler's order of evaluating operands.
  int64_t magnitude =
      isFloat(spec.type) ? rng.uniform(1, 16) : rng.uniform(1, 4);
  int64_t sign = rng.chance(25) ? -1 : 1;
  node.constant = isFloat(spec.type) ? double(sign * magnitude) / 8
                                     : double(sign * magnitude);
  return addNode(node);
}

int ProgramBuilder::addBinary(BinaryOp op, int lhs, int rhs) {
  ExprNode node;
  node.kind = ExprNode::Kind::Binary;
  node.op = op;
  node.lhs = lhs;
  node.rhs = rhs;
  return addNode(node);
}

BinaryOp ProgramBuilder::randomOp() {
  static constexpr BinaryOp ops[] = {BinaryOp::Add, BinaryOp::Sub,
                                     BinaryOp::Mul, BinaryOp::Max,
                                     BinaryOp::Min};
  return ops[rng.weighted({35, 20, 30, 10, 5})];
}

int ProgramBuilder::scaleByConstant(int node) {
  BinaryOp op = rng.chance(60) ? BinaryOp::Mul : BinaryOp::Add;
  int constant = addConstant();
  return addBinary(op, node, constant);
}

void ProgramBuilder::randomBody(std::vector<int> leaves) {
  rng.shuffle(leaves);
  if (leaves.size() == 1 || rng.chance(20))
    leaves.back() = scaleByConstant(leaves.back());
  while (leaves.size() > 1) {
    int lhs = leaves.back();
    leaves.pop_back();
    size_t at = rng.next() % leaves.size();
    BinaryOp op = randomOp();
    int combined = addBinary(op, lhs, leaves[at]);
    if (rng.chance(15))
      combined = scaleByConstant(combined);
    leaves[at] = combined;
  }
  // Every step added its result last, so the root is the last node.
  assert(leaves.front() == static_cast<int>(comp.body.size()) - 1);
}

std::vector<int> ProgramBuilder::operandNodes(unsigned count) {
  std::vector<int> nodes;
  for (unsigned o = 0; o < count; ++o) {
    ExprNode node;
    node.kind = ExprNode::Kind::Operand;
    node.operand = static_cast<int>(o);
    nodes.push_back(addNode(node));
  }
  return nodes;
}

void ProgramBuilder::startComputation(Pattern pattern) {
  comp = ComputationSpec();
  comp.pattern = pattern;
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

bool ProgramBuilder::elementwise(int source) {
  std::vector<int64_t> shape;
  if (source >= 0) {
    shape = spec.tensors[source].shape;
  } else {
    std::optional<std::vector<int64_t>> fresh =
        randomShape(1 + rng.weighted({20, 55, 25}), tensorLimit);
    if (!fresh)
      fresh = randomShape(1, tensorLimit);
    shape = *fresh;
  }
  unsigned rank = shape.size();
  comp.extents = shape;
  comp.numParallel = rank;
  std::vector<unsigned> identity(rank);
  std::iota(identity.begin(), identity.end(), 0u);

  addOperand(readLoops(source >= 0 ? source : addInput(shape), identity));
  unsigned extra = rng.uniform(source >= 0 ? 0 : 1, 2);
  bool allIdentity = true;
  for (unsigned e = 0; e < extra; ++e) {
    int existing = existingWithShape(shape);
    size_t kind = rng.weighted({existing >= 0 ? 25u : 0u, 40,
                                rank >= 2 ? 20u : 0u, rank >= 2 ? 15u : 0u});
    if (kind == 0) {
      addOperand(readLoops(existing, identity));
    } else if (kind == 1) {
      addOperand(readLoops(addInput(shape), identity));
    } else if (kind == 2) {
      // Broadcast: a tensor over some of the dimensions, in order.
      std::vector<unsigned> kept;
      while (kept.empty() || kept.size() == rank) {
        kept.clear();
        for (unsigned d = 0; d < rank; ++d)
          if (rng.chance(50))
            kept.push_back(d);
      }
      std::vector<int64_t> keptShape;
      for (unsigned d : kept)
        keptShape.push_back(shape[d]);
      addOperand(readLoops(addInput(keptShape), kept));
      allIdentity = false;
    } else {
      // Transposed: dimension k of the tensor is loop perm[k].
      std::vector<unsigned> perm = identity;
      while (perm == identity)
        rng.shuffle(perm);
      std::vector<int64_t> permuted;
      for (unsigned d : perm)
        permuted.push_back(shape[d]);
      addOperand(readLoops(addInput(permuted), perm));
      allIdentity = false;
    }
  }

  if (comp.operands.size() == 2 && allIdentity && rng.chance(50)) {
    static constexpr NamedOp named[] = {
        NamedOp::Add, NamedOp::Sub, NamedOp::Mul, NamedOp::Max, NamedOp::Min};
    size_t which = rng.weighted({35, 20, 30, 10, 5});
    std::vector<int> nodes = operandNodes(2);
    addBinary(static_cast<BinaryOp>(which), nodes[0], nodes[1]);
    comp.namedOp = named[which];
    return true;
  }
  randomBody(operandNodes(comp.operands.size()));
  return true;
}

bool ProgramBuilder::stencil(int source) {
  unsigned rank = source >= 0 ? spec.tensors[source].shape.size()
                              : 1 + rng.weighted({20, 60, 20});
  // Window per dimension; reads are shifted by 1..w (never 0, so that no
  // index is a bare loop of a different extent than its dimension).
  std::vector<int64_t> windows(rank);
  for (unsigned d = 0; d < rank; ++d) {
    static constexpr int64_t sizes[] = {1, 2, 3, 5};
    windows[d] =
        sizes[rng.weighted({rank == 3 && d == 0 ? 40u : 0u, 15, 60, 25})];
  }
  std::vector<int64_t> inShape, outShape(rank);
  if (source >= 0) {
    inShape = spec.tensors[source].shape;
    for (unsigned d = 0; d < rank; ++d) {
      int64_t shift = windows[d] > 1 ? windows[d] : 0;
      if (inShape[d] < shift + 2)
        windows[d] = 1;
      outShape[d] = inShape[d] - (windows[d] > 1 ? windows[d] : 0);
    }
  } else {
    int64_t margin = 1;
    for (int64_t w : windows)
      margin *= w > 1 ? 2 : 1;
    std::optional<std::vector<int64_t>> fresh =
        randomShape(rank, std::max<int64_t>(1, tensorLimit / margin));
    if (!fresh)
      return false;
    outShape = *fresh;
    inShape = outShape;
    for (unsigned d = 0; d < rank; ++d)
      inShape[d] += windows[d] > 1 ? windows[d] : 0;
    if (product(inShape) > tensorLimit)
      return false;
  }
  if (llvm::all_of(windows, [](int64_t w) { return w == 1; }))
    return false;
  int input = source >= 0 ? source : addInput(inShape);

  comp.extents = outShape;
  comp.numParallel = rank;
  // The points of the stencil: offsets per dimension (1..w, or 0 where the
  // window is 1).
  using Point = std::vector<int64_t>;
  auto offsetsOf = [&](unsigned d) {
    std::vector<int64_t> offsets;
    if (windows[d] == 1)
      offsets.push_back(0);
    for (int64_t o = 1; o <= windows[d] && windows[d] > 1; ++o)
      offsets.push_back(o);
    return offsets;
  };
  std::vector<Point> box = {{}};
  for (unsigned d = 0; d < rank; ++d) {
    std::vector<Point> next;
    for (const Point &point : box)
      for (int64_t offset : offsetsOf(d)) {
        next.push_back(point);
        next.back().push_back(offset);
      }
    box = std::move(next);
  }
  std::vector<Point> points;
  size_t style = rng.weighted({40, 30, 30});
  if (style == 0) {
    // Star: the center and the two ends of each window.
    Point center(rank);
    for (unsigned d = 0; d < rank; ++d)
      center[d] = windows[d] == 1 ? 0 : (windows[d] + 2) / 2;
    points.push_back(center);
    for (unsigned d = 0; d < rank; ++d) {
      if (windows[d] == 1)
        continue;
      for (int64_t end : {int64_t(1), windows[d]}) {
        Point point = center;
        point[d] = end;
        if (!llvm::is_contained(points, point))
          points.push_back(point);
      }
    }
  } else if (style == 1 && box.size() <= 27) {
    points = box;
  } else {
    rng.shuffle(box);
    size_t count = rng.uniform(2, std::min<int64_t>(6, box.size()));
    points.assign(box.begin(), box.begin() + count);
  }
  if (points.size() < 2)
    return false;
  for (const Point &point : points) {
    Operand operand;
    operand.tensor = input;
    for (unsigned d = 0; d < rank; ++d)
      operand.indices.push_back(loopIndex(d, point[d]));
    addOperand(std::move(operand));
  }
  bool withExtra = rng.chance(20);
  std::vector<unsigned> identity(rank);
  std::iota(identity.begin(), identity.end(), 0u);
  if (withExtra) {
    int existing = existingWithShape(outShape);
    addOperand(readLoops(existing >= 0 && rng.chance(50) ? existing
                                                         : addInput(outShape),
                         identity));
  }

  std::vector<int> nodes = operandNodes(comp.operands.size());
  std::vector<int> reads(nodes.begin(), nodes.begin() + points.size());
  size_t kind = rng.weighted({70, 15, 15});
  if (kind == 0) {
    // Weighted sum.
    int weight = addConstant();
    int sum = addBinary(BinaryOp::Mul, reads[0], weight);
    for (size_t p = 1; p < reads.size(); ++p) {
      int term = reads[p];
      if (rng.chance(70)) {
        weight = addConstant();
        term = addBinary(BinaryOp::Mul, reads[p], weight);
      }
      BinaryOp op = rng.chance(80) ? BinaryOp::Add : BinaryOp::Sub;
      sum = addBinary(op, sum, term);
    }
  } else if (kind == 1) {
    // Max (or min) over the window.
    BinaryOp op = rng.chance(75) ? BinaryOp::Max : BinaryOp::Min;
    int value = reads[0];
    for (size_t p = 1; p < reads.size(); ++p)
      value = addBinary(op, value, reads[p]);
  } else {
    randomBody(reads);
  }
  if (withExtra) {
    BinaryOp op = randomOp();
    addBinary(op, static_cast<int>(comp.body.size()) - 1, nodes.back());
  }
  return true;
}

bool ProgramBuilder::reduction(int source) {
  std::vector<int64_t> shape;
  if (source >= 0) {
    shape = spec.tensors[source].shape;
  } else {
    std::optional<std::vector<int64_t>> fresh =
        randomShape(2 + rng.weighted({70, 30}), tensorLimit);
    if (!fresh)
      return false;
    shape = *fresh;
  }
  unsigned rank = shape.size();
  if (rank < 2)
    return false;
  std::vector<bool> reduced(rank, false);
  size_t kind = rng.weighted({50, 20, 30});
  if (kind == 0) {
    reduced[rank - 1] = true; // Row sums.
  } else if (kind == 1) {
    reduced[0] = true; // Column sums.
  } else {
    while (llvm::count(reduced, true) == 0 ||
           llvm::count(reduced, true) == rank)
      for (unsigned d = 0; d < rank; ++d)
        reduced[d] = rng.chance(50);
  }
  // Parallel loops are the kept dimensions, then the reduced ones.
  std::vector<unsigned> loopOfDim(rank);
  std::vector<int64_t> outShape;
  for (unsigned d = 0; d < rank; ++d)
    if (!reduced[d]) {
      loopOfDim[d] = outShape.size();
      outShape.push_back(shape[d]);
    }
  comp.extents = outShape;
  comp.numParallel = outShape.size();
  for (unsigned d = 0; d < rank; ++d)
    if (reduced[d]) {
      loopOfDim[d] = comp.extents.size();
      comp.extents.push_back(shape[d]);
    }

  addOperand(readLoops(source >= 0 ? source : addInput(shape), loopOfDim));
  if (rng.chance(30)) {
    if (rng.chance(50)) {
      // Another tensor of the input's shape: sum((a - b)^2) and the like.
      int existing = existingWithShape(shape);
      addOperand(readLoops(existing >= 0 && rng.chance(50) ? existing
                                                           : addInput(shape),
                           loopOfDim));
    } else {
      // A tensor over the kept dimensions, broadcast along the reduction.
      std::vector<unsigned> parallel(comp.numParallel);
      std::iota(parallel.begin(), parallel.end(), 0u);
      addOperand(readLoops(addInput(outShape), parallel));
    }
  }
  randomBody(operandNodes(comp.operands.size()));
  comp.combiner = rng.chance(80) ? Combiner::Add : Combiner::Max;
  return true;
}

bool ProgramBuilder::contraction(int source) {
  enum Variant { Matmul, Matvec, Batch };
  Variant variant;
  // Sizes: batch, M (rows), N (columns), K (reduced).
  int64_t b = 1, m = 0, n = 0, k = 0;
  int lhs = -1, rhs = -1;
  auto fits = [&] {
    int64_t out = b * m * (variant == Matvec ? 1 : n);
    int64_t lhsSize = b * m * k, rhsSize = b * k * (variant == Matvec ? 1 : n);
    return out <= tensorLimit && lhsSize <= tensorLimit &&
           rhsSize <= tensorLimit &&
           b * m * k * (variant == Matvec ? 1 : n) <= workLimit;
  };
  // The largest free size `x` can take with the others fixed, or 0.
  auto grow = [&](int64_t &x) {
    int64_t hi = 1;
    for (int64_t v = 2; v <= 4096; v *= 2) {
      x = v;
      if (!fits())
        break;
      hi = v;
    }
    x = hi;
    for (int64_t v = hi + 1; v < 2 * hi; v += std::max<int64_t>(1, hi / 8)) {
      x = v;
      if (!fits())
        break;
      hi = v;
    }
    x = hi >= 2 ? rng.extent(2, hi) : 0;
    return x >= 2;
  };
  if (source >= 0) {
    const std::vector<int64_t> &shape = spec.tensors[source].shape;
    if (shape.size() == 1) {
      variant = Matvec; // y = A x with x the source.
      k = shape[0];
      rhs = source;
      if (!grow(m))
        return false;
    } else if (shape.size() == 2) {
      size_t role = rng.weighted({55, 25, 20});
      if (role == 0) {
        variant = Matmul; // source @ B
        m = shape[0], k = shape[1], lhs = source;
        // Multiply by a tensor computed before when one fits.
        std::vector<int> partners;
        for (auto [t, tensor] : llvm::enumerate(spec.tensors)) {
          if (tensor.shape.size() != 2 || tensor.shape[0] != k ||
              tensor.role == TensorSpec::Role::Scratch)
            continue;
          n = tensor.shape[1];
          if (fits())
            partners.push_back(static_cast<int>(t));
        }
        if (!partners.empty() && rng.chance(50)) {
          rhs = rng.pick(llvm::ArrayRef<int>(partners));
          n = spec.tensors[rhs].shape[1];
        } else if (!grow(n)) {
          return false;
        }
      } else if (role == 1) {
        variant = Matmul; // A @ source
        k = shape[0], n = shape[1], rhs = source;
        if (!grow(m))
          return false;
      } else {
        variant = Matvec; // source x
        m = shape[0], k = shape[1], lhs = source;
      }
    } else if (shape.size() == 3) {
      variant = Batch;
      b = shape[0], m = shape[1], k = shape[2], lhs = source;
      if (!grow(n))
        return false;
    } else {
      return false;
    }
    if (!fits())
      return false;
  } else {
    variant = static_cast<Variant>(rng.weighted({60, 20, 20}));
    std::optional<std::vector<int64_t>> sizes;
    if (variant == Matmul)
      sizes = randomShape(3, workLimit);
    else if (variant == Matvec)
      sizes = randomShape(2, std::min(workLimit, tensorLimit));
    else
      sizes = randomShape(4, workLimit);
    if (!sizes)
      return false;
    std::vector<int64_t> &s = *sizes;
    if (variant == Batch)
      s[0] = std::min<int64_t>(s[0], 16);
    // Shrink until every tensor fits too.
    for (unsigned guard = 0; guard < 64; ++guard) {
      if (variant == Matmul)
        m = s[0], n = s[1], k = s[2];
      else if (variant == Matvec)
        m = s[0], k = s[1];
      else
        b = s[0], m = s[1], n = s[2], k = s[3];
      if (fits())
        break;
      auto largest = std::max_element(s.begin(), s.end());
      if (*largest <= 2)
        return false;
      *largest = (*largest + 1) / 2;
    }
    if (!fits())
      return false;
  }

  if (variant == Matmul) {
    comp.extents = {m, n, k};
    comp.numParallel = 2;
    addOperand(readLoops(lhs >= 0 ? lhs : addInput({m, k}), {0, 2}));
    addOperand(readLoops(rhs >= 0 ? rhs : addInput({k, n}), {2, 1}));
  } else if (variant == Matvec) {
    comp.extents = {m, k};
    comp.numParallel = 1;
    addOperand(readLoops(lhs >= 0 ? lhs : addInput({m, k}), {0, 1}));
    addOperand(readLoops(rhs >= 0 ? rhs : addInput({k}), {1}));
  } else {
    comp.extents = {b, m, n, k};
    comp.numParallel = 3;
    addOperand(readLoops(lhs >= 0 ? lhs : addInput({b, m, k}), {0, 1, 3}));
    addOperand(readLoops(rhs >= 0 ? rhs : addInput({b, k, n}), {0, 3, 2}));
  }

  std::vector<int> nodes = operandNodes(2);
  if (rng.chance(60)) {
    addBinary(BinaryOp::Mul, nodes[0], nodes[1]);
    comp.combiner = Combiner::Add;
    static constexpr NamedOp named[] = {NamedOp::Matmul, NamedOp::Matvec,
                                        NamedOp::BatchMatmul};
    comp.namedOp = named[variant];
    return true;
  }
  if (rng.chance(60))
    addBinary(BinaryOp::Mul, nodes[0], nodes[1]);
  else
    randomBody(nodes);
  comp.combiner = rng.chance(80) ? Combiner::Add : Combiner::Max;
  return true;
}

bool ProgramBuilder::convolution(int source) {
  unsigned rank = source >= 0 ? spec.tensors[source].shape.size()
                              : 1 + rng.weighted({30, 70});
  if (rank > 2)
    return false;
  std::vector<int64_t> filter(rank);
  for (int64_t &f : filter) {
    static constexpr int64_t sizes[] = {2, 3, 5};
    f = sizes[rng.weighted({20, 55, 25})];
  }
  int64_t stride = rng.chance(15) ? 2 : 1;
  int64_t filterPoints = product(filter);
  std::vector<int64_t> inShape, outShape(rank);
  if (source >= 0) {
    inShape = spec.tensors[source].shape;
    for (unsigned d = 0; d < rank; ++d) {
      if (inShape[d] < filter[d] + stride)
        return false;
      outShape[d] = (inShape[d] - filter[d]) / stride + 1;
    }
  } else {
    std::optional<std::vector<int64_t>> fresh = randomShape(
        rank, std::max<int64_t>(1, std::min(tensorLimit / (stride * stride),
                                            workLimit / filterPoints)));
    if (!fresh)
      return false;
    outShape = *fresh;
    inShape.resize(rank);
    for (unsigned d = 0; d < rank; ++d)
      inShape[d] = (outShape[d] - 1) * stride + filter[d];
    if (product(inShape) > tensorLimit)
      return false;
  }
  if (product(outShape) * filterPoints > workLimit)
    return false;

  comp.extents = outShape;
  comp.extents.insert(comp.extents.end(), filter.begin(), filter.end());
  comp.numParallel = rank;
  Operand in;
  in.tensor = source >= 0 ? source : addInput(inShape);
  for (unsigned d = 0; d < rank; ++d) {
    IndexExpr index = loopIndex(d);
    index.coefficients[d] = stride;
    index.coefficients[rank + d] = 1;
    in.indices.push_back(index);
  }
  addOperand(std::move(in));
  std::vector<unsigned> filterLoops(rank);
  std::iota(filterLoops.begin(), filterLoops.end(), rank);
  addOperand(readLoops(addInput(filter), filterLoops));

  std::vector<int> nodes = operandNodes(2);
  size_t kind = rng.weighted({70, 15, 15});
  if (kind == 0) {
    // Convolution.
    addBinary(BinaryOp::Mul, nodes[0], nodes[1]);
    comp.combiner = Combiner::Add;
    if (stride == 1 && rng.chance(50))
      comp.namedOp = rank == 1 ? NamedOp::Conv1D : NamedOp::Conv2D;
  } else if (kind == 1) {
    // Dilation (max-plus convolution).
    addBinary(BinaryOp::Add, nodes[0], nodes[1]);
    comp.combiner = Combiner::Max;
  } else {
    randomBody(nodes);
    comp.combiner = rng.chance(70) ? Combiner::Add : Combiner::Max;
  }
  return true;
}

bool ProgramBuilder::tryPattern(Pattern pattern, int source) {
  size_t numTensors = spec.tensors.size();
  startComputation(pattern);
  bool built = false;
  switch (pattern) {
  case Pattern::Elementwise:
    built = elementwise(source);
    break;
  case Pattern::Stencil:
    built = stencil(source);
    break;
  case Pattern::Reduction:
    built = reduction(source);
    break;
  case Pattern::Contraction:
    built = contraction(source);
    break;
  case Pattern::Convolution:
    built = convolution(source);
    break;
  case Pattern::ChannelConvolution:
    built = channelConvolution(source);
    break;
  case Pattern::TimeStencil:
    built = timeStencil(source);
    break;
  }
  if (!built)
    spec.tensors.resize(numTensors); // Drop the inputs it added.
  return built;
}

void ProgramBuilder::chooseAffineSchedule() {
  size_t numLoops = comp.extents.size();
  comp.affineOrder.resize(numLoops);
  std::iota(comp.affineOrder.begin(), comp.affineOrder.end(), 0u);
  if (comp.timeSteps > 0)
    return; // The sweeps keep their order, as the kernels of the kind do.
  if (comp.combiner != Combiner::None && rng.chance(40)) {
    comp.affineInitInNest = true;
    return;
  }
  if (numLoops >= 2 && rng.chance(30))
    rng.shuffle(comp.affineOrder);
}

void ProgramBuilder::finishComputation() {
  chooseAffineSchedule();
  TensorSpec output;
  if (comp.timeSteps > 0)
    output.shape = spec.tensors[comp.timeInitial].shape;
  else
    output.shape.assign(comp.extents.begin(),
                        comp.extents.begin() + comp.numParallel);
  output.role = TensorSpec::Role::Output;
  output.producer = static_cast<int>(spec.computations.size());
  // A time stencil's operands read its output, whose index it knew.
  assert(comp.timeSteps == 0 ||
         comp.output == static_cast<int>(spec.tensors.size()));
  comp.output = static_cast<int>(spec.tensors.size());
  spec.tensors.push_back(output);
  if (comp.timeScratch >= 0) {
    assert(comp.timeScratch == static_cast<int>(spec.tensors.size()));
    output.role = TensorSpec::Role::Scratch;
    spec.tensors.push_back(std::move(output));
  }
  std::vector<int> read;
  for (const Operand &operand : comp.operands)
    read.push_back(operand.tensor);
  if (comp.timeInitial >= 0)
    read.push_back(comp.timeInitial);
  for (int tensor : read)
    if (tensor != comp.output &&
        spec.tensors[tensor].role == TensorSpec::Role::Output)
      spec.tensors[tensor].role = TensorSpec::Role::Intermediate;
  spec.computations.push_back(std::move(comp));
}

ProgramSpec ProgramBuilder::build() {
  spec.type = static_cast<ScalarType>(rng.weighted({70, 15, 15}));
  unsigned count = rng.uniform(1, options.maxComputations);
  workLimit = options.maxWork / count;
  tensorLimit = std::min(options.maxElements, workLimit);
  PatternWeights weights = options.patternWeights;
  for (Pattern pattern : kAllPatterns)
    if (flavour != Flavour::Affine && !linalgCanExpress(pattern))
      weights[static_cast<size_t>(pattern)] = 0;
  for (unsigned c = 0; c < count; ++c) {
    // The main input: most often a tensor computed before, the latest
    // most likely.
    int source = -1;
    if (!spec.computations.empty() && rng.chance(75)) {
      size_t last = spec.computations.size() - 1;
      size_t index = rng.chance(60) ? last : rng.uniform(0, last);
      source = spec.computations[index].output;
    }
    // The pattern on the source, else on fresh inputs, else an elementwise
    // computation (which always fits).
    // (With the default weights, those of the opt-in patterns are 0 and
    // the draw is the one of the programs generated before they existed.)
    Pattern pattern = kAllPatterns[rng.weighted(weights)];
    if (!tryPattern(pattern, source) && !tryPattern(pattern, -1))
      tryPattern(Pattern::Elementwise, source);
    finishComputation();
  }
  return std::move(spec);
}

} // namespace detail
} // namespace gen
} // namespace tuner

ProgramSpec gen::generateProgramSpec(uint64_t seed,
                                     const GeneratorOptions &options,
                                     std::optional<Flavour> flavour) {
  return ProgramBuilder(seed, options, flavour).build();
}

std::string GeneratedProgram::describe() const {
  return llvm::formatv("random-{0} seed={1}: {2}", stringifyFlavour(flavour),
                       seed, spec.summary());
}

llvm::Expected<GeneratedProgram>
gen::generateProgram(uint64_t seed, Flavour flavour,
                     const GeneratorOptions &options) {
  if (llvm::Error error = options.check(flavour))
    return std::move(error);
  GeneratedProgram program;
  program.spec = generateProgramSpec(seed, options, flavour);
  program.flavour = flavour;
  program.seed = seed;
  std::string problem = program.spec.verify();
  if (problem.empty() && program.spec.largestTensor() > options.maxElements)
    problem = llvm::formatv("a tensor of {0} elements, over the limit of {1}",
                            program.spec.largestTensor(), options.maxElements);
  if (problem.empty() && program.spec.work() > options.maxWork)
    problem = llvm::formatv("{0} loop iterations, over the limit of {1}",
                            program.spec.work(), options.maxWork);
  if (problem.empty() && flavour == Flavour::Linalg &&
      program.spec.needsAffine())
    problem = "a time stencil in a linalg program";
  if (!problem.empty())
    return llvm::createStringError(
        llvm::formatv("generator bug: the program of seed {0} is invalid: {1}",
                      seed, problem));
  program.mlir = emitProgram(program.spec, flavour);
  return program;
}
