//===- ApplyScheduleTest.cpp - Applying scripts in-process ----------------===//

#include "tuner/Schedule/ApplySchedule.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace tuner;

namespace {

constexpr llvm::StringLiteral kMatmul = R"mlir(
func.func @mm(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  linalg.matmul ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}
)mlir";

/// Tiles every matmul by `sizes`.
std::string tileScript(llvm::StringRef sizes) {
  return (R"mlir(
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %loops:2 = transform.structured.tile_using_for %mm tile_sizes )mlir" +
          sizes +
          R"mlir( : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
)mlir")
      .str();
}

class ApplyScheduleTest : public ::testing::Test {
protected:
  void SetUp() override {
    mlir::DialectRegistry registry;
    registerScheduleDialects(registry);
    context.appendDialectRegistry(registry);
    module = mlir::parseSourceString<mlir::ModuleOp>(kMatmul, &context);
    ASSERT_TRUE(module);
  }

  std::string print() {
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os);
    return text;
  }

  /// Applies `script`, collecting the diagnostics in `messages`.
  mlir::LogicalResult apply(llvm::StringRef script) {
    mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
      messages += d.str() + "\n";
      for (mlir::Diagnostic &note : d.getNotes())
        messages += "note: " + note.str() + "\n";
      return mlir::success();
    });
    return applyTransformScript(module.get(), script);
  }

  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::string messages;
};

TEST_F(ApplyScheduleTest, SuccessReplacesTheBody) {
  ASSERT_TRUE(mlir::succeeded(apply(tileScript("[4, 2, 0]")))) << messages;
  std::string text = print();
  EXPECT_NE(text.find("scf.for"), std::string::npos) << text;
  EXPECT_NE(text.find("memref<4x8xf32"), std::string::npos) << text;
  EXPECT_TRUE(mlir::succeeded(mlir::verify(module.get())));
}

TEST_F(ApplyScheduleTest, FailureLeavesThePayloadUntouched) {
  std::string before = print();
  // The tiling succeeds on the payload copy, then splitting its one tiled op
  // into two handles fails.
  std::string script = tileScript("[4, 2, 0]");
  std::string split = "    %a, %b = transform.split_handle %tiled : "
                      "(!transform.any_op) -> (!transform.any_op, "
                      "!transform.any_op)\n";
  script.insert(script.find("    transform.yield"), split);
  ASSERT_TRUE(mlir::failed(apply(script)));
  EXPECT_EQ(print(), before);
  EXPECT_NE(messages.find("the schedule failed to apply"), std::string::npos)
      << messages;
  EXPECT_NE(messages.find("expected to contain 2 payloads"), std::string::npos)
      << messages;
}

TEST_F(ApplyScheduleTest, ScriptsThatDoNotParseAreReported) {
  std::string before = print();
  ASSERT_TRUE(mlir::failed(apply("module { transform.no_such_op }")));
  EXPECT_EQ(print(), before);
  EXPECT_NE(messages.find("does not parse"), std::string::npos) << messages;
}

TEST_F(ApplyScheduleTest, MissingEntryPointIsReported) {
  ASSERT_TRUE(mlir::failed(
      apply("module attributes {transform.with_named_sequence} {}")));
  EXPECT_NE(messages.find("@__transform_main"), std::string::npos) << messages;
}

} // namespace
