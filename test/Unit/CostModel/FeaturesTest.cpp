//===- FeaturesTest.cpp - Computation vectors and the program tree --------===//

#include "tuner/CostModel/Features.h"

#include "TestPrograms.h"

#include "llvm/ADT/StringSet.h"

#include "gtest/gtest.h"

#include <tuple>

using namespace tuner;
using namespace tuner::features;
using namespace tuner::test;

namespace {

/// The value of the named feature of computation `comp`.
float feature(const ProgramFeatures &f, unsigned comp, llvm::StringRef name) {
  const std::vector<FeatureInfo> &list = featureList();
  for (unsigned i = 0; i < list.size(); ++i)
    if (list[i].name == name)
      return f.at(comp, i);
  ADD_FAILURE() << "no feature " << name.str();
  return -1;
}

ProgramFeatures extract(const ProgramTree &tree, const Space &space,
                        const Config &config) {
  llvm::Expected<FeatureExtractor> extractor = FeatureExtractor::create(tree);
  EXPECT_TRUE(bool(extractor)) << llvm::toString(extractor.takeError());
  llvm::Expected<ProgramFeatures> features = extractor->extract(space, config);
  if (!features) {
    ADD_FAILURE() << llvm::toString(features.takeError());
    // Zeros of the right size, so that the caller's checks fail cleanly.
    ProgramFeatures empty;
    empty.values.assign(tree.computations.size() * kNumFeatures, 0);
    return empty;
  }
  return std::move(*features);
}

/// Tags of one loop level as a compact string, e.g. "T4 I P0 U2 V R F".
std::string tags(const ProgramFeatures &f, unsigned comp, unsigned level) {
  std::string s;
  auto get = [&](LoopFeature feature) {
    return f.at(comp, loopFeature(level, feature));
  };
  if (get(LoopTiled))
    s += "T" + std::to_string(int(get(LoopTileFactor))) + " ";
  if (get(LoopRegisterTiled))
    s += "R" + std::to_string(int(get(LoopRegisterTileFactor))) + " ";
  if (get(LoopInterchanged))
    s += "I" + std::to_string(int(get(LoopPosition))) + " ";
  if (get(LoopUnrolled))
    s += "U" + std::to_string(int(get(LoopUnrollFactor))) + " ";
  if (get(LoopVectorized))
    s += "V ";
  if (get(LoopParallel))
    s += "P ";
  if (get(LoopFused))
    s += "F ";
  return s.empty() ? "-" : s.substr(0, s.size() - 1);
}

TEST(FeaturesTest, LayoutIsOneListWithUniqueNames) {
  const std::vector<FeatureInfo> &list = featureList();
  ASSERT_EQ(list.size(), size_t(kNumFeatures));
  llvm::StringSet<> names;
  for (const FeatureInfo &info : list) {
    EXPECT_TRUE(names.insert(info.name).second) << info.name;
    EXPECT_FALSE(info.description.empty()) << info.name;
  }
  // The index helpers and the names agree.
  EXPECT_EQ(list[loopFeature(2, LoopTileFactor)].name, "loop2.tile_factor");
  EXPECT_EQ(list[loopFeature(0, LoopExtent)].name, "loop0.extent");
  EXPECT_EQ(list[writtenSize(3)].name, "written_size3");
  EXPECT_EQ(list[computationFeature(Muls)].name, "muls");
  EXPECT_EQ(list[accessFeature(5, AccessBufferId)].name, "access5.buffer_id");
  EXPECT_EQ(list[accessMatrix(1, 2, 3)].name, "access1.m2.c3");
  EXPECT_EQ(list[accessMatrix(31, 3, kMaxLoopLevels)].name,
            "access31.m3.const");
  EXPECT_EQ(list.back().name, "access31.m3.const");
  EXPECT_EQ(list[loopFeature(0, LoopTiled)].kind, FeatureKind::Boolean);
  EXPECT_EQ(list[loopFeature(0, LoopTileFactor)].kind, FeatureKind::Numeric);

  EXPECT_EQ(featureLayoutHash().size(), 16u);
  EXPECT_EQ(featureLayoutHash(), featureLayoutHash());
  EXPECT_EQ(featureMaxima().front(),
            std::make_pair(std::string("loop_levels"), kMaxLoopLevels));

  std::string doc;
  llvm::raw_string_ostream os(doc);
  printFeatureDocumentation(os);
  EXPECT_NE(doc.find("| loop<L>.tile_factor (L < 7) | numeric |"),
            std::string::npos)
      << doc;
  EXPECT_NE(doc.find(featureLayoutHash()), std::string::npos);
}

TEST(FeaturesTest, TransformIsSignedLogForNumericFeatures) {
  EXPECT_FLOAT_EQ(transformFeature(loopFeature(0, LoopExtent), 0), 0);
  EXPECT_FLOAT_EQ(transformFeature(loopFeature(0, LoopExtent), 1023),
                  std::log(1024.0f));
  EXPECT_FLOAT_EQ(transformFeature(accessMatrix(0, 0, kMaxLoopLevels), -3),
                  -std::log(4.0f));
  EXPECT_FLOAT_EQ(transformFeature(loopFeature(0, LoopTiled), 1), 1);
}

TEST(FeaturesTest, UntransformedProgram) {
  ProgramTree tree = fillMatmul(16, 8, 32);
  Space space = spaceOf(tree);
  ProgramFeatures f = extract(tree, space, space.defaultConfig());
  ASSERT_EQ(f.values.size(), 2u * kNumFeatures);
  // matmul: loops 16, 8, 32 (the last a reduction), every tag clear.
  EXPECT_EQ(feature(f, 1, "loop0.extent"), 16);
  EXPECT_EQ(feature(f, 1, "loop2.extent"), 32);
  EXPECT_EQ(feature(f, 1, "loop2.reduction"), 1);
  EXPECT_EQ(feature(f, 1, "loop1.reduction"), 0);
  EXPECT_EQ(feature(f, 1, "loop3.extent"), 0);
  for (unsigned level = 0; level < 3; ++level) {
    EXPECT_EQ(tags(f, 1, level), "-") << level;
    EXPECT_EQ(f.at(1, loopFeature(level, LoopPosition)), level);
  }
  // Written buffer, operations, accesses (A[i, k] first).
  EXPECT_EQ(feature(f, 1, "written_size0"), 16);
  EXPECT_EQ(feature(f, 1, "written_size1"), 8);
  EXPECT_EQ(feature(f, 1, "written_size2"), 0);
  EXPECT_EQ(feature(f, 1, "element_bytes"), 4);
  EXPECT_EQ(feature(f, 1, "adds"), 1);
  EXPECT_EQ(feature(f, 1, "muls"), 1);
  EXPECT_EQ(feature(f, 1, "access0.present"), 1);
  EXPECT_EQ(feature(f, 1, "access0.buffer_id"), 0);
  EXPECT_EQ(feature(f, 1, "access0.m0.c0"), 1);
  EXPECT_EQ(feature(f, 1, "access0.m1.c2"), 1);
  EXPECT_EQ(feature(f, 1, "access0.m1.c0"), 0);
  EXPECT_EQ(feature(f, 1, "access3.write"), 1);
  EXPECT_EQ(feature(f, 1, "access4.present"), 0);

  // The tree: children first, the function body last, with both nests.
  const FeatureTree &t = f.tree;
  ASSERT_EQ(t.nodes.size(), 6u);
  EXPECT_EQ(t.numComputations, 2u);
  const FeatureTree::Node &body = t.nodes.back();
  EXPECT_EQ(body.loopId, -1);
  ASSERT_EQ(body.loops.size(), 2u);
  EXPECT_TRUE(body.computations.empty());
  EXPECT_EQ(t.nodes[body.loops[0]].loopId, tree.nests[0].rootLoopId);
  EXPECT_EQ(t.nodes[body.loops[1]].loopId, tree.nests[1].rootLoopId);
  for (const FeatureTree::Node &node : t.nodes)
    for (int child : node.loops)
      EXPECT_LT(child, &node - t.nodes.data());
}

TEST(FeaturesTest, TilingInterchangeAndUnrollingAreLoopTags) {
  ProgramTree tree = fillMatmul(16, 8, 32);
  Space space = spaceOf(tree);
  // Tiles on i and k; the order puts k outside i among the tile loops.
  ProgramFeatures f =
      extract(tree, space,
              configOf(space, {{"matmul.tile.l0", integer(4)},
                               {"matmul.tile.l2", integer(8)},
                               {"matmul.rtile.l2", integer(2)},
                               {"matmul.order", order({2, 0, 1})},
                               {"matmul.unroll", integer(4)}}));
  EXPECT_EQ(tags(f, 1, 0), "T4 I2");
  EXPECT_EQ(tags(f, 1, 1), "-");
  // k's register tile loop is the innermost generated loop: unrolled.
  EXPECT_EQ(tags(f, 1, 2), "T8 R2 I0 U4");
  EXPECT_EQ(tags(f, 0, 0), "-"); // fill untouched

  // The order among loops that generate none does not show.
  ProgramFeatures same =
      extract(tree, space,
              configOf(space, {{"matmul.tile.l0", integer(4)},
                               {"matmul.order", order({1, 0, 2})}}));
  EXPECT_EQ(tags(same, 1, 0), "T4");
  EXPECT_EQ(tags(same, 1, 1), "-");
}

TEST(FeaturesTest, ParallelAndVectorizeTags) {
  ProgramTree tree = fillMatmul(16, 8, 32);
  Space space = spaceOf(tree);
  ProgramFeatures f =
      extract(tree, space,
              configOf(space, {{"matmul.tile.l0", integer(4)},
                               {"matmul.tile.l2", integer(8)},
                               {"matmul.parallel", boolean(true)},
                               {"matmul.vectorize", boolean(true)},
                               {"matmul.unroll", integer(2)}}));
  // i runs in the scf.forall; k's tile loop is the scf.for left to unroll.
  EXPECT_EQ(tags(f, 1, 0), "T4 V P");
  EXPECT_EQ(tags(f, 1, 1), "V");
  EXPECT_EQ(tags(f, 1, 2), "T8 U2 V");
}

TEST(FeaturesTest, FusionMovesTheProducerIntoTheConsumersTiles) {
  ProgramTree tree = fillMatmul(16, 8, 32);
  Space space = spaceOf(tree);
  Config unfused = configOf(space, {{"matmul.tile.l0", integer(4)},
                                    {"matmul.tile.l1", integer(4)},
                                    {"matmul.parallel", boolean(true)}});
  Config fused = unfused;
  fused[*space.indexOf("fuse.fill.matmul")] = boolean(true);
  ProgramFeatures a = extract(tree, space, unfused);
  ProgramFeatures b = extract(tree, space, fused);
  EXPECT_NE(a.tree.hash(), b.tree.hash());
  EXPECT_EQ(tags(b, 1, 0), "T4 P F");
  EXPECT_EQ(tags(b, 1, 1), "T4 P F");
  EXPECT_EQ(tags(b, 1, 2), "-");
  EXPECT_EQ(tags(b, 0, 0), "F");
  EXPECT_EQ(tags(b, 0, 1), "F");

  // The body holds the matmul only; fill's loops run in matmul's j loop,
  // before matmul's k loop.
  const FeatureTree &t = b.tree;
  ASSERT_EQ(t.nodes.size(), 6u);
  ASSERT_EQ(t.nodes.back().loops.size(), 1u);
  int matmulJ = tree.loops[tree.nests[1].rootLoopId].children[0].id;
  auto node = llvm::find_if(
      t.nodes, [&](const FeatureTree::Node &n) { return n.loopId == matmulJ; });
  ASSERT_NE(node, t.nodes.end());
  ASSERT_EQ(node->loops.size(), 2u);
  EXPECT_EQ(t.nodes[node->loops[0]].loopId, tree.nests[0].rootLoopId);
  EXPECT_TRUE(node->computations.empty());
}

TEST(FeaturesTest, ScheduleFeaturesRestateWhatTheTagsImply) {
  ProgramTree tree = fillMatmul(16, 8, 32);
  Space space = spaceOf(tree);
  ProgramFeatures plain = extract(tree, space, space.defaultConfig());
  // Untouched matmul: the innermost loop is k (32 iterations); A[i, k]
  // moves by one element, B[k, j] by a row of 8, C not at all.
  EXPECT_EQ(feature(plain, 1, "iterations"), 16 * 8 * 32);
  EXPECT_EQ(feature(plain, 1, "inner_extent"), 32);
  EXPECT_EQ(feature(plain, 1, "access0.inner_stride"), 1);
  EXPECT_EQ(feature(plain, 1, "access1.inner_stride"), 8);
  EXPECT_EQ(feature(plain, 1, "access2.inner_stride"), 0);
  EXPECT_EQ(feature(plain, 1, "inner_contiguous"), 0);
  EXPECT_EQ(feature(plain, 1, "parallel_chunks"), 0);
  EXPECT_EQ(feature(plain, 1, "chunk_iterations"), 16 * 8 * 32);
  EXPECT_EQ(feature(plain, 1, "tiles"), 1);
  EXPECT_EQ(feature(plain, 1, "recomputation"), 1);
  // Whole arrays: A 16x32, B 32x8, C 16x8 read and written, 4 bytes each.
  EXPECT_EQ(feature(plain, 1, "tile_footprint"),
            4 * (16 * 32 + 32 * 8 + 2 * 16 * 8));

  ProgramFeatures tiled =
      extract(tree, space,
              configOf(space, {{"matmul.tile.l0", integer(4)},
                               {"matmul.tile.l2", integer(8)},
                               {"matmul.rtile.l2", integer(2)},
                               {"matmul.parallel", boolean(true)}}));
  // i is distributed: 16 / 4 chunks; k runs 2 at a time innermost.
  EXPECT_EQ(feature(tiled, 1, "parallel_chunks"), 4);
  EXPECT_EQ(feature(tiled, 1, "chunk_iterations"), 16 * 8 * 32 / 4);
  EXPECT_EQ(feature(tiled, 1, "inner_extent"), 2);
  EXPECT_EQ(feature(tiled, 1, "tiles"), 4 * 4);
  EXPECT_EQ(feature(tiled, 1, "register_tiles"), 4 * 16);
  // A cache tile: A 4x8, B 8x8, C 4x8 twice; a register tile: k = 2.
  EXPECT_EQ(feature(tiled, 1, "tile_footprint"),
            4 * (4 * 8 + 8 * 8 + 2 * 4 * 8));
  EXPECT_EQ(feature(tiled, 1, "register_footprint"),
            4 * (4 * 2 + 2 * 8 + 2 * 4 * 8));
}

TEST(FeaturesTest, FusionRecomputationCountsTheHostsTiles) {
  // A 3-point stencil reads a producer's result: fused into 4-wide tiles,
  // each tile recomputes 6 of the producer's points.
  TreeBuilder b("stencil");
  int in = b.buffer({64}), mid = b.buffer({66}), out = b.buffer({64});
  OpCounts ops;
  ops.add = 1;
  int producer =
      b.nest("producer", {66}, {false}, mid,
             {TreeBuilder::access(in, {0}, 1),
              TreeBuilder::access(mid, {0}, 1, true)},
             ops);
  Access shifted = TreeBuilder::access(mid, {0}, 1);
  std::vector<Access> reads = {TreeBuilder::access(mid, {0}, 1), shifted,
                               shifted, TreeBuilder::access(out, {0}, 1, true)};
  reads[1].matrix[0].back() = 1;
  reads[2].matrix[0].back() = 2;
  int consumer = b.nest("consumer", {64}, {false}, out, reads, ops);
  b.edge(producer, consumer, mid, /*intoInit=*/false);
  Space space = spaceOf(b.tree);
  Config config = configOf(space, {{"consumer.tile.l0", integer(4)}});
  std::optional<size_t> fuse = space.indexOf("fuse.producer.consumer");
  ASSERT_TRUE(fuse.has_value());
  config[*fuse] = boolean(true);
  ProgramFeatures f = extract(b.tree, space, config);
  EXPECT_EQ(feature(f, 0, "tiles"), 16);
  EXPECT_FLOAT_EQ(feature(f, 0, "recomputation"), 16.0f * 6 / 66);
  EXPECT_EQ(feature(f, 1, "recomputation"), 1);
}

TEST(FeaturesTest, AffineInterchangeTilingUnrollingAndParallelism) {
  TreeBuilder b("copy");
  int in = b.buffer({32, 16}), out = b.buffer({32, 16});
  b.nest("nest_0", {32, 16}, {false, false}, out,
         {TreeBuilder::access(in, {0, 1}, 2),
          TreeBuilder::access(out, {0, 1}, 2, true)},
         OpCounts(), NestSource::Affine);
  b.tree.nests[0].legalOrders = {{0, 1}, {1, 0}};
  Space space = spaceOf(b.tree);
  ProgramFeatures f = extract(b.tree, space,
                              configOf(space, {{"nest_0.tile.l0", integer(4)},
                                               {"nest_0.order", order({1, 0})},
                                               {"nest_0.unroll", integer(2)}}));
  // Order [1, 0]: loop 1 runs outside; the innermost point loop is loop 0's.
  EXPECT_EQ(tags(f, 0, 0), "T4 I1 U2");
  EXPECT_EQ(tags(f, 0, 1), "I0");
  // The outermost generated loop runs in parallel: loop 0's tile loop (the
  // space does not let only loop 1 be tiled then, which would put loop 1's
  // tile loop outermost).
  f = extract(b.tree, space,
              configOf(space, {{"nest_0.tile.l0", integer(4)},
                               {"nest_0.parallel", boolean(true)}}));
  EXPECT_EQ(tags(f, 0, 0), "T4 P");
  EXPECT_EQ(tags(f, 0, 1), "-");
  f = extract(b.tree, space,
              configOf(space, {{"nest_0.tile.l0", integer(8)},
                               {"nest_0.tile.l1", integer(4)},
                               {"nest_0.parallel", boolean(true)}}));
  EXPECT_EQ(tags(f, 0, 0), "T8 P");
  EXPECT_EQ(tags(f, 0, 1), "T4");
  Config innerOnly = space.defaultConfig();
  innerOnly[*space.indexOf("nest_0.tile.l1")] = integer(4);
  innerOnly[*space.indexOf("nest_0.parallel")] = boolean(true);
  llvm::Error rejected = space.check(innerOnly);
  EXPECT_TRUE(bool(rejected));
  llvm::consumeError(std::move(rejected));
}

/// The plan of `config`, for tests that set what no test space offers.
SchedulePlan planOf(const ProgramTree &tree, const Space &space,
                    const Config &config) {
  llvm::Expected<SchedulePlan> plan = planSchedule(tree, space, config);
  EXPECT_TRUE(bool(plan)) << llvm::toString(plan.takeError());
  return plan ? std::move(*plan) : SchedulePlan();
}

ProgramFeatures extract(const ProgramTree &tree, const SchedulePlan &plan) {
  llvm::Expected<FeatureExtractor> extractor = FeatureExtractor::create(tree);
  EXPECT_TRUE(bool(extractor)) << llvm::toString(extractor.takeError());
  return extractor->extract(plan);
}

TEST(FeaturesTest, PaddedPartialTilesAndConvolutionStrategies) {
  ProgramTree tree = fillMatmul(15, 32, 32);
  Space space = spaceOf(tree);
  // 15 rows in 4-row scf.forall tiles: the last tile is partial.
  SchedulePlan plan =
      planOf(tree, space,
             configOf(space, {{"matmul.tile.l0", integer(4)},
                              {"matmul.tile.l2", integer(8)},
                              {"matmul.vectorize", boolean(true)},
                              {"matmul.parallel", boolean(true)}}));
  ProgramFeatures peeled = extract(tree, plan);
  EXPECT_EQ(feature(peeled, 1, "padded_partial_tiles"), 0);
  plan.nests[1].padPartial = true;
  ProgramFeatures padded = extract(tree, plan);
  EXPECT_EQ(feature(padded, 1, "padded_partial_tiles"), 1);
  // Only the setting changes; everything else reads the same.
  for (unsigned i = 0; i < kNumFeatures; ++i)
    if (featureList()[i].name != "padded_partial_tiles")
      EXPECT_EQ(peeled.at(1, i), padded.at(1, i)) << featureList()[i].name;
  // Padding a tile that divides changes nothing.
  plan.nests[1].tile[0] = 5;
  EXPECT_EQ(feature(extract(tree, plan), 1, "padded_partial_tiles"), 0);

  for (auto [strategy, im2col, decomposed] :
       {std::tuple{ConvolutionStrategy::Direct, 0, 0},
        std::tuple{ConvolutionStrategy::Im2col, 1, 0},
        std::tuple{ConvolutionStrategy::Decompose, 0, 1}}) {
    SchedulePlan conv = planOf(tree, space, space.defaultConfig());
    conv.nests[1].convolution = strategy;
    ProgramFeatures f = extract(tree, conv);
    EXPECT_EQ(feature(f, 1, "conv_im2col"), im2col);
    EXPECT_EQ(feature(f, 1, "conv_decomposed"), decomposed);
    // The fill is not the convolution.
    EXPECT_EQ(feature(f, 0, "conv_im2col"), 0);
    EXPECT_EQ(feature(f, 0, "conv_decomposed"), 0);
  }
}

/// A Jacobi-style time loop: for t { for i, j: B = f(A); for i, j: A = f(B)
/// }, one affine nest whose band is the time loop; skewing makes the time
/// loop and the first sweep's row loop one fully permutable band (the sweeps
/// fused with shifts).
ProgramTree jacobiTree(int64_t steps, int64_t n) {
  TreeBuilder b("jacobi");
  int a = b.buffer({n, n}), bb = b.buffer({n, n});
  ProgramTree &tree = b.tree;
  LoopNest nest;
  nest.name = "nest_0";
  nest.source = NestSource::Affine;
  nest.isPerfect = false;
  nest.fullyPermutable = false;
  auto addLoop = [&](const std::string &name, int64_t extent, int parent) {
    Loop loop;
    loop.id = int(tree.loops.size());
    loop.name = name;
    loop.extent = extent;
    loop.parentId = parent;
    loop.depth = parent < 0 ? 0 : tree.loops[parent].depth + 1;
    if (parent >= 0)
      tree.loops[parent].children.push_back({true, loop.id});
    else
      tree.rootLoopIds.push_back(loop.id);
    tree.loops.push_back(loop);
    return loop.id;
  };
  int t = addLoop("t", steps, -1);
  for (int sweep = 0; sweep < 2; ++sweep) {
    int i = addLoop("i" + std::to_string(sweep), n - 2, t);
    int j = addLoop("j" + std::to_string(sweep), n - 2, i);
    Computation comp;
    comp.id = int(tree.computations.size());
    comp.name = "nest_0.s" + std::to_string(sweep);
    comp.opName = "affine.store";
    comp.writtenBufferId = sweep ? a : bb;
    comp.writtenShape = {n, n};
    comp.elementType = ElementType::F32;
    comp.loopIds = {t, i, j};
    comp.accesses = {TreeBuilder::access(sweep ? bb : a, {1, 2}, 3),
                     TreeBuilder::access(sweep ? a : bb, {1, 2}, 3, true)};
    comp.opCounts.add = 4;
    comp.nestId = 0;
    tree.loops[j].children.push_back({false, comp.id});
    nest.computationIds.push_back(comp.id);
    tree.computations.push_back(comp);
  }
  nest.rootLoopId = t;
  nest.skewBand = {t, tree.loops[t].children.front().id};
  tree.nests.push_back(nest);
  return std::move(b.tree);
}

TEST(FeaturesTest, TimeTilingTagsTheSkewBandAndCountsWavefronts) {
  ProgramTree tree = jacobiTree(20, 66);
  Space space = spaceOf(tree);
  ASSERT_TRUE(space.indexOf("nest_0.skew").has_value());
  SchedulePlan plan = planOf(tree, space, space.defaultConfig());
  ASSERT_EQ(plan.nests[0].skewTile.size(), 2u);
  ProgramFeatures plain = extract(tree, plan);
  EXPECT_EQ(feature(plain, 0, "time_tiled"), 0);
  EXPECT_EQ(feature(plain, 1, "wavefronts"), 0);

  // Skewed, tiled 4 x 16 (time x the first sweep's rows), sequential.
  NestPlan &nest = plan.nests[0];
  nest.skew = true;
  nest.skewTile = {4, 16};
  nest.tile = {4};
  ProgramFeatures skewed = extract(tree, plan);
  for (unsigned comp : {0u, 1u}) {
    EXPECT_EQ(feature(skewed, comp, "time_tiled"), 1);
    EXPECT_EQ(feature(skewed, comp, "wavefronts"), 0);
    // The fused row loops of both sweeps are tiled as the skew band says.
    EXPECT_EQ(tags(skewed, comp, 0), "T4");
    EXPECT_EQ(tags(skewed, comp, 1), "T16");
    EXPECT_EQ(tags(skewed, comp, 2), "-");
    // 5 tiles of time steps x 4 of rows.
    EXPECT_EQ(feature(skewed, comp, "tiles"), 5 * 4);
  }

  // As a wavefront: 5 + 4 - 1 wavefronts of 20 / 8 tiles on average.
  nest.parallel = true;
  ProgramFeatures wavefront = extract(tree, plan);
  for (unsigned comp : {0u, 1u}) {
    EXPECT_EQ(tags(wavefront, comp, 0), "T4 P");
    EXPECT_EQ(tags(wavefront, comp, 1), "T16 P");
    EXPECT_EQ(feature(wavefront, comp, "wavefronts"), 8);
    EXPECT_FLOAT_EQ(feature(wavefront, comp, "parallel_chunks"), 20.0f / 8);
  }
}

TEST(FeaturesTest, ProgramsBeyondTheLayoutAreRejected) {
  TreeBuilder deep("deep");
  int out = deep.buffer({2, 2, 2, 2});
  deep.nest("deep", std::vector<int64_t>(8, 2), std::vector<bool>(8, false),
            out, {TreeBuilder::access(out, {0, 1, 2, 3}, 8, true)}, OpCounts());
  llvm::Expected<FeatureExtractor> e = FeatureExtractor::create(deep.tree);
  ASSERT_FALSE(bool(e));
  EXPECT_EQ(llvm::toString(e.takeError()),
            "function @deep, computation 'deep.s0': 8 enclosing loops, but "
            "the cost model's feature layout holds at most 7 (loop_levels in "
            "Features.def)");

  TreeBuilder wide("wide");
  int in = wide.buffer({4}), res = wide.buffer({4});
  std::vector<Access> accesses(33, TreeBuilder::access(in, {0}, 1));
  accesses.push_back(TreeBuilder::access(res, {0}, 1, true));
  wide.nest("sum", {4}, {false}, res, accesses, OpCounts());
  e = FeatureExtractor::create(wide.tree);
  ASSERT_FALSE(bool(e));
  EXPECT_NE(llvm::toString(e.takeError()).find("34 memory accesses"),
            std::string::npos);

  TreeBuilder rank("rank");
  int big = rank.buffer({2, 2, 2, 2, 2});
  rank.nest("copy", {2, 2, 2, 2, 2}, std::vector<bool>(5, false), big,
            {TreeBuilder::access(big, {0, 1, 2, 3, 4}, 5, true)}, OpCounts());
  e = FeatureExtractor::create(rank.tree);
  ASSERT_FALSE(bool(e));
  EXPECT_NE(llvm::toString(e.takeError()).find("buffer_rank"),
            std::string::npos);
}

TEST(SchedulePlanTest, HashIgnoresWhatDoesNotChangeTheSchedule) {
  ProgramTree tree = fillMatmul(16, 8, 32);
  Space space = spaceOf(tree);
  auto hash = [&](const std::map<std::string, ParamValue> &values) {
    llvm::Expected<SchedulePlan> plan =
        planSchedule(tree, space, configOf(space, values));
    EXPECT_TRUE(bool(plan)) << llvm::toString(plan.takeError());
    return plan ? plan->hash() : 0;
  };
  uint64_t base = hash({});
  // A tile as large as the loop is no tile.
  EXPECT_EQ(hash({{"matmul.tile.l0", integer(16)}}), base);
  // A register tile equal to its cache tile does not tile again.
  EXPECT_EQ(
      hash({{"matmul.tile.l0", integer(4)}, {"matmul.rtile.l0", integer(4)}}),
      hash({{"matmul.tile.l0", integer(4)}}));
  // The order of loops that generate no tile loops.
  EXPECT_EQ(hash({{"matmul.order", order({2, 1, 0})}}), base);
  EXPECT_EQ(hash({{"matmul.tile.l0", integer(4)},
                  {"matmul.order", order({1, 2, 0})}}),
            hash({{"matmul.tile.l0", integer(4)}}));
  // A fused producer's own settings.
  std::map<std::string, ParamValue> fused = {
      {"matmul.tile.l0", integer(4)},
      {"matmul.parallel", boolean(true)},
      {"fuse.fill.matmul", boolean(true)}};
  std::map<std::string, ParamValue> fusedTiled = fused;
  fusedTiled["fill.tile.l0"] = integer(2);
  EXPECT_EQ(hash(fused), hash(fusedTiled));

  // What does change it.
  EXPECT_NE(hash({{"matmul.tile.l0", integer(4)}}), base);
  EXPECT_NE(hash({{"matmul.tile.l0", integer(4)}}),
            hash({{"matmul.tile.l0", integer(8)}}));
  EXPECT_NE(
      hash({{"matmul.tile.l0", integer(4)}, {"matmul.tile.l1", integer(4)}}),
      hash({{"matmul.tile.l0", integer(4)},
            {"matmul.tile.l1", integer(4)},
            {"matmul.order", order({1, 0, 2})}}));
  EXPECT_NE(hash(fused), hash({{"matmul.tile.l0", integer(4)},
                               {"matmul.parallel", boolean(true)}}));
  EXPECT_NE(hash({{"matmul.tile.l2", integer(8)},
                  {"matmul.vectorize", boolean(true)}}),
            hash({{"matmul.tile.l2", integer(8)}}));
}

TEST(SchedulePlanTest, BadConfigsAreErrors) {
  ProgramTree tree = fillMatmul(16, 8, 32);
  Space space = spaceOf(tree);
  // Outside the space: unrolling without a tile loop.
  llvm::Expected<SchedulePlan> plan = planSchedule(
      tree, space, configOf(space, {{"matmul.unroll", integer(2)}}));
  ASSERT_FALSE(bool(plan));
  EXPECT_NE(llvm::toString(plan.takeError()).find("matmul.unroll"),
            std::string::npos);
  // A parameter without a role.
  Space unknown;
  cantFail(unknown.addParameter(Parameter::boolean("mystery")));
  plan = planSchedule(tree, unknown, unknown.defaultConfig());
  ASSERT_FALSE(bool(plan));
  EXPECT_EQ(llvm::toString(plan.takeError()),
            "parameter 'mystery' has no 'role' attribute: the schedule "
            "builder does not know what it controls");
}

} // namespace
