//===- SkewingTest.cpp - Shifts and skews that make a band tileable -------===//

#include "tuner/Analysis/Skewing.h"

#include "gtest/gtest.h"

using namespace tuner;

namespace {

/// A dependence of exact distances.
BandDependence exact(std::vector<int64_t> distance, unsigned source = 0,
                     unsigned target = 0) {
  BandDependence dependence;
  dependence.source = source;
  dependence.target = target;
  for (int64_t d : distance)
    dependence.distance.push_back(DistanceRange::exactly(d));
  return dependence;
}

std::string message(llvm::Error error) {
  return llvm::toString(std::move(error));
}

/// The dependences of seidel-2d (t, i, j): within a sweep, the rows above
/// and the point to the left were written before (flow), the rows below
/// and the point to the right are overwritten after (anti); across sweeps,
/// every neighbour.
std::vector<BandDependence> seidelDependences() {
  std::vector<BandDependence> dependences;
  for (int64_t dj : {-1, 0, 1})
    dependences.push_back(exact({0, 1, dj}));
  dependences.push_back(exact({0, 0, 1}));
  for (int64_t di : {-1, 0, 1})
    for (int64_t dj : {-1, 0, 1})
      dependences.push_back(exact({1, di, dj}));
  return dependences;
}

TEST(Skewing, SeidelGetsPlutosSkew) {
  llvm::Expected<SkewMatrix> skew = computeSkew(seidelDependences(), 3);
  ASSERT_TRUE(bool(skew)) << message(skew.takeError());
  // y = (t, t + i, 2t + i + j).
  EXPECT_EQ(*skew, (SkewMatrix{{1, 0, 0}, {1, 1, 0}, {2, 1, 1}}));
  std::vector<BandDependence> skewed;
  for (const BandDependence &dependence : seidelDependences())
    skewed.push_back({0, 0, skewDistances(*skew, dependence.distance)});
  EXPECT_TRUE(isFullyPermutable(skewed, 3));
  EXPECT_FALSE(isFullyPermutable(seidelDependences(), 3));
  // (1, -1, -1) becomes (1, 0, 0); (0, 1, -1) becomes (0, 1, 0).
  EXPECT_EQ(skewDistances(*skew, exact({1, -1, -1}).distance),
            exact({1, 0, 0}).distance);
  EXPECT_EQ(skewDistances(*skew, exact({0, 1, -1}).distance),
            exact({0, 1, 0}).distance);
}

TEST(Skewing, FullyPermutableBandsAreNotSkewed) {
  llvm::Expected<SkewMatrix> skew =
      computeSkew({exact({1, 0}), exact({0, 1}), exact({1, 1})}, 2);
  ASSERT_TRUE(bool(skew)) << message(skew.takeError());
  EXPECT_EQ(*skew, identitySkew(2));
  EXPECT_FALSE(isNontrivialSkew(*skew));
}

TEST(Skewing, RangesSkewByTheirLowerBounds) {
  // (1, [-3, 2]) needs i + 3t; a carrier of distance 2 halves the factor.
  BandDependence ranged = exact({1, 0});
  ranged.distance[1] = {-3, 2};
  llvm::Expected<SkewMatrix> skew = computeSkew({ranged}, 2);
  ASSERT_TRUE(bool(skew)) << message(skew.takeError());
  EXPECT_EQ(*skew, (SkewMatrix{{1, 0}, {3, 1}}));
  ranged.distance[0] = DistanceRange::exactly(2);
  skew = computeSkew({ranged}, 2);
  ASSERT_TRUE(bool(skew)) << message(skew.takeError());
  EXPECT_EQ(*skew, (SkewMatrix{{1, 0}, {2, 1}}));
  // An unbounded upper end stays unbounded once skewed.
  ranged.distance[0] = {1, std::nullopt};
  std::vector<DistanceRange> skewed =
      skewDistances(SkewMatrix{{1, 0}, {3, 1}}, ranged.distance);
  EXPECT_EQ(skewed[1], (DistanceRange{0, std::nullopt}));
}

TEST(Skewing, InverseUndoesTheSkew) {
  SkewMatrix skew{{1, 0, 0}, {1, 1, 0}, {2, 1, 1}};
  SkewMatrix inverse = invertSkew(skew);
  EXPECT_EQ(inverse, (SkewMatrix{{1, 0, 0}, {-1, 1, 0}, {-1, -1, 1}}));
  for (size_t r = 0; r < 3; ++r)
    for (size_t c = 0; c < 3; ++c) {
      int64_t sum = 0;
      for (size_t k = 0; k < 3; ++k)
        sum += skew[r][k] * inverse[k][c];
      EXPECT_EQ(sum, r == c ? 1 : 0);
    }
  EXPECT_TRUE(isSkewMatrix(skew, 3));
  EXPECT_FALSE(isSkewMatrix(skew, 2));
  EXPECT_FALSE(isSkewMatrix(SkewMatrix{{1, 1}, {0, 1}}, 2));
  EXPECT_FALSE(isSkewMatrix(SkewMatrix{{2, 0}, {0, 1}}, 2));
}

TEST(Skewing, DependencesNoSkewFixes) {
  // Unbounded below on an inner loop.
  BandDependence unbounded = exact({1, 0});
  unbounded.distance[1].lb = std::nullopt;
  EXPECT_EQ(message(computeSkew({unbounded}, 2).takeError()),
            "dependence (1, [-inf, 0]) has a distance unbounded below on "
            "loop 1: no skew makes the band fully permutable");
  // Negative on the outermost loop.
  EXPECT_EQ(message(computeSkew({exact({-1, 2})}, 2).takeError()),
            "dependence (-1, 2) may run backwards on the outermost loop: no "
            "skew makes the band fully permutable");
  // Negative on an inner loop that no outer loop surely carries.
  BandDependence uncarried = exact({0, -1});
  uncarried.distance[0] = {0, 1};
  EXPECT_EQ(message(computeSkew({uncarried}, 2).takeError()),
            "dependence ([0, 1], -1) is negative on loop 1 but no outer loop "
            "surely carries it: no skew makes the band fully permutable");
  // Too few distances.
  EXPECT_EQ(message(computeSkew({exact({1})}, 2).takeError()),
            "dependence (1) has 1 distances for a band of 2 loops");
}

/// Jacobi-2d's two sweeps under a time loop (t, i), statement 0 writing B
/// from A, statement 1 writing A from B; distances on i match the sweeps'
/// row loops by depth.
std::vector<BandDependence> jacobiDependences() {
  std::vector<BandDependence> dependences;
  // Within a time step: S1 reads B[i-1 .. i+1] written by S0 (flow), and
  // writes A[i], which S0 read at rows i-1 .. i+1 (anti).
  for (int64_t di : {-1, 0, 1}) {
    dependences.push_back(exact({0, di}, 0, 1));
    dependences.push_back(exact({0, -di}, 0, 1));
  }
  // Across time steps: S0 of t + 1 reads A written by S1 of t (flow) and
  // overwrites B that S1 of t read (anti).
  for (int64_t di : {-1, 0, 1}) {
    dependences.push_back(exact({1, di}, 1, 0));
    dependences.push_back(exact({1, di}, 1, 0));
  }
  return dependences;
}

TEST(Skewing, JacobiSweepsFuseOneRowApart) {
  llvm::Expected<std::vector<std::vector<int64_t>>> shifts =
      computeFusionShifts(jacobiDependences(), 2, /*fusedFrom=*/1,
                          /*depth=*/2);
  ASSERT_TRUE(bool(shifts)) << message(shifts.takeError());
  EXPECT_EQ(*shifts, (std::vector<std::vector<int64_t>>{{0}, {1}}));
  EXPECT_FALSE(bool(verifyFusionShifts(jacobiDependences(), *shifts, 1, 2)));

  // Fused, the band needs i + 2t: S1 of step t runs row i at i + 1, S0 of
  // step t + 1 reads it from row i - 1.
  std::vector<BandDependence> fused =
      shiftDependences(jacobiDependences(), *shifts, 1);
  EXPECT_EQ(fused[0].distance[1], DistanceRange::exactly(0));
  llvm::Expected<SkewMatrix> skew = computeSkew(fused, 2);
  ASSERT_TRUE(bool(skew)) << message(skew.takeError());
  EXPECT_EQ(*skew, (SkewMatrix{{1, 0}, {2, 1}}));
}

TEST(Skewing, FusionShiftErrors) {
  EXPECT_EQ(message(verifyFusionShifts(jacobiDependences(), {{0}, {0}}, 1, 2)),
            "the shifts reverse dependence (0, -1) from statement 0 to "
            "statement 1: on fused loop 0 statement 1 must be shifted at "
            "least 1 more than statement 0, not 0");
  EXPECT_EQ(
      message(verifyFusionShifts(jacobiDependences(), {{0, 0}, {1, 0}}, 1, 2)),
      "expected 1 shifts per statement, got 2");
  // A later statement that an earlier one depends on within one iteration
  // (which sequential code cannot have), both ways: no shifts exist.
  std::vector<BandDependence> cycle = {exact({0, 0}, 0, 1),
                                       exact({0, 0}, 1, 0)};
  EXPECT_EQ(message(computeFusionShifts(cycle, 2, 1, 2).takeError()),
            "the dependences between the nests form a cycle that no shift "
            "satisfies");
  BandDependence unbounded = exact({0, 0}, 0, 1);
  unbounded.distance[1].lb = std::nullopt;
  EXPECT_EQ(message(computeFusionShifts({unbounded}, 2, 1, 2).takeError()),
            "dependence (0, [-inf, 0]) from statement 0 to statement 1 has a "
            "distance unbounded below on loop 1: no shift lets the nests fuse");
  // Dependences carried by the enclosing loops do not order the siblings.
  llvm::Expected<std::vector<std::vector<int64_t>>> none =
      computeFusionShifts({exact({1, -5}, 0, 1)}, 2, 1, 2);
  ASSERT_TRUE(bool(none)) << message(none.takeError());
  EXPECT_EQ(*none, (std::vector<std::vector<int64_t>>{{0}, {0}}));
}

TEST(Skewing, DistanceRangesPrint) {
  EXPECT_EQ(DistanceRange::exactly(-2).str(), "-2");
  EXPECT_EQ((DistanceRange{1, 3}).str(), "[1, 3]");
  EXPECT_EQ((DistanceRange{std::nullopt, 3}).str(), "[-inf, 3]");
  EXPECT_EQ((DistanceRange{0, std::nullopt}).str(), "[0, +inf]");
  EXPECT_EQ(exact({0, 1}, 1, 0).str(),
            "(0, 1) from statement 1 to statement 0");
}

} // namespace
