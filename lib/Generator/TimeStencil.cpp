//===- TimeStencil.cpp - Stencils under a time loop, in place -------------===//
//
// The TimeStencil pattern (affine flavour only): a 1-D, 2-D or 3-D grid
// starts as a copy of a tensor (an input, or a tensor computed before), then
// T time steps (2 to 32) of sweeps update its interior in place, reading
// points at offsets in {0, 1, 2} per dimension around loop + 1 (the written
// point among them):
//
//   Gauss-Seidel, in place (as benchmarks/kernels/seidel2d.mlir):
//     for t < T: for p in interior: grid[p + 1] = f(grid[p + offsets])
//   Jacobi, two grids (as benchmarks/kernels/jacobi2d.mlir):
//     for t < T: { for p: scratch[p + 1] = f(grid[p + offsets])
//                  for p: grid[p + 1] = f(scratch[p + offsets]) }
//
// These carry dependences across time steps and within a sweep, the target
// of the tuner's loop skewing and time tiling (LoopNest::skewBand). The
// body keeps floating-point values bounded over the time steps (weights of
// absolute sum at most 1, or a max / min), so that outputs stay finite and
// comparable.
//
//===----------------------------------------------------------------------===//

#include "ProgramBuilder.h"

using namespace tuner;
using namespace tuner::gen;
using namespace tuner::gen::detail;

bool ProgramBuilder::timeStencil(int source) {
  unsigned rank = source >= 0 ? spec.tensors[source].shape.size()
                              : 1 + rng.weighted({25, 55, 20});
  if (rank > 3)
    return false;
  bool jacobi = rng.chance(35);
  int64_t grids = jacobi ? 2 : 1;
  int64_t steps = rng.logUniform(2, 32);

  // The interior (the loops) and the grid, one more point on each side.
  std::vector<int64_t> interior(rank);
  auto gridShape = [&] {
    std::vector<int64_t> shape = interior;
    for (int64_t &extent : shape)
      extent += 2;
    return shape;
  };
  auto work = [&] {
    return grids * (product(gridShape()) + steps * product(interior));
  };
  if (source >= 0) {
    const std::vector<int64_t> &shape = spec.tensors[source].shape;
    for (unsigned d = 0; d < rank; ++d) {
      if (shape[d] < 3)
        return false;
      interior[d] = shape[d] - 2;
    }
    // As many time steps as the work allows, at most the number drawn.
    int64_t most = (workLimit / grids - product(shape)) /
                   std::max<int64_t>(1, product(interior));
    if (most < 2)
      return false;
    steps = std::min(steps, most);
  } else {
    int64_t limit = std::min(tensorLimit, workLimit / (grids * (steps + 1)));
    std::optional<std::vector<int64_t>> fresh = randomShape(rank, limit);
    if (!fresh)
      return false;
    interior = *fresh;
    // The halo may take the grid over budget: shrink the interior.
    while (product(gridShape()) > tensorLimit || work() > workLimit) {
      auto largest = std::max_element(interior.begin(), interior.end());
      if (*largest == 1)
        return false;
      *largest = (*largest + 1) / 2;
    }
  }
  if (work() > workLimit || product(gridShape()) > tensorLimit)
    return false;

  comp.extents = interior;
  comp.numParallel = rank;
  comp.timeSteps = steps;
  comp.timeInitial = source >= 0 ? source : addInput(gridShape());
  // finishComputation gives the grid the next tensor index, and the scratch
  // grid the one after.
  comp.output = static_cast<int>(spec.tensors.size());
  if (jacobi)
    comp.timeScratch = comp.output + 1;

  // The points read: offsets in {0, 1, 2} per dimension, the center
  // (1, ..., 1) first.
  using Point = std::vector<int64_t>;
  std::vector<Point> box = {{}};
  for (unsigned d = 0; d < rank; ++d) {
    std::vector<Point> next;
    for (const Point &point : box)
      for (int64_t offset : {0, 1, 2}) {
        next.push_back(point);
        next.back().push_back(offset);
      }
    box = std::move(next);
  }
  Point center(rank, 1);
  llvm::erase(box, center);
  std::vector<Point> points = {center};
  size_t style = rng.weighted({40, 25, 35});
  if (style == 0) {
    // Star: the center and its two neighbours along each dimension.
    for (unsigned d = 0; d < rank; ++d)
      for (int64_t offset : {0, 2}) {
        Point point = center;
        point[d] = offset;
        points.push_back(point);
      }
  } else if (style == 1) {
    // The whole box (3, 9 or 27 points).
    points.insert(points.end(), box.begin(), box.end());
  } else {
    // The center and a few random points.
    rng.shuffle(box);
    size_t count = rng.uniform(1, std::min<int64_t>(6, box.size()));
    points.insert(points.end(), box.begin(), box.begin() + count);
  }
  for (const Point &point : points) {
    Operand operand;
    operand.tensor = comp.output;
    for (unsigned d = 0; d < rank; ++d)
      operand.indices.push_back(loopIndex(d, point[d]));
    addOperand(std::move(operand));
  }
  timeStencilBody(operandNodes(comp.operands.size()));
  return true;
}

void ProgramBuilder::timeStencilBody(std::vector<int> reads) {
  auto constant = [&](double value) {
    ExprNode node;
    node.kind = ExprNode::Kind::Constant;
    node.constant = value;
    return addNode(node);
  };
  bool isFloatType = isFloat(spec.type);
  size_t kind = rng.weighted({60, 25, isFloatType ? 0u : 15u});
  if (kind == 1) {
    // Max (or min) over the points: exact, and bounded by the initial grid.
    BinaryOp op = rng.chance(75) ? BinaryOp::Max : BinaryOp::Min;
    int value = reads[0];
    for (size_t p = 1; p < reads.size(); ++p)
      value = addBinary(op, value, reads[p]);
    return;
  }
  if (kind == 2) {
    // Integers wrap around exactly, whatever the schedule.
    randomBody(reads);
    return;
  }
  // A weighted sum. With floats the weights' absolute values sum to at most
  // 1 (so no value outgrows the initial grid): k <= 8 points get weights of
  // m/8 with m >= 1 summing to at most 8; more points are summed, then
  // scaled by 1/8 and m/8 with m <= 64/k. Integers get random weights.
  size_t k = reads.size();
  if (isFloatType && k > 8) {
    int sum = reads[0];
    for (size_t p = 1; p < k; ++p)
      sum = addBinary(rng.chance(85) ? BinaryOp::Add : BinaryOp::Sub, sum,
                      reads[p]);
    int eighth = constant(0.125);
    sum = addBinary(BinaryOp::Mul, sum, eighth);
    int scale = constant(double(rng.uniform(1, 64 / int64_t(k))) / 8);
    addBinary(BinaryOp::Mul, sum, scale);
    return;
  }
  std::vector<int64_t> units(k, 1);
  if (isFloatType) {
    int64_t spare = rng.uniform(0, 8 - int64_t(k));
    for (int64_t u = 0; u < spare; ++u)
      ++units[rng.next() % k];
  }
  int sum = -1;
  for (size_t p = 0; p < k; ++p) {
    int weight = isFloatType ? constant(double(units[p]) / 8) : addConstant();
    int term = addBinary(BinaryOp::Mul, reads[p], weight);
    sum = p == 0 ? term
                 : addBinary(rng.chance(80) ? BinaryOp::Add : BinaryOp::Sub,
                             sum, term);
  }
}
