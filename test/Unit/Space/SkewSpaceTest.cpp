//===- SkewSpaceTest.cpp - The space of affine nests that can be skewed ---===//

#include "tuner/Space/ChainOfTrees.h"
#include "tuner/Space/SpaceBuilder.h"

#include "gtest/gtest.h"

using namespace tuner;

namespace {

Target testTarget() {
  Target target;
  target.cpu = "test";
  target.vectorBits = 512;
  target.numVectorRegisters = 32;
  target.cores = 2;
  return target;
}

/// Adds a chain of loops (extents, outermost first) under `parent` (-1: a
/// root loop of nest `nest`), a computation in the innermost one; returns
/// the loop ids.
std::vector<int> addLoops(ProgramTree &tree, LoopNest &nest, int parent,
                          std::vector<int64_t> extents) {
  std::vector<int> ids;
  std::vector<int> enclosing;
  for (int p = parent; p >= 0; p = tree.loops[p].parentId)
    enclosing.insert(enclosing.begin(), p);
  for (int64_t extent : extents) {
    Loop loop;
    loop.id = tree.loops.size();
    loop.name = nest.name + ".d" + std::to_string(loop.id);
    loop.extent = extent;
    loop.parentId = parent;
    loop.depth = enclosing.size();
    if (parent >= 0) {
      tree.loops[parent].children.push_back({true, loop.id});
    } else {
      tree.rootLoopIds.push_back(loop.id);
      nest.rootLoopId = loop.id;
    }
    enclosing.push_back(loop.id);
    ids.push_back(loop.id);
    parent = loop.id;
    tree.loops.push_back(loop);
  }
  Computation comp;
  comp.id = tree.computations.size();
  comp.name = nest.name + ".s" + std::to_string(comp.id);
  comp.opName = "affine.store";
  comp.elementType = ElementType::F32;
  comp.nestId = nest.id;
  comp.loopIds = enclosing;
  tree.loops[parent].children.push_back({false, comp.id});
  nest.computationIds.push_back(comp.id);
  tree.computations.push_back(comp);
  return ids;
}

/// Seidel-2d (t, i, j): the band is not fully permutable, only its order is
/// legal, skewing makes it fully permutable.
ProgramTree seidelTree(bool skewable = true) {
  ProgramTree tree;
  tree.functionName = "seidel";
  LoopNest nest;
  nest.name = "nest_0";
  nest.source = NestSource::Affine;
  std::vector<int> loops = addLoops(tree, nest, -1, {20, 62, 62});
  nest.legalOrders = {{0, 1, 2}};
  nest.fullyPermutable = false;
  if (skewable)
    nest.skewBand = loops;
  tree.nests.push_back(nest);
  return tree;
}

/// Jacobi-2d: a time loop over two sweeps; the skew band is the time loop
/// and the first sweep's row loop.
ProgramTree jacobiTree() {
  ProgramTree tree;
  tree.functionName = "jacobi";
  LoopNest nest;
  nest.name = "nest_0";
  nest.source = NestSource::Affine;
  std::vector<int> time = addLoops(tree, nest, -1, {10});
  // addLoops put a computation in the time loop; sweeps only.
  tree.loops[time[0]].children.clear();
  tree.computations.clear();
  nest.computationIds.clear();
  std::vector<int> first = addLoops(tree, nest, time[0], {126, 126});
  addLoops(tree, nest, time[0], {126, 126});
  nest.isPerfect = false;
  nest.legalOrders = {{0}};
  nest.skewBand = {time[0], first[0]};
  tree.nests.push_back(nest);
  return tree;
}

int64_t value(const Space &space, const Config &config, const char *name) {
  std::optional<size_t> index = space.indexOf(name);
  EXPECT_TRUE(index.has_value()) << name;
  const ParamValue &v = config[*index];
  return v.isBoolean() ? v.getBoolean() : v.getInteger();
}

TEST(SkewSpace, SkewableBandsGetASkewSwitch) {
  llvm::Expected<Space> space = buildSpace(seidelTree(), testTarget());
  ASSERT_TRUE(bool(space)) << llvm::toString(space.takeError());
  std::optional<size_t> skew = space->indexOf("nest_0.skew");
  ASSERT_TRUE(skew.has_value());
  EXPECT_EQ((*space)[*skew].role, ParamRole::Skew);
  EXPECT_EQ((*space)[*skew].nest, "nest_0");
  // Every loop of the skew band has tiles; inner ones powers of two.
  const Parameter &inner = (*space)[*space->indexOf("nest_0.tile.l2")];
  EXPECT_EQ(inner.role, ParamRole::Tile);
  EXPECT_EQ(inner.loop, 2);
  std::vector<int64_t> sizes;
  for (const ParamValue &v : inner.values)
    sizes.push_back(v.getInteger());
  EXPECT_EQ(sizes, (std::vector<int64_t>{4, 8, 16, 32, 62}));
  // The outermost loop is not parallel, but a skewed band's tiles run as a
  // wavefront.
  EXPECT_TRUE(space->indexOf("nest_0.parallel").has_value());
}

/// The spaces of before: without the switch (the option off, or a band
/// that cannot be skewed), the space and its fingerprint are those of a
/// tree without a skew band.
TEST(SkewSpace, WithoutSkewTheSpaceIsUnchanged) {
  llvm::Expected<Space> plain = buildSpace(seidelTree(false), testTarget());
  ASSERT_TRUE(bool(plain)) << llvm::toString(plain.takeError());
  EXPECT_FALSE(plain->indexOf("nest_0.skew").has_value());
  EXPECT_FALSE(plain->indexOf("nest_0.tile.l1").has_value());
  EXPECT_FALSE(plain->indexOf("nest_0.parallel").has_value());
  SpaceOptions noSkew;
  noSkew.skew = false;
  llvm::Expected<Space> off = buildSpace(seidelTree(), testTarget(), noSkew);
  ASSERT_TRUE(bool(off)) << llvm::toString(off.takeError());
  EXPECT_EQ(off->toJSON(), plain->toJSON());
  EXPECT_EQ(off->fingerprint(), plain->fingerprint());
  llvm::Expected<Space> on = buildSpace(seidelTree(), testTarget());
  ASSERT_TRUE(bool(on)) << llvm::toString(on.takeError());
  EXPECT_NE(on->fingerprint(), plain->fingerprint());
  // Nor does tiling off leave a switch.
  SpaceOptions noTiles;
  noTiles.tile = false;
  llvm::Expected<Space> untiled =
      buildSpace(seidelTree(), testTarget(), noTiles);
  ASSERT_TRUE(bool(untiled)) << llvm::toString(untiled.takeError());
  EXPECT_FALSE(untiled->indexOf("nest_0.skew").has_value());
}

TEST(SkewSpace, EveryFeasibleConfigRespectsTheRules) {
  llvm::Expected<Space> space = buildSpace(seidelTree(), testTarget());
  ASSERT_TRUE(bool(space)) << llvm::toString(space.takeError());
  llvm::Expected<ChainOfTrees> chain = ChainOfTrees::build(*space);
  ASSERT_TRUE(bool(chain)) << llvm::toString(chain.takeError());
  ASSERT_TRUE(chain->isExact());
  uint64_t count = chain->count().getZExtValue();
  size_t skewed = 0, wavefronts = 0;
  for (uint64_t i = 0; i < count; ++i) {
    Config c = chain->at(llvm::APInt(64, i));
    bool skew = value(*space, c, "nest_0.skew");
    bool parallel = value(*space, c, "nest_0.parallel");
    bool t0 = value(*space, c, "nest_0.tile.l0") < 20;
    bool t1 = value(*space, c, "nest_0.tile.l1") < 62;
    bool t2 = value(*space, c, "nest_0.tile.l2") < 62;
    if (!skew) {
      // Unskewed, the band is only strip-mined, and runs in sequence.
      EXPECT_FALSE(t1 || t2);
      EXPECT_FALSE(parallel);
      continue;
    }
    ++skewed;
    // Skewed: some inner loop is tiled, nothing unrolled; a wavefront over
    // two tiled loops.
    EXPECT_TRUE(t1 || t2);
    EXPECT_EQ(value(*space, c, "nest_0.unroll"), 1);
    if (parallel) {
      ++wavefronts;
      EXPECT_GE(int(t0) + int(t1) + int(t2), 2);
    }
  }
  EXPECT_GT(skewed, 0u);
  EXPECT_GT(wavefronts, 0u);
}

TEST(SkewSpace, FusedSweepsTileTheirRows) {
  ProgramTree tree = jacobiTree();
  ASSERT_EQ(tree.verify(), "");
  ASSERT_EQ(tree.bandOf(0).size(), 1u);
  llvm::Expected<Space> space = buildSpace(tree, testTarget());
  ASSERT_TRUE(bool(space)) << llvm::toString(space.takeError());
  // The row loop beyond the band gets a tile size at band position 1.
  std::optional<size_t> rows = space->indexOf("nest_0.tile.l1");
  ASSERT_TRUE(rows.has_value());
  EXPECT_EQ((*space)[*rows].loop, 1);
  EXPECT_EQ((*space)[*rows].values.back().getInteger(), 126);
  EXPECT_TRUE(space->indexOf("nest_0.skew").has_value());
  // Skewed and parallel means time and rows both tiled.
  llvm::Expected<ChainOfTrees> chain = ChainOfTrees::build(*space);
  ASSERT_TRUE(bool(chain)) << llvm::toString(chain.takeError());
  uint64_t count = chain->count().getZExtValue();
  for (uint64_t i = 0; i < count; ++i) {
    Config c = chain->at(llvm::APInt(64, i));
    bool rowsTiled = value(*space, c, "nest_0.tile.l1") < 126;
    EXPECT_EQ(rowsTiled, bool(value(*space, c, "nest_0.skew")));
    if (value(*space, c, "nest_0.parallel"))
      EXPECT_LT(value(*space, c, "nest_0.tile.l0"), 10);
  }
}

} // namespace
