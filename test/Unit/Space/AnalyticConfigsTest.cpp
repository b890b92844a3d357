//===- AnalyticConfigsTest.cpp - Schedules derived from the target --------===//

#include "tuner/Space/AnalyticConfigs.h"
#include "tuner/Space/SpaceBuilder.h"

#include "gtest/gtest.h"

#include <tuple>

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
  // The fill writes the contraction's init: fused into its row tiles. The
  // scaling reads the contraction's result and feeds no contraction: it is
  // no companion but a streaming nest (stencilPlans).
  ASSERT_EQ(plans.size(), 1u);
  EXPECT_EQ(plans[0].nest, "fill_1");
  EXPECT_EQ(plans[0].fuseInto, "matmul_0");
  std::vector<StencilPlan> streams = stencilPlans(tree, avx512(), 0);
  ASSERT_EQ(streams.size(), 1u);
  EXPECT_EQ(streams[0].nest, "generic_2");
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
  // The scaling's streaming schedule: one row at a time, register tiles at
  // most its column tile, all tiles on all cores.
  EXPECT_EQ(value("generic_2.distribute"), ParamValue::string("all"));
  EXPECT_EQ(integer(*space, first, "generic_2.tile.l0"), 1);
  EXPECT_LE(integer(*space, first, "generic_2.rtile.l1"),
            integer(*space, first, "generic_2.tile.l1"));
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

namespace {

/// One linalg nest `name` (op `opName`, f32) per call: its loops (extent,
/// reduction) and accesses (buffer, write, one row of loop coefficients
/// per buffer dimension, without the constant column), appended to `tree`.
struct NestBuilder {
  ProgramTree &tree;
  int add(const std::string &name, const std::string &opName,
          std::vector<std::pair<int64_t, bool>> loops,
          std::vector<std::tuple<int, bool, std::vector<std::vector<int64_t>>>>
              accesses) {
    LoopNest nest;
    nest.id = int(tree.nests.size());
    nest.name = name;
    nest.opIndex = nest.id;
    int first = int(tree.loops.size());
    nest.rootLoopId = first;
    Computation comp;
    comp.id = int(tree.computations.size());
    comp.name = name;
    comp.opName = opName;
    comp.elementType = ElementType::F32;
    comp.nestId = nest.id;
    for (size_t i = 0; i < loops.size(); ++i) {
      Loop loop;
      loop.id = first + int(i);
      loop.name = name + ".d" + std::to_string(i);
      loop.extent = loops[i].first;
      loop.isReduction = loops[i].second;
      loop.isParallel = !loops[i].second;
      loop.parentId = i == 0 ? -1 : loop.id - 1;
      loop.depth = int(i);
      if (i > 0)
        tree.loops.back().children.push_back({true, loop.id});
      tree.loops.push_back(loop);
      comp.loopIds.push_back(loop.id);
    }
    tree.loops.back().children.push_back({false, comp.id});
    tree.rootLoopIds.push_back(first);
    for (auto &[buffer, write, rows] : accesses) {
      Access access;
      access.bufferId = buffer;
      access.isWrite = write;
      for (std::vector<int64_t> row : rows) {
        row.push_back(0);
        access.matrix.push_back(row);
      }
      if (write) {
        comp.writtenBufferId = buffer;
        for (const std::vector<int64_t> &row : rows) {
          int64_t extent = 1;
          for (size_t l = 0; l < row.size(); ++l)
            if (row[l])
              extent = loops[l].first;
          comp.writtenShape.push_back(extent);
        }
      }
      comp.accesses.push_back(access);
    }
    nest.computationIds = {comp.id};
    tree.computations.push_back(comp);
    tree.nests.push_back(nest);
    return comp.id;
  }
  void buffer(const std::vector<int64_t> &shape) {
    Buffer buffer;
    buffer.id = int(tree.buffers.size());
    buffer.name = "%b" + std::to_string(buffer.id);
    buffer.shape = shape;
    buffer.elementType = ElementType::F32;
    buffer.isTensor = true;
    tree.buffers.push_back(buffer);
  }
};

/// out[n][f][y][x] = relu(bias[f] + sum_{c, ky, kx} in[n][c][y + ky][x + kx]
/// * w[f][c][ky][kx]) as three nests (a broadcast of the bias, the named
/// NCHW convolution, the ReLU), N=2 F=4 H=30 W=200 C=3 K=3.
ProgramTree convRelu() {
  ProgramTree tree;
  tree.functionName = "conv_relu";
  NestBuilder b{tree};
  b.buffer({2, 3, 32, 202}); // in
  b.buffer({4, 3, 3, 3});    // w
  b.buffer({4});             // bias
  b.buffer({2, 4, 30, 200}); // conv
  b.buffer({2, 4, 30, 200}); // out
  std::vector<std::pair<int64_t, bool>> out = {
      {2, false}, {4, false}, {30, false}, {200, false}};
  std::vector<std::vector<int64_t>> identity = {
      {1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
  int bias = b.add("broadcast_0", "linalg.broadcast", out,
                   {{2, false, {{0, 1, 0, 0}}}, {3, true, identity}});
  auto wide = [](std::vector<std::vector<int64_t>> rows) {
    for (auto &row : rows)
      row.resize(7, 0);
    return rows;
  };
  int conv = b.add(
      "conv_2d_nchw_fchw_1", "linalg.conv_2d_nchw_fchw",
      {{2, false},
       {4, false},
       {30, false},
       {200, false},
       {3, true},
       {3, true},
       {3, true}},
      {{0,
        false,
        {{1, 0, 0, 0, 0, 0, 0},
         {0, 0, 0, 0, 1, 0, 0},
         {0, 0, 1, 0, 0, 1, 0},
         {0, 0, 0, 1, 0, 0, 1}}},
       {1,
        false,
        {{0, 1, 0, 0, 0, 0, 0},
         {0, 0, 0, 0, 1, 0, 0},
         {0, 0, 0, 0, 0, 1, 0},
         {0, 0, 0, 0, 0, 0, 1}}},
       {3, false, wide(identity)},
       {3, true, wide(identity)}});
  int relu = b.add("generic_2", "linalg.generic", out,
                   {{3, false, identity}, {4, true, identity}});
  tree.edges.push_back({bias, conv, 3, true, true, false});
  tree.edges.push_back({conv, relu, 3, true, false, false});
  tree.buffers[4].isFunctionResult = true;
  return tree;
}

/// A 3-point stencil, out[i][j] = in[i][j] + in[i][j + 1] + in[i][j + 2],
/// on 100 x 1000 points.
ProgramTree stencil() {
  ProgramTree tree;
  tree.functionName = "blur";
  NestBuilder b{tree};
  b.buffer({100, 1002});
  b.buffer({100, 1000});
  std::vector<std::vector<int64_t>> identity = {{1, 0}, {0, 1}};
  b.add("generic_0", "linalg.generic", {{100, false}, {1000, false}},
        {{0, false, identity}, {1, true, identity}});
  tree.computations[0].accesses[0].matrix[1].back() = 1;
  return tree;
}

} // namespace

TEST(AnalyticConfigs, ConvolutionsStreamAlongTheOutputWidth) {
  ProgramTree tree = convRelu();
  ASSERT_EQ(tree.verify(), "");
  // A convolution is no contraction (its input is read through windows).
  EXPECT_TRUE(microKernelPlans(tree, avx512(), 0).empty());
  // One row by four vectors (64 f32 with AVX-512), the reductions whole.
  std::vector<StencilPlan> plans = stencilPlans(tree, avx512(), 0);
  ASSERT_EQ(plans.size(), 3u);
  EXPECT_EQ(plans[1].nest, "conv_2d_nchw_fchw_1");
  EXPECT_TRUE(plans[1].convolution);
  EXPECT_FALSE(plans[2].convolution);
  EXPECT_EQ(plans[1].tile, (std::vector<int64_t>{1, 1, 1, 64, 3, 3, 3}));
  EXPECT_EQ(plans[1].rtile, plans[1].tile);
  EXPECT_EQ(plans[2].tile, (std::vector<int64_t>{1, 1, 1, 64}));
  // AVX2: 4 vectors of 8.
  EXPECT_EQ(stencilPlans(tree, avx2(), 0)[1].tile,
            (std::vector<int64_t>{1, 1, 1, 32, 3, 3, 3}));
  // Whole rows: all 30 fit half of L2, but 2 x 4 x 1 tiles leave the two
  // cores less than 8 each: 15 rows, 16 tiles.
  std::vector<StencilPlan> rows = stencilPlans(tree, avx512(), 1);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[1].tile, (std::vector<int64_t>{1, 1, 15, 200, 3, 3, 3}));
  EXPECT_EQ(rows[1].rtile, (std::vector<int64_t>{1, 1, 1, 64, 3, 3, 3}));
}

TEST(AnalyticConfigs, ConvolutionSeedsDecomposedFusedAndFeasible) {
  ProgramTree tree = convRelu();
  llvm::Expected<Space> space = buildSpace(tree, avx512());
  ASSERT_TRUE(bool(space)) << llvm::toString(space.takeError());
  std::vector<Config> configs = analyticConfigs(tree, *space, avx512(), 3);
  // Variants 1 and 2 of the streaming plans are the same: two seeds.
  ASSERT_EQ(configs.size(), 2u);
  const Config &first = configs[0];
  auto value = [&](const char *name) {
    std::optional<size_t> index = space->indexOf(name);
    EXPECT_TRUE(index.has_value()) << name;
    return index ? first[*index] : ParamValue::boolean(false);
  };
  EXPECT_EQ(value("conv_2d_nchw_fchw_1.conv"), ParamValue::string("decompose"));
  EXPECT_EQ(value("conv_2d_nchw_fchw_1.vectorize"), ParamValue::boolean(true));
  EXPECT_EQ(value("generic_2.vectorize"), ParamValue::boolean(true));
  EXPECT_EQ(value("generic_2.parallel"), ParamValue::boolean(true));
  EXPECT_EQ(value("generic_2.distribute"), ParamValue::string("all"));
  EXPECT_EQ(value("fuse.broadcast_0.conv_2d_nchw_fchw_1"),
            ParamValue::boolean(true));
  EXPECT_EQ(value("fuse.conv_2d_nchw_fchw_1.generic_2"),
            ParamValue::boolean(true));
  EXPECT_EQ(integer(*space, first, "generic_2.tile.l2"), 1);
  EXPECT_EQ(integer(*space, first, "generic_2.tile.l3"), 64);
  EXPECT_EQ(integer(*space, first, "conv_2d_nchw_fchw_1.tile.l3"), 64);
  EXPECT_EQ(integer(*space, configs[1], "generic_2.tile.l2"), 15);
  EXPECT_EQ(integer(*space, configs[1], "generic_2.rtile.l3"), 64);
  for (const Config &config : configs)
    if (llvm::Error error = space->check(config))
      ADD_FAILURE() << llvm::toString(std::move(error));
}

TEST(AnalyticConfigs, ConvolutionFiltersRunInsideTheRows) {
  ProgramTree tree = convRelu();
  // The input (155 KB, more than L1) does not depend on the filter loop
  // f: the tiles run in the order n, y, f, x, so that all filters
  // of a row follow one another on a core, its input rows in cache. The
  // ReLU, which streams the convolution's output, takes the order (its f
  // indexes the dimension the convolution's f writes); the broadcast's
  // input (the bias) fits in L1 and keeps its order.
  for (unsigned variant : {0u, 1u}) {
    std::vector<StencilPlan> plans = stencilPlans(tree, avx512(), variant);
    ASSERT_EQ(plans.size(), 3u);
    EXPECT_EQ(plans[0].order, (std::vector<int64_t>{0, 1, 2, 3}));
    EXPECT_EQ(plans[1].order, (std::vector<int64_t>{0, 2, 1, 3, 4, 5, 6}));
    EXPECT_EQ(plans[2].order, (std::vector<int64_t>{0, 2, 1, 3}));
  }
  llvm::Expected<Space> space = buildSpace(tree, avx512());
  ASSERT_TRUE(bool(space)) << llvm::toString(space.takeError());
  std::vector<Config> configs = analyticConfigs(tree, *space, avx512(), 3);
  ASSERT_EQ(configs.size(), 2u);
  for (const Config &config : configs) {
    EXPECT_EQ(config[*space->indexOf("conv_2d_nchw_fchw_1.order")],
              ParamValue::permutation({0, 2, 1, 3, 4, 5, 6}));
    EXPECT_EQ(config[*space->indexOf("generic_2.order")],
              ParamValue::permutation({0, 2, 1, 3}));
  }
  // An input that fits in L1 stays there in any order: the op's order.
  Target large = avx512();
  large.l1dBytes = 1024 * 1024;
  std::vector<StencilPlan> cached = stencilPlans(tree, large, 0);
  ASSERT_EQ(cached.size(), 3u);
  EXPECT_EQ(cached[1].order, (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(cached[2].order, (std::vector<int64_t>{0, 1, 2, 3}));
  // A stencil's input depends on every loop.
  EXPECT_EQ(stencilPlans(stencil(), avx512(), 0)[0].order,
            (std::vector<int64_t>{0, 1}));
}

TEST(AnalyticConfigs, StencilsTiledByRowsOfVectors) {
  ProgramTree tree = stencil();
  ASSERT_EQ(tree.verify(), "");
  std::vector<StencilPlan> plans = stencilPlans(tree, avx512(), 0);
  ASSERT_EQ(plans.size(), 1u);
  EXPECT_FALSE(plans[0].convolution);
  EXPECT_EQ(plans[0].tile, (std::vector<int64_t>{1, 64}));
  EXPECT_EQ(plans[0].rtile, (std::vector<int64_t>{1, 64}));
  EXPECT_EQ(stencilPlans(tree, avx2(), 0)[0].tile,
            (std::vector<int64_t>{1, 32}));
  // 131 rows of 1000 would take half of L2; halved until the two cores
  // get 8 tiles each: 4 rows, 25 tiles.
  std::vector<StencilPlan> rows = stencilPlans(tree, avx512(), 1);
  EXPECT_EQ(rows[0].tile, (std::vector<int64_t>{4, 1000}));
  EXPECT_EQ(rows[0].rtile, (std::vector<int64_t>{1, 64}));
  llvm::Expected<Space> space = buildSpace(tree, avx512());
  ASSERT_TRUE(bool(space)) << llvm::toString(space.takeError());
  std::vector<Config> configs = analyticConfigs(tree, *space, avx512(), 2);
  ASSERT_EQ(configs.size(), 2u);
  // 1000 columns are offered no 64-column tile: the nearest, 50, and
  // register tiles of the largest offered size within it (3 vectors);
  // whole rows in 64-column register tiles.
  EXPECT_EQ(integer(*space, configs[0], "generic_0.tile.l0"), 1);
  EXPECT_EQ(integer(*space, configs[0], "generic_0.tile.l1"), 50);
  EXPECT_EQ(integer(*space, configs[0], "generic_0.rtile.l1"), 48);
  EXPECT_EQ(integer(*space, configs[1], "generic_0.tile.l0"), 4);
  EXPECT_EQ(integer(*space, configs[1], "generic_0.tile.l1"), 1000);
  EXPECT_EQ(integer(*space, configs[1], "generic_0.rtile.l1"), 64);
  EXPECT_EQ(configs[0][*space->indexOf("generic_0.vectorize")],
            ParamValue::boolean(true));
  EXPECT_EQ(configs[0][*space->indexOf("generic_0.parallel")],
            ParamValue::boolean(true));
  for (const Config &config : configs)
    if (llvm::Error error = space->check(config))
      ADD_FAILURE() << llvm::toString(std::move(error));
}

TEST(AnalyticConfigs, NoStreamingPlanForReductionsOrAContractionsFill) {
  // A contraction keeps its micro-kernel and nothing else.
  ProgramTree matmul = contraction(64, 64, 64);
  EXPECT_TRUE(stencilPlans(matmul, avx512(), 0).empty());
  // A fill of its accumulator keeps its defaults.
  ProgramTree filled = contraction(64, 64, 64);
  NestBuilder b{filled};
  int fill = b.add("fill_1", "linalg.fill", {{64, false}, {64, false}},
                   {{2, true, {{1, 0}, {0, 1}}}});
  filled.edges.push_back({fill, 0, 2, true, true, false});
  ASSERT_EQ(filled.verify(), "");
  EXPECT_TRUE(stencilPlans(filled, avx512(), 0).empty());
  // A row sum (a reduction that is no convolution).
  ProgramTree sum;
  NestBuilder s{sum};
  s.buffer({64, 64});
  s.buffer({64});
  s.add("reduce_0", "linalg.reduce", {{64, false}, {64, true}},
        {{0, false, {{1, 0}, {0, 1}}}, {1, true, {{1, 0}}}});
  EXPECT_TRUE(stencilPlans(sum, avx512(), 0).empty());
}
