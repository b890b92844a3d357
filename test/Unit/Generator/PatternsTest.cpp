//===- PatternsTest.cpp - Pattern weights and the opt-in patterns --------===//
//
// The programs of the default pattern set are pinned (datasets are resumed
// with the same seed, so they must never change), and the opt-in patterns
// (channel convolutions, time stencils) are correct by construction and
// give the tuner what they are for: the `conv` parameter with im2col and
// decompose, and `skew`.
//
//===----------------------------------------------------------------------===//

#include "tuner/Generator/Generator.h"

#include "tuner/Analysis/ProgramAnalysis.h"
#include "tuner/Space/SpaceBuilder.h"
#include "tuner/Target/Target.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

#include <functional>
#include <map>
#include <set>

using namespace tuner;
using namespace tuner::gen;

namespace {

/// 64-bit FNV-1a: a hash that is the same everywhere, for pinning texts.
uint64_t fnv1a(llvm::StringRef text) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

GeneratorOptions withPatterns(llvm::StringRef patterns,
                              GeneratorOptions options = {}) {
  llvm::Expected<PatternWeights> weights = parsePatternWeights(patterns);
  EXPECT_TRUE(bool(weights)) << llvm::toString(weights.takeError());
  if (weights)
    options.patternWeights = *weights;
  return options;
}

/// Small programs: quick to analyze, as in the lit tests.
GeneratorOptions small(llvm::StringRef patterns) {
  GeneratorOptions options;
  options.maxElements = 1 << 16;
  options.maxWork = 1 << 20;
  return withPatterns(patterns, options);
}

GeneratedProgram generate(uint64_t seed, Flavour flavour,
                          const GeneratorOptions &options) {
  llvm::Expected<GeneratedProgram> program =
      generateProgram(seed, flavour, options);
  EXPECT_TRUE(bool(program)) << llvm::toString(program.takeError());
  return program ? std::move(*program) : GeneratedProgram();
}

//===----------------------------------------------------------------------===//
// The default set: today's programs, pinned
//===----------------------------------------------------------------------===//

struct Pinned {
  uint64_t seed;
  Flavour flavour;
  uint64_t hash;
  size_t length;
};

/// The MLIR of programs 0-3 of `tuner-gen --print-only --seed 2026` (default
/// options) and 0-1 of `--seed 7 --max-elements 4096`, in both flavours, as
/// main's tuner-gen printed them before the opt-in patterns were added
/// (commit 298b558).
constexpr Pinned kDefaultPrograms[] = {
    {7959393617856205470ULL, Flavour::Linalg, 0xde91c7da4eeec43dULL, 2160},
    {18273785850258396930ULL, Flavour::Linalg, 0xfdf4a6561c04432cULL, 728},
    {12626426252173693901ULL, Flavour::Linalg, 0xbafc73bee20edbb2ULL, 1930},
    {2159871899846873932ULL, Flavour::Linalg, 0x75574fd7e8cbd56bULL, 3422},
    {7959393617856205470ULL, Flavour::Affine, 0xea2ed0adaff659cULL, 2034},
    {18273785850258396930ULL, Flavour::Affine, 0x909dd2fda0fcdea8ULL, 625},
    {12626426252173693901ULL, Flavour::Affine, 0x8d0d9087debe3aefULL, 1931},
    {2159871899846873932ULL, Flavour::Affine, 0x21d2b968c30bc9a9ULL, 3027},
};
constexpr Pinned kSmallPrograms[] = {
    {13309476754707697221ULL, Flavour::Linalg, 0x6ff7b1ce737a4db3ULL, 669},
    {4414019431610648415ULL, Flavour::Linalg, 0x8f2ae7a0b73f06ebULL, 2127},
    {13309476754707697221ULL, Flavour::Affine, 0xb19bb3d8f0153747ULL, 558},
    {4414019431610648415ULL, Flavour::Affine, 0x91149af0c809437cULL, 2313},
};

TEST(PatternsTest, DefaultProgramsArePinned) {
  GeneratorOptions smallOptions;
  smallOptions.maxElements = 4096;
  smallOptions.maxWork = 16 * 4096;
  // The default options, and the default set named explicitly (as
  // tuner-gen's --patterns default does).
  GeneratorOptions named =
      withPatterns("elementwise,stencil,reduction,contraction,convolution");
  EXPECT_EQ(named.patternWeights, defaultPatternWeights());
  for (const GeneratorOptions &options : {GeneratorOptions(), named}) {
    for (const Pinned &pinned : kDefaultPrograms) {
      GeneratedProgram program = generate(pinned.seed, pinned.flavour, options);
      EXPECT_EQ(program.mlir.size(), pinned.length) << program.describe();
      EXPECT_EQ(fnv1a(program.mlir), pinned.hash) << program.describe();
    }
  }
  for (const Pinned &pinned : kSmallPrograms) {
    GeneratedProgram program =
        generate(pinned.seed, pinned.flavour, smallOptions);
    EXPECT_EQ(program.mlir.size(), pinned.length) << program.describe();
    EXPECT_EQ(fnv1a(program.mlir), pinned.hash) << program.describe();
  }
  // And the program seed 2026's first program is derived from.
  EXPECT_EQ(mixSeed(2026, 0), 7959393617856205470ULL);
}

TEST(PatternsTest, DefaultSetHasNoOptInPattern) {
  for (uint64_t seed = 0; seed < 100; ++seed)
    for (const ComputationSpec &comp :
         generateProgramSpec(seed, GeneratorOptions(), Flavour::Affine)
             .computations)
      EXPECT_TRUE(comp.pattern != Pattern::ChannelConvolution &&
                  comp.pattern != Pattern::TimeStencil)
          << seed;
}

//===----------------------------------------------------------------------===//
// Weights
//===----------------------------------------------------------------------===//

TEST(PatternsTest, ParseWeights) {
  auto parsed = [](llvm::StringRef text) {
    llvm::Expected<PatternWeights> weights = parsePatternWeights(text);
    return weights ? stringifyPatternWeights(*weights)
                   : "error: " + llvm::toString(weights.takeError());
  };
  EXPECT_EQ(parsed("elementwise,stencil,reduction,contraction,convolution"),
            "elementwise:25,stencil:20,reduction:20,contraction:20,"
            "convolution:15");
  EXPECT_EQ(stringifyPatternWeights(defaultPatternWeights()),
            parsed("elementwise,stencil,reduction,contraction,convolution"));
  EXPECT_EQ(parsed("all"), "elementwise:25,stencil:20,reduction:20,"
                           "contraction:20,convolution:15,channel-"
                           "convolution:15,time-stencil:15");
  EXPECT_EQ(parsed(" time-stencil:3 , channel-convolution "),
            "channel-convolution:15,time-stencil:3");
  EXPECT_EQ(parsed("all:2"), "elementwise:2,stencil:2,reduction:2,"
                             "contraction:2,convolution:2,channel-"
                             "convolution:2,time-stencil:2");
  EXPECT_EQ(parsed("stencil:0,reduction"), "reduction:20");

  EXPECT_EQ(parsed("stencil,conv"),
            "error: patterns: unknown pattern 'conv' (known: elementwise, "
            "stencil, reduction, contraction, convolution, "
            "channel-convolution, time-stencil or all)");
  EXPECT_EQ(parsed("stencil,,reduction"),
            "error: patterns 'stencil,,reduction': an empty item (expected a "
            "pattern name, optionally followed by ':weight')");
  EXPECT_EQ(parsed("stencil:x"), "error: patterns: the weight of 'stencil' "
                                 "must be an integer in [0, 1000] (got 'x')");
  EXPECT_EQ(parsed("stencil:-1"), "error: patterns: the weight of 'stencil' "
                                  "must be an integer in [0, 1000] (got "
                                  "'-1')");
  EXPECT_EQ(parsed("stencil:1001"),
            "error: patterns: the weight of 'stencil' must be an integer in "
            "[0, 1000] (got '1001')");
  EXPECT_EQ(parsed("stencil,all"), "error: patterns: 'stencil' is named twice");
  EXPECT_EQ(parsed("stencil:0"), "error: patterns 'stencil:0': every weight "
                                 "is 0, no pattern can be drawn");
  EXPECT_EQ(parsePattern("time-stencil"), Pattern::TimeStencil);
  EXPECT_EQ(parsePattern("all"), std::nullopt);
  EXPECT_FALSE(linalgCanExpress(Pattern::TimeStencil));
  EXPECT_TRUE(linalgCanExpress(Pattern::ChannelConvolution));
}

TEST(PatternsTest, WeightsCheckedPerFlavour) {
  GeneratorOptions options = withPatterns("time-stencil");
  EXPECT_FALSE(bool(options.check(Flavour::Affine)));
  std::string linalg = llvm::toString(options.check(Flavour::Linalg));
  EXPECT_EQ(linalg, "no pattern of positive weight can be drawn in a linalg "
                    "program (time-stencil:15 is affine only)");
  EXPECT_NE(llvm::toString(options.check()).find("linalg or affine program"),
            std::string::npos);
  llvm::Expected<GeneratedProgram> program =
      generateProgram(1, Flavour::Linalg, options);
  ASSERT_FALSE(bool(program));
  EXPECT_EQ(llvm::toString(program.takeError()), linalg);
  EXPECT_TRUE(bool(generateProgram(1, Flavour::Affine, options)));

  options.patternWeights = PatternWeights{};
  EXPECT_EQ(llvm::toString(options.check()),
            "every pattern has weight 0: no pattern can be drawn");
  options.patternWeights[0] = 5000;
  EXPECT_EQ(llvm::toString(options.check()),
            "the weight of pattern elementwise must be at most 1000 (got "
            "5000)");
}

/// The weights decide the mix: a pattern of weight 0 never appears, and the
/// one weighted most is the most frequent.
TEST(PatternsTest, WeightsDecideTheMix) {
  GeneratorOptions options = withPatterns("reduction:1,contraction:10");
  std::map<Pattern, unsigned> counts;
  for (uint64_t seed = 0; seed < 100; ++seed)
    for (const ComputationSpec &comp :
         generateProgramSpec(seed, options, Flavour::Affine).computations)
      ++counts[comp.pattern];
  EXPECT_EQ(counts[Pattern::Stencil], 0u);
  EXPECT_EQ(counts[Pattern::Convolution], 0u);
  EXPECT_GT(counts[Pattern::Contraction], 5 * counts[Pattern::Reduction]);
}

//===----------------------------------------------------------------------===//
// Channel convolutions
//===----------------------------------------------------------------------===//

class OptInPatternsTest : public ::testing::Test {
protected:
  mlir::MLIRContext context;
  Target target = Target::host();

  /// Parses and analyzes `program` and builds its space; fails the test
  /// when any of it fails.
  std::optional<Space> spaceOf(const GeneratedProgram &program,
                               ProgramTree *treeOut = nullptr) {
    llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>> module =
        parseProgram(context, program.mlir);
    EXPECT_TRUE(bool(module)) << llvm::toString(module.takeError());
    if (!module)
      return std::nullopt;
    auto func = (**module).lookupSymbol<mlir::func::FuncOp>("program");
    EXPECT_TRUE(func);
    if (!func)
      return std::nullopt;
    mlir::FailureOr<ProgramTree> tree = buildProgramTree(func);
    EXPECT_TRUE(mlir::succeeded(tree));
    if (mlir::failed(tree))
      return std::nullopt;
    llvm::Expected<Space> space = buildSpace(*tree, target);
    EXPECT_TRUE(bool(space)) << llvm::toString(space.takeError());
    if (!space)
      return std::nullopt;
    if (treeOut)
      *treeOut = std::move(*tree);
    return std::move(*space);
  }
};

TEST_F(OptInPatternsTest, ChannelConvolutions) {
  GeneratorOptions options = small("channel-convolution,elementwise:5");
  std::map<NamedOp, unsigned> layouts;
  std::set<int64_t> kernels;
  unsigned chained = 0, convParameters = 0, withAllStrategies = 0;
  int64_t largestBatch = 0, largestChannels = 0;
  for (uint64_t seed = 0; seed < 40; ++seed) {
    for (Flavour flavour : {Flavour::Linalg, Flavour::Affine}) {
      GeneratedProgram program = generate(seed, flavour, options);
      SCOPED_TRACE(program.describe());
      const ProgramSpec &spec = program.spec;
      ASSERT_EQ(spec.verify(), "");
      unsigned convs = 0;
      for (const ComputationSpec &comp : spec.computations) {
        if (comp.pattern != Pattern::ChannelConvolution)
          continue;
        ++convs;
        ASSERT_TRUE(comp.namedOp == NamedOp::Conv2DNchwFchw ||
                    comp.namedOp == NamedOp::Conv2DNhwcHwcf);
        ASSERT_EQ(comp.extents.size(), 7u);
        bool nchw = comp.namedOp == NamedOp::Conv2DNchwFchw;
        // (n, f, oh, ow, c, kh, kw) or (n, oh, ow, f, kh, kw, c).
        int64_t kh = comp.extents[nchw ? 5 : 4];
        int64_t kw = comp.extents[nchw ? 6 : 5];
        kernels.insert(kh);
        kernels.insert(kw);
        EXPECT_TRUE(kh == 1 || kh == 3 || kh == 5) << kh;
        int64_t channels = comp.extents[nchw ? 4 : 6];
        int64_t filters = comp.extents[nchw ? 1 : 3];
        EXPECT_LE(filters, 64);
        if (spec.tensors[comp.operands[0].tensor].producer >= 0) {
          ++chained;
        } else {
          EXPECT_LE(comp.extents[0], 8); // Fresh batches: 1 to 8.
          EXPECT_LE(channels, 64);
          largestBatch = std::max(largestBatch, comp.extents[0]);
          largestChannels = std::max(largestChannels, channels);
        }
        EXPECT_EQ(comp.combiner, Combiner::Add);
        ++layouts[comp.namedOp];
        llvm::StringRef name = stringifyNamedOp(comp.namedOp);
        EXPECT_EQ(program.mlir.find(name.str()) != std::string::npos,
                  flavour == Flavour::Linalg)
            << name.str();
      }
      if (flavour == Flavour::Affine) {
        EXPECT_EQ(program.mlir.find("linalg."), std::string::npos);
        continue;
      }
      // Every named convolution gets the `conv` parameter.
      std::optional<Space> space = spaceOf(program);
      ASSERT_TRUE(space);
      unsigned found = 0;
      for (const Parameter &parameter : space->getParameters()) {
        if (parameter.role != ParamRole::Convolution)
          continue;
        ++found;
        std::set<std::string> strategies;
        for (const ParamValue &value : parameter.values)
          strategies.insert(value.getString());
        withAllStrategies += strategies == std::set<std::string>{
                                               "direct", "im2col", "decompose"};
      }
      EXPECT_EQ(found, convs);
      convParameters += found;
    }
  }
  EXPECT_GT(layouts[NamedOp::Conv2DNchwFchw], 10u);
  EXPECT_GT(layouts[NamedOp::Conv2DNhwcHwcf], 10u);
  EXPECT_EQ(kernels, (std::set<int64_t>{1, 3, 5}));
  EXPECT_GT(chained, 5u) << "convolutions rarely read a 4-D producer";
  EXPECT_GT(largestBatch, 4);
  EXPECT_GT(largestChannels, 16);
  EXPECT_GT(convParameters, 20u);
  EXPECT_EQ(withAllStrategies, convParameters);
}

//===----------------------------------------------------------------------===//
// Time stencils
//===----------------------------------------------------------------------===//

TEST_F(OptInPatternsTest, TimeStencilsOnlyInAffinePrograms) {
  GeneratorOptions options = withPatterns("all");
  unsigned timeStencils = 0;
  for (uint64_t seed = 0; seed < 100; ++seed) {
    EXPECT_FALSE(
        generateProgramSpec(seed, options, Flavour::Linalg).needsAffine());
    EXPECT_FALSE(generateProgramSpec(seed, options).needsAffine());
    timeStencils +=
        generateProgramSpec(seed, options, Flavour::Affine).needsAffine();
  }
  EXPECT_GT(timeStencils, 10u);
}

TEST_F(OptInPatternsTest, TimeStencilsAreSkewed) {
  GeneratorOptions options = small("time-stencil,elementwise:5,stencil:5");
  std::set<size_t> ranks;
  std::set<int64_t> steps;
  unsigned jacobi = 0, seidel = 0, chained = 0, skewed = 0, total = 0;
  for (uint64_t seed = 0; seed < 60; ++seed) {
    GeneratedProgram program = generate(seed, Flavour::Affine, options);
    SCOPED_TRACE(program.describe());
    ASSERT_EQ(program.spec.verify(), "");
    unsigned here = 0;
    for (const ComputationSpec &comp : program.spec.computations) {
      if (comp.pattern != Pattern::TimeStencil)
        continue;
      ++here;
      ranks.insert(comp.extents.size());
      steps.insert(comp.timeSteps);
      EXPECT_GE(comp.timeSteps, 2);
      EXPECT_LE(comp.timeSteps, 32);
      (comp.timeScratch >= 0 ? jacobi : seidel) += 1;
      chained += program.spec.tensors[comp.timeInitial].producer >= 0;
    }
    if (here == 0)
      continue;
    total += here;
    EXPECT_NE(program.mlir.find("affine.for %time = 0 to "), std::string::npos);
    ProgramTree tree;
    std::optional<Space> space = spaceOf(program, &tree);
    ASSERT_TRUE(space);
    // A copy nest, then the time nest, per time stencil: one nest per other
    // computation, plus the init nests of reductions.
    size_t nests = 0;
    for (const ComputationSpec &comp : program.spec.computations)
      nests += comp.timeSteps > 0                                          ? 2
               : comp.combiner != Combiner::None && !comp.affineInitInNest ? 2
                                                                           : 1;
    EXPECT_EQ(tree.nests.size(), nests);
    unsigned skews = llvm::count_if(space->getParameters(), [](auto &p) {
      return p.role == ParamRole::Skew;
    });
    EXPECT_EQ(skews, here) << program.mlir;
    skewed += skews;
  }
  EXPECT_EQ(ranks, (std::set<size_t>{1, 2, 3}));
  EXPECT_GT(steps.size(), 5u);
  EXPECT_GT(jacobi, 5u);
  EXPECT_GT(seidel, 5u);
  EXPECT_GT(chained, 3u);
  EXPECT_GT(total, 30u);
  EXPECT_EQ(skewed, total);
}

/// The affine text of a hand-written Jacobi stencil: copies, then two sweeps
/// under the time loop.
TEST(PatternsTest, EmitsJacobiSweeps) {
  ProgramSpec spec;
  spec.tensors = {{{6}, TensorSpec::Role::Input, -1},
                  {{6}, TensorSpec::Role::Output, 0},
                  {{6}, TensorSpec::Role::Scratch, 0}};
  ComputationSpec comp;
  comp.pattern = Pattern::TimeStencil;
  comp.output = 1;
  comp.extents = {4};
  comp.numParallel = 1;
  comp.timeSteps = 3;
  comp.timeInitial = 0;
  comp.timeScratch = 2;
  comp.operands = {{1, {{{1}, 1}}}, {1, {{{1}, 2}}}};
  ExprNode left, right;
  right.operand = 1;
  ExprNode max;
  max.kind = ExprNode::Kind::Binary;
  max.op = BinaryOp::Max;
  max.lhs = 0;
  max.rhs = 1;
  comp.body = {left, right, max};
  comp.affineOrder = {0};
  spec.computations = {comp};
  ASSERT_EQ(spec.verify(), "");
  EXPECT_TRUE(spec.needsAffine());
  EXPECT_EQ(spec.work(), 2 * (6 + 3 * 4));
  EXPECT_EQ(emitProgram(spec, Flavour::Affine),
            R"(func.func @program(%t0: memref<6xf32>, %t1: memref<6xf32>) {
  %t2 = memref.alloc() : memref<6xf32>
  affine.for %i0 = 0 to 6 {
    %v = affine.load %t0[%i0] : memref<6xf32>
    affine.store %v, %t1[%i0] : memref<6xf32>
    affine.store %v, %t2[%i0] : memref<6xf32>
  }
  affine.for %time = 0 to 3 {
    affine.for %i0 = 0 to 4 {
      %a0 = affine.load %t1[%i0 + 1] : memref<6xf32>
      %a1 = affine.load %t1[%i0 + 2] : memref<6xf32>
      %n2 = arith.maximumf %a0, %a1 : f32
      affine.store %n2, %t2[%i0 + 1] : memref<6xf32>
    }
    affine.for %i0 = 0 to 4 {
      %a0 = affine.load %t2[%i0 + 1] : memref<6xf32>
      %a1 = affine.load %t2[%i0 + 2] : memref<6xf32>
      %n2 = arith.maximumf %a0, %a1 : f32
      affine.store %n2, %t1[%i0 + 1] : memref<6xf32>
    }
  }
  return
}
)");
}

//===----------------------------------------------------------------------===//
// ProgramSpec::verify on the new patterns
//===----------------------------------------------------------------------===//

/// A Gauss-Seidel stencil on a 5x6 grid copied from input 0, then read
/// by an elementwise computation.
ProgramSpec makeSeidel() {
  ProgramSpec spec;
  spec.tensors = {{{5, 6}, TensorSpec::Role::Input, -1},
                  {{5, 6}, TensorSpec::Role::Intermediate, 0},
                  {{5, 6}, TensorSpec::Role::Output, 1}};
  ComputationSpec seidel;
  seidel.pattern = Pattern::TimeStencil;
  seidel.output = 1;
  seidel.extents = {3, 4};
  seidel.numParallel = 2;
  seidel.timeSteps = 4;
  seidel.timeInitial = 0;
  seidel.operands = {{1, {{{1, 0}, 1}, {{0, 1}, 1}}},
                     {1, {{{1, 0}, 0}, {{0, 1}, 2}}}};
  ExprNode add;
  add.kind = ExprNode::Kind::Binary;
  add.lhs = 0;
  add.rhs = 1;
  ExprNode second;
  second.operand = 1;
  seidel.body = {ExprNode(), second, add};
  seidel.affineOrder = {0, 1};
  ComputationSpec copy;
  copy.output = 2;
  copy.extents = {5, 6};
  copy.numParallel = 2;
  copy.operands = {{1, {{{1, 0}, 0}, {{0, 1}, 0}}}};
  copy.body = {ExprNode()};
  copy.affineOrder = {0, 1};
  spec.computations = {seidel, copy};
  return spec;
}

TEST(PatternsTest, SpecVerifyCatchesBrokenTimeStencils) {
  ASSERT_EQ(makeSeidel().verify(), "");
  auto broken = [](std::function<void(ProgramSpec &)> edit) {
    ProgramSpec spec = makeSeidel();
    edit(spec);
    return spec.verify();
  };
  auto contains = [](const std::string &text, llvm::StringRef part) {
    return text.find(part.str()) != std::string::npos;
  };
  EXPECT_TRUE(contains(broken([](ProgramSpec &s) {
                         s.computations[0].operands[1].indices[1].offset = 3;
                       }),
                       "operand 1, index 1: not a loop plus an offset in "
                       "[0, 2]"));
  EXPECT_TRUE(contains(broken([](ProgramSpec &s) {
                         s.computations[0].operands[0].indices[0].offset = 0;
                       }),
                       "no operand reads the point a sweep writes"));
  EXPECT_TRUE(
      contains(broken([](ProgramSpec &s) { s.computations[0].extents[1] = 5; }),
               "loop 1 has extent 5, but the interior of grid "
               "dimension 1 (of size 6) has 4 points"));
  EXPECT_TRUE(contains(
      broken([](ProgramSpec &s) { s.computations[0].operands[1].tensor = 0; }),
      "operand 1 reads tensor 0, not the grid (tensor 1)"));
  EXPECT_TRUE(contains(
      broken([](ProgramSpec &s) { s.computations[0].timeInitial = 2; }),
      "the initial grid, tensor 2, is read before it is computed"));
  EXPECT_TRUE(contains(
      broken([](ProgramSpec &s) { s.computations[0].timeInitial = 1; }),
      "the initial grid is tensor 1, not another tensor"));
  EXPECT_TRUE(
      contains(broken([](ProgramSpec &s) { s.computations[0].timeSteps = 0; }),
               "at least one time step"));
  EXPECT_TRUE(contains(
      broken([](ProgramSpec &s) { s.computations[1].timeInitial = 0; }),
      "computation 1 (elementwise): time steps, an initial "
      "grid and a scratch grid are for time stencils"));
  EXPECT_TRUE(contains(broken([](ProgramSpec &s) {
                         s.computations[0].affineOrder = {1, 0};
                       }),
                       "a time stencil keeps its loops in order"));
  // A scratch grid that the next computation reads.
  EXPECT_TRUE(
      contains(broken([](ProgramSpec &s) {
                 s.tensors.push_back({{5, 6}, TensorSpec::Role::Scratch, 0});
                 s.computations[0].timeScratch = 3;
                 s.computations[1].operands[0].tensor = 3;
               }),
               "operand 0 reads tensor 3, the scratch grid of "
               "computation 0"));
  EXPECT_TRUE(
      contains(broken([](ProgramSpec &s) {
                 s.tensors.push_back({{5, 6}, TensorSpec::Role::Scratch, 0});
               }),
               "tensor 3 is not the scratch grid of its producer 0"));
  EXPECT_TRUE(contains(
      broken([](ProgramSpec &s) { s.computations[0].timeScratch = 0; }),
      "the scratch grid, tensor 0, must be a scratch tensor of this "
      "computation"));
}

/// out[n, f, oh, ow] += in[n, c, oh + kh, ow + kw] * w[f, c, kh, kw].
ProgramSpec makeNchw() {
  ProgramSpec spec;
  spec.tensors = {{{2, 3, 6, 7}, TensorSpec::Role::Input, -1},
                  {{4, 3, 3, 3}, TensorSpec::Role::Input, -1},
                  {{2, 4, 4, 5}, TensorSpec::Role::Output, 0}};
  ComputationSpec conv;
  conv.pattern = Pattern::ChannelConvolution;
  conv.namedOp = NamedOp::Conv2DNchwFchw;
  conv.combiner = Combiner::Add;
  conv.output = 2;
  conv.extents = {2, 4, 4, 5, 3, 3, 3};
  conv.numParallel = 4;
  auto loops = [](std::initializer_list<unsigned> which) {
    IndexExpr index;
    index.coefficients.assign(7, 0);
    for (unsigned loop : which)
      index.coefficients[loop] = 1;
    return index;
  };
  conv.operands = {{0, {loops({0}), loops({4}), loops({2, 5}), loops({3, 6})}},
                   {1, {loops({1}), loops({4}), loops({5}), loops({6})}}};
  ExprNode rhs;
  rhs.operand = 1;
  ExprNode mul;
  mul.kind = ExprNode::Kind::Binary;
  mul.op = BinaryOp::Mul;
  mul.lhs = 0;
  mul.rhs = 1;
  conv.body = {ExprNode(), rhs, mul};
  conv.affineOrder = {0, 1, 2, 3, 4, 5, 6};
  spec.computations = {conv};
  return spec;
}

TEST(PatternsTest, SpecVerifyChecksNamedConvolutions) {
  ProgramSpec spec = makeNchw();
  ASSERT_EQ(spec.verify(), "");
  EXPECT_NE(emitProgram(spec, Flavour::Linalg)
                .find("linalg.conv_2d_nchw_fchw ins(%t0, %t1 : "
                      "tensor<2x3x6x7xf32>, tensor<4x3x3x3xf32>) outs(%f0 : "
                      "tensor<2x4x4x5xf32>)"),
            std::string::npos);
  EXPECT_NE(emitProgram(spec, Flavour::Affine)
                .find("affine.load %t0[%i0, %i4, %i2 + %i5, %i3 + %i6]"),
            std::string::npos);
  // The other layout's op does not fit these loops.
  spec.computations[0].namedOp = NamedOp::Conv2DNhwcHwcf;
  EXPECT_NE(spec.verify().find("linalg.conv_2d_nhwc_hwcf does not fit: its "
                               "operands' indices differ from the op's"),
            std::string::npos);
  // Nor a window read the other way round.
  spec = makeNchw();
  std::swap(spec.computations[0].operands[1].indices[2],
            spec.computations[0].operands[1].indices[3]);
  EXPECT_NE(spec.verify().find("does not fit"), std::string::npos);
  spec = makeNchw();
  spec.computations[0].combiner = Combiner::Max;
  EXPECT_NE(spec.verify().find("it sums the products of its operands"),
            std::string::npos);
}

} // namespace
