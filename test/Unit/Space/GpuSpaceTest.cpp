//===- GpuSpaceTest.cpp - The GPU space's known constraints ---------------===//

#include "tuner/Space/GpuSpace.h"
#include "tuner/Space/SpaceBuilder.h"

#include "gtest/gtest.h"

using namespace tuner;

namespace {

/// An H100-like GPU target: 1024 threads per block, warps of 32, 48 KiB of
/// shared memory per block, 255 registers per thread, 64 Ki per block.
Target gpuTarget() {
  Target target;
  target.kind = "gpu";
  target.cpu = "test";
  return target;
}

/// C[i, j] += A[i, k] * B[k, j] on f32, as the analysis describes it.
ProgramTree matmulTree(int64_t m, int64_t n, int64_t k) {
  ProgramTree tree;
  tree.functionName = "matmul";
  auto buffer = [&](std::string name, std::vector<int64_t> shape) {
    Buffer b;
    b.id = tree.buffers.size();
    b.name = std::move(name);
    b.shape = std::move(shape);
    b.elementType = ElementType::F32;
    b.isTensor = true;
    tree.buffers.push_back(b);
  };
  buffer("A", {m, k});
  buffer("B", {k, n});
  buffer("C", {m, n});
  LoopNest nest;
  nest.name = "matmul_0";
  nest.rootLoopId = 0;
  const int64_t extents[] = {m, n, k};
  for (int i = 0; i < 3; ++i) {
    Loop loop;
    loop.id = i;
    loop.name = "matmul_0.d" + std::to_string(i);
    loop.extent = extents[i];
    loop.isReduction = i == 2;
    loop.isParallel = i != 2;
    loop.parentId = i - 1;
    loop.depth = i;
    if (i > 0)
      tree.loops[i - 1].children.push_back({true, i});
    tree.loops.push_back(loop);
  }
  tree.rootLoopIds = {0};
  Computation comp;
  comp.name = "matmul_0";
  comp.opName = "linalg.matmul";
  comp.elementType = ElementType::F32;
  comp.writtenBufferId = 2;
  comp.writtenShape = {m, n};
  comp.loopIds = {0, 1, 2};
  comp.opCounts.add = 1;
  comp.opCounts.mul = 1;
  auto access = [](int buffer, bool write,
                   std::vector<std::vector<int64_t>> matrix) {
    Access a;
    a.bufferId = buffer;
    a.isWrite = write;
    a.matrix = std::move(matrix);
    return a;
  };
  comp.accesses = {access(0, false, {{1, 0, 0, 0}, {0, 0, 1, 0}}),
                   access(1, false, {{0, 0, 1, 0}, {0, 1, 0, 0}}),
                   access(2, false, {{1, 0, 0, 0}, {0, 1, 0, 0}}),
                   access(2, true, {{1, 0, 0, 0}, {0, 1, 0, 0}})};
  tree.loops[2].children.push_back({false, 0});
  nest.computationIds = {0};
  tree.computations.push_back(comp);
  tree.nests.push_back(nest);
  return tree;
}

/// The config of `space` with `values` set (others at their defaults).
Config configWith(const Space &space,
                  std::vector<std::pair<std::string, ParamValue>> values) {
  Config config = space.defaultConfig();
  for (auto &[name, value] : values)
    config[*space.indexOf(name)] = value;
  return config;
}

ParamValue i(int64_t v) { return ParamValue::integer(v); }
ParamValue b(bool v) { return ParamValue::boolean(v); }

class GpuSpaceTest : public ::testing::Test {
protected:
  void SetUp() override {
    tree = matmulTree(1024, 1024, 1024);
    ASSERT_EQ(tree.verify(), "");
    llvm::Expected<Space> built = buildSpace(tree, gpuTarget());
    ASSERT_TRUE(bool(built)) << llvm::toString(built.takeError());
    space = std::move(*built);
  }
  /// Whether the config of these values is in the space.
  bool feasible(std::vector<std::pair<std::string, ParamValue>> values) {
    llvm::Error error = space.check(configWith(space, std::move(values)));
    bool ok = !error;
    llvm::consumeError(std::move(error));
    return ok;
  }
  ProgramTree tree;
  Space space;
};

TEST_F(GpuSpaceTest, ParametersAndRoles) {
  EXPECT_TRUE(isGpuSpace(space));
  // x is the innermost parallel loop (j, band position 1).
  EXPECT_EQ(gpuMappedLoops(tree, tree.nests[0]),
            (std::vector<size_t>{1, 0}));
  for (auto [name, role, loop] :
       {std::tuple<const char *, ParamRole, int64_t>{
            "matmul_0.block.l1", ParamRole::GpuBlockTile, 1},
        {"matmul_0.thread.l0", ParamRole::GpuThreadTile, 0},
        {"matmul_0.reduce.l2", ParamRole::GpuReductionTile, 2},
        {"matmul_0.promote.o1", ParamRole::GpuPromote, 1},
        {"matmul_0.vector", ParamRole::GpuVectorWidth, -1},
        {"matmul_0.unroll", ParamRole::Unroll, -1}}) {
    std::optional<size_t> index = space.indexOf(name);
    ASSERT_TRUE(index.has_value()) << name;
    EXPECT_EQ(space[*index].role, role) << name;
    EXPECT_EQ(space[*index].loop, loop) << name;
  }
  // A CPU target still gets the CPU space.
  Target cpu = gpuTarget();
  cpu.kind = "cpu";
  llvm::Expected<Space> cpuSpace = buildSpace(tree, cpu);
  ASSERT_TRUE(bool(cpuSpace));
  EXPECT_FALSE(isGpuSpace(*cpuSpace));
}

TEST_F(GpuSpaceTest, ThreadsPerBlock) {
  // 64x64 block tiles of 4x4 threads' tiles: 16 * 16 = 256 threads.
  EXPECT_TRUE(feasible({{"matmul_0.block.l0", i(64)},
                        {"matmul_0.block.l1", i(64)},
                        {"matmul_0.thread.l0", i(4)},
                        {"matmul_0.thread.l1", i(4)}}));
  // 128x128 of 2x2: 64 * 64 = 4096 threads > 1024.
  EXPECT_FALSE(feasible({{"matmul_0.block.l0", i(128)},
                         {"matmul_0.block.l1", i(128)},
                         {"matmul_0.thread.l0", i(2)},
                         {"matmul_0.thread.l1", i(2)}}));
  // 32x32 of 1x1: exactly 1024 threads.
  EXPECT_TRUE(feasible({{"matmul_0.block.l0", i(32)},
                        {"matmul_0.block.l1", i(32)},
                        {"matmul_0.thread.l0", i(1)},
                        {"matmul_0.thread.l1", i(1)}}));
  // 4x4 of 1x1: 16 threads, not a multiple of the warp (32).
  EXPECT_FALSE(feasible({{"matmul_0.block.l0", i(4)},
                         {"matmul_0.block.l1", i(4)},
                         {"matmul_0.thread.l0", i(1)},
                         {"matmul_0.thread.l1", i(1)}}));
  // A thread tile that does not divide the block tile.
  EXPECT_FALSE(feasible({{"matmul_0.block.l0", i(2)},
                         {"matmul_0.block.l1", i(64)},
                         {"matmul_0.thread.l0", i(4)},
                         {"matmul_0.thread.l1", i(1)}}));
}

TEST_F(GpuSpaceTest, SharedMemory) {
  std::vector<std::pair<std::string, ParamValue>> base = {
      {"matmul_0.block.l0", i(128)}, {"matmul_0.block.l1", i(128)},
      {"matmul_0.thread.l0", i(8)},  {"matmul_0.thread.l1", i(8)},
      {"matmul_0.promote.o0", b(true)}, {"matmul_0.promote.o1", b(true)}};
  // A: 128x32 and B: 32x128 f32 = 2 * 16 KiB = 32 KiB <= 48 KiB.
  auto at32 = base;
  at32.push_back({"matmul_0.reduce.l2", i(32)});
  EXPECT_TRUE(feasible(at32));
  // With 64 per step: 2 * 32 KiB = 64 KiB > 48 KiB.
  auto at64 = base;
  at64.push_back({"matmul_0.reduce.l2", i(64)});
  EXPECT_FALSE(feasible(at64));
  // Only A promoted: 32 KiB fits.
  at64[5].second = b(false);
  EXPECT_TRUE(feasible(at64));
  // A vector width needs a promoted operand.
  EXPECT_FALSE(feasible({{"matmul_0.block.l0", i(64)},
                         {"matmul_0.block.l1", i(64)},
                         {"matmul_0.thread.l0", i(4)},
                         {"matmul_0.thread.l1", i(4)},
                         {"matmul_0.vector", i(4)}}));
}

TEST_F(GpuSpaceTest, Registers) {
  // 16x16 outputs per thread: 256 accumulators > 255 registers.
  EXPECT_FALSE(feasible({{"matmul_0.block.l0", i(256)},
                         {"matmul_0.block.l1", i(256)},
                         {"matmul_0.thread.l0", i(16)},
                         {"matmul_0.thread.l1", i(16)}}));
  // 8x8 unrolled by 8: 64 + 8 * 16 + 32 = 224 <= 255 per thread, and
  // 224 * 256 threads = 57344 <= 65536 per block.
  EXPECT_TRUE(feasible({{"matmul_0.block.l0", i(128)},
                        {"matmul_0.block.l1", i(128)},
                        {"matmul_0.thread.l0", i(8)},
                        {"matmul_0.thread.l1", i(8)},
                        {"matmul_0.reduce.l2", i(16)},
                        {"matmul_0.unroll", i(8)}}));
}

TEST(GpuSpace, RefusesAffineNests) {
  ProgramTree tree = matmulTree(64, 64, 64);
  tree.nests[0].source = NestSource::Affine;
  llvm::Expected<Space> space = buildSpace(tree, gpuTarget());
  ASSERT_FALSE(bool(space));
  EXPECT_NE(llvm::toString(space.takeError()).find("is an affine loop nest"),
            std::string::npos);
}

} // namespace
