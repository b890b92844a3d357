//===- SpaceBuilderTest.cpp - Space extraction from a ProgramTree ---------===//

#include "tuner/Space/ChainOfTrees.h"
#include "tuner/Space/SpaceBuilder.h"

#include "gtest/gtest.h"

#include <random>

using namespace tuner;

namespace {

/// A target with fixed facts, so that tests do not depend on the host.
Target testTarget(unsigned cores = 2) {
  Target target;
  target.cpu = "test";
  target.vectorBits = 512;
  target.numVectorRegisters = 32;
  target.cores = cores;
  return target;
}

/// Adds a linalg nest with one computation and the given loops
/// (extent, isReduction), outermost first.
int addLinalgNest(ProgramTree &tree, const std::string &name,
                  std::vector<std::pair<int64_t, bool>> loops) {
  LoopNest nest;
  nest.id = tree.nests.size();
  nest.name = name;
  nest.source = NestSource::Linalg;
  nest.opIndex = nest.id;
  int parent = -1;
  for (auto [i, loop] : llvm::enumerate(loops)) {
    Loop l;
    l.id = tree.loops.size();
    l.name = name + ".d" + std::to_string(i);
    l.extent = loop.first;
    l.isReduction = loop.second;
    l.parentId = parent;
    l.depth = i;
    if (parent >= 0)
      tree.loops[parent].children.push_back({true, l.id});
    else {
      tree.rootLoopIds.push_back(l.id);
      nest.rootLoopId = l.id;
    }
    parent = l.id;
    tree.loops.push_back(l);
  }
  Computation comp;
  comp.id = tree.computations.size();
  comp.name = name;
  comp.opName = "linalg.generic";
  comp.elementType = ElementType::F32;
  comp.nestId = nest.id;
  for (int id = nest.rootLoopId; id < int(tree.loops.size()); ++id)
    comp.loopIds.push_back(id);
  tree.loops[parent].children.push_back({false, comp.id});
  nest.computationIds.push_back(comp.id);
  tree.computations.push_back(comp);
  tree.nests.push_back(nest);
  return nest.id;
}

ProgramTree matmulTree(int64_t m, int64_t n, int64_t k) {
  ProgramTree tree;
  tree.functionName = "matmul";
  addLinalgNest(tree, "matmul_0", {{m, false}, {n, false}, {k, true}});
  return tree;
}

TEST(SpaceBuilder, MatmulParametersAndRoles) {
  ProgramTree tree = matmulTree(64, 32, 16);
  ASSERT_EQ(tree.verify(), "");
  llvm::Expected<Space> space = buildSpace(tree, testTarget());
  ASSERT_TRUE(bool(space)) << llvm::toString(space.takeError());

  for (const char *name :
       {"matmul_0.tile.l0", "matmul_0.tile.l1", "matmul_0.tile.l2",
        "matmul_0.rtile.l0", "matmul_0.order", "matmul_0.unroll",
        "matmul_0.vectorize", "matmul_0.parallel"})
    EXPECT_TRUE(space->indexOf(name).has_value()) << name;

  const Parameter &tile = (*space)[*space->indexOf("matmul_0.tile.l1")];
  EXPECT_EQ(tile.role, ParamRole::Tile);
  EXPECT_EQ(tile.nest, "matmul_0");
  EXPECT_EQ(tile.loop, 1);
  EXPECT_TRUE(tile.attributes.empty());
  const Parameter &rtile = (*space)[*space->indexOf("matmul_0.rtile.l0")];
  EXPECT_EQ(rtile.role, ParamRole::RegisterTile);
  EXPECT_EQ(rtile.nest, "matmul_0");
  EXPECT_EQ(rtile.loop, 0);
  for (auto [name, role] :
       {std::pair<const char *, ParamRole>{"matmul_0.order", ParamRole::Order},
        {"matmul_0.unroll", ParamRole::Unroll},
        {"matmul_0.vectorize", ParamRole::Vectorize},
        {"matmul_0.parallel", ParamRole::Parallel}}) {
    const Parameter &p = (*space)[*space->indexOf(name)];
    EXPECT_EQ(p.role, role) << name;
    EXPECT_EQ(p.nest, "matmul_0") << name;
    EXPECT_EQ(p.loop, -1) << name;
  }
  // Divisors of 32, capped at 10 candidates: all six fit.
  ASSERT_EQ(tile.values.size(), 6u);
  EXPECT_EQ(tile.values.front().getInteger(), 1);
  EXPECT_EQ(tile.values.back().getInteger(), 32);

  const Parameter &order = (*space)[*space->indexOf("matmul_0.order")];
  EXPECT_EQ(order.kind, ParamKind::Permutation);
  EXPECT_EQ(order.domainSize().value_or(0), 6u);

  // The untransformed program is a member of its own space.
  EXPECT_FALSE(bool(space->check(space->defaultConfig())));
}

TEST(SpaceBuilder, TileCandidatesAreCappedAndSpread) {
  ProgramTree tree = matmulTree(1024, 1024, 1024);
  SpaceOptions options;
  options.maxTileCandidates = 5;
  llvm::Expected<Space> space = buildSpace(tree, testTarget(), options);
  ASSERT_TRUE(bool(space)) << llvm::toString(space.takeError());
  const Parameter &tile = (*space)[*space->indexOf("matmul_0.tile.l0")];
  std::vector<int64_t> values;
  for (const ParamValue &v : tile.values)
    values.push_back(v.getInteger());
  EXPECT_EQ(values, (std::vector<int64_t>{1, 8, 32, 128, 1024}));
}

TEST(SpaceBuilder, EveryFeasibleConfigRespectsTheStatedRules) {
  ProgramTree tree = matmulTree(64, 64, 32);
  llvm::Expected<Space> space = buildSpace(tree, testTarget());
  ASSERT_TRUE(bool(space)) << llvm::toString(space.takeError());
  llvm::Expected<ChainOfTrees> chain = ChainOfTrees::build(*space);
  ASSERT_TRUE(bool(chain)) << llvm::toString(chain.takeError());
  std::mt19937_64 rng(7);
  auto get = [&](const Config &c, const char *name) {
    return c[*space->indexOf(name)];
  };
  for (int i = 0; i < 300; ++i) {
    llvm::Expected<Config> config = chain->sample(rng);
    ASSERT_TRUE(bool(config)) << llvm::toString(config.takeError());
    ASSERT_FALSE(bool(space->check(*config)));
    int64_t product = 1;
    const int64_t extents[] = {64, 64, 32};
    for (int l = 0; l < 3; ++l) {
      std::string suffix = ".l" + std::to_string(l);
      int64_t t = get(*config, ("matmul_0.tile" + suffix).c_str()).getInteger();
      int64_t r =
          get(*config, ("matmul_0.rtile" + suffix).c_str()).getInteger();
      // A register tile is at most its cache tile (a partial one is
      // peeled), or is the extent (none).
      EXPECT_TRUE(r == extents[l] || r <= t) << t << " " << r;
      if (l < 2)
        product *= std::min(t, r);
    }
    // Vectorized register tiles keep the accumulators in 32 zmm registers.
    if (get(*config, "matmul_0.vectorize").getBoolean())
      EXPECT_LE(product, 32 * 16);
    // Unrolling and parallelization need tile loops.
    bool tiled = get(*config, "matmul_0.tile.l0").getInteger() < 64 ||
                 get(*config, "matmul_0.tile.l1").getInteger() < 64 ||
                 get(*config, "matmul_0.tile.l2").getInteger() < 32;
    if (get(*config, "matmul_0.unroll").getInteger() > 1)
      EXPECT_TRUE(tiled);
    if (get(*config, "matmul_0.parallel").getBoolean()) {
      EXPECT_TRUE(get(*config, "matmul_0.tile.l0").getInteger() < 64 ||
                  get(*config, "matmul_0.tile.l1").getInteger() < 64);
      // The parallel tiles are one scf.forall: unrolling needs an scf.for
      // inside it (a tiled reduction loop or a register tile).
      bool forLoopLeft =
          get(*config, "matmul_0.tile.l2").getInteger() < 32;
      for (int l = 0; l < 3; ++l) {
        std::string suffix = ".l" + std::to_string(l);
        int64_t t =
            get(*config, ("matmul_0.tile" + suffix).c_str()).getInteger();
        int64_t r =
            get(*config, ("matmul_0.rtile" + suffix).c_str()).getInteger();
        forLoopLeft |= r < t && r < extents[l];
      }
      if (get(*config, "matmul_0.unroll").getInteger() > 1)
        EXPECT_TRUE(forLoopLeft);
    }
  }
}

TEST(SpaceBuilder, OptionsRemoveParameters) {
  ProgramTree tree = matmulTree(16, 16, 16);
  SpaceOptions options;
  options.registerTile = false;
  options.vectorize = false;
  options.interchange = false;
  llvm::Expected<Space> space = buildSpace(tree, testTarget(/*cores=*/1),
                                           options);
  ASSERT_TRUE(bool(space)) << llvm::toString(space.takeError());
  EXPECT_FALSE(space->indexOf("matmul_0.rtile.l0").has_value());
  EXPECT_FALSE(space->indexOf("matmul_0.vectorize").has_value());
  EXPECT_FALSE(space->indexOf("matmul_0.order").has_value());
  // One core: nothing to parallelize over.
  EXPECT_FALSE(space->indexOf("matmul_0.parallel").has_value());
  EXPECT_TRUE(space->indexOf("matmul_0.tile.l0").has_value());
}

TEST(SpaceBuilder, LongBandsOfferSwapsOnly) {
  ProgramTree tree;
  tree.functionName = "conv";
  addLinalgNest(tree, "conv_0",
                {{1, false}, {8, false}, {8, false}, {4, false}, {3, true},
                 {3, true}, {2, true}});
  llvm::Expected<Space> space = buildSpace(tree, testTarget());
  ASSERT_TRUE(bool(space)) << llvm::toString(space.takeError());
  const Parameter &order = (*space)[*space->indexOf("conv_0.order")];
  // Identity plus the 21 interchanges of two of the 7 loops.
  EXPECT_EQ(order.domainSize().value_or(0), 22u);
  // The extent-1 loop has no tile parameter.
  EXPECT_FALSE(space->indexOf("conv_0.tile.l0").has_value());
  EXPECT_TRUE(space->indexOf("conv_0.tile.l1").has_value());
}

TEST(SpaceBuilder, FusionOfTensorEdges) {
  ProgramTree tree;
  tree.functionName = "chain";
  addLinalgNest(tree, "fill_0", {{32, false}, {32, false}});
  addLinalgNest(tree, "matmul_1", {{32, false}, {32, false}, {32, true}});
  addLinalgNest(tree, "generic_2", {{32, false}, {32, false}});
  tree.edges.push_back({0, 1, 0, /*viaTensor=*/true});
  tree.edges.push_back({1, 2, 0, /*viaTensor=*/true});
  // A memref edge offers no fusion.
  tree.edges.push_back({0, 2, 1, /*viaTensor=*/false});
  llvm::Expected<Space> space = buildSpace(tree, testTarget());
  ASSERT_TRUE(bool(space)) << llvm::toString(space.takeError());
  ASSERT_TRUE(space->indexOf("fuse.fill_0.matmul_1").has_value());
  ASSERT_TRUE(space->indexOf("fuse.matmul_1.generic_2").has_value());
  EXPECT_FALSE(space->indexOf("fuse.fill_0.generic_2").has_value());
  const Parameter &fuse = (*space)[*space->indexOf("fuse.fill_0.matmul_1")];
  EXPECT_EQ(fuse.role, ParamRole::Fuse);
  EXPECT_EQ(fuse.producer, "fill_0");
  EXPECT_EQ(fuse.consumer, "matmul_1");
  EXPECT_TRUE(fuse.nest.empty());

  // Fusing needs the consumer's tile loops.
  Config config = space->defaultConfig();
  config[*space->indexOf("fuse.fill_0.matmul_1")] = ParamValue::boolean(true);
  EXPECT_TRUE(bool(space->check(config)));
  llvm::consumeError(space->check(config));
  config[*space->indexOf("matmul_1.tile.l0")] = ParamValue::integer(8);
  llvm::Error ok = space->check(config);
  EXPECT_FALSE(bool(ok)) << llvm::toString(std::move(ok));
}

TEST(SpaceBuilder, ProducerWithSeveralReadersFusesIntoItsLastOnly) {
  // generic_0's result is read by generic_1 and generic_2: fusing it into
  // generic_1 (not its last reader) crashed MLIR 22's fusion, so only the
  // fusion into generic_2 is offered.
  ProgramTree tree;
  tree.functionName = "two_readers";
  addLinalgNest(tree, "generic_0", {{32, false}, {32, false}});
  addLinalgNest(tree, "generic_1", {{32, false}, {32, false}});
  addLinalgNest(tree, "generic_2", {{32, false}, {32, false}});
  tree.edges.push_back({0, 1, 0, /*viaTensor=*/true});
  tree.edges.push_back({0, 2, 0, /*viaTensor=*/true});
  llvm::Expected<Space> space = buildSpace(tree, testTarget());
  ASSERT_TRUE(bool(space)) << llvm::toString(space.takeError());
  EXPECT_FALSE(space->indexOf("fuse.generic_0.generic_1").has_value());
  EXPECT_TRUE(space->indexOf("fuse.generic_0.generic_2").has_value());
}

TEST(SpaceBuilder, ShiftedAccessesOfGenericsAreVectorized) {
  ProgramTree tree;
  tree.functionName = "stencil";
  addLinalgNest(tree, "generic_0", {{16, false}, {16, false}});
  Access plain{0, false, {{1, 0, 0}, {0, 1, 0}}};
  tree.computations[0].accesses = {plain};
  llvm::Expected<Space> space = buildSpace(tree, testTarget());
  ASSERT_TRUE(bool(space)) << llvm::toString(space.takeError());
  EXPECT_TRUE(space->indexOf("generic_0.vectorize").has_value());

  // A read of A[i + 1][j] is a stencil shift, and A[2][i][j] a constant
  // index: vectorize_tiles reads them through windows at those offsets.
  Access shifted{1, false, {{1, 0, 1}, {0, 1, 0}}};
  Access channel{2, false, {{0, 0, 2}, {1, 0, 0}, {0, 1, 0}}};
  tree.computations[0].accesses = {plain, shifted, channel};
  space = buildSpace(tree, testTarget());
  ASSERT_TRUE(bool(space)) << llvm::toString(space.takeError());
  EXPECT_TRUE(space->indexOf("generic_0.vectorize").has_value());

  // Not a shifted write, nor a negative shift, nor shifts of a named op.
  Access shiftedWrite{1, true, {{1, 0, 1}, {0, 1, 0}}};
  tree.computations[0].accesses = {plain, shiftedWrite};
  space = buildSpace(tree, testTarget());
  ASSERT_TRUE(bool(space)) << llvm::toString(space.takeError());
  EXPECT_FALSE(space->indexOf("generic_0.vectorize").has_value());
  Access negative{1, false, {{1, 0, -1}, {0, 1, 0}}};
  tree.computations[0].accesses = {plain, negative};
  space = buildSpace(tree, testTarget());
  ASSERT_TRUE(bool(space)) << llvm::toString(space.takeError());
  EXPECT_FALSE(space->indexOf("generic_0.vectorize").has_value());
  tree.computations[0].accesses = {plain, shifted};
  tree.computations[0].opName = "linalg.pooling_nchw_sum";
  space = buildSpace(tree, testTarget());
  ASSERT_TRUE(bool(space)) << llvm::toString(space.takeError());
  EXPECT_FALSE(space->indexOf("generic_0.vectorize").has_value());
  tree.computations[0].opName = "linalg.generic";

  // Nor A[i + j] over two parallel loops (not a convolution window).
  Access window{1, false, {{1, 1, 0}}};
  tree.computations[0].accesses = {plain, window};
  space = buildSpace(tree, testTarget());
  ASSERT_TRUE(bool(space)) << llvm::toString(space.takeError());
  EXPECT_FALSE(space->indexOf("generic_0.vectorize").has_value());
}

TEST(SpaceBuilder, ConvolutionWindowsAreVectorizedWithUnitKernelTiles) {
  // out[oh] += in[oh + kh] * w[kh]: a window of an output loop and a
  // reduction loop. A generic op: only the rule that cuts the kernel loop to
  // size 1 applies (the 1-D convolution path needs a named convolution).
  ProgramTree tree;
  tree.functionName = "conv";
  addLinalgNest(tree, "generic_0", {{64, false}, {3, true}});
  Access out{0, true, {{1, 0, 0}}};
  Access in{1, false, {{1, 1, 0}}};
  Access w{2, false, {{0, 1, 0}}};
  tree.computations[0].accesses = {out, in, w};
  llvm::Expected<Space> space = buildSpace(tree, testTarget());
  ASSERT_TRUE(bool(space)) << llvm::toString(space.takeError());
  EXPECT_TRUE(space->indexOf("generic_0.vectorize").has_value());
  EXPECT_TRUE(llvm::any_of(space->getConstraints(), [](const Constraint &c) {
    return c.getText() == "!generic_0.vectorize || ((generic_0.tile.l1 == 1 "
                          "|| generic_0.rtile.l1 == 1)) || false";
  }));
  // The contraction lowering does not apply to a convolution.
  EXPECT_FALSE(space->indexOf("generic_0.lowering").has_value());
}

TEST(SpaceBuilder, AccumulatorFusionNeedsParallelTiles) {
  ProgramTree tree;
  tree.functionName = "matmul";
  addLinalgNest(tree, "fill_0", {{32, false}, {32, false}});
  addLinalgNest(tree, "matmul_1", {{32, false}, {32, false}, {32, true}});
  // The fill's result is the matmul's init (its accumulator).
  tree.edges.push_back({0, 1, 2, /*viaTensor=*/true, /*intoInit=*/true});
  llvm::Expected<Space> space = buildSpace(tree, testTarget());
  ASSERT_TRUE(bool(space)) << llvm::toString(space.takeError());
  ASSERT_TRUE(space->indexOf("fuse.fill_0.matmul_1").has_value());
  Config config = space->defaultConfig();
  config[*space->indexOf("fuse.fill_0.matmul_1")] = ParamValue::boolean(true);
  config[*space->indexOf("matmul_1.tile.l0")] = ParamValue::integer(8);
  llvm::Error error = space->check(config);
  ASSERT_TRUE(bool(error));
  EXPECT_NE(llvm::toString(std::move(error)).find("matmul_1.parallel"),
            std::string::npos);
  config[*space->indexOf("matmul_1.parallel")] = ParamValue::boolean(true);
  llvm::Error ok = space->check(config);
  EXPECT_FALSE(bool(ok)) << llvm::toString(std::move(ok));

  // Without cores to run in parallel, such a fusion is not offered.
  space = buildSpace(tree, testTarget(/*cores=*/1));
  ASSERT_TRUE(bool(space)) << llvm::toString(space.takeError());
  EXPECT_FALSE(space->indexOf("fuse.fill_0.matmul_1").has_value());
}

TEST(SpaceBuilder, AffineNestUsesLegalOrders) {
  ProgramTree tree;
  tree.functionName = "seidel";
  int id = addLinalgNest(tree, "nest_0", {{16, false}, {16, false}});
  tree.nests[id].source = NestSource::Affine;
  tree.nests[id].legalOrders = {{0, 1}};
  tree.nests[id].outerLoopParallel = false;
  llvm::Expected<Space> space = buildSpace(tree, testTarget());
  ASSERT_TRUE(bool(space)) << llvm::toString(space.takeError());
  // Only the identity is legal: no order parameter; nothing parallel.
  EXPECT_FALSE(space->indexOf("nest_0.order").has_value());
  EXPECT_FALSE(space->indexOf("nest_0.parallel").has_value());
  EXPECT_FALSE(space->indexOf("nest_0.vectorize").has_value());
  EXPECT_FALSE(space->indexOf("nest_0.rtile.l0").has_value());

  tree.nests[id].legalOrders = {{0, 1}, {1, 0}};
  tree.nests[id].outerLoopParallel = true;
  space = buildSpace(tree, testTarget());
  ASSERT_TRUE(bool(space)) << llvm::toString(space.takeError());
  const Parameter &order = (*space)[*space->indexOf("nest_0.order")];
  EXPECT_EQ(order.domainSize().value_or(0), 2u);
  EXPECT_TRUE(space->indexOf("nest_0.parallel").has_value());
}

/// Space fingerprints key tuning databases: a space built the same way must
/// keep its fingerprint (and its JSON) across changes to how parameters are
/// represented in memory. The values of the divisor-only space (the space
/// before partial tiles and the contraction lowering) were computed before
/// parameter roles became typed, from the string attributes they replaced;
/// those of the default space when partial tiles came.
TEST(SpaceBuilder, FingerprintsAreStable) {
  SpaceOptions divisorsOnly;
  divisorsOnly.partialTiles = false;
  divisorsOnly.contractionLowering = false;
  divisorsOnly.distribution = false;
  llvm::Expected<Space> matmul =
      buildSpace(matmulTree(64, 32, 16), testTarget(), divisorsOnly);
  ASSERT_TRUE(bool(matmul)) << llvm::toString(matmul.takeError());
  EXPECT_EQ(matmul->fingerprint(), "1d657f1df07b461a");
  llvm::Expected<Space> matmulDefault =
      buildSpace(matmulTree(64, 32, 16), testTarget());
  ASSERT_TRUE(bool(matmulDefault))
      << llvm::toString(matmulDefault.takeError());
  EXPECT_EQ(matmulDefault->fingerprint(), "3c7b08ccae79d7e4");

  ProgramTree chain;
  chain.functionName = "chain";
  addLinalgNest(chain, "fill_0", {{32, false}, {32, false}});
  addLinalgNest(chain, "matmul_1", {{32, false}, {32, false}, {32, true}});
  addLinalgNest(chain, "generic_2", {{32, false}, {32, false}});
  chain.edges.push_back({0, 1, 0, /*viaTensor=*/true});
  chain.edges.push_back({1, 2, 0, /*viaTensor=*/true});
  llvm::Expected<Space> fused = buildSpace(chain, testTarget(), divisorsOnly);
  ASSERT_TRUE(bool(fused)) << llvm::toString(fused.takeError());
  EXPECT_EQ(fused->fingerprint(), "f437b79877f2470e");
  llvm::Expected<Space> fusedDefault = buildSpace(chain, testTarget());
  ASSERT_TRUE(bool(fusedDefault)) << llvm::toString(fusedDefault.takeError());
  EXPECT_EQ(fusedDefault->fingerprint(), "89c854f4b8cd2307");
  ASSERT_TRUE(fused->indexOf("fuse.fill_0.matmul_1").has_value());

  // Read back from its JSON, the space is the same space.
  llvm::Expected<Space> copy = Space::fromJSON(fused->toJSON());
  ASSERT_TRUE(bool(copy)) << llvm::toString(copy.takeError());
  EXPECT_EQ(copy->toJSON(), fused->toJSON());
  EXPECT_EQ(copy->fingerprint(), fused->fingerprint());
}

TEST(SpaceBuilder, Errors) {
  ProgramTree empty;
  empty.functionName = "nothing";
  llvm::Expected<Space> space = buildSpace(empty, testTarget());
  ASSERT_FALSE(bool(space));
  EXPECT_NE(llvm::toString(space.takeError()).find("no loop nest"),
            std::string::npos);

  SpaceOptions options;
  options.unrollFactors = {1, 0};
  space = buildSpace(matmulTree(8, 8, 8), testTarget(), options);
  ASSERT_FALSE(bool(space));
  EXPECT_NE(llvm::toString(space.takeError()).find("unroll factors"),
            std::string::npos);
}

} // namespace
