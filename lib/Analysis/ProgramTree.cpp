//===- ProgramTree.cpp - The tuner's view of a program --------------------===//
//
// Printing, JSON export and invariant checks of the plain ProgramTree value.
// No MLIR here: the cost model and the search link this file alone.
//
//===----------------------------------------------------------------------===//

#include "tuner/Analysis/ProgramTree.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <set>
#include <tuple>

using namespace tuner;

llvm::StringRef tuner::stringifyElementType(ElementType type) {
  switch (type) {
  case ElementType::F16:
    return "f16";
  case ElementType::BF16:
    return "bf16";
  case ElementType::F32:
    return "f32";
  case ElementType::F64:
    return "f64";
  case ElementType::I8:
    return "i8";
  case ElementType::I16:
    return "i16";
  case ElementType::I32:
    return "i32";
  case ElementType::I64:
    return "i64";
  case ElementType::Index:
    return "index";
  case ElementType::Other:
    return "other";
  }
  return "other";
}

std::optional<ElementType> tuner::parseElementType(llvm::StringRef name) {
  for (ElementType type :
       {ElementType::F16, ElementType::BF16, ElementType::F32, ElementType::F64,
        ElementType::I8, ElementType::I16, ElementType::I32, ElementType::I64,
        ElementType::Index, ElementType::Other})
    if (stringifyElementType(type) == name)
      return type;
  return std::nullopt;
}

unsigned tuner::elementTypeBytes(ElementType type) {
  switch (type) {
  case ElementType::I8:
    return 1;
  case ElementType::F16:
  case ElementType::BF16:
  case ElementType::I16:
    return 2;
  case ElementType::F32:
  case ElementType::I32:
    return 4;
  case ElementType::F64:
  case ElementType::I64:
  case ElementType::Index:
    return 8;
  case ElementType::Other:
    return 0;
  }
  return 0;
}

static llvm::StringRef stringifyNestSource(NestSource source) {
  return source == NestSource::Linalg ? "linalg" : "affine";
}

//===----------------------------------------------------------------------===//
// bandOf
//===----------------------------------------------------------------------===//

/// The chain of at most `limit` loops from `rootLoopId` in which each loop's
/// only child is the next loop.
static std::vector<int> perfectChain(const ProgramTree &tree, int rootLoopId,
                                     size_t limit) {
  std::vector<int> chain;
  int loopId = rootLoopId;
  // The size bound also stops a malformed tree whose children form a cycle.
  while (loopId >= 0 && loopId < static_cast<int>(tree.loops.size()) &&
         chain.size() < limit && chain.size() < tree.loops.size()) {
    chain.push_back(loopId);
    const Loop &loop = tree.loops[loopId];
    if (loop.children.size() != 1 || !loop.children.front().isLoop)
      break;
    loopId = loop.children.front().id;
  }
  return chain;
}

std::vector<int> ProgramTree::bandOf(int nestId) const {
  if (nestId < 0 || nestId >= static_cast<int>(nests.size()))
    return {};
  const LoopNest &nest = nests[nestId];
  size_t limit =
      nest.legalOrders.empty() ? loops.size() : nest.legalOrders.front().size();
  return perfectChain(*this, nest.rootLoopId, limit);
}

//===----------------------------------------------------------------------===//
// print
//===----------------------------------------------------------------------===//

namespace {
/// Prints a tree, tolerating ids out of range (printed as "?") so that a
/// broken tree can still be dumped while debugging it.
class TreePrinter {
public:
  TreePrinter(const ProgramTree &tree, llvm::raw_ostream &os)
      : tree(tree), os(os) {}

  void print() {
    os << "function @" << tree.functionName << "\n";
    printBuffers();
    for (const LoopNest &nest : tree.nests)
      printNest(nest);
    printEdges();
  }

private:
  const ProgramTree &tree;
  llvm::raw_ostream &os;

  template <typename T>
  static const T *lookup(const std::vector<T> &items, int id) {
    if (id < 0 || id >= static_cast<int>(items.size()))
      return nullptr;
    return &items[id];
  }

  std::string computationName(int id) const {
    const Computation *comp = lookup(tree.computations, id);
    return comp ? comp->name : "?";
  }

  void indent(unsigned level) { os.indent(2 * level); }

  static void printShape(llvm::raw_ostream &os,
                         const std::vector<int64_t> &shape) {
    if (shape.empty()) {
      os << "scalar";
      return;
    }
    llvm::interleave(shape, os, "x");
  }

  static void printList(llvm::raw_ostream &os,
                        const std::vector<int64_t> &values) {
    os << "[";
    llvm::interleaveComma(values, os);
    os << "]";
  }

  void printBuffers() {
    indent(1);
    os << "buffers:";
    if (tree.buffers.empty())
      os << " none";
    os << "\n";
    for (const Buffer &buffer : tree.buffers) {
      indent(2);
      os << "#" << buffer.id << " " << buffer.name << " "
         << (buffer.isTensor ? "tensor" : "memref") << " ";
      printShape(os, buffer.shape);
      os << " " << stringifyElementType(buffer.elementType);
      llvm::SmallVector<llvm::StringRef, 2> flags;
      if (buffer.isFunctionArgument)
        flags.push_back("arg");
      if (buffer.isFunctionResult)
        flags.push_back("result");
      if (!flags.empty())
        os << " (" << llvm::join(flags, ", ") << ")";
      os << "\n";
    }
  }

  void printNest(const LoopNest &nest) {
    indent(1);
    os << "nest " << nest.name << " (" << stringifyNestSource(nest.source)
       << ", op " << nest.opIndex << ") "
       << (nest.isPerfect ? "perfect" : "imperfect") << " "
       << (nest.outerLoopParallel ? "outer-parallel" : "outer-sequential")
       << "\n";
    if (nest.rootLoopId >= 0) {
      printLoop(nest.rootLoopId, 2, 0);
    } else {
      for (int compId : nest.computationIds)
        printComputation(compId, 2);
    }
    indent(2);
    os << "band:";
    std::vector<int> band = tree.bandOf(nest.id);
    if (band.empty())
      os << " none";
    for (int loopId : band) {
      const Loop *loop = lookup(tree.loops, loopId);
      os << " " << (loop ? loop->name : "?");
    }
    os << "\n";
    if (!nest.skewBand.empty()) {
      indent(2);
      os << "skew band:";
      for (int loopId : nest.skewBand) {
        const Loop *loop = lookup(tree.loops, loopId);
        os << " " << (loop ? loop->name : "?");
      }
      os << "\n";
    }
    indent(2);
    if (nest.legalOrders.empty()) {
      os << "legal orders: all\n";
      return;
    }
    uint64_t total = 1;
    for (size_t i = 2, e = nest.legalOrders.front().size(); i <= e; ++i)
      total *= i;
    os << "legal orders (" << nest.legalOrders.size() << " of " << total
       << "):";
    for (const std::vector<int64_t> &order : nest.legalOrders) {
      os << " ";
      printList(os, order);
    }
    os << "\n";
  }

  void printLoop(int loopId, unsigned level, unsigned guard) {
    const Loop *loop = lookup(tree.loops, loopId);
    indent(level);
    if (!loop || guard > tree.loops.size()) {
      os << "loop ?\n";
      return;
    }
    os << "loop " << loop->name << " extent " << loop->extent << " lb "
       << loop->lowerBound << " step " << loop->step << " "
       << (loop->isReduction  ? "reduction"
           : loop->isParallel ? "parallel"
                              : "sequential")
       << "\n";
    for (const Loop::Child &child : loop->children) {
      if (child.isLoop)
        printLoop(child.id, level + 1, guard + 1);
      else
        printComputation(child.id, level + 1);
    }
  }

  void printComputation(int compId, unsigned level) {
    const Computation *comp = lookup(tree.computations, compId);
    indent(level);
    if (!comp) {
      os << "comp ?\n";
      return;
    }
    const OpCounts &ops = comp->opCounts;
    os << "comp " << comp->name << " (" << comp->opName << ") writes #"
       << comp->writtenBufferId << " ";
    printList(os, comp->writtenShape);
    os << " " << stringifyElementType(comp->elementType)
       << " ops add=" << ops.add << " mul=" << ops.mul << " sub=" << ops.sub
       << " div=" << ops.div << " other=" << ops.other << "\n";
    for (const Access &access : comp->accesses) {
      indent(level + 1);
      os << (access.isWrite ? "write" : "read ") << " #" << access.bufferId
         << " [";
      llvm::interleaveComma(
          access.matrix, os,
          [&](const std::vector<int64_t> &row) { printList(os, row); });
      os << "]";
      if (!access.isAffine)
        os << " non-affine";
      os << "\n";
    }
  }

  void printEdges() {
    indent(1);
    os << "edges:";
    if (tree.edges.empty())
      os << " none";
    os << "\n";
    for (const ProducerConsumerEdge &edge : tree.edges) {
      indent(2);
      os << computationName(edge.producer) << " -> "
         << computationName(edge.consumer) << " via #" << edge.bufferId << " ("
         << (edge.viaTensor ? "tensor" : "memref")
         << (edge.intoInit ? ", init" : "")
         << (edge.throughWindows ? ", windows" : "") << ")\n";
    }
  }
};
} // namespace

void ProgramTree::print(llvm::raw_ostream &os) const {
  TreePrinter(*this, os).print();
}

//===----------------------------------------------------------------------===//
// toJSON
//===----------------------------------------------------------------------===//

static llvm::json::Array toJSONArray(const std::vector<int64_t> &values) {
  return llvm::json::Array(values);
}

static llvm::json::Array toJSONArray(const std::vector<int> &values) {
  return llvm::json::Array(values);
}

llvm::json::Value ProgramTree::toJSON() const {
  llvm::json::Array buffersJSON;
  for (const Buffer &buffer : buffers)
    buffersJSON.push_back(llvm::json::Object{
        {"id", buffer.id},
        {"name", buffer.name},
        {"shape", toJSONArray(buffer.shape)},
        {"elementType", stringifyElementType(buffer.elementType)},
        {"elementBytes", elementTypeBytes(buffer.elementType)},
        {"isTensor", buffer.isTensor},
        {"isFunctionArgument", buffer.isFunctionArgument},
        {"isFunctionResult", buffer.isFunctionResult}});

  llvm::json::Array loopsJSON;
  for (const Loop &loop : loops) {
    llvm::json::Array children;
    for (const Loop::Child &child : loop.children)
      children.push_back(llvm::json::Object{
          {"kind", child.isLoop ? "loop" : "computation"}, {"id", child.id}});
    loopsJSON.push_back(llvm::json::Object{{"id", loop.id},
                                           {"name", loop.name},
                                           {"lowerBound", loop.lowerBound},
                                           {"extent", loop.extent},
                                           {"step", loop.step},
                                           {"isReduction", loop.isReduction},
                                           {"isParallel", loop.isParallel},
                                           {"parentId", loop.parentId},
                                           {"depth", loop.depth},
                                           {"children", std::move(children)}});
  }

  llvm::json::Array computationsJSON;
  for (const Computation &comp : computations) {
    llvm::json::Array accesses;
    for (const Access &access : comp.accesses) {
      llvm::json::Array matrix;
      for (const std::vector<int64_t> &row : access.matrix)
        matrix.push_back(toJSONArray(row));
      accesses.push_back(llvm::json::Object{{"bufferId", access.bufferId},
                                            {"isWrite", access.isWrite},
                                            {"isAffine", access.isAffine},
                                            {"matrix", std::move(matrix)}});
    }
    const OpCounts &ops = comp.opCounts;
    computationsJSON.push_back(llvm::json::Object{
        {"id", comp.id},
        {"name", comp.name},
        {"opName", comp.opName},
        {"writtenBufferId", comp.writtenBufferId},
        {"writtenShape", toJSONArray(comp.writtenShape)},
        {"elementType", stringifyElementType(comp.elementType)},
        {"accesses", std::move(accesses)},
        {"opCounts", llvm::json::Object{{"add", ops.add},
                                        {"sub", ops.sub},
                                        {"mul", ops.mul},
                                        {"div", ops.div},
                                        {"other", ops.other}}},
        {"loopIds", toJSONArray(comp.loopIds)},
        {"nestId", comp.nestId}});
  }

  llvm::json::Array nestsJSON;
  for (const LoopNest &nest : nests) {
    llvm::json::Array orders;
    for (const std::vector<int64_t> &order : nest.legalOrders)
      orders.push_back(toJSONArray(order));
    llvm::json::Object nestJSON{
        {"id", nest.id},
        {"name", nest.name},
        {"source", stringifyNestSource(nest.source)},
        {"rootLoopId", nest.rootLoopId},
        {"opIndex", nest.opIndex},
        {"computationIds", toJSONArray(nest.computationIds)},
        {"band", toJSONArray(bandOf(nest.id))},
        {"isPerfect", nest.isPerfect},
        {"legalOrders", std::move(orders)},
        {"outerLoopParallel", nest.outerLoopParallel},
        {"fullyPermutable", nest.fullyPermutable}};
    // Only nests that can be skewed say so, so that the JSON of every other
    // tree stays what it was.
    if (!nest.skewBand.empty())
      nestJSON["skewBand"] = toJSONArray(nest.skewBand);
    nestsJSON.push_back(std::move(nestJSON));
  }

  llvm::json::Array edgesJSON;
  for (const ProducerConsumerEdge &edge : edges) {
    llvm::json::Object edgeJSON{{"producer", edge.producer},
                                {"consumer", edge.consumer},
                                {"bufferId", edge.bufferId},
                                {"viaTensor", edge.viaTensor},
                                {"intoInit", edge.intoInit}};
    if (edge.throughWindows)
      edgeJSON["throughWindows"] = true;
    edgesJSON.push_back(std::move(edgeJSON));
  }

  return llvm::json::Object{{"function", functionName},
                            {"buffers", std::move(buffersJSON)},
                            {"loops", std::move(loopsJSON)},
                            {"computations", std::move(computationsJSON)},
                            {"nests", std::move(nestsJSON)},
                            {"edges", std::move(edgesJSON)},
                            {"rootLoopIds", toJSONArray(rootLoopIds)}};
}

//===----------------------------------------------------------------------===//
// fromJSON
//===----------------------------------------------------------------------===//

// Readers for llvm::json::ObjectMapper, found by argument-dependent lookup.
// Each reports the first problem at its path and returns false.
namespace tuner {

static bool fromJSON(const llvm::json::Value &json, ElementType &type,
                     llvm::json::Path path) {
  std::optional<llvm::StringRef> name = json.getAsString();
  std::optional<ElementType> parsed =
      name ? parseElementType(*name) : std::nullopt;
  if (!parsed) {
    path.report("expected one of f16, bf16, f32, f64, i8, i16, i32, i64, "
                "index, other");
    return false;
  }
  type = *parsed;
  return true;
}

static bool fromJSON(const llvm::json::Value &json, NestSource &source,
                     llvm::json::Path path) {
  std::optional<llvm::StringRef> name = json.getAsString();
  if (name && (*name == "linalg" || *name == "affine")) {
    source = *name == "linalg" ? NestSource::Linalg : NestSource::Affine;
    return true;
  }
  path.report("expected \"linalg\" or \"affine\"");
  return false;
}

static bool fromJSON(const llvm::json::Value &json, Buffer &buffer,
                     llvm::json::Path path) {
  llvm::json::ObjectMapper map(json, path);
  return map && map.map("id", buffer.id) && map.map("name", buffer.name) &&
         map.map("shape", buffer.shape) &&
         map.map("elementType", buffer.elementType) &&
         map.map("isTensor", buffer.isTensor) &&
         map.map("isFunctionArgument", buffer.isFunctionArgument) &&
         map.map("isFunctionResult", buffer.isFunctionResult);
}

static bool fromJSON(const llvm::json::Value &json, Loop::Child &child,
                     llvm::json::Path path) {
  llvm::json::ObjectMapper map(json, path);
  std::string kind;
  if (!map || !map.map("kind", kind) || !map.map("id", child.id))
    return false;
  if (kind != "loop" && kind != "computation") {
    path.field("kind").report("expected \"loop\" or \"computation\"");
    return false;
  }
  child.isLoop = kind == "loop";
  return true;
}

static bool fromJSON(const llvm::json::Value &json, Loop &loop,
                     llvm::json::Path path) {
  llvm::json::ObjectMapper map(json, path);
  return map && map.map("id", loop.id) && map.map("name", loop.name) &&
         map.map("lowerBound", loop.lowerBound) &&
         map.map("extent", loop.extent) && map.map("step", loop.step) &&
         map.map("isReduction", loop.isReduction) &&
         map.map("isParallel", loop.isParallel) &&
         map.map("parentId", loop.parentId) && map.map("depth", loop.depth) &&
         map.map("children", loop.children);
}

static bool fromJSON(const llvm::json::Value &json, Access &access,
                     llvm::json::Path path) {
  llvm::json::ObjectMapper map(json, path);
  return map && map.map("bufferId", access.bufferId) &&
         map.map("isWrite", access.isWrite) &&
         map.map("isAffine", access.isAffine) &&
         map.map("matrix", access.matrix);
}

static bool fromJSON(const llvm::json::Value &json, OpCounts &ops,
                     llvm::json::Path path) {
  llvm::json::ObjectMapper map(json, path);
  return map && map.map("add", ops.add) && map.map("sub", ops.sub) &&
         map.map("mul", ops.mul) && map.map("div", ops.div) &&
         map.map("other", ops.other);
}

static bool fromJSON(const llvm::json::Value &json, Computation &comp,
                     llvm::json::Path path) {
  llvm::json::ObjectMapper map(json, path);
  return map && map.map("id", comp.id) && map.map("name", comp.name) &&
         map.map("opName", comp.opName) &&
         map.map("writtenBufferId", comp.writtenBufferId) &&
         map.map("writtenShape", comp.writtenShape) &&
         map.map("elementType", comp.elementType) &&
         map.map("accesses", comp.accesses) &&
         map.map("opCounts", comp.opCounts) &&
         map.map("loopIds", comp.loopIds) && map.map("nestId", comp.nestId);
}

static bool fromJSON(const llvm::json::Value &json, LoopNest &nest,
                     llvm::json::Path path) {
  llvm::json::ObjectMapper map(json, path);
  return map && map.map("id", nest.id) && map.map("name", nest.name) &&
         map.map("source", nest.source) &&
         map.map("rootLoopId", nest.rootLoopId) &&
         map.map("opIndex", nest.opIndex) &&
         map.map("computationIds", nest.computationIds) &&
         map.map("isPerfect", nest.isPerfect) &&
         map.map("legalOrders", nest.legalOrders) &&
         map.map("outerLoopParallel", nest.outerLoopParallel) &&
         map.mapOptional("fullyPermutable", nest.fullyPermutable) &&
         map.mapOptional("skewBand", nest.skewBand);
}

static bool fromJSON(const llvm::json::Value &json, ProducerConsumerEdge &edge,
                     llvm::json::Path path) {
  llvm::json::ObjectMapper map(json, path);
  return map && map.map("producer", edge.producer) &&
         map.map("consumer", edge.consumer) &&
         map.map("bufferId", edge.bufferId) &&
         map.map("viaTensor", edge.viaTensor) &&
         map.map("intoInit", edge.intoInit) &&
         map.mapOptional("throughWindows", edge.throughWindows);
}

} // namespace tuner

llvm::Expected<ProgramTree>
ProgramTree::fromJSON(const llvm::json::Value &json) {
  ProgramTree tree;
  llvm::json::Path::Root root("program tree");
  llvm::json::ObjectMapper map(json, root);
  if (!map || !map.map("function", tree.functionName) ||
      !map.map("buffers", tree.buffers) || !map.map("loops", tree.loops) ||
      !map.map("computations", tree.computations) ||
      !map.map("nests", tree.nests) || !map.map("edges", tree.edges) ||
      !map.map("rootLoopIds", tree.rootLoopIds))
    return root.getError();
  std::string problem = tree.verify();
  if (!problem.empty())
    return llvm::createStringError("inconsistent program tree: " + problem);
  return tree;
}

//===----------------------------------------------------------------------===//
// verify
//===----------------------------------------------------------------------===//

namespace {
/// Checks one invariant family after another; each returns the first
/// violation it finds, or "".
class TreeVerifier {
public:
  explicit TreeVerifier(const ProgramTree &tree) : tree(tree) {}

  std::string verify() {
    for (auto check :
         {&TreeVerifier::verifyBuffers, &TreeVerifier::verifyLoops,
          &TreeVerifier::verifyComputations, &TreeVerifier::verifyNests,
          &TreeVerifier::verifyEdges}) {
      std::string message = (this->*check)();
      if (!message.empty())
        return message;
    }
    return "";
  }

private:
  const ProgramTree &tree;

  template <typename T>
  static bool inRange(const std::vector<T> &items, int id) {
    return id >= 0 && id < static_cast<int>(items.size());
  }

  std::string verifyBuffers() {
    for (auto [index, buffer] : llvm::enumerate(tree.buffers)) {
      if (buffer.id != static_cast<int>(index))
        return llvm::formatv("buffer at index {0} has id {1}", index,
                             buffer.id);
      for (int64_t size : buffer.shape)
        if (size < 0)
          return llvm::formatv("buffer #{0} has negative dimension {1}",
                               buffer.id, size);
    }
    return "";
  }

  std::string verifyLoops() {
    // How often each loop / computation is listed as a child.
    std::vector<int> loopListed(tree.loops.size(), 0);
    std::vector<int> compListed(tree.computations.size(), 0);
    for (auto [index, loop] : llvm::enumerate(tree.loops)) {
      if (loop.id != static_cast<int>(index))
        return llvm::formatv("loop at index {0} has id {1}", index, loop.id);
      if (loop.extent < 0)
        return llvm::formatv("loop {0} has negative extent {1}", loop.name,
                             loop.extent);
      if (loop.step < 1)
        return llvm::formatv("loop {0} has step {1} < 1", loop.name, loop.step);
      if (loop.isParallel && loop.isReduction)
        return llvm::formatv("loop {0} is both parallel and a reduction",
                             loop.name);
      if (loop.parentId == -1) {
        if (loop.depth != 0)
          return llvm::formatv("root loop {0} has depth {1}", loop.name,
                               loop.depth);
      } else if (!inRange(tree.loops, loop.parentId)) {
        return llvm::formatv("loop {0} has unknown parent {1}", loop.name,
                             loop.parentId);
      } else if (loop.depth != tree.loops[loop.parentId].depth + 1) {
        return llvm::formatv("loop {0} has depth {1} under a parent of "
                             "depth {2}",
                             loop.name, loop.depth,
                             tree.loops[loop.parentId].depth);
      }
    }
    // Children once every loop's own fields are known to be sound.
    for (const Loop &loop : tree.loops) {
      for (const Loop::Child &child : loop.children) {
        if (child.isLoop) {
          if (!inRange(tree.loops, child.id))
            return llvm::formatv("loop {0} has unknown child loop {1}",
                                 loop.name, child.id);
          if (tree.loops[child.id].parentId != loop.id)
            return llvm::formatv("loop {0} lists child loop {1} whose parent "
                                 "is {2}",
                                 loop.name, tree.loops[child.id].name,
                                 tree.loops[child.id].parentId);
          ++loopListed[child.id];
        } else {
          if (!inRange(tree.computations, child.id))
            return llvm::formatv("loop {0} has unknown child computation {1}",
                                 loop.name, child.id);
          const std::vector<int> &enclosing =
              tree.computations[child.id].loopIds;
          if (enclosing.empty() || enclosing.back() != loop.id)
            return llvm::formatv("loop {0} lists computation {1} whose "
                                 "innermost loop is not {0}",
                                 loop.name, tree.computations[child.id].name);
          ++compListed[child.id];
        }
      }
    }
    std::vector<int> rootListed(tree.loops.size(), 0);
    for (int rootId : tree.rootLoopIds) {
      if (!inRange(tree.loops, rootId))
        return llvm::formatv("unknown root loop {0}", rootId);
      if (tree.loops[rootId].parentId != -1)
        return llvm::formatv("root loop {0} has parent {1}",
                             tree.loops[rootId].name,
                             tree.loops[rootId].parentId);
      ++rootListed[rootId];
    }
    for (const Loop &loop : tree.loops) {
      int listed =
          loop.parentId == -1 ? rootListed[loop.id] : loopListed[loop.id];
      if (listed != 1)
        return llvm::formatv("loop {0} is listed {1} times {2}", loop.name,
                             listed,
                             loop.parentId == -1 ? "among root loops"
                                                 : "among its parent's "
                                                   "children");
    }
    for (const Computation &comp : tree.computations) {
      int expected = comp.loopIds.empty() ? 0 : 1;
      if (inRange(compListed, comp.id) && compListed[comp.id] != expected)
        return llvm::formatv("computation {0} is listed {1} times among loop "
                             "children, expected {2}",
                             comp.name, compListed[comp.id], expected);
    }
    return "";
  }

  std::string verifyComputations() {
    for (auto [index, comp] : llvm::enumerate(tree.computations)) {
      if (comp.id != static_cast<int>(index))
        return llvm::formatv("computation at index {0} has id {1}", index,
                             comp.id);
      if (!inRange(tree.nests, comp.nestId))
        return llvm::formatv("computation {0} has unknown nest {1}", comp.name,
                             comp.nestId);
      if (!llvm::is_contained(tree.nests[comp.nestId].computationIds, comp.id))
        return llvm::formatv("computation {0} is not listed by its nest {1}",
                             comp.name, tree.nests[comp.nestId].name);
      if (comp.writtenBufferId != -1) {
        if (!inRange(tree.buffers, comp.writtenBufferId))
          return llvm::formatv("computation {0} writes unknown buffer #{1}",
                               comp.name, comp.writtenBufferId);
        if (tree.buffers[comp.writtenBufferId].shape != comp.writtenShape)
          return llvm::formatv("computation {0}: written shape differs from "
                               "the shape of buffer #{1}",
                               comp.name, comp.writtenBufferId);
      }
      for (auto [position, loopId] : llvm::enumerate(comp.loopIds)) {
        if (!inRange(tree.loops, loopId))
          return llvm::formatv("computation {0} has unknown loop {1}",
                               comp.name, loopId);
        int expectedParent = position == 0 ? -1 : comp.loopIds[position - 1];
        if (tree.loops[loopId].parentId != expectedParent)
          return llvm::formatv("computation {0}: loop {1} is not nested in "
                               "the loop listed before it",
                               comp.name, tree.loops[loopId].name);
      }
      size_t width = comp.loopIds.size() + 1;
      for (auto [position, access] : llvm::enumerate(comp.accesses)) {
        if (!inRange(tree.buffers, access.bufferId))
          return llvm::formatv("computation {0}: access {1} names unknown "
                               "buffer #{2}",
                               comp.name, position, access.bufferId);
        size_t rank = tree.buffers[access.bufferId].shape.size();
        if (access.matrix.size() != rank)
          return llvm::formatv("computation {0}: access {1} has {2} rows for "
                               "buffer #{3} of rank {4}",
                               comp.name, position, access.matrix.size(),
                               access.bufferId, rank);
        for (const std::vector<int64_t> &row : access.matrix)
          if (row.size() != width)
            return llvm::formatv("computation {0}: access {1} has a row of "
                                 "{2} columns, expected {3} ({4} loops + 1)",
                                 comp.name, position, row.size(), width,
                                 comp.loopIds.size());
      }
    }
    return "";
  }

  std::string verifyNests() {
    std::set<int> rootsSeen;
    for (auto [index, nest] : llvm::enumerate(tree.nests)) {
      if (nest.id != static_cast<int>(index))
        return llvm::formatv("nest at index {0} has id {1}", index, nest.id);
      if (nest.opIndex < 0)
        return llvm::formatv("nest {0} has negative op index {1}", nest.name,
                             nest.opIndex);
      if (nest.rootLoopId != -1) {
        if (!inRange(tree.loops, nest.rootLoopId) ||
            tree.loops[nest.rootLoopId].parentId != -1)
          return llvm::formatv("nest {0}: root {1} is not a root loop",
                               nest.name, nest.rootLoopId);
        if (!rootsSeen.insert(nest.rootLoopId).second)
          return llvm::formatv("nest {0} shares its root loop with another "
                               "nest",
                               nest.name);
      }
      for (int compId : nest.computationIds) {
        if (!inRange(tree.computations, compId))
          return llvm::formatv("nest {0} lists unknown computation {1}",
                               nest.name, compId);
        const Computation &comp = tree.computations[compId];
        if (comp.nestId != nest.id)
          return llvm::formatv("nest {0} lists computation {1} of nest {2}",
                               nest.name, comp.name, comp.nestId);
        int root = comp.loopIds.empty() ? -1 : comp.loopIds.front();
        if (root != nest.rootLoopId)
          return llvm::formatv("computation {0} is not under the root loop "
                               "of its nest {1}",
                               comp.name, nest.name);
      }
      for (int loopId : nest.skewBand)
        if (!inRange(tree.loops, loopId))
          return llvm::formatv("nest {0}: skew band loop {1} does not exist",
                               nest.name, loopId);
      if (nest.legalOrders.empty())
        continue;
      size_t depth = nest.legalOrders.front().size();
      size_t chain =
          perfectChain(tree, nest.rootLoopId, tree.loops.size()).size();
      if (depth == 0 || depth > chain)
        return llvm::formatv("nest {0}: legal orders of length {1} do not "
                             "fit its {2} perfectly nested loops",
                             nest.name, depth, chain);
      for (const std::vector<int64_t> &order : nest.legalOrders) {
        std::vector<bool> seen(depth, false);
        bool valid = order.size() == depth;
        for (int64_t position : order) {
          if (!valid || position < 0 ||
              position >= static_cast<int64_t>(depth) || seen[position]) {
            valid = false;
            break;
          }
          seen[position] = true;
        }
        if (!valid)
          return llvm::formatv("nest {0}: legal order is not a permutation "
                               "of 0..{1}",
                               nest.name, depth - 1);
      }
    }
    for (int rootId : tree.rootLoopIds)
      if (!rootsSeen.count(rootId))
        return llvm::formatv("root loop {0} belongs to no nest",
                             inRange(tree.loops, rootId)
                                 ? tree.loops[rootId].name
                                 : std::to_string(rootId));
    return "";
  }

  std::string verifyEdges() {
    std::set<std::tuple<int, int, int>> seen;
    for (const ProducerConsumerEdge &edge : tree.edges) {
      if (!inRange(tree.computations, edge.producer) ||
          !inRange(tree.computations, edge.consumer))
        return llvm::formatv("edge {0} -> {1} names an unknown computation",
                             edge.producer, edge.consumer);
      if (edge.producer == edge.consumer)
        return llvm::formatv("edge from computation {0} to itself",
                             tree.computations[edge.producer].name);
      if (!inRange(tree.buffers, edge.bufferId))
        return llvm::formatv("edge {0} -> {1} names unknown buffer #{2}",
                             tree.computations[edge.producer].name,
                             tree.computations[edge.consumer].name,
                             edge.bufferId);
      if (!seen.insert({edge.producer, edge.consumer, edge.bufferId}).second)
        return llvm::formatv("duplicate edge {0} -> {1} via #{2}",
                             tree.computations[edge.producer].name,
                             tree.computations[edge.consumer].name,
                             edge.bufferId);
    }
    return "";
  }
};
} // namespace

std::string ProgramTree::verify() const { return TreeVerifier(*this).verify(); }
