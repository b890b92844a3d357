//===- ProgramTree.h - The tuner's view of a program ------------*- C++ -*-===//
//
// A ProgramTree is what the search space and the cost model know of a
// function: loops as inner nodes, computations as leaves (Tiramisu paper
// §4.1). It is a plain value with no MLIR types, so that the cost model and the
// search can use it without depending on MLIR headers.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_ANALYSIS_PROGRAMTREE_H
#define TUNER_ANALYSIS_PROGRAMTREE_H

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tuner {

/// Where a loop nest came from; decides which transformations apply and how
/// legality is decided.
enum class NestSource { Linalg, Affine };

/// Element type of a buffer, as far as the cost model cares.
enum class ElementType { F16, BF16, F32, F64, I8, I16, I32, I64, Index, Other };

llvm::StringRef stringifyElementType(ElementType type);
/// The inverse of stringifyElementType; std::nullopt for any other string.
std::optional<ElementType> parseElementType(llvm::StringRef name);
/// Size in bytes (0 for Other).
unsigned elementTypeBytes(ElementType type);

/// A buffer (memref, or tensor value chain) read or written by computations.
struct Buffer {
  int id = 0;
  std::string name;           ///< %arg0, %alloc, "C" ... as printed.
  std::vector<int64_t> shape; ///< Static shape.
  ElementType elementType = ElementType::Other;
  bool isFunctionArgument = false;
  bool isFunctionResult = false;
  /// A chain of tensor SSA values (true) or a memref (false).
  bool isTensor = false;
};

/// One memory access of a computation. The access matrix has one row per
/// buffer dimension and one column per enclosing loop (outermost first) plus a
/// last constant column: index[d] = sum_l matrix[d][l] * iv_l + matrix[d][L].
struct Access {
  int bufferId = 0;
  bool isWrite = false;
  std::vector<std::vector<int64_t>> matrix;
  /// False when an index is not an affine function of the loops (e.g. an
  /// indirect access); the matrix then holds zeros for that row.
  bool isAffine = true;
};

/// Arithmetic operation counts in the body of one computation (per point of
/// the iteration domain).
struct OpCounts {
  int64_t add = 0, sub = 0, mul = 0, div = 0, other = 0;
  int64_t total() const { return add + sub + mul + div + other; }
};

/// A leaf: one statement / linalg op body.
struct Computation {
  int id = 0;
  std::string name;   ///< Stable name: "<op>_<index>", e.g. "matmul_0".
  std::string opName; ///< "linalg.matmul", "affine.store", ...
  int writtenBufferId = -1;
  std::vector<int64_t> writtenShape;
  ElementType elementType = ElementType::Other;
  std::vector<Access> accesses; ///< Reads and the write.
  OpCounts opCounts;
  /// Ids of the loops that enclose this computation, outermost first.
  std::vector<int> loopIds;
  /// Index of the loop nest (root loop) this computation belongs to.
  int nestId = 0;
};

/// An inner node.
struct Loop {
  int id = 0;
  std::string name; ///< "matmul_0.d0", "i", ...
  int64_t lowerBound = 0;
  int64_t extent = 0; ///< Number of iterations.
  int64_t step = 1;
  /// Accumulates into a location that does not depend on the loop (linalg:
  /// a reduction iterator; affine: see buildProgramTree).
  bool isReduction = false;
  int parentId = -1; ///< -1 for a root loop.
  int depth = 0;
  /// Children in program order: loops and computations.
  struct Child {
    bool isLoop = true;
    int id = 0;
  };
  std::vector<Child> children;
  /// Carries no dependence: iterations may run in any order or at once
  /// (linalg: a parallel iterator; affine: affine::isLoopParallel).
  bool isParallel = false;
};

/// A loop nest: the unit the space is extracted for. For linalg, one op is one
/// nest (its iteration space); for affine, one outermost affine.for.
struct LoopNest {
  int id = 0;
  std::string name;
  NestSource source = NestSource::Linalg;
  /// The outermost loop; -1 for a linalg op without loops (0-d operands),
  /// whose computation then has no enclosing loops.
  int rootLoopId = -1;
  /// For linalg, the op index within the function (walk order among linalg
  /// ops); for affine, the index among outermost affine.for ops.
  int opIndex = 0;
  std::vector<int> computationIds;
  /// Whether all loops of the nest form a perfect band (only the innermost
  /// loop has computations).
  bool isPerfect = true;
  /// Legal loop orders over the nest's band (permutations of 0..depth-1). An
  /// order lists, outermost first, the band position each loop comes from:
  /// order[p] = b means band loop b runs at position p ([1, 0] swaps a 2-loop
  /// band; the same convention as linalg's iterator_interchange). An empty
  /// list means every order is legal. When not empty, the length of its
  /// orders is the depth of the band (see ProgramTree::bandOf).
  std::vector<std::vector<int64_t>> legalOrders;
  /// Whether the outermost loop carries no dependence (may run in parallel).
  bool outerLoopParallel = false;
  /// Whether every dependence has non-negative components on every band
  /// loop, so that the band may be tiled in several dimensions (linalg:
  /// always). Otherwise only one loop may be tiled (strip-mined).
  bool fullyPermutable = true;
  /// Time tiling (affine nests that are not fully permutable): the loops
  /// that skewing makes a fully permutable band, outermost first (see
  /// tuner/Analysis/Skewing.h). Either the band itself, or, when the band's
  /// innermost loop holds several loop nests (a time loop over the sweeps of
  /// a Jacobi stencil), the band followed by the outermost loop of the first
  /// of those nests, which the schedule fuses with shifts into one loop.
  /// Empty when skewing does not apply (a fully permutable band, a single
  /// loop, or dependences no skew fixes).
  std::vector<int> skewBand;
};

/// A producer/consumer edge: `consumer` reads what `producer` wrote.
struct ProducerConsumerEdge {
  int producer = 0; ///< Computation id.
  int consumer = 0;
  int bufferId = 0;
  /// True when the value flows as an SSA tensor (fusion is expressible).
  bool viaTensor = false;
  /// True when the consumer takes the value as its init (destination)
  /// operand, e.g. fill -> matmul accumulator, rather than as an input.
  bool intoInit = false;
  /// True when the consumer reads the producer's tensor through
  /// `tensor.extract_slice` windows (a stencil stage reading its previous
  /// stage at shifted offsets) rather than the tensor itself: fusion then
  /// computes the union of the windows a tile reads
  /// (`transform.tuner.fuse_window_producer`).
  bool throughWindows = false;
};

class ProgramTree {
public:
  std::string functionName;
  std::vector<Buffer> buffers;
  std::vector<Loop> loops;
  std::vector<Computation> computations;
  std::vector<LoopNest> nests;
  std::vector<ProducerConsumerEdge> edges;
  /// Root loops in program order.
  std::vector<int> rootLoopIds;

  /// Loops of nest `nestId` that form its band, outermost first (for linalg,
  /// all iteration dims in op order; for affine, the perfectly nested band).
  /// The band is the chain of loops from the root in which each loop's only
  /// child is the next loop, cut to the length of the nest's legal orders when
  /// it has any. Empty for an unknown nest or one without loops.
  std::vector<int> bandOf(int nestId) const;

  /// Readable, deterministic dump (used by --tuner-print-program).
  void print(llvm::raw_ostream &os) const;
  llvm::json::Value toJSON() const;
  /// The inverse of toJSON (derived fields it writes, "elementBytes" and
  /// "band", are ignored). A missing or mistyped field is an error naming
  /// its path ("expected integer at loops[3].extent"); so is a tree that
  /// fails verify().
  static llvm::Expected<ProgramTree> fromJSON(const llvm::json::Value &json);

  /// Checks the tree's internal invariants (ids, parent links, access matrix
  /// widths); returns a message describing the first violation, or "".
  std::string verify() const;
};

} // namespace tuner

#endif // TUNER_ANALYSIS_PROGRAMTREE_H
