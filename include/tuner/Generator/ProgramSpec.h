//===- ProgramSpec.h - A random program, before it is MLIR ------*- C++ -*-===//
//
// The generator's abstract program (Tiramisu paper §3): a sequence of
// computations, each an assignment over a rectangular loop domain that reads
// input tensors or tensors computed before it through affine index
// expressions, and writes one new tensor. One spec is emitted in either
// flavour (linalg on tensors, affine on memrefs) with the same meaning.
// Plain data: no MLIR here.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_GENERATOR_PROGRAMSPEC_H
#define TUNER_GENERATOR_PROGRAMSPEC_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

namespace tuner {
namespace gen {

/// The element type of every tensor of a program.
enum class ScalarType { F32, F64, I32 };
/// "f32", "f64", "i32".
llvm::StringRef stringifyScalarType(ScalarType type);
bool isFloat(ScalarType type);

/// The shape of a computation (the paper's three patterns and their
/// combinations).
enum class Pattern {
  Elementwise, ///< out[i] = f(inputs at i, broadcast or transposed).
  Stencil,     ///< out[i] = f(in[i + shifts]).
  Reduction,   ///< out[i] = combine over k of f(in[i, k]) (row sums, ...).
  Contraction, ///< matmul, matvec, batched matmul (reduction of products).
  Convolution, ///< out[i] = combine over k of f(in[s*i + k], w[k]): a
               ///< stencil that is a reduction.
  ChannelConvolution, ///< A batched 2-D convolution with channels and
                      ///< filters (NCHW/FCHW or NHWC/HWCF named ops).
  TimeStencil, ///< A stencil applied in place T times (a time loop around
               ///< the sweeps); affine flavour only.
};
constexpr Pattern kAllPatterns[] = {
    Pattern::Elementwise, Pattern::Stencil,     Pattern::Reduction,
    Pattern::Contraction, Pattern::Convolution, Pattern::ChannelConvolution,
    Pattern::TimeStencil};
constexpr size_t kNumPatterns = std::size(kAllPatterns);
/// "elementwise", "stencil", "reduction", "contraction", "convolution",
/// "channel-convolution", "time-stencil".
llvm::StringRef stringifyPattern(Pattern pattern);
/// The pattern stringifyPattern names `name`, if any.
std::optional<Pattern> parsePattern(llvm::StringRef name);
/// Whether the linalg flavour can express the pattern (all but
/// TimeStencil: linalg on tensors has no in-place updates).
bool linalgCanExpress(Pattern pattern);

enum class BinaryOp { Add, Sub, Mul, Max, Min };
/// How a reduction accumulates: out = combine(out, value), out starting at
/// the combiner's identity (0 for Add, the lowest value for Max).
enum class Combiner { None, Add, Max };

/// The named linalg op the linalg flavour emits for a computation; None
/// emits linalg.generic. A named op must mean exactly what the computation
/// says (checked by ProgramSpec::verify).
enum class NamedOp {
  None,
  Add,
  Sub,
  Mul,
  Max,
  Min,
  Matmul,
  Matvec,
  BatchMatmul,
  Conv1D,
  Conv2D,
  Conv2DNchwFchw, ///< Loops (n, f, oh, ow, c, kh, kw).
  Conv2DNhwcHwcf, ///< Loops (n, oh, ow, f, kh, kw, c).
};
/// "linalg.add", ..., "linalg.conv_2d", "linalg.conv_2d_nchw_fchw",
/// "linalg.conv_2d_nhwc_hwcf"; "linalg.generic" for None.
llvm::StringRef stringifyNamedOp(NamedOp op);

/// A tensor of the program: a function argument (input), a function result
/// (output: computed and not read afterwards), an intermediate, or the
/// second grid of a Jacobi-style time stencil (scratch: written and read by
/// its computation only; affine flavour only).
struct TensorSpec {
  enum class Role { Input, Intermediate, Output, Scratch };
  std::vector<int64_t> shape;
  Role role = Role::Input;
  /// The computation that writes it; -1 for inputs.
  int producer = -1;

  int64_t numElements() const;
};

/// index = sum over loops l of coefficients[l] * iv_l + offset, with the
/// computation's loops; coefficients and offset are never negative.
struct IndexExpr {
  std::vector<int64_t> coefficients;
  int64_t offset = 0;

  /// The loop it is, when it is exactly one loop (coefficient 1, offset 0).
  int pureLoop() const;
};

/// One read of a tensor: an index expression per tensor dimension.
struct Operand {
  int tensor = 0;
  std::vector<IndexExpr> indices;
};

/// A node of a computation's body; nodes only refer to earlier nodes, and
/// the last node is the value computed.
struct ExprNode {
  enum class Kind { Operand, Constant, Binary };
  Kind kind = Kind::Operand;
  int operand = 0;     ///< Kind::Operand: index into the operands.
  double constant = 0; ///< Kind::Constant: a multiple of 1/8 (an integer for
                       ///< i32 programs), exact in every element type.
  BinaryOp op = BinaryOp::Add; ///< Kind::Binary.
  int lhs = 0, rhs = 0;        ///< Kind::Binary: earlier nodes.
};

/// One assignment. Loops 0..numParallel-1 index the output (output dim d is
/// loop d, with extents[d] == output shape[d]); the remaining loops are
/// reduction loops (only with a combiner).
///
/// A time stencil (timeSteps > 0, Pattern::TimeStencil) is different: its
/// output (the grid) starts as a copy of tensor timeInitial (and so does
/// timeScratch, when there is one), then timeSteps sweeps update the
/// grid's interior in place. Its loops are the interior (extents[d] ==
/// shape[d] - 2, all of them numParallel, no combiner); its operands read
/// the grid itself at loop d + offset, offsets in [0, 2] (the point
/// (1, ..., 1) among them), and each sweep stores the body's value at
/// loop d + 1:
///
///   Gauss-Seidel (timeScratch == -1):
///     for t < timeSteps: for p: grid[p + 1] = body(grid[p + offsets])
///   Jacobi (two grids):
///     for t < timeSteps: { for p: scratch[p + 1] = body(grid[p + offsets])
///                          for p: grid[p + 1] = body(scratch[p + offsets]) }
struct ComputationSpec {
  Pattern pattern = Pattern::Elementwise;
  int output = 0;
  std::vector<int64_t> extents;
  unsigned numParallel = 0;
  std::vector<Operand> operands;
  std::vector<ExprNode> body;
  Combiner combiner = Combiner::None;
  NamedOp namedOp = NamedOp::None;
  /// Affine flavour: the loop order of the nest, outermost first (a
  /// permutation of the loops).
  std::vector<unsigned> affineOrder;
  /// Affine flavour, reductions: set the output to the identity inside the
  /// nest, between the parallel loops (outermost, in order) and the
  /// reduction loops, instead of in a nest of its own.
  bool affineInitInNest = false;
  /// Time stencils: the number of time steps (0 for every other pattern),
  /// the tensor the grid starts as (same shape), and the Jacobi grid (a
  /// Scratch tensor of the same shape written by this computation) or -1.
  int64_t timeSteps = 0;
  int timeInitial = -1;
  int timeScratch = -1;

  /// Loop iterations: the points of the loop domain; for a time stencil,
  /// those of its copies plus timeSteps times those of its sweeps.
  int64_t points() const;
};

/// A whole program: the function `functionName` takes the inputs (in tensor
/// order) and, in the affine flavour, the outputs as memrefs to write; in the
/// linalg flavour it returns the outputs (in tensor order).
struct ProgramSpec {
  std::string functionName = "program";
  ScalarType type = ScalarType::F32;
  std::vector<TensorSpec> tensors;
  std::vector<ComputationSpec> computations;

  /// Sum of the computations' domain points.
  int64_t work() const;
  /// Elements of the largest tensor.
  int64_t largestTensor() const;
  /// Number of inputs and of outputs.
  unsigned numInputs() const;
  unsigned numOutputs() const;
  /// Whether only the affine flavour can express the program (it has a
  /// time stencil).
  bool needsAffine() const;

  /// Checks that the program means something in both flavours: every read in
  /// bounds (an index that is one loop spans its tensor dimension exactly, as
  /// linalg's verifier wants), every tensor but the inputs written by exactly
  /// one computation, before any read of it, covering it, outputs never read
  /// afterwards and intermediates read, bodies well formed and using every
  /// operand, combiners exactly on computations with reduction loops, named
  /// ops matching their computation, affine orders permutations, time
  /// stencils reading their grid within it and scratch grids read by their
  /// computation only. Returns the first problem found, or "".
  std::string verify() const;

  /// One line, e.g. "3 computations (stencil, reduction, elementwise), f32,
  /// 2 inputs, 1 output, 1.2M points".
  std::string summary() const;
};

} // namespace gen
} // namespace tuner

#endif // TUNER_GENERATOR_PROGRAMSPEC_H
