//===- AnalyticConfigsTest.cpp - Schedules derived from the target --------===//

#include "tuner/Space/AnalyticConfigs.h"
#include "tuner/Space/SpaceBuilder.h"

#include "gtest/gtest.h"

using namespace tuner;

namespace {

/// A 2-core AVX-512 machine with Zen 4's caches (32 KiB L1d, 1 MiB L2).
Target avx512() {
  Target target;
  target.cpu = "test";
  target.vectorBits = 512;
  target.numVectorRegisters = 32;
  target.cores = 2;
  target.l1dBytes = 32 * 1024;
  target.l2Bytes = 1024 * 1024;
  return target;
}

/// The same with AVX2's 16 registers of 256 bits and a 512 KiB L2.
Target avx2() {
  Target target = avx512();
  target.vectorBits = 256;
  target.numVectorRegisters = 16;
  target.l2Bytes = 512 * 1024;
  return target;
}

/// C[i][j] += A[i][k] * B[k][j] (loops i, j, k) as a linalg nest on f32;
/// with `batch`, a leading batch loop b over all three operands.
ProgramTree contraction(int64_t m, int64_t n, int64_t k, int64_t batch = 0) {
  ProgramTree tree;
  tree.functionName = "mm";
  LoopNest nest;
  nest.name = "matmul_0";
  nest.rootLoopId = 0;
  std::vector<std::pair<int64_t, bool>> loops;
  if (batch)
    loops.push_back({batch, false});
  loops.insert(loops.end(), {{m, false}, {n, false}, {k, true}});
  for (size_t i = 0; i < loops.size(); ++i) {
    Loop loop;
    loop.id = int(i);
    loop.name = "matmul_0.d" + std::to_string(i);
    loop.extent = loops[i].first;
    loop.isReduction = loops[i].second;
    loop.isParallel = !loops[i].second;
    loop.parentId = int(i) - 1;
    loop.depth = int(i);
    if (i > 0)
      tree.loops[i - 1].children.push_back({true, int(i)});
    tree.loops.push_back(loop);
  }
  tree.rootLoopIds = {0};
  Computation comp;
  comp.name = "matmul_0";
  comp.opName = "linalg.matmul";
  comp.elementType = ElementType::F32;
  size_t depth = loops.size(), b = batch ? 1 : 0;
  for (size_t i = 0; i < depth; ++i)
    comp.loopIds.push_back(int(i));
  // One row per buffer dimension, one column per loop plus the constant.
  auto row = [&](std::initializer_list<size_t> ones) {
    std::vector<int64_t> r(depth + 1, 0);
    for (size_t one : ones)
      r[one] = 1;
    return r;
  };
  auto access = [&](int buffer, bool write, size_t first, size_t second) {
    Access a;
    a.bufferId = buffer;
    a.isWrite = write;
    if (batch)
      a.matrix.push_back(row({0}));
    a.matrix.push_back(row({first}));
    a.matrix.push_back(row({second}));
    return a;
  };
  comp.accesses = {access(0, false, b, b + 2), access(1, false, b + 2, b + 1),
                   access(2, false, b, b + 1), access(2, true, b, b + 1)};
  for (int id = 0; id < 3; ++id) {
    Buffer buffer;
    buffer.id = id;
    buffer.name = "%arg" + std::to_string(id);
    buffer.elementType = ElementType::F32;
    buffer.isFunctionArgument = id < 2;
    buffer.isFunctionResult = id == 2;
    if (batch)
      buffer.shape.push_back(batch);
    buffer.shape.push_back(id == 0 ? m : k);
    buffer.shape.push_back(id == 1 ? n : id == 0 ? k : n);
    if (id == 2)
      buffer.shape.back() = n, buffer.shape[buffer.shape.size() - 2] = m;
    tree.buffers.push_back(buffer);
  }
  tree.loops.back().children.push_back({false, 0});
  tree.computations.push_back(comp);
  nest.computationIds = {0};
  tree.nests.push_back(nest);
  return tree;
}

int64_t integer(const Space &space, const Config &config, const char *name) {
  std::optional<size_t> index = space.indexOf(name);
  EXPECT_TRUE(index.has_value()) << name;
  return index ? config[*index].getInteger() : -1;
}

TEST(AnalyticConfigs, MicroKernelsSizedFromRegistersAndCaches) {
  ProgramTree tree = contraction(1021, 1021, 1021);
  ASSERT_EQ(tree.verify(), "");
  // AVX-512: two vectors of 16 lanes wide; half of the 14 rows the 32
  // registers hold; A's 7 x kc panel at most a quarter of L1 (292) and B's
  // kc x 32 one at most all of it (256); B's kc x nc block a quarter of L2
  // (nc = 256); 1021 / 16 rows per tile.
  std::vector<MicroKernelPlan> plans = microKernelPlans(tree, avx512(), 0);
  ASSERT_EQ(plans.size(), 1u);
  EXPECT_EQ(plans[0].nest, "matmul_0");
  EXPECT_EQ(plans[0].rtile, (std::vector<int64_t>{7, 32, 1}));
  EXPECT_EQ(plans[0].tile, (std::vector<int64_t>{63, 256, 256}));
  EXPECT_EQ(plans[0].order, (std::vector<int64_t>{0, 1, 2}));
  // All 14 rows; one vector wide, all 30 rows.
  EXPECT_EQ(microKernelPlans(tree, avx512(), 1)[0].rtile,
            (std::vector<int64_t>{14, 32, 1}));
  EXPECT_EQ(microKernelPlans(tree, avx512(), 2)[0].rtile,
            (std::vector<int64_t>{30, 16, 1}));
  // AVX2: BLIS's 6x16 (variant 1) with kc = 341.
  std::vector<MicroKernelPlan> blis = microKernelPlans(tree, avx2(), 1);
  ASSERT_EQ(blis.size(), 1u);
  EXPECT_EQ(blis[0].rtile, (std::vector<int64_t>{6, 16, 1}));
  EXPECT_EQ(blis[0].tile[2], 341);
}

TEST(AnalyticConfigs, SnappedToTheSpaceAndFeasible) {
  ProgramTree tree = contraction(1021, 1021, 1021);
  ASSERT_EQ(tree.verify(), "");
  llvm::Expected<Space> space = buildSpace(tree, avx512());
  ASSERT_TRUE(bool(space)) << llvm::toString(space.takeError());
  std::vector<Config> configs = analyticConfigs(tree, *space, avx512(), 5);
  // Three variants, all distinct, all in the space.
  ASSERT_EQ(configs.size(), 3u);
  EXPECT_FALSE(configs[0] == configs[1]);
  EXPECT_FALSE(configs[1] == configs[2]);
  for (const Config &config : configs)
    if (llvm::Error error = space->check(config))
      ADD_FAILURE() << llvm::toString(std::move(error));
  // A prime extent: the nearest offered sizes, which do not divide it.
  const Config &first = configs[0];
  EXPECT_EQ(integer(*space, first, "matmul_0.tile.l0"), 64);
  EXPECT_EQ(integer(*space, first, "matmul_0.tile.l1"), 256);
  EXPECT_EQ(integer(*space, first, "matmul_0.tile.l2"), 256);
  EXPECT_EQ(integer(*space, first, "matmul_0.rtile.l0"), 8);
  EXPECT_EQ(integer(*space, first, "matmul_0.rtile.l1"), 32);
  EXPECT_EQ(integer(*space, first, "matmul_0.rtile.l2"), 1);
  auto value = [&](const char *name) {
    return first[*space->indexOf(name)];
  };
  EXPECT_EQ(value("matmul_0.vectorize"), ParamValue::boolean(true));
  EXPECT_EQ(value("matmul_0.parallel"), ParamValue::boolean(true));
  EXPECT_EQ(value("matmul_0.lowering"), ParamValue::string("outerproduct"));
  EXPECT_EQ(value("matmul_0.distribute"), ParamValue::string("outer"));
  // The last row tile (61 of 64 rows) runs the full micro-kernel on rows
  // padded with zeros.
  EXPECT_EQ(value("matmul_0.partial"), ParamValue::string("pad"));
  EXPECT_EQ(analyticConfigs(tree, *space, avx512(), 1).size(), 1u);
}

TEST(AnalyticConfigs, BatchLoopsGoOutermostOneAtATime) {
  ProgramTree tree = contraction(192, 160, 224, /*batch=*/16);
  std::vector<MicroKernelPlan> plans = microKernelPlans(tree, avx512(), 0);
  ASSERT_EQ(plans.size(), 1u);
  EXPECT_EQ(plans[0].tile[0], 1);
  EXPECT_EQ(plans[0].rtile[0], 1);
  EXPECT_EQ(plans[0].order, (std::vector<int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(plans[0].rtile[2], 32);
}

TEST(AnalyticConfigs, NothingForNestsThatAreNoContraction) {
  // No reduction loop.
  ProgramTree tree = contraction(64, 64, 64);
  tree.loops[2].isReduction = false;
  EXPECT_TRUE(microKernelPlans(tree, avx512(), 0).empty());
  // The output's rows indexed by a sum of loops (a window).
  ProgramTree window = contraction(64, 64, 64);
  window.computations[0].accesses.back().matrix[0][2] = 1;
  EXPECT_TRUE(microKernelPlans(window, avx512(), 0).empty());
  // A space without tiling gives the plan nothing to set.
  ProgramTree matmul = contraction(64, 64, 64);
  SpaceOptions options;
  options.tile = false;
  options.registerTile = false;
  options.vectorize = false;
  options.parallelize = false;
  options.interchange = false;
  options.unroll = false;
  llvm::Expected<Space> bare = buildSpace(matmul, avx512(), options);
  ASSERT_TRUE(bool(bare)) << llvm::toString(bare.takeError());
  EXPECT_TRUE(analyticConfigs(matmul, *bare, avx512(), 2).empty());
}

/// Appends to `tree` an element-wise nest `name` (loops m x n, parallel)
/// that writes buffer `out`, reading buffer `in` when `in` >= 0 (a fill
/// reads nothing); returns its computation id.
int elementwise(ProgramTree &tree, const std::string &name, int64_t m,
                int64_t n, int in, int out) {
  int nestId = int(tree.nests.size());
  int first = int(tree.loops.size());
  for (int i = 0; i < 2; ++i) {
    Loop loop;
    loop.id = first + i;
    loop.name = name + ".d" + std::to_string(i);
    loop.extent = i == 0 ? m : n;
    loop.isParallel = true;
    loop.parentId = i == 0 ? -1 : first;
    loop.depth = i;
    tree.loops.push_back(loop);
  }
  tree.loops[first].children.push_back({true, first + 1});
  tree.rootLoopIds.push_back(first);
  Computation comp;
  comp.name = name;
  comp.opName = in >= 0 ? "linalg.generic" : "linalg.fill";
  comp.elementType = ElementType::F32;
  comp.loopIds = {first, first + 1};
  comp.nestId = nestId;
  comp.writtenBufferId = out;
  comp.writtenShape = {m, n};
  auto access = [&](int buffer, bool write) {
    Access a;
    a.bufferId = buffer;
    a.isWrite = write;
    a.matrix = {{1, 0, 0}, {0, 1, 0}};
    return a;
  };
  if (in >= 0)
    comp.accesses.push_back(access(in, false));
  comp.accesses.push_back(access(out, true));
  int compId = int(tree.computations.size());
  comp.id = compId;
  tree.loops[first + 1].children.push_back({false, compId});
  tree.computations.push_back(comp);
  LoopNest nest;
  nest.id = nestId;
  nest.name = name;
  nest.rootLoopId = first;
  nest.computationIds = {compId};
  tree.nests.push_back(nest);
  return compId;
}

/// fill -> matmul_0 (its init) -> scale: a contraction between an
/// element-wise nest that writes its init and one that reads its result.
ProgramTree contractionWithCompanions(int64_t m, int64_t n, int64_t k) {
  ProgramTree tree = contraction(m, n, k);
  tree.nests[0].id = 0;
  tree.computations[0].nestId = 0;
  Buffer scaled;
  scaled.id = 3;
  scaled.name = "%scaled";
  scaled.elementType = ElementType::F32;
  scaled.isFunctionResult = true;
  scaled.shape = {m, n};
  tree.buffers.push_back(scaled);
  tree.buffers[2].isFunctionResult = false;
  int fill = elementwise(tree, "fill_1", m, n, /*in=*/-1, /*out=*/2);
  int scale = elementwise(tree, "generic_2", m, n, /*in=*/2, /*out=*/3);
  EXPECT_EQ(tree.verify(), "");
  ProducerConsumerEdge init;
  init.producer = fill;
  init.consumer = 0;
  init.bufferId = 2;
  init.viaTensor = true;
  init.intoInit = true;
  ProducerConsumerEdge result;
  result.producer = 0;
  result.consumer = scale;
  result.bufferId = 2;
  result.viaTensor = true;
  tree.edges = {init, result};
  return tree;
}

TEST(AnalyticConfigs, CompanionNestsFusedIntoTheInitOrVectorized) {
  ProgramTree tree = contractionWithCompanions(384, 416, 448);
  std::vector<MicroKernelPlan> kernels = microKernelPlans(tree, avx512(), 0);
  ASSERT_EQ(kernels.size(), 1u);
  std::vector<CompanionPlan> plans = companionPlans(tree, avx512(), kernels);
  ASSERT_EQ(plans.size(), 2u);
  // The fill writes the contraction's init: fused into its row tiles.
  EXPECT_EQ(plans[0].nest, "fill_1");
  EXPECT_EQ(plans[0].fuseInto, "matmul_0");
  // The scaling reads its result: its own row tiles, 384 / (8 x 2 cores)
  // rows each, the 416 columns in register tiles of four 16-lane vectors.
  EXPECT_EQ(plans[1].nest, "generic_2");
  EXPECT_EQ(plans[1].fuseInto, "");
  EXPECT_EQ(plans[1].tile, (std::vector<int64_t>{24, 416}));
  EXPECT_EQ(plans[1].rtile, (std::vector<int64_t>{1, 64}));
  // No contraction, no companions.
  EXPECT_TRUE(companionPlans(tree, avx512(), {}).empty());
}

TEST(AnalyticConfigs, CacheTilesAreMultiplesOfRegisterTiles) {
  ProgramTree tree = contractionWithCompanions(384, 416, 448);
  llvm::Expected<Space> space = buildSpace(tree, avx512());
  ASSERT_TRUE(bool(space)) << llvm::toString(space.takeError());
  std::vector<Config> configs = analyticConfigs(tree, *space, avx512(), 2);
  ASSERT_EQ(configs.size(), 2u);
  for (const Config &config : configs)
    if (llvm::Error error = space->check(config))
      ADD_FAILURE() << llvm::toString(std::move(error));
  const Config &first = configs[0];
  // nc = 256 would be nearest, but 416 columns offer 208 (6.5 register
  // tiles of 32: a 16-column remainder in every tile) or 416 (13).
  EXPECT_EQ(integer(*space, first, "matmul_0.rtile.l1"), 32);
  EXPECT_EQ(integer(*space, first, "matmul_0.tile.l1"), 416);
  // 24 rows of 8-row register tiles; kc a quarter of L1, offered as 224.
  EXPECT_EQ(integer(*space, first, "matmul_0.tile.l0"), 24);
  EXPECT_EQ(integer(*space, first, "matmul_0.rtile.l0"), 8);
  EXPECT_EQ(integer(*space, first, "matmul_0.tile.l2"), 224);
  auto value = [&](const char *name) {
    return first[*space->indexOf(name)];
  };
  EXPECT_EQ(value("fuse.fill_1.matmul_0"), ParamValue::boolean(true));
  EXPECT_EQ(value("fill_1.vectorize"), ParamValue::boolean(false));
  EXPECT_EQ(value("generic_2.vectorize"), ParamValue::boolean(true));
  EXPECT_EQ(value("generic_2.parallel"), ParamValue::boolean(true));
  EXPECT_EQ(value("generic_2.distribute"), ParamValue::string("outer"));
  EXPECT_EQ(integer(*space, first, "generic_2.tile.l0"), 24);
  EXPECT_EQ(integer(*space, first, "generic_2.rtile.l1"), 64);
  // No multiple of 14 rows within a factor of two of 24: the nearest.
  EXPECT_EQ(integer(*space, configs[1], "matmul_0.rtile.l0"), 14);
  EXPECT_EQ(integer(*space, configs[1], "matmul_0.tile.l0"), 24);
}

} // namespace

TEST(AnalyticConfigs, PartialTileChoiceOnlyWhereTilesMayNotDivide) {
  ProgramTree tree = contraction(1021, 1021, 1021);
  llvm::Expected<Space> space = buildSpace(tree, avx512());
  ASSERT_TRUE(bool(space)) << llvm::toString(space.takeError());
  std::optional<size_t> index = space->indexOf("matmul_0.partial");
  ASSERT_TRUE(index.has_value());
  const Parameter &partial = space->getParameters()[*index];
  EXPECT_EQ(partial.role, ParamRole::Partial);
  EXPECT_EQ(partial.defaultValue, ParamValue::string("peel"));
  // Padding needs a vectorized, distributed nest.
  Config config = space->defaultConfig();
  config[*index] = ParamValue::string("pad");
  config[*space->indexOf("matmul_0.vectorize")] = ParamValue::boolean(false);
  llvm::Error infeasible = space->check(config);
  ASSERT_TRUE(bool(infeasible));
  EXPECT_NE(llvm::toString(std::move(infeasible)).find("matmul_0.partial"),
            std::string::npos);
  // Tiles that divide the extents only: nothing is partial.
  SpaceOptions divisors;
  divisors.partialTiles = false;
  llvm::Expected<Space> dividing = buildSpace(tree, avx512(), divisors);
  ASSERT_TRUE(bool(dividing)) << llvm::toString(dividing.takeError());
  EXPECT_FALSE(dividing->indexOf("matmul_0.partial").has_value());
  // A body that divides: the padded rows would divide by zero.
  ProgramTree dividingBody = contraction(1021, 1021, 1021);
  dividingBody.computations[0].opCounts.div = 1;
  llvm::Expected<Space> noPad = buildSpace(dividingBody, avx512());
  ASSERT_TRUE(bool(noPad)) << llvm::toString(noPad.takeError());
  EXPECT_FALSE(noPad->indexOf("matmul_0.partial").has_value());
}
