//===- GeneratorTest.cpp - Random programs, correct by construction -------===//

#include "tuner/Generator/Generator.h"

#include "tuner/Analysis/ProgramAnalysis.h"
#include "tuner/Space/SpaceBuilder.h"
#include "tuner/Target/Target.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

#include <map>
#include <set>

using namespace tuner;
using namespace tuner::gen;

namespace {

constexpr unsigned kSeeds = 200;

GeneratedProgram generate(uint64_t seed, Flavour flavour,
                          const GeneratorOptions &options = {}) {
  llvm::Expected<GeneratedProgram> program =
      generateProgram(seed, flavour, options);
  EXPECT_TRUE(bool(program)) << llvm::toString(program.takeError());
  return program ? std::move(*program) : GeneratedProgram();
}

TEST(GeneratorTest, Deterministic) {
  for (uint64_t seed : {0, 1, 7, 123456789}) {
    for (Flavour flavour : {Flavour::Linalg, Flavour::Affine}) {
      GeneratedProgram a = generate(seed, flavour);
      GeneratedProgram b = generate(seed, flavour);
      EXPECT_EQ(a.mlir, b.mlir) << "seed " << seed;
      EXPECT_EQ(a.describe(), b.describe());
    }
  }
  // Different seeds give different programs (with overwhelming odds).
  std::set<std::string> texts;
  for (uint64_t seed = 0; seed < 20; ++seed)
    texts.insert(generate(seed, Flavour::Linalg).mlir);
  EXPECT_EQ(texts.size(), 20u);
}

TEST(GeneratorTest, MixSeed) {
  EXPECT_EQ(mixSeed(5, 3), mixSeed(5, 3));
  std::set<uint64_t> seeds;
  for (uint64_t seed : {0, 1, 2})
    for (uint64_t index = 0; index < 100; ++index)
      seeds.insert(mixSeed(seed, index));
  EXPECT_EQ(seeds.size(), 300u);
}

TEST(GeneratorTest, FlavoursShareTheSpec) {
  GeneratedProgram linalg = generate(11, Flavour::Linalg);
  GeneratedProgram affine = generate(11, Flavour::Affine);
  EXPECT_EQ(linalg.spec.summary(), affine.spec.summary());
  EXPECT_NE(linalg.mlir, affine.mlir);
  EXPECT_NE(linalg.mlir.find("tensor<"), std::string::npos);
  EXPECT_EQ(linalg.mlir.find("memref<"), std::string::npos);
  EXPECT_NE(affine.mlir.find("affine.for"), std::string::npos);
  EXPECT_EQ(affine.mlir.find("tensor<"), std::string::npos);
  EXPECT_NE(affine.describe().find("random-affine seed=11: "),
            std::string::npos);
}

/// Over many seeds, every pattern, element type, named op and affine
/// variant shows up.
TEST(GeneratorTest, EveryPatternAppears) {
  std::map<Pattern, unsigned> patterns;
  std::map<ScalarType, unsigned> types;
  std::map<NamedOp, unsigned> named;
  std::map<Combiner, unsigned> combiners;
  unsigned chains = 0, permuted = 0, initInNest = 0, nonPowerOfTwo = 0;
  std::set<size_t> computationCounts, ranks;
  for (uint64_t seed = 0; seed < kSeeds; ++seed) {
    ProgramSpec spec = generateProgramSpec(seed, GeneratorOptions());
    ++types[spec.type];
    computationCounts.insert(spec.computations.size());
    for (const ComputationSpec &comp : spec.computations) {
      ++patterns[comp.pattern];
      ++named[comp.namedOp];
      ++combiners[comp.combiner];
      ranks.insert(comp.numParallel);
      for (const Operand &operand : comp.operands)
        if (spec.tensors[operand.tensor].producer >= 0)
          ++chains;
      if (!std::is_sorted(comp.affineOrder.begin(), comp.affineOrder.end()))
        ++permuted;
      initInNest += comp.affineInitInNest;
      for (int64_t extent : comp.extents)
        nonPowerOfTwo += (extent & (extent - 1)) != 0;
    }
  }
  // The patterns of the default set (the opt-in ones: PatternsTest.cpp).
  for (Pattern pattern : kAllPatterns)
    if (defaultPatternWeights()[static_cast<size_t>(pattern)] > 0)
      EXPECT_GT(patterns[pattern], 10u) << stringifyPattern(pattern).str();
  for (ScalarType type : {ScalarType::F32, ScalarType::F64, ScalarType::I32})
    EXPECT_GT(types[type], 5u) << stringifyScalarType(type).str();
  EXPECT_GT(types[ScalarType::F32], types[ScalarType::F64]);
  for (NamedOp op : {NamedOp::None, NamedOp::Add, NamedOp::Mul, NamedOp::Matmul,
                     NamedOp::Matvec, NamedOp::BatchMatmul, NamedOp::Conv1D,
                     NamedOp::Conv2D})
    EXPECT_GT(named[op], 0u) << stringifyNamedOp(op).str();
  EXPECT_GT(combiners[Combiner::Add], 0u);
  EXPECT_GT(combiners[Combiner::Max], 0u);
  EXPECT_GT(chains, kSeeds / 2) << "producer/consumer chains are rare";
  EXPECT_GT(permuted, 0u);
  EXPECT_GT(initInNest, 0u);
  EXPECT_GT(nonPowerOfTwo, 0u);
  EXPECT_EQ(computationCounts, (std::set<size_t>{1, 2, 3, 4}));
  EXPECT_TRUE(ranks.count(1) && ranks.count(2) && ranks.count(3));
}

/// Runs `check` on the programs of kSeeds seeds in both flavours, parsed in
/// one context.
class GeneratedModulesTest : public ::testing::Test {
protected:
  mlir::MLIRContext context;
};

TEST_F(GeneratedModulesTest, ManySeedsVerifyAndAnalyze) {
  Target target = Target::host();
  // The default set, and every pattern (time stencils in affine programs).
  GeneratorOptions all;
  llvm::Expected<PatternWeights> weights = parsePatternWeights("all");
  ASSERT_TRUE(bool(weights)) << llvm::toString(weights.takeError());
  all.patternWeights = *weights;
  for (uint64_t seed = 0; seed < 2 * kSeeds; ++seed) {
    const GeneratorOptions &options = seed < kSeeds ? GeneratorOptions() : all;
    for (Flavour flavour : {Flavour::Linalg, Flavour::Affine}) {
      GeneratedProgram program = generate(seed, flavour, options);
      SCOPED_TRACE(program.describe());
      llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>> module =
          parseProgram(context, program.mlir);
      ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
      auto func = (**module).lookupSymbol<mlir::func::FuncOp>("program");
      ASSERT_TRUE(func);

      // Only static tensors / memrefs in and out, as the harness needs.
      for (mlir::Type type : func.getFunctionType().getInputs()) {
        auto shaped = mlir::dyn_cast<mlir::ShapedType>(type);
        ASSERT_TRUE(shaped && shaped.hasStaticShape());
        EXPECT_EQ(mlir::isa<mlir::MemRefType>(type),
                  flavour == Flavour::Affine);
      }
      EXPECT_EQ(func.getFunctionType().getNumResults(),
                flavour == Flavour::Linalg ? program.spec.numOutputs() : 0u);
      EXPECT_EQ(func.getNumArguments(),
                program.spec.numInputs() + (flavour == Flavour::Affine
                                                ? program.spec.numOutputs()
                                                : 0u));

      // The tuner can analyze it: one nest per computation (plus fills and
      // separate init nests of reductions, and the copy nests of time
      // stencils) and a space.
      mlir::FailureOr<ProgramTree> tree = buildProgramTree(func);
      ASSERT_TRUE(mlir::succeeded(tree));
      size_t nests = program.spec.computations.size();
      for (const ComputationSpec &comp : program.spec.computations)
        if ((comp.combiner != Combiner::None &&
             (flavour == Flavour::Linalg || !comp.affineInitInNest)) ||
            comp.timeSteps > 0)
          ++nests;
      EXPECT_EQ(tree->nests.size(), nests);
      llvm::Expected<Space> space = buildSpace(*tree, target);
      ASSERT_TRUE(bool(space)) << llvm::toString(space.takeError());
      EXPECT_GT(space->size(), 0u);
    }
  }
}

TEST_F(GeneratedModulesTest, ParseErrorIsAGeneratorBug) {
  llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>> module = parseProgram(
      context, "func.func @program(%a: tensor<4xf32>) -> tensor<8xf32> {\n"
               "  return %a : tensor<4xf32>\n}\n");
  ASSERT_FALSE(bool(module));
  std::string message = llvm::toString(module.takeError());
  EXPECT_NE(message.find("generator bug"), std::string::npos) << message;
  EXPECT_NE(message.find("generated:2:"), std::string::npos) << message;
  EXPECT_NE(message.find("program:\nfunc.func @program"), std::string::npos);
}

TEST(GeneratorTest, ShapesWithinLimits) {
  std::vector<GeneratorOptions> variants(4);
  variants[0].maxElements = 64;
  variants[0].maxWork = 64;
  variants[1].maxElements = 4096;
  variants[1].maxWork = 65536;
  variants[1].maxComputations = 8;
  variants[2].maxElements = 1 << 16;
  variants[2].maxWork = 1 << 16;
  variants[2].maxComputations = 1;
  // The same limits with every pattern, time stencils included.
  llvm::Expected<PatternWeights> all = parsePatternWeights("all");
  ASSERT_TRUE(bool(all)) << llvm::toString(all.takeError());
  for (size_t v = 0; v < 4; ++v) {
    GeneratorOptions withAll = variants[v];
    withAll.patternWeights = *all;
    variants.push_back(withAll);
  }
  for (auto [v, options] : llvm::enumerate(variants)) {
    Flavour flavour = v < 4 ? Flavour::Linalg : Flavour::Affine;
    int64_t largest = 0, work = 0;
    size_t most = 0;
    for (uint64_t seed = 0; seed < kSeeds; ++seed) {
      llvm::Expected<GeneratedProgram> program =
          generateProgram(seed, flavour, options);
      ASSERT_TRUE(bool(program)) << llvm::toString(program.takeError());
      const ProgramSpec &spec = program->spec;
      EXPECT_EQ(spec.verify(), "");
      EXPECT_LE(spec.largestTensor(), options.maxElements) << seed;
      EXPECT_LE(spec.work(), options.maxWork) << seed;
      EXPECT_GE(spec.computations.size(), 1u);
      EXPECT_LE(spec.computations.size(), options.maxComputations);
      // The harness passes at most 32 buffers.
      EXPECT_LE(spec.numInputs() + spec.numOutputs(), 32u);
      largest = std::max(largest, spec.largestTensor());
      work = std::max(work, spec.work());
      most = std::max(most, spec.computations.size());
    }
    // The limits are used, not just respected.
    EXPECT_GT(largest, options.maxElements / 4);
    EXPECT_GT(work, options.maxWork / 4);
    EXPECT_EQ(most, options.maxComputations);
  }
}

TEST(GeneratorTest, OptionErrors) {
  auto error = [](GeneratorOptions options) {
    llvm::Expected<GeneratedProgram> program =
        generateProgram(1, Flavour::Linalg, options);
    return program ? std::string() : llvm::toString(program.takeError());
  };
  GeneratorOptions options;
  options.maxElements = 10;
  EXPECT_NE(error(options).find("at least 64 elements (got 10)"),
            std::string::npos);
  options = GeneratorOptions();
  options.maxWork = options.maxElements - 1;
  EXPECT_NE(error(options).find("must be at least the element limit"),
            std::string::npos);
  options = GeneratorOptions();
  options.maxComputations = 0;
  EXPECT_NE(error(options).find("in [1, 8] (got 0)"), std::string::npos);
  options.maxComputations = 9;
  EXPECT_NE(error(options).find("in [1, 8] (got 9)"), std::string::npos);
}

TEST(GeneratorTest, Flavours) {
  EXPECT_EQ(parseFlavour("linalg"), Flavour::Linalg);
  EXPECT_EQ(parseFlavour("affine"), Flavour::Affine);
  EXPECT_EQ(parseFlavour("both"), std::nullopt);
  EXPECT_EQ(stringifyFlavour(Flavour::Affine), "affine");
}

//===----------------------------------------------------------------------===//
// ProgramSpec::verify
//===----------------------------------------------------------------------===//

/// out[i, j] = in[i + 1, j] * 2 over an 8x8 domain of a 9x8 input.
ProgramSpec makeShift() {
  ProgramSpec spec;
  spec.tensors = {{{9, 8}, TensorSpec::Role::Input, -1},
                  {{8, 8}, TensorSpec::Role::Output, 0}};
  ComputationSpec comp;
  comp.pattern = Pattern::Stencil;
  comp.output = 1;
  comp.extents = {8, 8};
  comp.numParallel = 2;
  comp.operands = {{0, {{{1, 0}, 1}, {{0, 1}, 0}}}};
  ExprNode read;
  ExprNode two;
  two.kind = ExprNode::Kind::Constant;
  two.constant = 2;
  ExprNode mul;
  mul.kind = ExprNode::Kind::Binary;
  mul.op = BinaryOp::Mul;
  mul.lhs = 0;
  mul.rhs = 1;
  comp.body = {read, two, mul};
  comp.affineOrder = {0, 1};
  spec.computations = {comp};
  return spec;
}

TEST(GeneratorTest, SpecVerifyAcceptsAndEmits) {
  ProgramSpec spec = makeShift();
  ASSERT_EQ(spec.verify(), "");
  EXPECT_EQ(spec.work(), 64);
  EXPECT_EQ(spec.largestTensor(), 72);
  EXPECT_EQ(spec.summary(), "1 computation (stencil), f32, 1 input, 1 "
                            "output, 64 points");
  std::string linalg = emitProgram(spec, Flavour::Linalg);
  EXPECT_NE(linalg.find("affine_map<(d0, d1) -> (d0 + 1, d1)>"),
            std::string::npos)
      << linalg;
  EXPECT_NE(linalg.find("arith.constant 2.000000e+00 : f32"),
            std::string::npos);
  std::string affine = emitProgram(spec, Flavour::Affine);
  EXPECT_NE(affine.find("affine.load %t0[%i0 + 1, %i1] : memref<9x8xf32>"),
            std::string::npos)
      << affine;
  EXPECT_NE(affine.find("affine.store %n2, %t1[%i0, %i1] : memref<8x8xf32>"),
            std::string::npos)
      << affine;
}

TEST(GeneratorTest, SpecVerifyCatchesBrokenPrograms) {
  auto broken = [](std::function<void(ProgramSpec &)> edit) {
    ProgramSpec spec = makeShift();
    edit(spec);
    return spec.verify();
  };
  auto contains = [](const std::string &text, llvm::StringRef part) {
    return text.find(part.str()) != std::string::npos;
  };
  EXPECT_TRUE(contains(broken([](ProgramSpec &s) {
                         s.computations[0].operands[0].indices[0].offset = 2;
                       }),
                       "reads index 9 of dimension 0 of tensor 0, of size 9"));
  EXPECT_TRUE(contains(broken([](ProgramSpec &s) {
                         s.computations[0].operands[0].indices[0].offset = 0;
                       }),
                       "index 0 is loop 0 of extent 8, but the dimension has "
                       "size 9"));
  EXPECT_TRUE(contains(broken([](ProgramSpec &s) {
                         s.computations[0].body = {s.computations[0].body[1]};
                       }),
                       "operand 0 is not used by the body"));
  EXPECT_TRUE(contains(
      broken([](ProgramSpec &s) { s.computations[0].body[2].lhs = 2; }),
      "uses a node that is not before it"));
  EXPECT_TRUE(contains(
      broken([](ProgramSpec &s) { s.computations[0].namedOp = NamedOp::Add; }),
      "linalg.add does not fit"));
  EXPECT_TRUE(contains(broken([](ProgramSpec &s) {
                         s.computations[0].combiner = Combiner::Add;
                       }),
                       "a combiner is needed exactly when"));
  EXPECT_TRUE(contains(broken([](ProgramSpec &s) {
                         s.computations[0].affineOrder = {1, 1};
                       }),
                       "not a permutation"));
  EXPECT_TRUE(contains(broken([](ProgramSpec &s) {
                         s.tensors[1].role = TensorSpec::Role::Intermediate;
                       }),
                       "intermediate tensor 1 is never read"));
  EXPECT_TRUE(contains(
      broken([](ProgramSpec &s) { s.computations[0].operands[0].tensor = 1; }),
      "reads tensor 1 before it is computed"));
  EXPECT_TRUE(contains(broken([](ProgramSpec &s) {
                         s.type = ScalarType::I32;
                         s.computations[0].body[1].constant = 0.5;
                       }),
                       "constant 0.5 is not a i32"));
  EXPECT_TRUE(contains(broken([](ProgramSpec &s) {
                         s.computations[0].extents = {8, 8, 4};
                         s.computations[0].combiner = Combiner::Add;
                         s.computations[0].affineOrder = {0, 1, 2};
                         for (IndexExpr &index :
                              s.computations[0].operands[0].indices)
                           index.coefficients.push_back(0);
                       }),
                       "reduction loop 2 is not the whole index"));
}

} // namespace
