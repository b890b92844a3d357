//===- SkewScheduleTest.cpp - Plans and scripts of skewed affine nests ----===//

#include "tuner/Analysis/ProgramAnalysis.h"
#include "tuner/Schedule/ApplySchedule.h"
#include "tuner/Schedule/ScheduleBuilder.h"
#include "tuner/Schedule/SchedulePlan.h"
#include "tuner/Space/SpaceBuilder.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace tuner;

namespace {

constexpr llvm::StringLiteral kSeidel = R"mlir(
func.func @seidel(%A: memref<34x34xf32>) {
  affine.for %t = 0 to 8 {
    affine.for %i = 1 to 33 {
      affine.for %j = 1 to 33 {
        %n = affine.load %A[%i - 1, %j + 1] : memref<34x34xf32>
        %w = affine.load %A[%i, %j - 1] : memref<34x34xf32>
        %s = affine.load %A[%i + 1, %j - 1] : memref<34x34xf32>
        %a = arith.addf %n, %w : f32
        %b = arith.addf %a, %s : f32
        affine.store %b, %A[%i, %j] : memref<34x34xf32>
      }
    }
  }
  return
}
)mlir";

constexpr llvm::StringLiteral kJacobi = R"mlir(
func.func @jacobi(%A: memref<34xf32>, %B: memref<34xf32>) {
  affine.for %t = 0 to 8 {
    affine.for %i = 1 to 33 {
      %n = affine.load %A[%i - 1] : memref<34xf32>
      %s = affine.load %A[%i + 1] : memref<34xf32>
      %v = arith.addf %n, %s : f32
      affine.store %v, %B[%i] : memref<34xf32>
    }
    affine.for %i = 1 to 33 {
      %n = affine.load %B[%i - 1] : memref<34xf32>
      %s = affine.load %B[%i + 1] : memref<34xf32>
      %v = arith.addf %n, %s : f32
      affine.store %v, %A[%i] : memref<34xf32>
    }
  }
  return
}
)mlir";

Target testTarget() {
  Target target;
  target.cpu = "test";
  target.vectorBits = 512;
  target.numVectorRegisters = 32;
  target.cores = 2;
  return target;
}

class SkewScheduleTest : public ::testing::Test {
protected:
  void SetUp() override {
    mlir::DialectRegistry registry;
    registerScheduleDialects(registry);
    context.appendDialectRegistry(registry);
  }

  /// Parses `source`, builds the tree and the default space of its only
  /// function.
  void load(llvm::StringRef source) {
    module = mlir::parseSourceString<mlir::ModuleOp>(source, &context);
    ASSERT_TRUE(module);
    auto func = *module->getOps<mlir::func::FuncOp>().begin();
    mlir::FailureOr<ProgramTree> built = buildProgramTree(func);
    ASSERT_TRUE(mlir::succeeded(built));
    tree = *built;
    llvm::Expected<Space> made = buildSpace(tree, testTarget());
    ASSERT_TRUE(bool(made)) << llvm::toString(made.takeError());
    space = std::move(*made);
  }

  /// The default config with `values` set by name.
  Config
  config(std::initializer_list<std::pair<const char *, ParamValue>> values) {
    Config c = space.defaultConfig();
    for (const auto &[name, v] : values) {
      std::optional<size_t> index = space.indexOf(name);
      EXPECT_TRUE(index.has_value()) << name;
      if (index)
        c[*index] = v;
    }
    return c;
  }

  std::string printed() {
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os);
    return text;
  }

  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  ProgramTree tree;
  Space space;
};

TEST_F(SkewScheduleTest, SkewedSeidelRunsItsTilesAsAWavefront) {
  load(kSeidel);
  Config c = config({{"nest_0.skew", ParamValue::boolean(true)},
                     {"nest_0.tile.l0", ParamValue::integer(2)},
                     {"nest_0.tile.l1", ParamValue::integer(8)},
                     {"nest_0.tile.l2", ParamValue::integer(4)},
                     {"nest_0.parallel", ParamValue::boolean(true)}});
  llvm::Expected<SchedulePlan> plan = planSchedule(tree, space, c);
  ASSERT_TRUE(bool(plan)) << llvm::toString(plan.takeError());
  const NestPlan &nest = plan->nests[0];
  EXPECT_TRUE(nest.skew);
  EXPECT_EQ(nest.skewTile, (std::vector<int64_t>{2, 8, 4}));
  EXPECT_EQ(nest.tile, nest.skewTile);
  EXPECT_EQ(nest.fusedDepth(), 0u);
  EXPECT_FALSE(nest.isUntouched());

  llvm::Expected<std::string> script = buildTransformScript(tree, *plan);
  ASSERT_TRUE(bool(script)) << llvm::toString(script.takeError());
  EXPECT_NE(script->find("// nest_0: tile [2, 8, 4], skew, parallel "
                         "(wavefront)"),
            std::string::npos)
      << *script;
  EXPECT_NE(script->find("%nest_0_skewed = transform.tuner.affine_skew "
                         "%nest_0 depth = 3"),
            std::string::npos)
      << *script;
  EXPECT_NE(script->find("transform.tuner.affine_tile %nest_0_skewed "
                         "tile_sizes [2, 8, 4] wavefront"),
            std::string::npos)
      << *script;
  EXPECT_EQ(script->find("affine_shift_fuse"), std::string::npos);
  ASSERT_TRUE(mlir::succeeded(applyTransformScript(module.get(), *script)));
  EXPECT_NE(printed().find("affine.parallel"), std::string::npos);
}

TEST_F(SkewScheduleTest, FusedSweepsAreFusedFirst) {
  load(kJacobi);
  Config c = config({{"nest_0.skew", ParamValue::boolean(true)},
                     {"nest_0.tile.l0", ParamValue::integer(2)},
                     {"nest_0.tile.l1", ParamValue::integer(8)}});
  llvm::Expected<SchedulePlan> plan = planSchedule(tree, space, c);
  ASSERT_TRUE(bool(plan)) << llvm::toString(plan.takeError());
  const NestPlan &nest = plan->nests[0];
  EXPECT_EQ(nest.band.size(), 1u);
  EXPECT_EQ(nest.fusedDepth(), 1u);
  EXPECT_EQ(nest.tile, (std::vector<int64_t>{2}));
  EXPECT_EQ(nest.skewTile, (std::vector<int64_t>{2, 8}));
  llvm::Expected<std::string> script = buildTransformScript(tree, *plan);
  ASSERT_TRUE(bool(script)) << llvm::toString(script.takeError());
  size_t fuse = script->find("%nest_0_fused = transform.tuner.affine_shift_"
                             "fuse %nest_0 depth = 1");
  size_t skew =
      script->find("transform.tuner.affine_skew %nest_0_fused depth = 2");
  ASSERT_NE(fuse, std::string::npos) << *script;
  ASSERT_NE(skew, std::string::npos) << *script;
  EXPECT_LT(fuse, skew);
  EXPECT_NE(script->find("tile_sizes [2, 8] :"), std::string::npos) << *script;
  ASSERT_TRUE(mlir::succeeded(applyTransformScript(module.get(), *script)));
  EXPECT_NE(printed().find("affine.if"), std::string::npos);
}

/// A plan that is not skewed hashes as it did before skewing existed: the
/// skew band it carries adds nothing.
TEST_F(SkewScheduleTest, OnlySkewedPlansHashTheSkew) {
  load(kSeidel);
  Config stripMined = config({{"nest_0.tile.l0", ParamValue::integer(4)}});
  llvm::Expected<SchedulePlan> plan = planSchedule(tree, space, stripMined);
  ASSERT_TRUE(bool(plan)) << llvm::toString(plan.takeError());
  SchedulePlan without = *plan;
  without.nests[0].skewBand.clear();
  without.nests[0].skewExtents.clear();
  without.nests[0].skewTile.clear();
  EXPECT_EQ(plan->hash(), without.hash());
  SchedulePlan skewed = *plan;
  skewed.nests[0].skew = true;
  EXPECT_NE(plan->hash(), skewed.hash());
  skewed.nests[0].tile[1] = skewed.nests[0].skewTile[1] = 8;
  SchedulePlan other = skewed;
  other.nests[0].tile[1] = other.nests[0].skewTile[1] = 16;
  EXPECT_NE(skewed.hash(), other.hash());
}

TEST_F(SkewScheduleTest, PlanErrors) {
  load(kSeidel);
  // A space without the rules: tiling an inner loop unskewed is refused.
  Space bare;
  for (size_t i = 0; i < space.size(); ++i)
    cantFail(bare.addParameter(space[i]));
  Config inner = bare.defaultConfig();
  inner[*bare.indexOf("nest_0.tile.l1")] = ParamValue::integer(8);
  llvm::Expected<SchedulePlan> plan = planSchedule(tree, bare, inner);
  ASSERT_FALSE(bool(plan));
  EXPECT_EQ(llvm::toString(plan.takeError()),
            "nest 'nest_0': loop 1 is tiled, which is legal only once the "
            "band is skewed (skew = true)");
  // A skew switch on a nest that has no skew band.
  ProgramTree flat = tree;
  flat.nests[0].skewBand.clear();
  Config skewed = config({{"nest_0.skew", ParamValue::boolean(true)},
                          {"nest_0.tile.l1", ParamValue::integer(8)}});
  plan = planSchedule(flat, space, skewed);
  ASSERT_FALSE(bool(plan));
  EXPECT_EQ(llvm::toString(plan.takeError()),
            "parameter 'nest_0.skew' = true: nest 'nest_0' has no band that "
            "skewing makes fully permutable");
}

} // namespace
