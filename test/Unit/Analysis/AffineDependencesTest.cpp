//===- AffineDependencesTest.cpp - Dependence distances of affine bands ---===//

#include "tuner/Analysis/AffineDependences.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <algorithm>

using namespace tuner;

namespace {

constexpr llvm::StringLiteral kSeidel = R"mlir(
func.func @seidel(%A: memref<10x10xf32>) {
  affine.for %t = 0 to 4 {
    affine.for %i = 1 to 9 {
      affine.for %j = 1 to 9 {
        %n = affine.load %A[%i - 1, %j + 1] : memref<10x10xf32>
        %s = affine.load %A[%i + 1, %j - 1] : memref<10x10xf32>
        %v = arith.addf %n, %s : f32
        affine.store %v, %A[%i, %j] : memref<10x10xf32>
      }
    }
  }
  return
}
)mlir";

constexpr llvm::StringLiteral kJacobi = R"mlir(
func.func @jacobi(%A: memref<10xf32>, %B: memref<10xf32>) {
  affine.for %t = 0 to 4 {
    affine.for %i = 1 to 9 {
      %n = affine.load %A[%i - 1] : memref<10xf32>
      %s = affine.load %A[%i + 1] : memref<10xf32>
      %v = arith.addf %n, %s : f32
      affine.store %v, %B[%i] : memref<10xf32>
    }
    affine.for %i = 1 to 9 {
      %n = affine.load %B[%i - 1] : memref<10xf32>
      %s = affine.load %B[%i + 1] : memref<10xf32>
      %v = arith.addf %n, %s : f32
      affine.store %v, %A[%i] : memref<10xf32>
    }
  }
  return
}
)mlir";

class AffineDependencesTest : public ::testing::Test {
protected:
  AffineDependencesTest() {
    context.loadDialect<mlir::affine::AffineDialect, mlir::arith::ArithDialect,
                        mlir::func::FuncDialect, mlir::memref::MemRefDialect>();
  }

  /// The outermost affine.for of the only function of `source`.
  mlir::affine::AffineForOp rootOf(llvm::StringRef source) {
    module = mlir::parseSourceString<mlir::ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    mlir::affine::AffineForOp root;
    module->walk<mlir::WalkOrder::PreOrder>(
        [&](mlir::affine::AffineForOp loop) {
          if (!root)
            root = loop;
        });
    return root;
  }

  static bool contains(const std::vector<BandDependence> &dependences,
                       const BandDependence &expected) {
    return std::any_of(
        dependences.begin(), dependences.end(), [&](const BandDependence &d) {
          return d.source == expected.source && d.target == expected.target &&
                 d.distance == expected.distance;
        });
  }

  static BandDependence exact(std::vector<int64_t> distance,
                              unsigned source = 0, unsigned target = 0) {
    BandDependence dependence{source, target, {}};
    for (int64_t d : distance)
      dependence.distance.push_back(DistanceRange::exactly(d));
    return dependence;
  }

  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

TEST_F(AffineDependencesTest, SeidelBand) {
  std::string why;
  mlir::FailureOr<AffineBand> band = getAffineBand(rootOf(kSeidel), 3, 0, why);
  ASSERT_TRUE(mlir::succeeded(band)) << why;
  EXPECT_EQ(band->depth(), 3u);
  mlir::FailureOr<std::vector<BandDependence>> dependences =
      getBandDependences(*band, why);
  ASSERT_TRUE(mlir::succeeded(dependences)) << why;
  // Within a sweep: A[i-1][j+1] was written at (i - 1, j + 1), A[i+1][j-1]
  // is written at (i + 1, j - 1) later; across sweeps the other way round.
  EXPECT_TRUE(contains(*dependences, exact({0, 1, -1})));
  // (Memory-based: a location written in every sweep conflicts with all
  // later sweeps, not just the next.)
  BandDependence across = exact({1, -1, 1});
  across.distance[0] = {1, 3};
  EXPECT_TRUE(contains(*dependences, across));
  EXPECT_FALSE(isFullyPermutable(*dependences, 3));
  mlir::FailureOr<TimeTiling> plan = planTimeTiling(*band, why);
  ASSERT_TRUE(mlir::succeeded(plan)) << why;
  EXPECT_TRUE(plan->shifts.empty());
  EXPECT_EQ(plan->skew, (SkewMatrix{{1, 0, 0}, {1, 1, 0}, {2, 1, 1}}));
}

TEST_F(AffineDependencesTest, JacobiSweepsMatchedByDepth) {
  std::string why;
  mlir::FailureOr<AffineBand> band = getAffineBand(rootOf(kJacobi), 1, 1, why);
  ASSERT_TRUE(mlir::succeeded(band)) << why;
  EXPECT_EQ(band->siblings.size(), 2u);
  mlir::FailureOr<std::vector<BandDependence>> dependences =
      getBandDependences(*band, why);
  ASSERT_TRUE(mlir::succeeded(dependences)) << why;
  // The second sweep reads B[i + 1], which the first wrote at row i + 1.
  EXPECT_TRUE(contains(*dependences, exact({0, -1}, 0, 1)));
  // The first sweep of the next step reads A[i + 1], which the second wrote
  // at row i + 1 of the step before.
  BandDependence across = exact({1, -1}, 1, 0);
  across.distance[0] = {1, 3};
  EXPECT_TRUE(contains(*dependences, across));
  mlir::FailureOr<TimeTiling> plan = planTimeTiling(*band, why);
  ASSERT_TRUE(mlir::succeeded(plan)) << why;
  EXPECT_EQ(plan->shifts, (std::vector<std::vector<int64_t>>{{0}, {1}}));
  EXPECT_EQ(plan->skew, (SkewMatrix{{1, 0}, {2, 1}}));
}

TEST_F(AffineDependencesTest, BandShapeErrors) {
  std::string why;
  mlir::affine::AffineForOp root = rootOf(kJacobi);
  EXPECT_TRUE(mlir::failed(getAffineBand(root, 2, 0, why)));
  EXPECT_EQ(why, "expected a perfect band of at least 2 loops, found 1");
  mlir::affine::AffineForOp seidel = rootOf(kSeidel);
  EXPECT_TRUE(mlir::failed(getAffineBand(seidel, 3, 1, why)));
  EXPECT_EQ(why, "the innermost band loop holds 'affine.load' besides loop "
                 "nests: only loop nests can be fused");
  EXPECT_TRUE(mlir::failed(getAffineBand(seidel, 2, 2, why)));
  EXPECT_EQ(why, "a sibling nest has 1 perfectly nested loops, fewer than "
                 "the 2 to fuse");
}

} // namespace
