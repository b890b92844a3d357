//===- ConvolutionScheduleTest.cpp - im2col, decomposition, windows -------===//
//
// The convolution strategies from the op table through the space, the plan
// and the script to the transformed IR; and the windows that let the
// vectorizer read stencils' shifted operands.
//
//===----------------------------------------------------------------------===//

#include "tuner/Analysis/Convolution.h"
#include "tuner/Analysis/ProgramAnalysis.h"
#include "tuner/Schedule/ApplySchedule.h"
#include "tuner/Schedule/ScheduleBuilder.h"
#include "tuner/Schedule/SchedulePlan.h"
#include "tuner/Schedule/WindowTransforms.h"
#include "tuner/Space/SpaceBuilder.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace tuner;

namespace {

// N=2 C=3 F=2, 8x16 outputs, 3x3 filter: loops (n, f, oh, ow, c, kh, kw).
constexpr llvm::StringLiteral kConv = R"mlir(
func.func @conv(%in: tensor<2x3x10x18xf32>, %w: tensor<2x3x3x3xf32>,
                %out: tensor<2x2x8x16xf32>) -> tensor<2x2x8x16xf32> {
  %r = linalg.conv_2d_nchw_fchw
      {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<2x3x10x18xf32>, tensor<2x3x3x3xf32>)
      outs(%out : tensor<2x2x8x16xf32>) -> tensor<2x2x8x16xf32>
  return %r : tensor<2x2x8x16xf32>
}
)mlir";

// A layout no strategy but the direct one is offered for.
constexpr llvm::StringLiteral kConvFhwc = R"mlir(
func.func @conv(%in: tensor<1x10x10x3xf32>, %w: tensor<4x3x3x3xf32>,
                %out: tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32> {
  %r = linalg.conv_2d_nhwc_fhwc
      {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x10x10x3xf32>, tensor<4x3x3x3xf32>)
      outs(%out : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  return %r : tensor<1x8x8x4xf32>
}
)mlir";

// A 5-point stencil read through shifted maps, and a channel of an image.
constexpr llvm::StringLiteral kStencil = R"mlir(
#id = affine_map<(i, j) -> (i, j)>
#n = affine_map<(i, j) -> (i + 1, j)>
#s = affine_map<(i, j) -> (i + 2, j)>
#g = affine_map<(i, j) -> (1, i, j)>
func.func @stencil(%c: tensor<8x16xf32>, %in: tensor<10x16xf32>,
                   %rgb: tensor<3x8x16xf32>, %out: tensor<8x16xf32>)
    -> tensor<8x16xf32> {
  %r = linalg.generic {indexing_maps = [#id, #n, #s, #g, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%c, %in, %in, %rgb : tensor<8x16xf32>, tensor<10x16xf32>,
          tensor<10x16xf32>, tensor<3x8x16xf32>)
      outs(%out : tensor<8x16xf32>) {
  ^bb0(%x: f32, %a: f32, %b: f32, %g: f32, %o: f32):
    %ab = arith.addf %a, %b : f32
    %abg = arith.addf %ab, %g : f32
    %abgx = arith.addf %abg, %x : f32
    linalg.yield %abgx : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
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

class ConvolutionScheduleTest : public ::testing::Test {
protected:
  void SetUp() override {
    mlir::DialectRegistry registry;
    registerScheduleDialects(registry);
    context.appendDialectRegistry(registry);
  }

  ProgramTree treeOf(llvm::StringRef source) {
    module = mlir::parseSourceString<mlir::ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    auto func = *module->getOps<mlir::func::FuncOp>().begin();
    mlir::FailureOr<ProgramTree> tree = buildProgramTree(func);
    EXPECT_TRUE(mlir::succeeded(tree));
    return *tree;
  }

  /// The default config of `space` with `values` set by name.
  static Config
  configOf(const Space &space,
           std::vector<std::pair<std::string, ParamValue>> values) {
    Config config = space.defaultConfig();
    for (auto &[name, value] : values) {
      std::optional<size_t> index = space.indexOf(name);
      EXPECT_TRUE(index.has_value()) << name;
      if (index)
        config[*index] = value;
    }
    return config;
  }

  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

ParamValue integer(int64_t v) { return ParamValue::integer(v); }
ParamValue text(const char *v) { return ParamValue::string(v); }

TEST(Convolution, OpTable) {
  std::optional<ConvolutionInfo> nchw =
      convolutionInfo("linalg.conv_2d_nchw_fchw");
  ASSERT_TRUE(nchw.has_value());
  EXPECT_EQ(nchw->strategies(),
            (std::vector<ConvolutionStrategy>{ConvolutionStrategy::Direct,
                                              ConvolutionStrategy::Im2col,
                                              ConvolutionStrategy::Decompose}));
  EXPECT_EQ(nchw->im2colLoops,
            (std::vector<std::vector<size_t>>{{0}, {1}, {2, 3}, {4, 5, 6}}));
  // oh and kh first, then the channels of the channel-first layout.
  EXPECT_EQ(nchw->decomposeUnitLoops, (std::vector<size_t>{2, 5, 1, 4}));
  std::optional<ConvolutionInfo> nhwc =
      convolutionInfo("linalg.conv_2d_nhwc_hwcf");
  ASSERT_TRUE(nhwc.has_value());
  EXPECT_EQ(nhwc->decomposeUnitLoops, (std::vector<size_t>{1, 4}));
  EXPECT_FALSE(convolutionInfo("linalg.conv_2d_nhwc_fhwc").has_value());
  EXPECT_FALSE(convolutionInfo("linalg.matmul").has_value());
  for (ConvolutionStrategy strategy :
       {ConvolutionStrategy::Direct, ConvolutionStrategy::Im2col,
        ConvolutionStrategy::Decompose})
    EXPECT_EQ(parseConvolutionStrategy(stringifyConvolutionStrategy(strategy)),
              strategy);
  EXPECT_EQ(parseConvolutionStrategy("winograd"), std::nullopt);
}

TEST_F(ConvolutionScheduleTest, SpaceOffersTheStrategies) {
  ProgramTree tree = treeOf(kConv);
  const std::string n = tree.nests[0].name;
  llvm::Expected<Space> space = buildSpace(tree, testTarget());
  ASSERT_TRUE(bool(space)) << llvm::toString(space.takeError());
  std::optional<size_t> conv = space->indexOf(n + ".conv");
  ASSERT_TRUE(conv.has_value());
  const Parameter &choice = (*space)[*conv];
  EXPECT_EQ(choice.role, ParamRole::Convolution);
  EXPECT_EQ(choice.nest, n);
  EXPECT_EQ(choice.fallbackValue(), text("direct"));
  ASSERT_TRUE(space->indexOf(n + ".vectorize").has_value());

  // A direct convolution is not vectorized, unless its tile is a 1-D
  // convolution already (the window rule: here the kernel loops kh and kw
  // cut to size 1).
  std::vector<std::pair<std::string, ParamValue>> direct = {
      {n + ".vectorize", ParamValue::boolean(true)},
      {n + ".tile.l0", integer(1)},
      {n + ".rtile.l3", integer(8)},
      {n + ".rtile.l4", integer(1)}};
  llvm::Error error = space->check(configOf(*space, direct));
  ASSERT_TRUE(bool(error));
  EXPECT_NE(llvm::toString(std::move(error)).find(".conv != \"direct\" || "),
            std::string::npos);
  direct.push_back({n + ".rtile.l5", integer(1)});
  direct.push_back({n + ".rtile.l6", integer(1)});
  llvm::Error windowRule = space->check(configOf(*space, direct));
  EXPECT_FALSE(bool(windowRule)) << llvm::toString(std::move(windowRule));
  // Decomposed, it is (and must be); with its unit loops (f, oh, c, kh)
  // left out of the register budget.
  llvm::Error ok = space->check(
      configOf(*space, {{n + ".conv", text("decompose")},
                        {n + ".vectorize", ParamValue::boolean(true)},
                        {n + ".tile.l0", integer(1)}}));
  EXPECT_FALSE(bool(ok)) << llvm::toString(std::move(ok));

  // A rewritten convolution is vectorized.
  error = space->check(configOf(*space, {{n + ".conv", text("decompose")},
                                         {n + ".tile.l0", integer(1)}}));
  ASSERT_TRUE(bool(error));
  EXPECT_NE(llvm::toString(std::move(error)).find(".conv == \"direct\""),
            std::string::npos);
  // Its vectors hold at least 16 lanes: not 8 columns.
  error = space->check(
      configOf(*space, {{n + ".conv", text("decompose")},
                        {n + ".vectorize", ParamValue::boolean(true)},
                        {n + ".tile.l0", integer(1)},
                        {n + ".rtile.l3", integer(8)}}));
  ASSERT_TRUE(bool(error));
  EXPECT_NE(llvm::toString(std::move(error)).find(">= 16"), std::string::npos);

  // im2col needs a tile loop over a parallel dim for its copy ...
  std::vector<std::pair<std::string, ParamValue>> im2col = {
      {n + ".conv", text("im2col")},
      {n + ".vectorize", ParamValue::boolean(true)},
      {n + ".rtile.l4", integer(1)},
      {n + ".rtile.l5", integer(1)}};
  error = space->check(configOf(*space, im2col));
  ASSERT_TRUE(bool(error));
  llvm::consumeError(std::move(error));
  im2col.push_back({n + ".tile.l0", integer(1)});
  ok = space->check(configOf(*space, im2col));
  EXPECT_FALSE(bool(ok)) << llvm::toString(std::move(ok));
  // ... and tiles of oh*ow that do not wrap around a row: whole rows, not 8
  // columns of 2 rows.
  im2col.push_back({n + ".tile.l2", integer(2)});
  ok = space->check(configOf(*space, im2col));
  EXPECT_FALSE(bool(ok)) << llvm::toString(std::move(ok));
  im2col.push_back({n + ".tile.l3", integer(8)});
  error = space->check(configOf(*space, im2col));
  ASSERT_TRUE(bool(error));
  EXPECT_NE(llvm::toString(std::move(error)).find("16 % "),
            std::string::npos);

  // Without the option, and for a layout no strategy applies to, there is
  // no conv parameter, and vectorization only under the window rule.
  SpaceOptions options;
  options.convolution = false;
  llvm::Expected<Space> plain = buildSpace(tree, testTarget(), options);
  ASSERT_TRUE(bool(plain)) << llvm::toString(plain.takeError());
  EXPECT_FALSE(plain->indexOf(n + ".conv").has_value());
  EXPECT_TRUE(plain->indexOf(n + ".vectorize").has_value());
  direct.pop_back();
  error = plain->check(configOf(*plain, direct));
  ASSERT_TRUE(bool(error));
  EXPECT_EQ(llvm::toString(std::move(error)).find(".conv"), std::string::npos);
  ProgramTree fhwc = treeOf(kConvFhwc);
  llvm::Expected<Space> other = buildSpace(fhwc, testTarget());
  ASSERT_TRUE(bool(other)) << llvm::toString(other.takeError());
  EXPECT_FALSE(other->indexOf(fhwc.nests[0].name + ".conv").has_value());
  EXPECT_TRUE(other->indexOf(fhwc.nests[0].name + ".vectorize").has_value());
}

TEST_F(ConvolutionScheduleTest, PlansOfTheStrategies) {
  ProgramTree tree = treeOf(kConv);
  const std::string n = tree.nests[0].name;
  llvm::Expected<Space> space = buildSpace(tree, testTarget());
  ASSERT_TRUE(bool(space)) << llvm::toString(space.takeError());
  std::optional<ConvolutionInfo> info =
      convolutionInfo("linalg.conv_2d_nchw_fchw");
  ASSERT_TRUE(info.has_value());

  Config im2col = configOf(
      *space, {{n + ".conv", text("im2col")},
               {n + ".vectorize", ParamValue::boolean(true)},
               {n + ".tile.l0", integer(1)},
               {n + ".tile.l2", integer(4)},
               {n + ".rtile.l2", integer(1)},
               {n + ".order", ParamValue::permutation({2, 1, 0, 3, 4, 5, 6})}});
  llvm::Expected<SchedulePlan> plan = planSchedule(tree, *space, im2col);
  ASSERT_TRUE(bool(plan)) << llvm::toString(plan.takeError());
  const NestPlan &nest = plan->nests[0];
  EXPECT_EQ(nest.convolution, ConvolutionStrategy::Im2col);
  NestPlan contraction = nest.im2colContraction(*info);
  // (n, f, oh*ow, c*kh*kw).
  EXPECT_EQ(contraction.extents, (std::vector<int64_t>{2, 2, 128, 27}));
  EXPECT_EQ(contraction.isReduction,
            (std::vector<bool>{false, false, false, true}));
  EXPECT_EQ(contraction.tile, (std::vector<int64_t>{1, 0, 64, 0}));
  EXPECT_EQ(contraction.rtile, (std::vector<int64_t>{0, 0, 16, 0}));
  // oh (in oh*ow) comes first in the order, then f, then n.
  EXPECT_EQ(contraction.order, (std::vector<int64_t>{2, 1, 0, 3}));

  Config decompose = configOf(*space, {{n + ".conv", text("decompose")},
                                       {n + ".vectorize",
                                        ParamValue::boolean(true)},
                                       {n + ".tile.l2", integer(1)}});
  plan = planSchedule(tree, *space, decompose);
  ASSERT_TRUE(bool(plan)) << llvm::toString(plan.takeError());
  // f, c and kh cut to 1; oh already is.
  EXPECT_EQ(plan->nests[0].decomposeUnitTiles(*info),
            (std::vector<int64_t>{0, 1, 0, 0, 1, 1, 0}));
  EXPECT_FALSE(plan->nests[0].isUntouched());

  // The strategy is part of the schedule; the direct one hashes as before.
  llvm::Expected<SchedulePlan> direct =
      planSchedule(tree, *space, space->defaultConfig());
  ASSERT_TRUE(bool(direct)) << llvm::toString(direct.takeError());
  SchedulePlan decomposed = *direct;
  decomposed.nests[0].convolution = ConvolutionStrategy::Decompose;
  SchedulePlan rewritten = *direct;
  rewritten.nests[0].convolution = ConvolutionStrategy::Im2col;
  EXPECT_NE(direct->hash(), decomposed.hash());
  EXPECT_NE(decomposed.hash(), rewritten.hash());
  SchedulePlan fresh;
  fresh.nests = direct->nests;
  fresh.nests[0].convolution = ConvolutionStrategy::Direct;
  EXPECT_EQ(direct->hash(), fresh.hash());
  // A fused nest's settings make no difference, but for how a convolution
  // is computed (it is decomposed inside its host's tiles).
  SchedulePlan fused = *direct;
  fused.nests.push_back(fused.nests[0]);
  fused.nests[0].fusedInto = 1;
  fused.nests[1].producers = {0};
  SchedulePlan fusedTiled = fused;
  fusedTiled.nests[0].tile[0] = 1;
  EXPECT_EQ(fused.hash(), fusedTiled.hash());
  SchedulePlan fusedDecomposed = fused;
  fusedDecomposed.nests[0].convolution = ConvolutionStrategy::Decompose;
  EXPECT_NE(fused.hash(), fusedDecomposed.hash());
}

TEST_F(ConvolutionScheduleTest, PlanErrorsNameTheParameter) {
  // A hand-made space that offers what the op cannot do, without the
  // constraints the space builder adds.
  ProgramTree tree = treeOf(kConvFhwc);
  const std::string n = tree.nests[0].name;
  Space space;
  Parameter conv = Parameter::categorical("how", {"direct", "im2col"});
  conv.role = ParamRole::Convolution;
  conv.nest = n;
  cantFail(space.addParameter(std::move(conv)));
  Config config = space.defaultConfig();
  config[0] = text("im2col");
  llvm::Expected<SchedulePlan> plan = planSchedule(tree, space, config);
  ASSERT_FALSE(bool(plan));
  EXPECT_EQ(llvm::toString(plan.takeError()),
            "parameter 'how' = \"im2col\": nest '" + n +
                "' (linalg.conv_2d_nhwc_fhwc) cannot be computed by im2col "
                "(see tuner/Analysis/Convolution.h for the ops that can)");

  ProgramTree nchw = treeOf(kConv);
  const std::string m = nchw.nests[0].name;
  Space loose;
  Parameter how = Parameter::categorical("how", {"direct", "im2col"});
  how.role = ParamRole::Convolution;
  how.nest = m;
  cantFail(loose.addParameter(std::move(how)));
  for (int loop : {2, 3}) {
    Parameter tile = Parameter::ordinal("t" + std::to_string(loop),
                                        {integer(2), integer(8), integer(16)});
    tile.role = ParamRole::Tile;
    tile.nest = m;
    tile.loop = loop;
    tile.defaultValue = integer(loop == 2 ? 2 : 8);
    cantFail(loose.addParameter(std::move(tile)));
  }
  config = loose.defaultConfig();
  config[0] = text("im2col");
  plan = planSchedule(nchw, loose, config);
  ASSERT_FALSE(bool(plan));
  EXPECT_EQ(llvm::toString(plan.takeError()),
            "parameter 'how' = \"im2col\": nest '" + m +
                "' merges loops [2, 3] into one loop of the contraction, and "
                "their tile sizes [2, 8] would cut the im2col copy across an "
                "inner loop: the innermost tiled loop of the group must have "
                "a tile that divides its extent, and the loops outside it "
                "tiles of 1");
  config[0] = text("winograd");
  EXPECT_TRUE(bool(loose.check(config)));
  llvm::consumeError(loose.check(config));
}

TEST_F(ConvolutionScheduleTest, ScriptsApply) {
  ProgramTree tree = treeOf(kConv);
  const std::string n = tree.nests[0].name;
  llvm::Expected<Space> space = buildSpace(tree, testTarget());
  ASSERT_TRUE(bool(space)) << llvm::toString(space.takeError());

  Config im2col =
      configOf(*space, {{n + ".conv", text("im2col")},
                        {n + ".tile.l0", integer(1)},
                        {n + ".rtile.l3", integer(8)},
                        {n + ".rtile.l4", integer(1)},
                        {n + ".vectorize", ParamValue::boolean(true)},
                        {n + ".parallel", ParamValue::boolean(true)}});
  llvm::Expected<std::string> script =
      buildTransformScript(tree, *space, im2col);
  ASSERT_TRUE(bool(script)) << llvm::toString(script.takeError());
  EXPECT_NE(script->find("im2col, vectorize, parallel"), std::string::npos);
  EXPECT_NE(script->find("transform.structured.convert_conv2d_to_img2col"),
            std::string::npos);
  EXPECT_NE(script->find("transform.get_producer_of_operand"),
            std::string::npos);
  EXPECT_NE(script->find("fuse_into_containing_op %" + n + "_im2col into"),
            std::string::npos);
  EXPECT_TRUE(mlir::succeeded(applyTransformScript(*module, *script)));
  EXPECT_TRUE(module->walk([](mlir::linalg::Conv2DNchwFchwOp) {
                      return mlir::WalkResult::interrupt();
                    }).wasInterrupted() == false);

  treeOf(kConv);
  Config decompose = configOf(*space, {{n + ".conv", text("decompose")},
                                       {n + ".tile.l0", integer(1)},
                                       {n + ".vectorize",
                                        ParamValue::boolean(true)}});
  script = buildTransformScript(tree, *space, decompose);
  ASSERT_TRUE(bool(script)) << llvm::toString(script.takeError());
  EXPECT_NE(script->find("tile_sizes [0, 1, 1, 0, 1, 1, 0]"),
            std::string::npos);
  EXPECT_NE(script->find("transform.structured.decompose"), std::string::npos);
  EXPECT_TRUE(mlir::succeeded(applyTransformScript(*module, *script)));
  // 1-D convolutions, vectorized along the output width.
  bool conv2d = false, fma = false;
  module->walk([&](mlir::Operation *op) {
    conv2d |= llvm::isa<mlir::linalg::Conv2DNchwFchwOp>(op);
    if (op->getName().getStringRef() == "vector.fma")
      fma |= llvm::cast<mlir::VectorType>(op->getResult(0).getType()).getShape() ==
             llvm::ArrayRef<int64_t>{16};
  });
  EXPECT_FALSE(conv2d);
  EXPECT_TRUE(fma);
}

TEST_F(ConvolutionScheduleTest, ShiftedOperandsBecomeWindows) {
  treeOf(kStencil);
  auto func = *module->getOps<mlir::func::FuncOp>().begin();
  mlir::IRRewriter rewriter(&context);
  EXPECT_EQ(sliceShiftedOperands(rewriter, {func.getOperation()}), 3u);
  mlir::linalg::GenericOp generic =
      *func.getBody().getOps<mlir::linalg::GenericOp>().begin();
  for (mlir::AffineMap map : generic.getIndexingMapsArray())
    EXPECT_TRUE(map.isIdentity());
  // The windows: 8x16 at the shifts, and channel 1 without its dim.
  std::vector<std::string> windows;
  llvm::SmallVector<mlir::Value> inputs = generic.getDpsInputs();
  for (mlir::Value input : llvm::drop_begin(inputs)) {
    auto slice = input.getDefiningOp<mlir::tensor::ExtractSliceOp>();
    ASSERT_TRUE(slice);
    std::string text;
    llvm::raw_string_ostream os(text);
    os << slice.getStaticOffsets().size() << ":";
    for (int64_t offset : slice.getStaticOffsets())
      os << offset << ",";
    os << slice.getType();
    windows.push_back(text);
  }
  EXPECT_EQ(windows, (std::vector<std::string>{"2:1,0,tensor<8x16xf32>",
                                               "2:2,0,tensor<8x16xf32>",
                                               "3:1,0,0,tensor<8x16xf32>"}));
  // Nothing is left to rewrite.
  EXPECT_EQ(sliceShiftedOperands(rewriter, {func.getOperation()}), 0u);
  EXPECT_TRUE(mlir::succeeded(mlir::verify(func)));
}

} // namespace
