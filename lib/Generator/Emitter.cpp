//===- Emitter.cpp - A ProgramSpec as MLIR text ---------------------------===//
//
// Writes a verified ProgramSpec in one of two flavours with the same
// meaning:
//
//   linalg: tensor arguments and results; per computation a tensor.empty
//           (then a linalg.fill with the combiner's identity for
//           reductions) and a named op or a linalg.generic whose indexing
//           maps are the operands' index expressions.
//   affine: memref arguments (inputs, then outputs), memref.alloc for
//           intermediates and scratch grids (freed by the lowering's buffer
//           deallocation); per computation an affine.for nest of
//           affine.load / arith / affine.store (reductions first store the
//           identity, in a nest of their own or inside the nest; time
//           stencils copy their initial grid in a nest of their own, then
//           run their sweeps inside a time loop).
//
// And parses the text back, which runs the MLIR verifier.
//
//===----------------------------------------------------------------------===//

#include "tuner/Generator/Generator.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cassert>

using namespace tuner;
using namespace tuner::gen;

namespace {

/// Writes one program; shared by both flavours.
class Emitter {
public:
  Emitter(const ProgramSpec &spec, llvm::raw_ostream &os)
      : spec(spec), os(os), element(stringifyScalarType(spec.type)),
        isFloatType(isFloat(spec.type)) {}

  void emitLinalg();
  void emitAffine();

private:
  const ProgramSpec &spec;
  llvm::raw_ostream &os;
  llvm::StringRef element;
  bool isFloatType;

  std::string shapedType(llvm::StringRef kind, int tensor) const {
    std::string text = (kind + "<").str();
    for (int64_t size : spec.tensors[tensor].shape)
      text += std::to_string(size) + "x";
    return text + element.str() + ">";
  }
  std::string tensorType(int tensor) const {
    return shapedType("tensor", tensor);
  }
  std::string memrefType(int tensor) const {
    return shapedType("memref", tensor);
  }

  /// `index` over the loops named prefix0, prefix1, ...: "d0 * 2 + d2 + 1".
  static std::string indexText(const IndexExpr &index, llvm::StringRef prefix) {
    std::vector<std::string> terms;
    for (auto [l, coefficient] : llvm::enumerate(index.coefficients)) {
      if (coefficient == 0)
        continue;
      std::string term = (prefix + llvm::Twine(l)).str();
      if (coefficient != 1)
        term += " * " + std::to_string(coefficient);
      terms.push_back(term);
    }
    if (terms.empty() || index.offset != 0)
      terms.push_back(std::to_string(index.offset));
    return llvm::join(terms, " + ");
  }

  std::string indicesText(const Operand &operand,
                          llvm::StringRef prefix) const {
    std::vector<std::string> indices;
    for (const IndexExpr &index : operand.indices)
      indices.push_back(indexText(index, prefix));
    return llvm::join(indices, ", ");
  }

  /// The output's indices: its dimension d is loop d.
  std::string outputIndices(const ComputationSpec &comp,
                            llvm::StringRef prefix) const {
    std::vector<std::string> indices;
    for (unsigned d = 0; d < comp.numParallel; ++d)
      indices.push_back((prefix + llvm::Twine(d)).str());
    return llvm::join(indices, ", ");
  }

  std::string literal(double value) const {
    if (!isFloatType)
      return std::to_string(static_cast<int64_t>(value));
    std::string text;
    llvm::raw_string_ostream(text) << llvm::format("%.6e", value);
    return text;
  }

  /// The combiner's identity: 0, or the lowest value for max.
  std::string identity(Combiner combiner) const {
    if (combiner != Combiner::Max)
      return isFloatType ? "0.000000e+00" : "0";
    switch (spec.type) {
    case ScalarType::F32:
      return "0xFF800000"; // -inf
    case ScalarType::F64:
      return "0xFFF0000000000000"; // -inf
    case ScalarType::I32:
      return "-2147483648";
    }
    return "0";
  }

  llvm::StringRef arithOp(BinaryOp op) const {
    switch (op) {
    case BinaryOp::Add:
      return isFloatType ? "arith.addf" : "arith.addi";
    case BinaryOp::Sub:
      return isFloatType ? "arith.subf" : "arith.subi";
    case BinaryOp::Mul:
      return isFloatType ? "arith.mulf" : "arith.muli";
    case BinaryOp::Max:
      return isFloatType ? "arith.maximumf" : "arith.maxsi";
    case BinaryOp::Min:
      return isFloatType ? "arith.minimumf" : "arith.minsi";
    }
    return "arith.addf";
  }

  BinaryOp combinerOp(Combiner combiner) const {
    return combiner == Combiner::Max ? BinaryOp::Max : BinaryOp::Add;
  }

  /// Emits the body's nodes at `indent`; operand o is the SSA value
  /// operandNames[o]. Returns the name of the computed value.
  std::string emitBody(const ComputationSpec &comp,
                       llvm::ArrayRef<std::string> operandNames,
                       unsigned indent) {
    std::vector<std::string> names(comp.body.size());
    for (auto [n, node] : llvm::enumerate(comp.body)) {
      switch (node.kind) {
      case ExprNode::Kind::Operand:
        names[n] = operandNames[node.operand];
        break;
      case ExprNode::Kind::Constant:
        names[n] = "%n" + std::to_string(n);
        os.indent(indent) << names[n] << " = arith.constant "
                          << literal(node.constant) << " : " << element << "\n";
        break;
      case ExprNode::Kind::Binary:
        names[n] = "%n" + std::to_string(n);
        os.indent(indent) << names[n] << " = " << arithOp(node.op) << " "
                          << names[node.lhs] << ", " << names[node.rhs] << " : "
                          << element << "\n";
        break;
      }
    }
    return names.back();
  }

  void emitLinalgComputation(size_t c, const ComputationSpec &comp);
  void emitAffineComputation(const ComputationSpec &comp);
  void emitAffineTimeStencil(const ComputationSpec &comp);
  void emitAffineInit(const ComputationSpec &comp, unsigned indent);
};

void Emitter::emitLinalg() {
  std::vector<std::string> arguments, resultTypes, results;
  for (auto [t, tensor] : llvm::enumerate(spec.tensors)) {
    int id = static_cast<int>(t);
    if (tensor.role == TensorSpec::Role::Input)
      arguments.push_back(llvm::formatv("%t{0}: {1}", id, tensorType(id)));
    if (tensor.role == TensorSpec::Role::Output) {
      resultTypes.push_back(tensorType(id));
      results.push_back("%t" + std::to_string(id));
    }
  }
  os << "func.func @" << spec.functionName << "(" << llvm::join(arguments, ", ")
     << ") -> (" << llvm::join(resultTypes, ", ") << ") {\n";
  for (auto [c, comp] : llvm::enumerate(spec.computations))
    emitLinalgComputation(c, comp);
  os << "  return " << llvm::join(results, ", ") << " : "
     << llvm::join(resultTypes, ", ") << "\n}\n";
}

void Emitter::emitLinalgComputation(size_t c, const ComputationSpec &comp) {
  assert(linalgCanExpress(comp.pattern) &&
         "a time stencil has no linalg form (emit it in the affine flavour)");
  std::string type = tensorType(comp.output);
  std::string init = llvm::formatv("%e{0}", c);
  os << "  " << init << " = tensor.empty() : " << type << "\n";
  if (comp.combiner != Combiner::None) {
    os << llvm::formatv("  %z{0} = arith.constant {1} : {2}\n", c,
                        identity(comp.combiner), element);
    os << llvm::formatv("  %f{0} = linalg.fill ins(%z{0} : {1}) outs({2} : "
                        "{3}) -> {3}\n",
                        c, element, init, type);
    init = llvm::formatv("%f{0}", c);
  }
  std::vector<std::string> inputs, inputTypes;
  for (const Operand &operand : comp.operands) {
    inputs.push_back("%t" + std::to_string(operand.tensor));
    inputTypes.push_back(tensorType(operand.tensor));
  }
  std::string insOuts =
      llvm::formatv("ins({0} : {1}) outs({2} : {3})", llvm::join(inputs, ", "),
                    llvm::join(inputTypes, ", "), init, type);
  std::string result = "%t" + std::to_string(comp.output);
  if (comp.namedOp != NamedOp::None) {
    os << "  " << result << " = " << stringifyNamedOp(comp.namedOp) << " "
       << insOuts << " -> " << type << "\n";
    return;
  }

  size_t numLoops = comp.extents.size();
  std::vector<std::string> dims;
  for (size_t l = 0; l < numLoops; ++l)
    dims.push_back("d" + std::to_string(l));
  std::string domain = "(" + llvm::join(dims, ", ") + ")";
  std::vector<std::string> maps;
  for (const Operand &operand : comp.operands)
    maps.push_back(llvm::formatv("affine_map<{0} -> ({1})>", domain,
                                 indicesText(operand, "d")));
  maps.push_back(llvm::formatv("affine_map<{0} -> ({1})>", domain,
                               outputIndices(comp, "d")));
  std::vector<std::string> iterators;
  for (size_t l = 0; l < numLoops; ++l)
    iterators.push_back(l < comp.numParallel ? "\"parallel\""
                                             : "\"reduction\"");
  os << "  " << result << " = linalg.generic {indexing_maps = ["
     << llvm::join(maps, ", ") << "], iterator_types = ["
     << llvm::join(iterators, ", ") << "]} " << insOuts << " {\n";
  std::vector<std::string> blockArguments, operandNames;
  for (size_t o = 0; o < comp.operands.size(); ++o) {
    operandNames.push_back("%a" + std::to_string(o));
    blockArguments.push_back(operandNames.back() + ": " + element.str());
  }
  blockArguments.push_back("%acc: " + element.str());
  os << "  ^bb0(" << llvm::join(blockArguments, ", ") << "):\n";
  std::string value = emitBody(comp, operandNames, 4);
  if (comp.combiner != Combiner::None) {
    os << "    %r = " << arithOp(combinerOp(comp.combiner)) << " %acc, "
       << value << " : " << element << "\n";
    value = "%r";
  }
  os << "    linalg.yield " << value << " : " << element << "\n";
  os << "  } -> " << type << "\n";
}

void Emitter::emitAffine() {
  std::vector<std::string> arguments;
  for (TensorSpec::Role role :
       {TensorSpec::Role::Input, TensorSpec::Role::Output})
    for (auto [t, tensor] : llvm::enumerate(spec.tensors))
      if (tensor.role == role)
        arguments.push_back(
            llvm::formatv("%t{0}: {1}", t, memrefType(static_cast<int>(t))));
  os << "func.func @" << spec.functionName << "(" << llvm::join(arguments, ", ")
     << ") {\n";
  for (auto [t, tensor] : llvm::enumerate(spec.tensors))
    if (tensor.role == TensorSpec::Role::Intermediate ||
        tensor.role == TensorSpec::Role::Scratch)
      os << llvm::formatv("  %t{0} = memref.alloc() : {1}\n", t,
                          memrefType(static_cast<int>(t)));
  for (const ComputationSpec &comp : spec.computations)
    emitAffineComputation(comp);
  // No memref.dealloc: buffer deallocation passes place the frees, and
  // refuse explicit ones.
  os << "  return\n}\n";
}

void Emitter::emitAffineInit(const ComputationSpec &comp, unsigned indent) {
  os.indent(indent) << "%z = arith.constant " << identity(comp.combiner)
                    << " : " << element << "\n";
  os.indent(indent) << "affine.store %z, %t" << comp.output << "["
                    << outputIndices(comp, "%i")
                    << "] : " << memrefType(comp.output) << "\n";
}

void Emitter::emitAffineComputation(const ComputationSpec &comp) {
  if (comp.timeSteps > 0)
    return emitAffineTimeStencil(comp);
  auto openLoop = [&](unsigned loop, unsigned indent) {
    os.indent(indent) << "affine.for %i" << loop << " = 0 to "
                      << comp.extents[loop] << " {\n";
  };
  auto closeLoops = [&](unsigned count, unsigned indent) {
    for (unsigned i = count; i > 0; --i)
      os.indent(indent + 2 * (i - 1)) << "}\n";
  };
  if (comp.combiner != Combiner::None && !comp.affineInitInNest) {
    for (unsigned l = 0; l < comp.numParallel; ++l)
      openLoop(l, 2 + 2 * l);
    emitAffineInit(comp, 2 + 2 * comp.numParallel);
    closeLoops(comp.numParallel, 2);
  }

  unsigned indent = 2;
  for (auto [position, loop] : llvm::enumerate(comp.affineOrder)) {
    if (comp.affineInitInNest && position == comp.numParallel)
      emitAffineInit(comp, indent);
    openLoop(loop, indent);
    indent += 2;
  }
  std::vector<std::string> operandNames;
  for (auto [o, operand] : llvm::enumerate(comp.operands)) {
    operandNames.push_back("%a" + std::to_string(o));
    os.indent(indent) << operandNames.back() << " = affine.load %t"
                      << operand.tensor << "[" << indicesText(operand, "%i")
                      << "] : " << memrefType(operand.tensor) << "\n";
  }
  std::string value = emitBody(comp, operandNames, indent);
  std::string output =
      llvm::formatv("%t{0}[{1}] : {2}", comp.output, outputIndices(comp, "%i"),
                    memrefType(comp.output));
  if (comp.combiner != Combiner::None) {
    os.indent(indent) << "%acc = affine.load " << output << "\n";
    os.indent(indent) << "%r = " << arithOp(combinerOp(comp.combiner))
                      << " %acc, " << value << " : " << element << "\n";
    value = "%r";
  }
  os.indent(indent) << "affine.store " << value << ", " << output << "\n";
  closeLoops(comp.affineOrder.size(), 2);
}

void Emitter::emitAffineTimeStencil(const ComputationSpec &comp) {
  size_t rank = comp.extents.size();
  std::vector<std::string> loops;
  for (size_t d = 0; d < rank; ++d)
    loops.push_back("%i" + std::to_string(d));
  std::string all = llvm::join(loops, ", ");
  // The copies: the grid (and the scratch grid) start as the initial grid.
  unsigned indent = 2;
  for (size_t d = 0; d < rank; ++d, indent += 2)
    os.indent(indent) << "affine.for " << loops[d] << " = 0 to "
                      << comp.extents[d] + 2 << " {\n";
  os.indent(indent) << "%v = affine.load %t" << comp.timeInitial << "[" << all
                    << "] : " << memrefType(comp.timeInitial) << "\n";
  for (int grid : {comp.output, comp.timeScratch})
    if (grid >= 0)
      os.indent(indent) << "affine.store %v, %t" << grid << "[" << all
                        << "] : " << memrefType(grid) << "\n";
  for (size_t d = rank; d > 0; --d)
    os.indent(2 * d) << "}\n";

  // The sweeps, under the time loop.
  std::vector<std::string> written;
  for (size_t d = 0; d < rank; ++d)
    written.push_back(loops[d] + " + 1");
  std::vector<std::pair<int, int>> sweeps = {{comp.output, comp.output}};
  if (comp.timeScratch >= 0)
    sweeps = {{comp.output, comp.timeScratch}, {comp.timeScratch, comp.output}};
  os << "  affine.for %time = 0 to " << comp.timeSteps << " {\n";
  for (auto [from, to] : sweeps) {
    indent = 4;
    for (size_t d = 0; d < rank; ++d, indent += 2)
      os.indent(indent) << "affine.for " << loops[d] << " = 0 to "
                        << comp.extents[d] << " {\n";
    std::vector<std::string> operandNames;
    for (auto [o, operand] : llvm::enumerate(comp.operands)) {
      operandNames.push_back("%a" + std::to_string(o));
      os.indent(indent) << operandNames.back() << " = affine.load %t" << from
                        << "[" << indicesText(operand, "%i")
                        << "] : " << memrefType(from) << "\n";
    }
    std::string value = emitBody(comp, operandNames, indent);
    os.indent(indent) << "affine.store " << value << ", %t" << to << "["
                      << llvm::join(written, ", ") << "] : " << memrefType(to)
                      << "\n";
    for (size_t d = rank; d > 0; --d)
      os.indent(2 + 2 * d) << "}\n";
  }
  os << "  }\n";
}

} // namespace

std::string gen::emitProgram(const ProgramSpec &spec, Flavour flavour) {
  std::string text;
  llvm::raw_string_ostream os(text);
  Emitter emitter(spec, os);
  if (flavour == Flavour::Linalg)
    emitter.emitLinalg();
  else
    emitter.emitAffine();
  return text;
}

llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
gen::parseProgram(mlir::MLIRContext &context, llvm::StringRef mlir) {
  context
      .loadDialect<mlir::func::FuncDialect, mlir::arith::ArithDialect,
                   mlir::linalg::LinalgDialect, mlir::tensor::TensorDialect,
                   mlir::affine::AffineDialect, mlir::memref::MemRefDialect>();
  std::string diagnostics;
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &diag) {
    if (diag.getSeverity() != mlir::DiagnosticSeverity::Error)
      return mlir::success();
    llvm::raw_string_ostream os(diagnostics);
    os << "\n  ";
    if (auto file = diag.getLocation()->findInstanceOf<mlir::FileLineColLoc>())
      os << file.getFilename().getValue() << ":" << file.getLine() << ":"
         << file.getColumn();
    else
      os << diag.getLocation();
    os << ": " << diag;
    return mlir::success();
  });
  mlir::ParserConfig config(&context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(mlir, config, "generated");
  if (!module || failed(mlir::verify(*module)))
    return llvm::createStringError(
        "generator bug: the generated program does not parse or verify:" +
        diagnostics + "\nprogram:\n" + mlir);
  return module;
}
