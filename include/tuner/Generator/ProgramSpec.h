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
};
constexpr Pattern kAllPatterns[] = {Pattern::Elementwise, Pattern::Stencil,
                                    Pattern::Reduction, Pattern::Contraction,
                                    Pattern::Convolution};
/// "elementwise", "stencil", "reduction", "contraction", "convolution".
llvm::StringRef stringifyPattern(Pattern pattern);

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
  Conv2D
};
/// "linalg.add", ..., "linalg.conv_2d"; "linalg.generic" for None.
llvm::StringRef stringifyNamedOp(NamedOp op);

/// A tensor of the program: a function argument (input), a function result
/// (output: computed and not read afterwards), or an intermediate.
struct TensorSpec {
  enum class Role { Input, Intermediate, Output };
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

  /// Points of the loop domain.
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

  /// Checks that the program means something in both flavours: every read in
  /// bounds (an index that is one loop spans its tensor dimension exactly, as
  /// linalg's verifier wants), every tensor but the inputs written by exactly
  /// one computation, before any read of it, covering it, outputs never read
  /// afterwards and intermediates read, bodies well formed and using every
  /// operand, combiners exactly on computations with reduction loops, named
  /// ops matching their computation, affine orders permutations. Returns the
  /// first problem found, or "".
  std::string verify() const;

  /// One line, e.g. "3 computations (stencil, reduction, elementwise), f32,
  /// 2 inputs, 1 output, 1.2M points".
  std::string summary() const;
};

} // namespace gen
} // namespace tuner

#endif // TUNER_GENERATOR_PROGRAMSPEC_H
