//===- ProgramSpec.cpp - A random program, before it is MLIR --------------===//

#include "tuner/Support/Format.h"
#include "tuner/Generator/ProgramSpec.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstdio>

using namespace tuner;
using namespace tuner::gen;

llvm::StringRef gen::stringifyScalarType(ScalarType type) {
  switch (type) {
  case ScalarType::F32:
    return "f32";
  case ScalarType::F64:
    return "f64";
  case ScalarType::I32:
    return "i32";
  }
  return "f32";
}

bool gen::isFloat(ScalarType type) { return type != ScalarType::I32; }

llvm::StringRef gen::stringifyPattern(Pattern pattern) {
  switch (pattern) {
  case Pattern::Elementwise:
    return "elementwise";
  case Pattern::Stencil:
    return "stencil";
  case Pattern::Reduction:
    return "reduction";
  case Pattern::Contraction:
    return "contraction";
  case Pattern::Convolution:
    return "convolution";
  case Pattern::ChannelConvolution:
    return "channel-convolution";
  case Pattern::TimeStencil:
    return "time-stencil";
  }
  return "elementwise";
}

std::optional<Pattern> gen::parsePattern(llvm::StringRef name) {
  for (Pattern pattern : kAllPatterns)
    if (name == stringifyPattern(pattern))
      return pattern;
  return std::nullopt;
}

bool gen::linalgCanExpress(Pattern pattern) {
  return pattern != Pattern::TimeStencil;
}

llvm::StringRef gen::stringifyNamedOp(NamedOp op) {
  switch (op) {
  case NamedOp::None:
    return "linalg.generic";
  case NamedOp::Add:
    return "linalg.add";
  case NamedOp::Sub:
    return "linalg.sub";
  case NamedOp::Mul:
    return "linalg.mul";
  case NamedOp::Max:
    return "linalg.max";
  case NamedOp::Min:
    return "linalg.min";
  case NamedOp::Matmul:
    return "linalg.matmul";
  case NamedOp::Matvec:
    return "linalg.matvec";
  case NamedOp::BatchMatmul:
    return "linalg.batch_matmul";
  case NamedOp::Conv1D:
    return "linalg.conv_1d";
  case NamedOp::Conv2D:
    return "linalg.conv_2d";
  case NamedOp::Conv2DNchwFchw:
    return "linalg.conv_2d_nchw_fchw";
  case NamedOp::Conv2DNhwcHwcf:
    return "linalg.conv_2d_nhwc_hwcf";
  }
  return "linalg.generic";
}

int64_t TensorSpec::numElements() const {
  int64_t count = 1;
  for (int64_t size : shape)
    count *= size;
  return count;
}

int IndexExpr::pureLoop() const {
  if (offset != 0)
    return -1;
  int loop = -1;
  for (auto [l, coefficient] : llvm::enumerate(coefficients)) {
    if (coefficient == 0)
      continue;
    if (coefficient != 1 || loop != -1)
      return -1;
    loop = static_cast<int>(l);
  }
  return loop;
}

int64_t ComputationSpec::points() const {
  int64_t count = 1;
  for (int64_t extent : extents)
    count *= extent;
  if (timeSteps == 0)
    return count;
  // The copies (into the grid, and the scratch grid) and the sweeps.
  int64_t grid = 1;
  for (int64_t extent : extents)
    grid *= extent + 2;
  int64_t grids = timeScratch >= 0 ? 2 : 1;
  return grids * (grid + timeSteps * count);
}

int64_t ProgramSpec::work() const {
  int64_t total = 0;
  for (const ComputationSpec &comp : computations)
    total += comp.points();
  return total;
}

int64_t ProgramSpec::largestTensor() const {
  int64_t largest = 0;
  for (const TensorSpec &tensor : tensors)
    largest = std::max(largest, tensor.numElements());
  return largest;
}

unsigned ProgramSpec::numInputs() const {
  return llvm::count_if(tensors, [](const TensorSpec &tensor) {
    return tensor.role == TensorSpec::Role::Input;
  });
}

unsigned ProgramSpec::numOutputs() const {
  return llvm::count_if(tensors, [](const TensorSpec &tensor) {
    return tensor.role == TensorSpec::Role::Output;
  });
}

bool ProgramSpec::needsAffine() const {
  return llvm::any_of(computations, [](const ComputationSpec &comp) {
    return !linalgCanExpress(comp.pattern);
  });
}

//===----------------------------------------------------------------------===//
// verify
//===----------------------------------------------------------------------===//


namespace {
class SpecVerifier {
public:
  explicit SpecVerifier(const ProgramSpec &spec) : spec(spec) {}

  std::string verify() {
    if (spec.functionName.empty())
      return "the function has no name";
    if (spec.computations.empty())
      return "no computation";
    for (auto [t, tensor] : llvm::enumerate(spec.tensors)) {
      if (tensor.shape.empty())
        return llvm::formatv("tensor {0} has rank 0", t);
      for (int64_t size : tensor.shape)
        if (size < 1)
          return llvm::formatv("tensor {0} has a dimension of size {1}", t,
                               size);
      bool input = tensor.role == TensorSpec::Role::Input;
      if (input != (tensor.producer == -1))
        return llvm::formatv("tensor {0}: an input must have no producer "
                             "and every other tensor one",
                             t);
      if (input)
        continue;
      if (tensor.producer < 0 ||
          tensor.producer >= static_cast<int>(spec.computations.size()))
        return llvm::formatv("tensor {0} has an unknown producer {1}", t,
                             tensor.producer);
      const ComputationSpec &producer = spec.computations[tensor.producer];
      bool scratch = tensor.role == TensorSpec::Role::Scratch;
      if ((scratch ? producer.timeScratch : producer.output) !=
          static_cast<int>(t))
        return llvm::formatv("tensor {0} is not the {1} of its producer {2}", t,
                             scratch ? "scratch grid" : "output",
                             tensor.producer);
    }
    std::vector<bool> readAfter(spec.tensors.size(), false);
    for (auto [c, comp] : llvm::enumerate(spec.computations)) {
      std::string problem = comp.timeSteps > 0 || comp.timeInitial >= 0 ||
                                    comp.timeScratch >= 0 ||
                                    comp.pattern == Pattern::TimeStencil
                                ? verifyTimeStencil(c, comp)
                                : verifyComputation(c, comp);
      if (!problem.empty())
        return llvm::formatv("computation {0} ({1}): {2}", c,
                             stringifyPattern(comp.pattern), problem);
      // A time stencil reads its own output (before it is complete, which
      // makes it no intermediate) and its initial grid.
      for (const Operand &operand : comp.operands)
        if (operand.tensor != comp.output)
          readAfter[operand.tensor] = true;
      if (comp.timeInitial >= 0)
        readAfter[comp.timeInitial] = true;
    }
    bool anyOutput = false;
    for (auto [t, tensor] : llvm::enumerate(spec.tensors)) {
      if (tensor.role == TensorSpec::Role::Output) {
        anyOutput = true;
        if (readAfter[t])
          return llvm::formatv("output tensor {0} is read after it is "
                               "computed: it must be an intermediate",
                               t);
      }
      if (tensor.role == TensorSpec::Role::Intermediate && !readAfter[t])
        return llvm::formatv("intermediate tensor {0} is never read: it "
                             "must be an output",
                             t);
    }
    if (!anyOutput)
      return "no output";
    return "";
  }

private:
  const ProgramSpec &spec;

  std::string verifyComputation(size_t c, const ComputationSpec &comp) {
    int numTensors = static_cast<int>(spec.tensors.size());
    if (comp.output < 0 || comp.output >= numTensors)
      return llvm::formatv("unknown output tensor {0}", comp.output);
    const TensorSpec &output = spec.tensors[comp.output];
    if (output.producer != static_cast<int>(c))
      return llvm::formatv("writes tensor {0}, produced by computation {1}",
                           comp.output, output.producer);
    size_t numLoops = comp.extents.size();
    if (comp.numParallel != output.shape.size() || numLoops < comp.numParallel)
      return llvm::formatv("{0} parallel loops of {1} for an output of rank "
                           "{2}",
                           comp.numParallel, numLoops, output.shape.size());
    for (auto [l, extent] : llvm::enumerate(comp.extents)) {
      if (extent < 1)
        return llvm::formatv("loop {0} has extent {1}", l, extent);
      if (l < comp.numParallel && extent != output.shape[l])
        return llvm::formatv("loop {0} has extent {1} but output dimension "
                             "{0} has size {2}",
                             l, extent, output.shape[l]);
    }
    if ((comp.combiner == Combiner::None) != (numLoops == comp.numParallel))
      return "a combiner is needed exactly when there are reduction loops";

    std::vector<bool> pureLoops(numLoops, false);
    for (unsigned l = 0; l < comp.numParallel; ++l)
      pureLoops[l] = true;
    for (auto [o, operand] : llvm::enumerate(comp.operands)) {
      if (operand.tensor < 0 || operand.tensor >= numTensors)
        return llvm::formatv("operand {0} reads unknown tensor {1}", o,
                             operand.tensor);
      const TensorSpec &tensor = spec.tensors[operand.tensor];
      if (tensor.role != TensorSpec::Role::Input &&
          tensor.producer >= static_cast<int>(c))
        return llvm::formatv("operand {0} reads tensor {1} before it is "
                             "computed",
                             o, operand.tensor);
      if (tensor.role == TensorSpec::Role::Scratch)
        return llvm::formatv("operand {0} reads tensor {1}, the scratch "
                             "grid of computation {2}",
                             o, operand.tensor, tensor.producer);
      if (operand.indices.size() != tensor.shape.size())
        return llvm::formatv("operand {0} has {1} indices for tensor {2} of "
                             "rank {3}",
                             o, operand.indices.size(), operand.tensor,
                             tensor.shape.size());
      for (auto [d, index] : llvm::enumerate(operand.indices)) {
        if (index.coefficients.size() != numLoops)
          return llvm::formatv("operand {0}, index {1}: {2} coefficients for "
                               "{3} loops",
                               o, d, index.coefficients.size(), numLoops);
        int64_t last = index.offset;
        if (index.offset < 0)
          return llvm::formatv("operand {0}, index {1}: negative offset", o, d);
        for (auto [l, coefficient] : llvm::enumerate(index.coefficients)) {
          if (coefficient < 0)
            return llvm::formatv("operand {0}, index {1}: negative "
                                 "coefficient",
                                 o, d);
          last += coefficient * (comp.extents[l] - 1);
        }
        if (last >= tensor.shape[d])
          return llvm::formatv("operand {0} reads index {1} of dimension {2} "
                               "of tensor {3}, of size {4}",
                               o, last, d, operand.tensor, tensor.shape[d]);
        int loop = index.pureLoop();
        if (loop >= 0) {
          if (comp.extents[loop] != tensor.shape[d])
            return llvm::formatv("operand {0}: index {1} is loop {2} of "
                                 "extent {3}, but the dimension has size {4}",
                                 o, d, loop, comp.extents[loop],
                                 tensor.shape[d]);
          pureLoops[loop] = true;
        }
      }
    }
    for (auto [l, pure] : llvm::enumerate(pureLoops))
      if (!pure)
        return llvm::formatv("reduction loop {0} is not the whole index of "
                             "any operand dimension",
                             l);

    std::string problem = verifyBody(comp);
    if (!problem.empty())
      return problem;
    problem = verifyNamedOp(comp);
    if (!problem.empty())
      return problem;
    return verifyAffineOrder(comp);
  }

  std::string verifyBody(const ComputationSpec &comp) {
    if (comp.body.empty())
      return "empty body";
    std::vector<bool> used(comp.operands.size(), false);
    for (auto [n, node] : llvm::enumerate(comp.body)) {
      switch (node.kind) {
      case ExprNode::Kind::Operand:
        if (node.operand < 0 ||
            node.operand >= static_cast<int>(comp.operands.size()))
          return llvm::formatv("body node {0} reads unknown operand {1}", n,
                               node.operand);
        used[node.operand] = true;
        break;
      case ExprNode::Kind::Constant:
        if (!std::isfinite(node.constant) ||
            (!isFloat(spec.type) && node.constant != std::trunc(node.constant)))
          return llvm::formatv("body node {0}: constant {1} is not a {2}", n,
                               shortNumber(node.constant),
                               stringifyScalarType(spec.type));
        break;
      case ExprNode::Kind::Binary:
        if (node.lhs < 0 || node.rhs < 0 || node.lhs >= static_cast<int>(n) ||
            node.rhs >= static_cast<int>(n))
          return llvm::formatv("body node {0} uses a node that is not "
                               "before it",
                               n);
        break;
      }
    }
    for (auto [o, isUsed] : llvm::enumerate(used))
      if (!isUsed)
        return llvm::formatv("operand {0} is not used by the body", o);
    return "";
  }

  /// Whether `operand` reads, in dimension d, exactly loop loops[d].
  static bool readsLoops(const Operand &operand,
                         llvm::ArrayRef<unsigned> loops) {
    if (operand.indices.size() != loops.size())
      return false;
    for (auto [index, loop] : llvm::zip(operand.indices, loops))
      if (index.pureLoop() != static_cast<int>(loop))
        return false;
    return true;
  }

  /// Whether `operand` reads, in dimension d, loops[d] + windows[d].
  static bool readsWindows(const Operand &operand,
                           llvm::ArrayRef<unsigned> loops,
                           llvm::ArrayRef<unsigned> windows) {
    if (operand.indices.size() != loops.size())
      return false;
    for (auto [d, index] : llvm::enumerate(operand.indices)) {
      if (index.offset != 0)
        return false;
      for (auto [l, coefficient] : llvm::enumerate(index.coefficients)) {
        int64_t expected = l == loops[d] || l == windows[d] ? 1 : 0;
        if (coefficient != expected)
          return false;
      }
    }
    return true;
  }

  /// Whether `operand` reads, in dimension d, the sum of loops sums[d]
  /// (each with coefficient 1, no offset).
  static bool readsSums(const Operand &operand,
                        llvm::ArrayRef<std::vector<unsigned>> sums) {
    if (operand.indices.size() != sums.size())
      return false;
    for (auto [index, loops] : llvm::zip(operand.indices, sums)) {
      if (index.offset != 0)
        return false;
      for (auto [l, coefficient] : llvm::enumerate(index.coefficients))
        if (coefficient != (llvm::is_contained(loops, l) ? 1 : 0))
          return false;
    }
    return true;
  }

  /// Whether the body is exactly `operand 0 <op> operand 1`.
  static bool isBinaryOfOperands(const ComputationSpec &comp, BinaryOp op) {
    const std::vector<ExprNode> &body = comp.body;
    return body.size() == 3 && body[0].kind == ExprNode::Kind::Operand &&
           body[0].operand == 0 && body[1].kind == ExprNode::Kind::Operand &&
           body[1].operand == 1 && body[2].kind == ExprNode::Kind::Binary &&
           body[2].op == op && body[2].lhs == 0 && body[2].rhs == 1;
  }

  std::string verifyNamedOp(const ComputationSpec &comp) {
    if (comp.namedOp == NamedOp::None)
      return "";
    llvm::StringRef name = stringifyNamedOp(comp.namedOp);
    auto fail = [&](llvm::StringRef what) {
      return llvm::formatv("{0} does not fit: {1}", name, what).str();
    };
    if (comp.operands.size() != 2)
      return fail("it takes two operands");
    const Operand &lhs = comp.operands[0], &rhs = comp.operands[1];
    size_t numLoops = comp.extents.size();
    switch (comp.namedOp) {
    case NamedOp::None:
      return "";
    case NamedOp::Add:
    case NamedOp::Sub:
    case NamedOp::Mul:
    case NamedOp::Max:
    case NamedOp::Min: {
      static constexpr BinaryOp ops[] = {BinaryOp::Add, BinaryOp::Sub,
                                         BinaryOp::Mul, BinaryOp::Max,
                                         BinaryOp::Min};
      BinaryOp op =
          ops[static_cast<int>(comp.namedOp) - static_cast<int>(NamedOp::Add)];
      std::vector<unsigned> identity(comp.numParallel);
      for (unsigned l = 0; l < comp.numParallel; ++l)
        identity[l] = l;
      if (comp.combiner != Combiner::None || !readsLoops(lhs, identity) ||
          !readsLoops(rhs, identity))
        return fail("both operands must be read at the output's index");
      if (!isBinaryOfOperands(comp, op))
        return fail("the body must be the op of the two operands");
      return "";
    }
    case NamedOp::Matmul:
    case NamedOp::Matvec:
    case NamedOp::BatchMatmul:
    case NamedOp::Conv1D:
    case NamedOp::Conv2D:
    case NamedOp::Conv2DNchwFchw:
    case NamedOp::Conv2DNhwcHwcf:
      break;
    }
    if (comp.combiner != Combiner::Add ||
        !isBinaryOfOperands(comp, BinaryOp::Mul))
      return fail("it sums the products of its operands");
    bool fits = false;
    switch (comp.namedOp) {
    case NamedOp::Matmul: // (i, j, k): A[i, k] B[k, j]
      fits = numLoops == 3 && comp.numParallel == 2 &&
             readsLoops(lhs, {0, 2}) && readsLoops(rhs, {2, 1});
      break;
    case NamedOp::Matvec: // (i, k): A[i, k] x[k]
      fits = numLoops == 2 && comp.numParallel == 1 &&
             readsLoops(lhs, {0, 1}) && readsLoops(rhs, {1});
      break;
    case NamedOp::BatchMatmul: // (b, i, j, k): A[b, i, k] B[b, k, j]
      fits = numLoops == 4 && comp.numParallel == 3 &&
             readsLoops(lhs, {0, 1, 3}) && readsLoops(rhs, {0, 3, 2});
      break;
    case NamedOp::Conv1D: // (i, r): in[i + r] w[r]
      fits = numLoops == 2 && comp.numParallel == 1 &&
             readsWindows(lhs, {0}, {1}) && readsLoops(rhs, {1});
      break;
    case NamedOp::Conv2D: // (i, j, r, s): in[i + r, j + s] w[r, s]
      fits = numLoops == 4 && comp.numParallel == 2 &&
             readsWindows(lhs, {0, 1}, {2, 3}) && readsLoops(rhs, {2, 3});
      break;
    case NamedOp::Conv2DNchwFchw:
      // (n, f, oh, ow, c, kh, kw): in[n, c, oh + kh, ow + kw] w[f, c, kh, kw]
      fits = numLoops == 7 && comp.numParallel == 4 &&
             readsSums(lhs, {{0}, {4}, {2, 5}, {3, 6}}) &&
             readsLoops(rhs, {1, 4, 5, 6});
      break;
    case NamedOp::Conv2DNhwcHwcf:
      // (n, oh, ow, f, kh, kw, c): in[n, oh + kh, ow + kw, c] w[kh, kw, c, f]
      fits = numLoops == 7 && comp.numParallel == 4 &&
             readsSums(lhs, {{0}, {1, 4}, {2, 5}, {6}}) &&
             readsLoops(rhs, {4, 5, 6, 3});
      break;
    default:
      break;
    }
    return fits ? "" : fail("its operands' indices differ from the op's");
  }

  /// A time stencil: its grid, copies, interior loops and reads (see
  /// ComputationSpec).
  std::string verifyTimeStencil(size_t c, const ComputationSpec &comp) {
    int numTensors = static_cast<int>(spec.tensors.size());
    if (comp.pattern != Pattern::TimeStencil || comp.timeSteps < 1)
      return "time steps, an initial grid and a scratch grid are for time "
             "stencils, which have at least one time step";
    if (comp.output < 0 || comp.output >= numTensors)
      return llvm::formatv("unknown output tensor {0}", comp.output);
    const TensorSpec &grid = spec.tensors[comp.output];
    if (grid.producer != static_cast<int>(c) ||
        grid.role == TensorSpec::Role::Scratch)
      return llvm::formatv("writes tensor {0}, produced by computation {1}",
                           comp.output, grid.producer);
    if (comp.combiner != Combiner::None || comp.namedOp != NamedOp::None)
      return "a time stencil has neither a combiner nor a named op";
    size_t rank = grid.shape.size();
    if (comp.extents.size() != rank || comp.numParallel != rank)
      return llvm::formatv("{0} loops ({1} parallel) for a grid of rank {2}",
                           comp.extents.size(), comp.numParallel, rank);
    for (auto [d, extent] : llvm::enumerate(comp.extents))
      if (extent < 1 || extent != grid.shape[d] - 2)
        return llvm::formatv("loop {0} has extent {1}, but the interior of "
                             "grid dimension {0} (of size {2}) has {3} points",
                             d, extent, grid.shape[d], grid.shape[d] - 2);

    auto sameGrid = [&](int t, llvm::StringRef what) -> std::string {
      if (t < 0 || t >= numTensors || t == comp.output)
        return llvm::formatv("the {0} is tensor {1}, not another tensor of "
                             "the program",
                             what, t);
      if (spec.tensors[t].shape != grid.shape)
        return llvm::formatv("the {0}, tensor {1}, is not of the grid's "
                             "shape",
                             what, t);
      return "";
    };
    std::string problem = sameGrid(comp.timeInitial, "initial grid");
    if (!problem.empty())
      return problem;
    const TensorSpec &initial = spec.tensors[comp.timeInitial];
    if (initial.role == TensorSpec::Role::Scratch)
      return llvm::formatv("the initial grid is tensor {0}, the scratch grid "
                           "of computation {1}",
                           comp.timeInitial, initial.producer);
    if (initial.role != TensorSpec::Role::Input &&
        initial.producer >= static_cast<int>(c))
      return llvm::formatv("the initial grid, tensor {0}, is read before it "
                           "is computed",
                           comp.timeInitial);
    if (comp.timeScratch >= 0) {
      problem = sameGrid(comp.timeScratch, "scratch grid");
      if (!problem.empty())
        return problem;
      const TensorSpec &scratch = spec.tensors[comp.timeScratch];
      if (scratch.role != TensorSpec::Role::Scratch ||
          scratch.producer != static_cast<int>(c))
        return llvm::formatv("the scratch grid, tensor {0}, must be a "
                             "scratch tensor of this computation",
                             comp.timeScratch);
    }

    if (comp.operands.size() < 2)
      return "a time stencil reads at least two points of its grid";
    bool center = false;
    for (auto [o, operand] : llvm::enumerate(comp.operands)) {
      if (operand.tensor != comp.output)
        return llvm::formatv("operand {0} reads tensor {1}, not the grid "
                             "(tensor {2})",
                             o, operand.tensor, comp.output);
      if (operand.indices.size() != rank)
        return llvm::formatv("operand {0} has {1} indices for a grid of "
                             "rank {2}",
                             o, operand.indices.size(), rank);
      bool isCenter = true;
      for (auto [d, index] : llvm::enumerate(operand.indices)) {
        if (index.offset < 0 || index.offset > 2 ||
            index.coefficients.size() != rank)
          return llvm::formatv("operand {0}, index {1}: not a loop plus an "
                               "offset in [0, 2]",
                               o, d);
        for (auto [l, coefficient] : llvm::enumerate(index.coefficients))
          if (coefficient != (l == d ? 1 : 0))
            return llvm::formatv("operand {0}, index {1}: not loop {1} plus "
                                 "an offset",
                                 o, d);
        isCenter = isCenter && index.offset == 1;
      }
      center = center || isCenter;
    }
    if (!center)
      return "no operand reads the point a sweep writes";
    problem = verifyBody(comp);
    if (!problem.empty())
      return problem;
    for (auto [position, loop] : llvm::enumerate(comp.affineOrder))
      if (loop != position)
        return "a time stencil keeps its loops in order";
    return verifyAffineOrder(comp);
  }

  std::string verifyAffineOrder(const ComputationSpec &comp) {
    size_t numLoops = comp.extents.size();
    if (comp.affineOrder.size() != numLoops)
      return llvm::formatv("affine order of {0} loops for {1}",
                           comp.affineOrder.size(), numLoops);
    std::vector<bool> seen(numLoops, false);
    for (unsigned loop : comp.affineOrder) {
      if (loop >= numLoops || seen[loop])
        return "the affine order is not a permutation of the loops";
      seen[loop] = true;
    }
    if (comp.affineInitInNest) {
      if (comp.combiner == Combiner::None)
        return "only reductions initialize their output in the nest";
      for (unsigned l = 0; l < comp.numParallel; ++l)
        if (comp.affineOrder[l] != l)
          return "initializing in the nest needs the parallel loops "
                 "outermost, in order";
    }
    return "";
  }
};
} // namespace

std::string ProgramSpec::verify() const { return SpecVerifier(*this).verify(); }

/// 1234 -> "1234", 1234567 -> "1.2M".
static std::string shortCount(int64_t count) {
  if (count >= 1'000'000)
    return llvm::formatv("{0:F1}M", count / 1e6);
  if (count >= 10'000)
    return llvm::formatv("{0:F1}K", count / 1e3);
  return std::to_string(count);
}

std::string ProgramSpec::summary() const {
  std::vector<std::string> patterns;
  for (const ComputationSpec &comp : computations)
    patterns.push_back(stringifyPattern(comp.pattern).str());
  unsigned inputs = numInputs(), outputs = numOutputs();
  return llvm::formatv("{0} computation{1} ({2}), {3}, {4} input{5}, {6} "
                       "output{7}, {8} points",
                       computations.size(), computations.size() == 1 ? "" : "s",
                       llvm::join(patterns, ", "), stringifyScalarType(type),
                       inputs, inputs == 1 ? "" : "s", outputs,
                       outputs == 1 ? "" : "s", shortCount(work()));
}
