//===- ScheduleBuilderTest.cpp - Config -> transform script ---------------===//

#include "tuner/Schedule/ScheduleBuilder.h"
#include "tuner/Analysis/ProgramAnalysis.h"
#include "tuner/Schedule/ApplySchedule.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace tuner;

namespace {

constexpr llvm::StringLiteral kFillMatmul = R"mlir(
func.func @mm(%A: tensor<16x16xf32>, %B: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %m = linalg.matmul ins(%A, %B : tensor<16x16xf32>, tensor<16x8xf32>) outs(%f : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %m : tensor<16x8xf32>
}
)mlir";

constexpr llvm::StringLiteral kAffine = R"mlir(
func.func @copy(%A: memref<16x8xf32>, %B: memref<16x8xf32>) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 8 {
      %v = affine.load %A[%i, %j] : memref<16x8xf32>
      affine.store %v, %B[%i, %j] : memref<16x8xf32>
    }
  }
  return
}
)mlir";

Parameter withRole(Parameter p, ParamRole role, std::string nest,
                   int loop = -1) {
  p.role = role;
  p.nest = std::move(nest);
  p.loop = loop;
  return p;
}

std::vector<ParamValue> ints(std::initializer_list<int64_t> values) {
  std::vector<ParamValue> result;
  for (int64_t v : values)
    result.push_back(ParamValue::integer(v));
  return result;
}

class ScheduleBuilderTest : public ::testing::Test {
protected:
  void SetUp() override {
    mlir::DialectRegistry registry;
    registerScheduleDialects(registry);
    context.appendDialectRegistry(registry);
  }

  /// Parses `source` and builds the tree of its only function.
  ProgramTree treeOf(llvm::StringRef source) {
    module = mlir::parseSourceString<mlir::ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    auto func = *module->getOps<mlir::func::FuncOp>().begin();
    mlir::FailureOr<ProgramTree> tree = buildProgramTree(func);
    EXPECT_TRUE(mlir::succeeded(tree));
    return *tree;
  }

  /// The matmul's space: tiles of its three loops, order, register tile of
  /// the reduction loop, vectorize, unroll; fusing the fill into it.
  Space matmulSpace(const ProgramTree &tree) {
    const std::string mm = tree.nests[1].name, fill = tree.nests[0].name;
    Space space;
    for (int loop = 0; loop < 3; ++loop)
      cantFail(space.addParameter(
          withRole(Parameter::ordinal("t" + std::to_string(loop),
                                      ints({1, 2, 4, 8, 16})),
                   ParamRole::Tile, mm, loop)));
    cantFail(space.addParameter(
        withRole(Parameter::ordinal("r2", ints({1, 2, 4, 8, 16})),
                 ParamRole::RegisterTile, mm, 2)));
    cantFail(space.addParameter(
        withRole(Parameter::permutation("order", 3), ParamRole::Order, mm)));
    cantFail(space.addParameter(
        withRole(Parameter::boolean("vec"), ParamRole::Vectorize, mm)));
    cantFail(space.addParameter(withRole(
        Parameter::ordinal("unroll", ints({1, 2, 4})), ParamRole::Unroll, mm)));
    cantFail(space.addParameter(
        withRole(Parameter::boolean("par"), ParamRole::Parallel, mm)));
    Parameter fuse = Parameter::boolean("fuse");
    fuse.role = ParamRole::Fuse;
    fuse.producer = fill;
    fuse.consumer = mm;
    cantFail(space.addParameter(std::move(fuse)));
    return space;
  }

  static Config config(ParamValue t0, ParamValue t1, ParamValue t2,
                       ParamValue r2, ParamValue::Permutation order, bool vec,
                       int64_t unroll, bool par, bool fuse) {
    return Config({t0, t1, t2, r2, ParamValue::permutation(std::move(order)),
                   ParamValue::boolean(vec), ParamValue::integer(unroll),
                   ParamValue::boolean(par), ParamValue::boolean(fuse)});
  }

  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

TEST_F(ScheduleBuilderTest, MatmulScriptIsReadableAndDeterministic) {
  ProgramTree tree = treeOf(kFillMatmul);
  ASSERT_EQ(tree.nests.size(), 2u);
  Space space = matmulSpace(tree);
  // Loop 1 (extent 8) tiled by 8 is not tiled; k gets a register tile of 1.
  Config c = config(ParamValue::integer(4), ParamValue::integer(8),
                    ParamValue::integer(8), ParamValue::integer(1), {0, 2, 1},
                    true, 2, false, false);
  llvm::Expected<std::string> script = buildTransformScript(tree, space, c);
  ASSERT_TRUE(bool(script)) << llvm::toString(script.takeError());
  llvm::Expected<std::string> again = buildTransformScript(tree, space, c);
  ASSERT_TRUE(bool(again)) << llvm::toString(again.takeError());
  EXPECT_EQ(*script, *again);

  const std::string mm = tree.nests[1].name;
  EXPECT_NE(script->find("attributes{sym_name = \"mm\"}"), std::string::npos);
  EXPECT_NE(script->find("transform.split_handle %linalg_ops"),
            std::string::npos);
  EXPECT_NE(script->find("transform.structured.tile_using_for %" + mm +
                         " tile_sizes [4, 0, 8] interchange = [0, 2, 1]"),
            std::string::npos)
      << *script;
  EXPECT_NE(script->find("tile_sizes [0, 0, 1] interchange = [0, 2, 1]"),
            std::string::npos)
      << *script;
  // One op makes the micro-kernel of the tiled nest: vectorized, its
  // contraction lowered, its innermost loop unrolled.
  EXPECT_NE(script->find("transform.tuner.vectorize_tiles %" + mm +
                         "_tiled_loops#0 {lowering = \"outerproduct\", "
                         "unroll = 2}"),
            std::string::npos)
      << *script;
  EXPECT_EQ(script->find("loc("), std::string::npos);

  // A different config gives a different script.
  Config other = config(ParamValue::integer(8), ParamValue::integer(8),
                        ParamValue::integer(8), ParamValue::integer(1),
                        {0, 2, 1}, true, 2, false, false);
  llvm::Expected<std::string> changed =
      buildTransformScript(tree, space, other);
  ASSERT_TRUE(bool(changed)) << llvm::toString(changed.takeError());
  EXPECT_NE(*script, *changed);
}

TEST_F(ScheduleBuilderTest, DefaultConfigTransformsNothing) {
  ProgramTree tree = treeOf(kFillMatmul);
  Space space = matmulSpace(tree);
  Config c = config(ParamValue::integer(16), ParamValue::integer(8),
                    ParamValue::integer(16), ParamValue::integer(16), {0, 1, 2},
                    false, 1, false, false);
  llvm::Expected<std::string> script = buildTransformScript(tree, space, c);
  ASSERT_TRUE(bool(script)) << llvm::toString(script.takeError());
  EXPECT_EQ(script->find("tile_using"), std::string::npos) << *script;
  EXPECT_EQ(script->find("apply_patterns"), std::string::npos) << *script;
}

TEST_F(ScheduleBuilderTest, ParallelTilesTheParallelDimsWithForall) {
  ProgramTree tree = treeOf(kFillMatmul);
  Space space = matmulSpace(tree);
  const std::string mm = tree.nests[1].name, fill = tree.nests[0].name;
  Config c = config(ParamValue::integer(4), ParamValue::integer(4),
                    ParamValue::integer(8), ParamValue::integer(8), {0, 1, 2},
                    false, 1, true, true);
  llvm::Expected<std::string> script = buildTransformScript(tree, space, c);
  ASSERT_TRUE(bool(script)) << llvm::toString(script.takeError());
  size_t forall =
      script->find("tile_using_forall %" + mm + " tile_sizes [4, 4, 0]");
  size_t forLoops =
      script->find("tile_using_for %" + mm + "_tiled tile_sizes [0, 0, 8]");
  // The fill is fused into the scf.forall only: the next loop is a
  // reduction.
  size_t fuse = script->find("fuse_into_containing_op %" + fill + " into %" +
                             mm + "_forall");
  ASSERT_NE(forall, std::string::npos) << *script;
  ASSERT_NE(forLoops, std::string::npos) << *script;
  ASSERT_NE(fuse, std::string::npos) << *script;
  EXPECT_LT(forall, forLoops);
  EXPECT_LT(forLoops, fuse);
  EXPECT_EQ(script->find("fuse_into_containing_op", fuse + 1),
            std::string::npos)
      << *script;

  // The whole thing applies.
  EXPECT_TRUE(mlir::succeeded(applyTransformScript(module.get(), *script)));
  std::string printed;
  llvm::raw_string_ostream os(printed);
  module->print(os);
  EXPECT_NE(printed.find("scf.forall"), std::string::npos) << printed;
}

TEST_F(ScheduleBuilderTest, ConfigOutsideTheSpaceNamesTheParameter) {
  ProgramTree tree = treeOf(kFillMatmul);
  Space space = matmulSpace(tree);
  Config c = config(ParamValue::integer(3), ParamValue::integer(8),
                    ParamValue::integer(16), ParamValue::integer(16), {0, 1, 2},
                    false, 1, false, false);
  llvm::Expected<std::string> script = buildTransformScript(tree, space, c);
  ASSERT_FALSE(bool(script));
  std::string message = llvm::toString(script.takeError());
  EXPECT_NE(message.find("t0"), std::string::npos) << message;
  EXPECT_NE(message.find("3"), std::string::npos) << message;
}

TEST_F(ScheduleBuilderTest, UnusableParametersAreErrors) {
  ProgramTree tree = treeOf(kFillMatmul);
  const std::string mm = tree.nests[1].name;
  {
    Space space;
    // A knob of a user's Transform script is no schedule builder step.
    cantFail(space.addParameter(
        withRole(Parameter::boolean("x"), ParamRole::Knob, mm)));
    llvm::Expected<std::string> script =
        buildTransformScript(tree, space, space.defaultConfig());
    ASSERT_FALSE(bool(script));
    EXPECT_EQ(llvm::toString(script.takeError()),
              "parameter 'x' has role 'knob', which only a Transform "
              "script's transform.tune ops read: the schedule builder does "
              "not know what it controls");
  }
  {
    Space space;
    cantFail(space.addParameter(withRole(Parameter::ordinal("t", ints({1, 2})),
                                         ParamRole::Tile, "nowhere", 0)));
    llvm::Expected<std::string> script =
        buildTransformScript(tree, space, space.defaultConfig());
    ASSERT_FALSE(bool(script));
    EXPECT_NE(llvm::toString(script.takeError()).find("nest 'nowhere'"),
              std::string::npos);
  }
  {
    Space space;
    cantFail(space.addParameter(withRole(Parameter::ordinal("t", ints({1, 2})),
                                         ParamRole::Tile, mm, 5)));
    llvm::Expected<std::string> script =
        buildTransformScript(tree, space, space.defaultConfig());
    ASSERT_FALSE(bool(script));
    EXPECT_NE(llvm::toString(script.takeError()).find("'loop' attribute"),
              std::string::npos);
  }
  {
    // Unrolling with every tiled loop inside the scf.forall: no scf.for.
    Space space = matmulSpace(tree);
    Config c = config(ParamValue::integer(4), ParamValue::integer(4),
                      ParamValue::integer(16), ParamValue::integer(16),
                      {0, 1, 2}, false, 2, true, false);
    llvm::Expected<std::string> script = buildTransformScript(tree, space, c);
    ASSERT_FALSE(bool(script));
    EXPECT_NE(llvm::toString(script.takeError()).find("no scf.for loop"),
              std::string::npos);
  }
}

TEST_F(ScheduleBuilderTest, AffineNestUsesTheTunerOps) {
  ProgramTree tree = treeOf(kAffine);
  ASSERT_EQ(tree.nests.size(), 1u);
  const std::string n = tree.nests[0].name;
  Space space;
  cantFail(space.addParameter(withRole(
      Parameter::ordinal("t0", ints({1, 4, 16})), ParamRole::Tile, n, 0)));
  cantFail(space.addParameter(withRole(
      Parameter::ordinal("t1", ints({1, 2, 8})), ParamRole::Tile, n, 1)));
  cantFail(space.addParameter(
      withRole(Parameter::permutation("order", 2), ParamRole::Order, n)));
  cantFail(space.addParameter(withRole(
      Parameter::ordinal("unroll", ints({1, 2})), ParamRole::Unroll, n)));
  cantFail(space.addParameter(
      withRole(Parameter::boolean("par"), ParamRole::Parallel, n)));
  Config c({ParamValue::integer(4), ParamValue::integer(2),
            ParamValue::permutation({1, 0}), ParamValue::integer(2),
            ParamValue::boolean(true)});
  llvm::Expected<std::string> script = buildTransformScript(tree, space, c);
  ASSERT_TRUE(bool(script)) << llvm::toString(script.takeError());
  // Sizes follow the loops: j (size 2) is outermost after the interchange.
  EXPECT_NE(script->find("affine_interchange %" + n + " permutation = [1, 0]"),
            std::string::npos)
      << *script;
  EXPECT_NE(script->find("tile_sizes [2, 4]"), std::string::npos) << *script;
  EXPECT_NE(
      script->find("transform.tuner.affine_unroll %" + n + "_loops#3 factor"),
      std::string::npos)
      << *script;
  EXPECT_NE(script->find("affine_parallelize %" + n + "_loops#0"),
            std::string::npos)
      << *script;
  EXPECT_NE(script->find("--load-dialect-plugin"), std::string::npos);

  ASSERT_TRUE(mlir::succeeded(applyTransformScript(module.get(), *script)));
  std::string printed;
  llvm::raw_string_ostream os(printed);
  module->print(os);
  EXPECT_NE(printed.find("affine.parallel"), std::string::npos) << printed;
  EXPECT_NE(printed.find("step 2"), std::string::npos) << printed;
}

TEST_F(ScheduleBuilderTest, PartialTilesArePaddedOnlyWhereAForallTileIsPartial) {
  ProgramTree tree = treeOf(kFillMatmul);
  const std::string mm = tree.nests[1].name;
  // The matmul's space with row tiles that do not divide 16 (3, 6) and the
  // partial-tile choice.
  Space space;
  std::vector<ParamValue> rows = ints({1, 3, 4, 6, 16});
  cantFail(space.addParameter(withRole(Parameter::ordinal("t0", rows),
                                       ParamRole::Tile, mm, 0)));
  cantFail(space.addParameter(
      withRole(Parameter::boolean("vec"), ParamRole::Vectorize, mm)));
  cantFail(space.addParameter(
      withRole(Parameter::boolean("par"), ParamRole::Parallel, mm)));
  cantFail(space.addParameter(
      withRole(Parameter::categorical("partial", {"peel", "pad"}),
               ParamRole::Partial, mm)));
  auto configOf = [](int64_t rows, bool vec, const char *partial) {
    return Config({ParamValue::integer(rows), ParamValue::boolean(vec),
                   ParamValue::boolean(true), ParamValue::string(partial)});
  };
  auto hashOf = [&](const Config &c) {
    llvm::Expected<SchedulePlan> plan = planSchedule(tree, space, c);
    EXPECT_TRUE(bool(plan)) << llvm::toString(plan.takeError());
    return plan ? plan->hash() : 0;
  };
  auto scriptOf = [&](const Config &c) {
    llvm::Expected<std::string> script = buildTransformScript(tree, space, c);
    EXPECT_TRUE(bool(script)) << llvm::toString(script.takeError());
    return script ? *script : std::string();
  };
  // 6 rows: the last scf.forall tile (4 rows) is partial, padded.
  std::string padded = scriptOf(configOf(6, true, "pad"));
  EXPECT_NE(padded.find("partial = \"pad\""), std::string::npos) << padded;
  EXPECT_NE(padded.find("partial tiles padded"), std::string::npos);
  EXPECT_EQ(scriptOf(configOf(6, true, "peel")).find("partial ="),
            std::string::npos);
  EXPECT_NE(hashOf(configOf(6, true, "pad")),
            hashOf(configOf(6, true, "peel")));
  // 4 rows divide 16, and without vectorization nothing is padded: the
  // same schedule as peeling, hashed alike.
  EXPECT_EQ(scriptOf(configOf(4, true, "pad")).find("partial ="),
            std::string::npos);
  EXPECT_EQ(hashOf(configOf(4, true, "pad")),
            hashOf(configOf(4, true, "peel")));
  EXPECT_EQ(hashOf(configOf(6, false, "pad")),
            hashOf(configOf(6, false, "peel")));
  // The padded schedule applies.
  EXPECT_TRUE(mlir::succeeded(applyTransformScript(module.get(), padded)));
  // A value that is neither is an error that names the parameter.
  llvm::Expected<SchedulePlan> bad =
      planSchedule(tree, space, configOf(6, true, "mask"));
  ASSERT_FALSE(bool(bad));
  EXPECT_NE(llvm::toString(bad.takeError()).find("partial"),
            std::string::npos);
}

TEST_F(ScheduleBuilderTest, RemainderColumnsArePaddedOnlyWhereATileLeavesOne) {
  ProgramTree tree = treeOf(kFillMatmul);
  const std::string mm = tree.nests[1].name;
  // The matmul's row tile: 16 (divides the 16 rows), 6 (leaves a remainder
  // of 4) or a register tile of 3 inside a cache tile of 16 (leaves 1).
  // (The op pads only contractions' innermost output loops; the plan says
  // whether any tile leaves a remainder.)
  Space space;
  cantFail(space.addParameter(withRole(
      Parameter::ordinal("t0", ints({3, 6, 16})), ParamRole::Tile, mm, 0)));
  cantFail(space.addParameter(withRole(
      Parameter::ordinal("r0", ints({3, 6, 16})), ParamRole::RegisterTile, mm,
      0)));
  cantFail(space.addParameter(
      withRole(Parameter::boolean("vec"), ParamRole::Vectorize, mm)));
  auto configOf = [](int64_t tile, int64_t rtile, bool vec) {
    return Config({ParamValue::integer(tile), ParamValue::integer(rtile),
                   ParamValue::boolean(vec)});
  };
  auto planOf = [&](const Config &c) {
    llvm::Expected<SchedulePlan> plan = planSchedule(tree, space, c);
    EXPECT_TRUE(bool(plan)) << llvm::toString(plan.takeError());
    return plan ? plan->nests[1] : NestPlan();
  };
  auto scriptOf = [&](const Config &c) {
    llvm::Expected<std::string> script = buildTransformScript(tree, space, c);
    EXPECT_TRUE(bool(script)) << llvm::toString(script.takeError());
    return script ? *script : std::string();
  };
  EXPECT_FALSE(planOf(configOf(16, 16, true)).hasRemainderTiles());
  EXPECT_TRUE(planOf(configOf(6, 6, true)).hasRemainderTiles());
  EXPECT_TRUE(planOf(configOf(16, 3, true)).hasRemainderTiles());
  EXPECT_FALSE(planOf(configOf(6, 6, false)).hasRemainderTiles());
  std::string padded = scriptOf(configOf(6, 6, true));
  EXPECT_NE(padded.find("pad_remainders = true"), std::string::npos)
      << padded;
  EXPECT_EQ(scriptOf(configOf(16, 16, true)).find("pad_remainders"),
            std::string::npos);
  // The padded schedule applies.
  EXPECT_TRUE(mlir::succeeded(applyTransformScript(module.get(), padded)));
}

TEST_F(ScheduleBuilderTest, PlanCachePlansEachConfigOnceAndBuildsTheSameScript) {
  ProgramTree tree = treeOf(kFillMatmul);
  Space space = matmulSpace(tree);
  PlanCache plans(tree, space);
  Config c = config(ParamValue::integer(4), ParamValue::integer(8),
                    ParamValue::integer(8), ParamValue::integer(1), {0, 2, 1},
                    true, 2, false, true);
  llvm::Expected<std::shared_ptr<const SchedulePlan>> first = plans.get(c);
  ASSERT_TRUE(bool(first)) << llvm::toString(first.takeError());
  llvm::Expected<std::shared_ptr<const SchedulePlan>> second = plans.get(c);
  ASSERT_TRUE(bool(second));
  EXPECT_EQ(first->get(), second->get());
  EXPECT_EQ(plans.planned(), 1u);
  EXPECT_EQ(plans.reused(), 1u);
  llvm::Expected<std::string> fromPlan = buildTransformScript(tree, **first);
  llvm::Expected<std::string> fromConfig = buildTransformScript(tree, space, c);
  ASSERT_TRUE(bool(fromPlan) && bool(fromConfig));
  EXPECT_EQ(*fromPlan, *fromConfig);
  // A config outside the space is an error each time, never a kept plan.
  Config bad = config(ParamValue::integer(3), ParamValue::integer(8),
                      ParamValue::integer(8), ParamValue::integer(1),
                      {0, 2, 1}, true, 2, false, true);
  llvm::Expected<std::shared_ptr<const SchedulePlan>> refused = plans.get(bad);
  ASSERT_FALSE(bool(refused));
  llvm::consumeError(refused.takeError());
  EXPECT_EQ(plans.planned(), 1u);
}

} // namespace
