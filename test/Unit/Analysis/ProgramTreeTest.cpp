//===- ProgramTreeTest.cpp - The plain ProgramTree value ------------------===//

#include "tuner/Analysis/ProgramTree.h"

#include "gtest/gtest.h"

#include <functional>

using namespace tuner;

namespace {

/// Two nests: a linalg reduction B[i] += A[i][k] (loops i, k) and an affine
/// copy C[i] = B[i] (loop i) that consumes it.
ProgramTree makeTree() {
  ProgramTree tree;
  tree.functionName = "f";
  tree.buffers = {
      {0, "%arg0", {8, 4}, ElementType::F32, true, false, false},
      {1, "%arg1", {8}, ElementType::F32, true, true, false},
      {2, "%alloc", {8}, ElementType::F64, false, false, false},
  };

  Loop i{0, "red.d0", 0, 8, 1, false, -1, 0, {{true, 1}}, true};
  Loop k{1, "red.d1", 0, 4, 1, true, 0, 1, {{false, 0}}, false};
  Loop j{2, "copy.d0", 2, 3, 2, false, -1, 0, {{false, 1}}, true};
  tree.loops = {i, k, j};
  tree.rootLoopIds = {0, 2};

  Computation red;
  red.id = 0;
  red.name = "red";
  red.opName = "linalg.generic";
  red.writtenBufferId = 1;
  red.writtenShape = {8};
  red.elementType = ElementType::F32;
  red.accesses = {{0, false, {{1, 0, 0}, {0, 1, 0}}, true},
                  {1, false, {{1, 0, 0}}, true},
                  {1, true, {{1, 0, 0}}, true}};
  red.opCounts.add = 1;
  red.loopIds = {0, 1};
  red.nestId = 0;

  Computation copy;
  copy.id = 1;
  copy.name = "copy.s0";
  copy.opName = "affine.store";
  copy.writtenBufferId = 2;
  copy.writtenShape = {8};
  copy.elementType = ElementType::F64;
  copy.accesses = {{1, false, {{0, 0}}, false}, {2, true, {{1, -1}}, true}};
  copy.opCounts.other = 2;
  copy.loopIds = {2};
  copy.nestId = 1;
  tree.computations = {red, copy};

  LoopNest linalgNest;
  linalgNest.id = 0;
  linalgNest.name = "red";
  linalgNest.source = NestSource::Linalg;
  linalgNest.rootLoopId = 0;
  linalgNest.opIndex = 0;
  linalgNest.computationIds = {0};
  linalgNest.outerLoopParallel = true;

  LoopNest affineNest;
  affineNest.id = 1;
  affineNest.name = "copy";
  affineNest.source = NestSource::Affine;
  affineNest.rootLoopId = 2;
  affineNest.opIndex = 0;
  affineNest.computationIds = {1};
  affineNest.legalOrders = {{0}};
  affineNest.outerLoopParallel = true;
  tree.nests = {linalgNest, affineNest};

  tree.edges = {{0, 1, 1, false}};
  return tree;
}

TEST(ProgramTreeTest, WellFormedTreeVerifies) {
  EXPECT_EQ(makeTree().verify(), "");
  EXPECT_EQ(ProgramTree().verify(), "");
}

struct Breakage {
  const char *what;
  std::function<void(ProgramTree &)> breakTree;
  const char *expected;
};

TEST(ProgramTreeTest, VerifyCatchesBrokenTrees) {
  std::vector<Breakage> breakages = {
      {"buffer id", [](ProgramTree &t) { t.buffers[2].id = 7; },
       "buffer at index 2 has id 7"},
      {"negative dimension", [](ProgramTree &t) { t.buffers[0].shape[1] = -1; },
       "buffer #0 has negative dimension -1"},
      {"loop id", [](ProgramTree &t) { t.loops[1].id = 5; },
       "loop at index 1 has id 5"},
      {"zero step", [](ProgramTree &t) { t.loops[2].step = 0; },
       "loop copy.d0 has step 0 < 1"},
      {"negative extent", [](ProgramTree &t) { t.loops[0].extent = -3; },
       "loop red.d0 has negative extent -3"},
      {"parallel reduction",
       [](ProgramTree &t) { t.loops[1].isParallel = true; },
       "loop red.d1 is both parallel and a reduction"},
      {"depth", [](ProgramTree &t) { t.loops[1].depth = 2; },
       "loop red.d1 has depth 2 under a parent of depth 0"},
      {"unknown parent", [](ProgramTree &t) { t.loops[1].parentId = 9; },
       "loop red.d1 has unknown parent 9"},
      {"unknown child", [](ProgramTree &t) { t.loops[0].children[0].id = 7; },
       "loop red.d0 has unknown child loop 7"},
      {"child with other parent",
       [](ProgramTree &t) {
         t.loops[2].children.push_back({true, 1});
       },
       "loop copy.d0 lists child loop red.d1 whose parent is 0"},
      {"computation under wrong loop",
       [](ProgramTree &t) {
         t.loops[0].children.push_back({false, 0});
       },
       "loop red.d0 lists computation red whose innermost loop is not red.d0"},
      {"computation not listed",
       [](ProgramTree &t) { t.loops[1].children.clear(); },
       "computation red is listed 0 times among loop children, expected 1"},
      {"root listed twice", [](ProgramTree &t) { t.rootLoopIds.push_back(0); },
       "loop red.d0 is listed 2 times among root loops"},
      {"root not listed", [](ProgramTree &t) { t.rootLoopIds.pop_back(); },
       "loop copy.d0 is listed 0 times among root loops"},
      {"computation id", [](ProgramTree &t) { t.computations[1].id = 0; },
       "computation at index 1 has id 0"},
      {"unknown nest", [](ProgramTree &t) { t.computations[0].nestId = 4; },
       "computation red has unknown nest 4"},
      {"nest does not list",
       [](ProgramTree &t) { t.nests[0].computationIds.clear(); },
       "computation red is not listed by its nest red"},
      {"written shape",
       [](ProgramTree &t) { t.computations[1].writtenShape = {4}; },
       "computation copy.s0: written shape differs from the shape of buffer "
       "#2"},
      {"unknown written buffer",
       [](ProgramTree &t) { t.computations[1].writtenBufferId = 3; },
       "computation copy.s0 writes unknown buffer #3"},
      {"loop order of computation",
       [](ProgramTree &t) { t.computations[0].loopIds = {1}; },
       "computation red: loop red.d1 is not nested in the loop listed before "
       "it"},
      {"access buffer",
       [](ProgramTree &t) { t.computations[0].accesses[1].bufferId = 9; },
       "computation red: access 1 names unknown buffer #9"},
      {"access rows",
       [](ProgramTree &t) { t.computations[0].accesses[0].matrix.pop_back(); },
       "computation red: access 0 has 1 rows for buffer #0 of rank 2"},
      {"access columns",
       [](ProgramTree &t) {
         t.computations[0].accesses[2].matrix[0].pop_back();
       },
       "computation red: access 2 has a row of 2 columns, expected 3 (2 loops "
       "+ 1)"},
      {"nest id", [](ProgramTree &t) { t.nests[1].id = 0; },
       "nest at index 1 has id 0"},
      {"root of nest", [](ProgramTree &t) { t.nests[1].rootLoopId = 1; },
       "nest copy: root 1 is not a root loop"},
      {"shared root", [](ProgramTree &t) { t.nests[1].rootLoopId = 0; },
       "nest copy shares its root loop with another nest"},
      {"computation of another nest",
       [](ProgramTree &t) { t.nests[1].computationIds.push_back(0); },
       "nest copy lists computation red of nest 0"},
      {"order too long",
       [](ProgramTree &t) {
         t.nests[1].legalOrders = {{0, 1}};
       },
       "nest copy: legal orders of length 2 do not fit its 1 perfectly nested "
       "loops"},
      {"order not a permutation",
       [](ProgramTree &t) {
         t.nests[0].legalOrders = {{0, 1}, {1, 1}};
       },
       "nest red: legal order is not a permutation of 0..1"},
      {"order of other length",
       [](ProgramTree &t) {
         t.nests[0].legalOrders = {{0, 1}, {0}};
       },
       "nest red: legal order is not a permutation of 0..1"},
      {"edge to itself", [](ProgramTree &t) { t.edges[0].consumer = 0; },
       "edge from computation red to itself"},
      {"edge computation", [](ProgramTree &t) { t.edges[0].producer = 5; },
       "edge 5 -> 1 names an unknown computation"},
      {"edge buffer", [](ProgramTree &t) { t.edges[0].bufferId = 3; },
       "edge red -> copy.s0 names unknown buffer #3"},
      {"duplicate edge",
       [](ProgramTree &t) { t.edges.push_back(t.edges.front()); },
       "duplicate edge red -> copy.s0 via #1"},
  };
  for (const Breakage &breakage : breakages) {
    ProgramTree tree = makeTree();
    breakage.breakTree(tree);
    EXPECT_EQ(tree.verify(), breakage.expected) << breakage.what;
  }
}

TEST(ProgramTreeTest, BandOf) {
  ProgramTree tree = makeTree();
  EXPECT_EQ(tree.bandOf(0), (std::vector<int>{0, 1}));
  EXPECT_EQ(tree.bandOf(1), (std::vector<int>{2}));
  EXPECT_TRUE(tree.bandOf(2).empty());
  EXPECT_TRUE(tree.bandOf(-1).empty());

  // Legal orders cut the band to their length.
  tree.nests[0].legalOrders = {{0}};
  EXPECT_EQ(tree.bandOf(0), (std::vector<int>{0}));
  tree.nests[0].legalOrders.clear();

  // A computation beside the inner loop ends the band at the outer loop.
  Computation &copy = tree.computations[1];
  copy.loopIds = {0};
  copy.accesses = {{2, true, {{1, 0}}, true}};
  copy.nestId = 0;
  tree.loops[2].children.clear();
  tree.loops[0].children.push_back({false, 1});
  tree.nests[0].computationIds.push_back(1);
  tree.nests[1].computationIds.clear();
  EXPECT_EQ(tree.bandOf(0), (std::vector<int>{0}));

  // A nest without loops (a 0-d linalg op) has an empty band.
  tree.nests[1].rootLoopId = -1;
  EXPECT_TRUE(tree.bandOf(1).empty());
}

TEST(ProgramTreeTest, PrintsHandBuiltTree) {
  ProgramTree tree = makeTree();
  std::string text;
  llvm::raw_string_ostream os(text);
  tree.print(os);
  EXPECT_EQ(text,
            "function @f\n"
            "  buffers:\n"
            "    #0 %arg0 memref 8x4 f32 (arg)\n"
            "    #1 %arg1 memref 8 f32 (arg, result)\n"
            "    #2 %alloc memref 8 f64\n"
            "  nest red (linalg, op 0) perfect outer-parallel\n"
            "    loop red.d0 extent 8 lb 0 step 1 parallel\n"
            "      loop red.d1 extent 4 lb 0 step 1 reduction\n"
            "        comp red (linalg.generic) writes #1 [8] f32 ops add=1 "
            "mul=0 sub=0 div=0 other=0\n"
            "          read  #0 [[1, 0, 0], [0, 1, 0]]\n"
            "          read  #1 [[1, 0, 0]]\n"
            "          write #1 [[1, 0, 0]]\n"
            "    band: red.d0 red.d1\n"
            "    legal orders: all\n"
            "  nest copy (affine, op 0) perfect outer-parallel\n"
            "    loop copy.d0 extent 3 lb 2 step 2 parallel\n"
            "      comp copy.s0 (affine.store) writes #2 [8] f64 ops add=0 "
            "mul=0 sub=0 div=0 other=2\n"
            "        read  #1 [[0, 0]] non-affine\n"
            "        write #2 [[1, -1]]\n"
            "    band: copy.d0\n"
            "    legal orders (1 of 1): [0]\n"
            "  edges:\n"
            "    red -> copy.s0 via #1 (memref)\n");

  ProgramTree empty;
  empty.functionName = "g";
  text.clear();
  empty.print(os);
  EXPECT_EQ(text, "function @g\n  buffers: none\n  edges: none\n");
}

TEST(ProgramTreeTest, PrintToleratesBrokenIds) {
  ProgramTree tree = makeTree();
  tree.loops[0].children[0].id = 42;
  tree.edges[0].producer = 42;
  std::string text;
  llvm::raw_string_ostream os(text);
  tree.print(os);
  EXPECT_NE(text.find("      loop ?\n"), std::string::npos) << text;
  EXPECT_NE(text.find("    ? -> copy.s0 via #1 (memref)\n"), std::string::npos)
      << text;
}

TEST(ProgramTreeTest, ToJSON) {
  llvm::json::Value value = makeTree().toJSON();
  const llvm::json::Object *root = value.getAsObject();
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(root->getString("function"), "f");

  const llvm::json::Array *buffers = root->getArray("buffers");
  ASSERT_NE(buffers, nullptr);
  ASSERT_EQ(buffers->size(), 3u);
  const llvm::json::Object *b2 = (*buffers)[2].getAsObject();
  EXPECT_EQ(b2->getString("elementType"), "f64");
  EXPECT_EQ(b2->getInteger("elementBytes"), 8);
  EXPECT_EQ(b2->getBoolean("isFunctionArgument"), false);

  const llvm::json::Object *k = (*root->getArray("loops"))[1].getAsObject();
  EXPECT_EQ(k->getString("name"), "red.d1");
  EXPECT_EQ(k->getBoolean("isReduction"), true);
  EXPECT_EQ(k->getInteger("parentId"), 0);

  const llvm::json::Object *copy =
      (*root->getArray("computations"))[1].getAsObject();
  const llvm::json::Object *read =
      (*copy->getArray("accesses"))[0].getAsObject();
  EXPECT_EQ(read->getBoolean("isAffine"), false);
  const llvm::json::Object *write =
      (*copy->getArray("accesses"))[1].getAsObject();
  EXPECT_EQ((*(*write->getArray("matrix"))[0].getAsArray())[1].getAsInteger(),
            -1);
  EXPECT_EQ(copy->getObject("opCounts")->getInteger("other"), 2);

  const llvm::json::Object *red = (*root->getArray("nests"))[0].getAsObject();
  EXPECT_EQ(red->getString("source"), "linalg");
  EXPECT_EQ(red->getArray("band")->size(), 2u);
  EXPECT_TRUE(red->getArray("legalOrders")->empty());
  const llvm::json::Object *affine =
      (*root->getArray("nests"))[1].getAsObject();
  EXPECT_EQ(affine->getString("source"), "affine");
  EXPECT_EQ(affine->getArray("legalOrders")->size(), 1u);

  const llvm::json::Object *edge = (*root->getArray("edges"))[0].getAsObject();
  EXPECT_EQ(edge->getInteger("producer"), 0);
  EXPECT_EQ(edge->getInteger("consumer"), 1);
  EXPECT_EQ(edge->getBoolean("viaTensor"), false);
}

TEST(ProgramTreeTest, ElementTypes) {
  EXPECT_EQ(stringifyElementType(ElementType::BF16), "bf16");
  EXPECT_EQ(stringifyElementType(ElementType::I8), "i8");
  EXPECT_EQ(stringifyElementType(ElementType::Other), "other");
  EXPECT_EQ(elementTypeBytes(ElementType::F16), 2u);
  EXPECT_EQ(elementTypeBytes(ElementType::F32), 4u);
  EXPECT_EQ(elementTypeBytes(ElementType::I64), 8u);
  EXPECT_EQ(elementTypeBytes(ElementType::Index), 8u);
  EXPECT_EQ(elementTypeBytes(ElementType::I8), 1u);
  EXPECT_EQ(elementTypeBytes(ElementType::Other), 0u);
}

TEST(ProgramTreeTest, ParseElementType) {
  for (ElementType type :
       {ElementType::F16, ElementType::BF16, ElementType::F32, ElementType::F64,
        ElementType::I8, ElementType::I16, ElementType::I32, ElementType::I64,
        ElementType::Index, ElementType::Other})
    EXPECT_EQ(parseElementType(stringifyElementType(type)), type);
  EXPECT_EQ(parseElementType("f128"), std::nullopt);
  EXPECT_EQ(parseElementType(""), std::nullopt);
}

/// Serializes `value` and parses it back, as a file would.
llvm::json::Value throughText(const llvm::json::Value &value) {
  std::string text;
  llvm::raw_string_ostream(text) << value;
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  EXPECT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  return parsed ? std::move(*parsed) : llvm::json::Value(nullptr);
}

TEST(ProgramTreeTest, FromJSONRoundTrip) {
  ProgramTree tree = makeTree();
  llvm::Expected<ProgramTree> read =
      ProgramTree::fromJSON(throughText(tree.toJSON()));
  ASSERT_TRUE(bool(read)) << llvm::toString(read.takeError());
  EXPECT_EQ(read->toJSON(), tree.toJSON());
  EXPECT_EQ(read->verify(), "");
  // Spot checks of fields the JSON comparison could only see together.
  ASSERT_EQ(read->buffers.size(), 3u);
  EXPECT_EQ(read->buffers[2].elementType, ElementType::F64);
  EXPECT_TRUE(read->buffers[1].isFunctionResult);
  EXPECT_EQ(read->loops[2].lowerBound, 2);
  EXPECT_EQ(read->loops[2].step, 2);
  EXPECT_TRUE(read->loops[1].isReduction);
  EXPECT_TRUE(read->loops[0].children.front().isLoop);
  EXPECT_FALSE(read->computations[1].accesses[0].isAffine);
  EXPECT_EQ(read->computations[1].accesses[1].matrix,
            (std::vector<std::vector<int64_t>>{{1, -1}}));
  EXPECT_EQ(read->computations[1].opCounts.other, 2);
  EXPECT_EQ(read->nests[1].source, NestSource::Affine);
  EXPECT_EQ(read->nests[1].legalOrders,
            (std::vector<std::vector<int64_t>>{{0}}));
  EXPECT_TRUE(read->nests[0].outerLoopParallel);
  ASSERT_EQ(read->edges.size(), 1u);
  EXPECT_EQ(read->edges[0].bufferId, 1);
  EXPECT_EQ(read->rootLoopIds, (std::vector<int>{0, 2}));

  // An empty tree round-trips too.
  ProgramTree empty;
  empty.functionName = "g";
  llvm::Expected<ProgramTree> readEmpty = ProgramTree::fromJSON(empty.toJSON());
  ASSERT_TRUE(bool(readEmpty)) << llvm::toString(readEmpty.takeError());
  EXPECT_EQ(readEmpty->toJSON(), empty.toJSON());
}

TEST(ProgramTreeTest, WindowEdgesRoundTrip) {
  // An edge read through windows says so in JSON (and only then: the JSON of
  // other edges is unchanged) and reads back.
  ProgramTree tree = makeTree();
  EXPECT_FALSE(tree.toJSON()
                   .getAsObject()
                   ->getArray("edges")
                   ->front()
                   .getAsObject()
                   ->get("throughWindows"));
  tree.edges[0].viaTensor = true;
  tree.edges[0].throughWindows = true;
  const llvm::json::Value json = tree.toJSON();
  EXPECT_EQ(json.getAsObject()
                ->getArray("edges")
                ->front()
                .getAsObject()
                ->getBoolean("throughWindows"),
            true);
  llvm::Expected<ProgramTree> read = ProgramTree::fromJSON(throughText(json));
  ASSERT_TRUE(bool(read)) << llvm::toString(read.takeError());
  ASSERT_EQ(read->edges.size(), 1u);
  EXPECT_TRUE(read->edges[0].throughWindows);
  std::string text;
  llvm::raw_string_ostream os(text);
  read->print(os);
  EXPECT_NE(text.find("(tensor, windows)"), std::string::npos) << text;
}

/// The error of reading `json` as a tree ("" if it reads).
std::string fromJSONError(const llvm::json::Value &json) {
  llvm::Expected<ProgramTree> tree = ProgramTree::fromJSON(json);
  if (tree)
    return "";
  return llvm::toString(tree.takeError());
}

TEST(ProgramTreeTest, FromJSONErrorsNameTheField) {
  auto edited = [](std::function<void(llvm::json::Object &)> edit) {
    llvm::json::Value value = makeTree().toJSON();
    edit(*value.getAsObject());
    return value;
  };
  auto element = [](llvm::json::Object &root, llvm::StringRef array,
                    size_t index) -> llvm::json::Object & {
    return *(*root.getArray(array))[index].getAsObject();
  };

  EXPECT_NE(fromJSONError(llvm::json::Array{}).find("expected object"),
            std::string::npos);
  std::string missing = fromJSONError(edited([&](llvm::json::Object &root) {
    element(root, "loops", 1).erase("extent");
  }));
  EXPECT_NE(missing.find("missing value"), std::string::npos) << missing;
  EXPECT_NE(missing.find("loops[1].extent"), std::string::npos) << missing;

  std::string mistyped = fromJSONError(edited([&](llvm::json::Object &root) {
    element(root, "computations", 0)["nestId"] = "zero";
  }));
  EXPECT_NE(mistyped.find("computations[0].nestId"), std::string::npos)
      << mistyped;

  std::string type = fromJSONError(edited([&](llvm::json::Object &root) {
    element(root, "buffers", 2)["elementType"] = "f128";
  }));
  EXPECT_NE(type.find("buffers[2].elementType"), std::string::npos) << type;
  EXPECT_NE(type.find("expected one of"), std::string::npos) << type;

  std::string source = fromJSONError(edited([&](llvm::json::Object &root) {
    element(root, "nests", 1)["source"] = "scf";
  }));
  EXPECT_NE(source.find("nests[1].source"), std::string::npos) << source;

  std::string kind = fromJSONError(edited([&](llvm::json::Object &root) {
    auto &child =
        *(*element(root, "loops", 0).getArray("children"))[0].getAsObject();
    child["kind"] = "statement";
  }));
  EXPECT_NE(kind.find("loops[0].children[0].kind"), std::string::npos) << kind;

  std::string matrix = fromJSONError(edited([&](llvm::json::Object &root) {
    auto &access = *(*element(root, "computations", 1).getArray("accesses"))[1]
                        .getAsObject();
    access["matrix"] = llvm::json::Array{llvm::json::Array{1, "x"}};
  }));
  EXPECT_NE(matrix.find("computations[1].accesses[1].matrix[0][1]"),
            std::string::npos)
      << matrix;

  // Well-typed but inconsistent: a loop whose parent does not list it.
  std::string inconsistent =
      fromJSONError(edited([&](llvm::json::Object &root) {
        element(root, "loops", 1)["parentId"] = 2;
      }));
  EXPECT_NE(inconsistent.find("inconsistent program tree"), std::string::npos)
      << inconsistent;
}

} // namespace
