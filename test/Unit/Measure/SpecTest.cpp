//===- SpecTest.cpp - Harness specs and reduction lengths from IR ---------===//

#include "tuner/Measure/Measurer.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace tuner;

namespace {

class SpecTest : public ::testing::Test {
protected:
  SpecTest() {
    context.loadDialect<affine::AffineDialect, arith::ArithDialect,
                        func::FuncDialect, linalg::LinalgDialect,
                        memref::MemRefDialect, tensor::TensorDialect>();
    // Keeps parse errors of bad test input off the test output.
    context.getDiagEngine().registerHandler([](Diagnostic &) {});
  }
  func::FuncOp parse(llvm::StringRef text) {
    module = parseSourceString<ModuleOp>(text, &context);
    if (!module)
      return nullptr;
    return *module->getOps<func::FuncOp>().begin();
  }
  std::string specError(llvm::StringRef text) {
    func::FuncOp function = parse(text);
    if (!function)
      return "test input does not parse";
    llvm::Expected<HarnessSpec> spec = buildHarnessSpec(function, 1);
    if (spec)
      return "";
    return llvm::toString(spec.takeError());
  }
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(SpecTest, TensorsMemrefsAndResults) {
  func::FuncOp function = parse(R"(
    func.func @f(%a: tensor<8x4xf32>, %b: memref<4xi64>, %c: tensor<bf16>)
        -> (tensor<8xf64>, memref<2x2xindex>) {
      %r = tensor.empty() : tensor<8xf64>
      %m = memref.alloc() : memref<2x2xindex>
      return %r, %m : tensor<8xf64>, memref<2x2xindex>
    })");
  ASSERT_TRUE(function);
  llvm::Expected<HarnessSpec> spec = buildHarnessSpec(function, 42);
  ASSERT_TRUE(bool(spec)) << llvm::toString(spec.takeError());
  EXPECT_EQ(spec->function, "f");
  EXPECT_EQ(spec->seed, 42u);
  ASSERT_EQ(spec->buffers.size(), 5u);
  const std::vector<BufferSpec> &b = spec->buffers;
  EXPECT_EQ(b[0].type, ElementKind::F32);
  EXPECT_EQ(b[0].shape, (llvm::SmallVector<int64_t, 4>{8, 4}));
  EXPECT_FALSE(b[0].compared) << "tensor arguments are inputs only";
  EXPECT_FALSE(b[0].isResult);
  EXPECT_TRUE(b[1].compared) << "a memref argument may be written";
  EXPECT_EQ(b[1].type, ElementKind::I64);
  EXPECT_TRUE(b[2].shape.empty());
  EXPECT_EQ(b[2].type, ElementKind::BF16);
  EXPECT_TRUE(b[3].isResult);
  EXPECT_TRUE(b[3].compared);
  EXPECT_EQ(b[3].type, ElementKind::F64);
  EXPECT_EQ(b[4].type, ElementKind::Index);
  EXPECT_TRUE(b[4].isResult);
}

TEST_F(SpecTest, RejectsWhatTheHarnessCannotFeed) {
  EXPECT_NE(specError("func.func @f(%x: f8E4M3FN, %m: memref<4xf32>) { "
                      "return }")
                .find("argument #0 of @f has type f8E4M3FN: unsupported "
                      "scalar type"),
            std::string::npos);
  EXPECT_NE(specError("func.func @f(%m: memref<4xvector<3xf32>>) { return }")
                .find("LLVM pads a vector of 12 bytes"),
            std::string::npos);
  EXPECT_NE(specError("func.func @f(%m: memref<4xvector<8xi1>>) { return }")
                .find("element type of the vector"),
            std::string::npos);
  EXPECT_NE(specError("func.func @f(%m: memref<4xf32, \"shared\">) { "
                      "return }")
                .find("only integer memory spaces"),
            std::string::npos);
  EXPECT_NE(specError("func.func @f(%m: memref<?x4xf32>) { return }")
                .find("static shapes"),
            std::string::npos);
  EXPECT_NE(specError("func.func @f(%m: memref<4x4xf32, strided<[8, 1]>>) "
                      "{ return }")
                .find("identity layout"),
            std::string::npos);
  EXPECT_NE(specError("func.func @f(%m: memref<4xf8E4M3FN>) { return }")
                .find("unsupported element type"),
            std::string::npos);
  EXPECT_NE(specError("func.func @f(%t: tensor<4xf32>) { return }")
                .find("no outputs to verify"),
            std::string::npos);
  EXPECT_EQ(specError("func.func @f(%m: memref<4xi1>) { return }"), "");
}

TEST_F(SpecTest, ScalarsMemorySpacesAndVectors) {
  func::FuncOp function = parse(R"(
    func.func @f(%a: f32, %n: index, %m: memref<4xvector<8xf16>, 1>,
                 %t: tensor<2xvector<2x4xf32>>) -> i32 {
      %c = arith.constant 0 : i32
      return %c : i32
    })");
  ASSERT_TRUE(function);
  llvm::Expected<HarnessSpec> spec = buildHarnessSpec(function, 1, {{1, 7}});
  ASSERT_TRUE(bool(spec)) << llvm::toString(spec.takeError());
  ASSERT_EQ(spec->buffers.size(), 5u);
  const std::vector<BufferSpec> &b = spec->buffers;
  EXPECT_TRUE(b[0].scalar && b[0].shape.empty() && !b[0].compared);
  EXPECT_EQ(b[0].value, 1.5) << "the default value of a float scalar";
  EXPECT_EQ(b[1].value, 7) << "the given value";
  EXPECT_EQ(b[2].type, ElementKind::F16);
  EXPECT_EQ(b[2].shape, (llvm::SmallVector<int64_t, 4>{4, 8}));
  EXPECT_EQ(b[2].descriptorRank(), 1u);
  EXPECT_EQ(b[2].typeString(), "memref<4xvector<8xf16>>");
  EXPECT_EQ(b[3].shape, (llvm::SmallVector<int64_t, 4>{2, 2, 4}));
  EXPECT_EQ(b[3].vectorRank, 2u);
  EXPECT_TRUE(b[4].scalar && b[4].isResult && b[4].compared);
  EXPECT_FALSE(b[4].value);
  EXPECT_EQ(b[4].typeString(), "i32");

  // The spec travels to the harness as JSON.
  llvm::Expected<HarnessSpec> read = HarnessSpec::fromJSON(spec->toJSON());
  ASSERT_TRUE(bool(read)) << llvm::toString(read.takeError());
  EXPECT_EQ(read->buffers[1].value, 7);
  EXPECT_EQ(read->buffers[3].vectorRank, 2u);
  EXPECT_TRUE(read->buffers[4].scalar);

  // Values that do not fit, and values for what is not a scalar.
  EXPECT_FALSE(bool(buildHarnessSpec(function, 1, {{1, 0.5}})));
  llvm::Expected<HarnessSpec> notScalar =
      buildHarnessSpec(function, 1, {{2, 1}});
  ASSERT_FALSE(bool(notScalar));
  EXPECT_NE(llvm::toString(notScalar.takeError()).find("not a scalar"),
            std::string::npos);

  llvm::Expected<std::map<unsigned, double>> values =
      parseScalarValues("arg0=2.5, arg3=-7");
  ASSERT_TRUE(bool(values)) << llvm::toString(values.takeError());
  EXPECT_EQ(*values, (std::map<unsigned, double>{{0, 2.5}, {3, -7}}));
  EXPECT_FALSE(bool(parseScalarValues("alpha=2")));
  EXPECT_FALSE(bool(parseScalarValues("arg0=1,arg0=2")));
}

TEST_F(SpecTest, ReductionLengthFromLinalg) {
  func::FuncOp function = parse(R"(
    func.func @f(%a: memref<8x12xf32>, %b: memref<12x5xf32>,
                 %c: memref<8x5xf32>, %d: memref<3x7x9xf32>,
                 %e: memref<3xf32>) {
      linalg.matmul ins(%a, %b : memref<8x12xf32>, memref<12x5xf32>)
                    outs(%c : memref<8x5xf32>)
      linalg.reduce ins(%d : memref<3x7x9xf32>) outs(%e : memref<3xf32>)
          dimensions = [1, 2]
        (%x: f32, %acc: f32) {
          %s = arith.addf %x, %acc : f32
          linalg.yield %s : f32
        }
      return
    })");
  ASSERT_TRUE(function);
  EXPECT_EQ(estimateReductionLength(function), 63);
}

TEST_F(SpecTest, ReductionLengthFromLoops) {
  func::FuncOp function = parse(R"(
    func.func @f(%a: memref<40xf32>, %s: memref<f32>) {
      affine.for %i = 0 to 40 {
        %x = affine.load %a[%i] : memref<40xf32>
        %y = affine.load %s[] : memref<f32>
        %z = arith.addf %x, %y : f32
        affine.store %z, %s[] : memref<f32>
      }
      affine.for %i = 0 to 10 {
      }
      return
    })");
  ASSERT_TRUE(function);
  EXPECT_EQ(estimateReductionLength(function), 40);
  func::FuncOp elementwise = parse(R"(
    func.func @g(%a: memref<4xf32>) { return })");
  ASSERT_TRUE(elementwise);
  EXPECT_EQ(estimateReductionLength(elementwise), 1);
}

} // namespace
