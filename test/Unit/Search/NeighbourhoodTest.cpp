//===- NeighbourhoodTest.cpp - Each parameter's own topology --------------===//

#include "tuner/Search/Neighbourhood.h"

#include "gtest/gtest.h"

#include <set>

using namespace tuner;

namespace {

std::vector<int64_t> integers(const std::vector<ParamValue> &values) {
  std::vector<int64_t> result;
  for (const ParamValue &v : values)
    result.push_back(v.getInteger());
  std::sort(result.begin(), result.end());
  return result;
}

ParamValue::Permutation order(std::initializer_list<int64_t> v) { return v; }

struct Fixture {
  Space space;
  std::optional<ChainOfTrees> chain;
  Fixture() {
    std::vector<ParamValue> tiles;
    for (int64_t v : {1, 2, 3, 4, 6, 8, 12, 16, 24, 32})
      tiles.push_back(ParamValue::integer(v));
    cantFail(space.addParameter(Parameter::ordinal("tile", tiles, true)));
    cantFail(space.addParameter(Parameter::integer("unroll", 1, 64, true)));
    cantFail(space.addParameter(Parameter::real("alpha", 0, 1)));
    cantFail(space.addParameter(Parameter::boolean("vec")));
    cantFail(space.addParameter(Parameter::categorical("mode", {"a", "b", "c"})));
    cantFail(space.addParameter(Parameter::permutation("order", 3)));
    cantFail(space.addConstraint("tile * unroll <= 64"));
    chain = cantFail(ChainOfTrees::build(space));
  }
};

TEST(Neighbourhood, OrdinalIsAFactorizationLattice) {
  Fixture f;
  Neighbourhood n(*f.chain);
  // 12: sorted neighbours 8 and 16, one prime factor away 4, 6 and 24.
  EXPECT_EQ(integers(n.steps(0, ParamValue::integer(12))),
            (std::vector<int64_t>{4, 6, 8, 16, 24}));
  EXPECT_EQ(integers(n.steps(0, ParamValue::integer(1))),
            (std::vector<int64_t>{2, 3}));
}

TEST(Neighbourhood, IntegerRealBooleanCategorical) {
  Fixture f;
  Neighbourhood n(*f.chain);
  EXPECT_EQ(integers(n.steps(1, ParamValue::integer(8))),
            (std::vector<int64_t>{4, 7, 9, 16}));
  EXPECT_EQ(integers(n.steps(1, ParamValue::integer(1))),
            (std::vector<int64_t>{2}));
  std::vector<ParamValue> reals = n.steps(2, ParamValue::real(0));
  ASSERT_EQ(reals.size(), 1u);
  EXPECT_DOUBLE_EQ(reals[0].getReal(), 0.05);
  EXPECT_EQ(n.steps(3, ParamValue::boolean(true)),
            std::vector<ParamValue>{ParamValue::boolean(false)});
  EXPECT_EQ(n.steps(4, ParamValue::string("b")),
            (std::vector<ParamValue>{ParamValue::string("a"),
                                     ParamValue::string("c")}));
}

TEST(Neighbourhood, PermutationsMoveBySwaps) {
  Fixture f;
  Neighbourhood n(*f.chain);
  std::vector<ParamValue> swaps =
      n.steps(5, ParamValue::permutation(order({0, 1, 2})));
  std::set<ParamValue::Permutation> got;
  for (const ParamValue &v : swaps)
    got.insert(v.getPermutation());
  EXPECT_EQ(got, (std::set<ParamValue::Permutation>{
                     order({1, 0, 2}), order({2, 1, 0}), order({0, 2, 1})}));

  // Allowed orders no swap connects are neighbours of each other.
  Space space;
  cantFail(space.addParameter(Parameter::permutation(
      "p", 3, {order({0, 1, 2}), order({1, 2, 0})})));
  ChainOfTrees chain = cantFail(ChainOfTrees::build(space));
  Neighbourhood m(chain);
  EXPECT_EQ(m.steps(0, ParamValue::permutation(order({0, 1, 2}))),
            std::vector<ParamValue>{ParamValue::permutation(order({1, 2, 0}))});
}

TEST(Neighbourhood, NeighboursAndMutationsAreFeasible) {
  Fixture f;
  Neighbourhood n(*f.chain);
  Config config({ParamValue::integer(16), ParamValue::integer(4),
                 ParamValue::real(0.5), ParamValue::boolean(false),
                 ParamValue::string("a"),
                 ParamValue::permutation(order({0, 1, 2}))});
  ASSERT_TRUE(n.feasible(config));
  std::vector<Config> next = n.neighbours(config);
  EXPECT_FALSE(next.empty());
  for (const Config &c : next) {
    EXPECT_TRUE(n.feasible(c));
    size_t differing = 0;
    for (size_t i = 0; i < c.size(); ++i)
      differing += !(c[i] == config[i]);
    EXPECT_EQ(differing, 1u);
  }
  // tile 16 * unroll 8 > 64: that step is left out.
  for (const Config &c : next)
    EXPECT_LE(c[0].getInteger() * c[1].getInteger(), 64);

  std::mt19937_64 rng(7), again(7);
  for (int i = 0; i < 50; ++i) {
    std::optional<Config> m = n.mutate(config, 0.3, 0.5, rng);
    std::optional<Config> same = n.mutate(config, 0.3, 0.5, again);
    ASSERT_TRUE(m);
    EXPECT_TRUE(n.feasible(*m));
    EXPECT_FALSE(*m == config);
    ASSERT_TRUE(same);
    EXPECT_TRUE(*m == *same); // Same seed, same mutations.
  }
}

TEST(Neighbourhood, WalkStaysInTheDomain) {
  Fixture f;
  Neighbourhood n(*f.chain);
  std::mt19937_64 rng(1);
  std::set<int64_t> reached;
  for (int i = 0; i < 200; ++i) {
    ParamValue v = n.walk(0, ParamValue::integer(4), 0.7, rng);
    EXPECT_TRUE(f.space[0].contains(v));
    reached.insert(v.getInteger());
  }
  // A long walk leaves the immediate neighbours.
  EXPECT_GT(reached.size(), 5u);
}

/// Vectorizing needs a register tile of at most 16 and a reduction tile of
/// 32: from an unvectorized config with the full register tile, turning
/// vectorization on is infeasible alone; its repairs change the fewest other
/// parameters.
struct Coupled {
  Space space;
  std::optional<ChainOfTrees> chain;
  Coupled() {
    std::vector<ParamValue> rtile, ktile;
    for (int64_t v : {4, 8, 16, 32, 256})
      rtile.push_back(ParamValue::integer(v));
    for (int64_t v : {32, 256})
      ktile.push_back(ParamValue::integer(v));
    cantFail(space.addParameter(Parameter::ordinal("rtile", rtile, true)));
    cantFail(space.addParameter(Parameter::ordinal("ktile", ktile, true)));
    cantFail(space.addParameter(Parameter::boolean("vectorize")));
    cantFail(space.addParameter(Parameter::real("alpha", 0, 1)));
    cantFail(space.addConstraint("!vectorize || rtile * ktile <= 512"));
    chain = cantFail(ChainOfTrees::build(space));
  }
  Config config(int64_t rtile, int64_t ktile, bool vectorize) const {
    Config c = space.defaultConfig();
    c[0] = ParamValue::integer(rtile);
    c[1] = ParamValue::integer(ktile);
    c[2] = ParamValue::boolean(vectorize);
    return c;
  }
};

TEST(Neighbourhood, RepairsChangeTheFewestOtherParameters) {
  Coupled f;
  Neighbourhood n(*f.chain);
  // Feasible: itself.
  Config plain = f.config(256, 256, false);
  EXPECT_EQ(n.repairs(plain, {}), std::vector<Config>{plain});
  // Vectorized with rtile 16 and ktile 256: one change, ktile to 32
  // (16 * 32 <= 512; no rtile fits beside ktile 256).
  std::vector<Config> one = n.repairs(f.config(16, 256, true), {2});
  EXPECT_EQ(one, (std::vector<Config>{f.config(16, 32, true)}));
  // Vectorized with both tiles full: rtile and ktile must both change
  // (vectorize is kept); the real never changes.
  std::vector<Config> two = n.repairs(f.config(256, 256, true), {2});
  EXPECT_EQ(two,
            (std::vector<Config>{f.config(4, 32, true), f.config(8, 32, true),
                                 f.config(16, 32, true)}));
  EXPECT_TRUE(n.repairs(f.config(256, 256, true), {2}, 1).empty());
  // Without vectorize kept, turning it off is the one-change repair.
  EXPECT_EQ(n.repairs(f.config(256, 256, true), {}),
            std::vector<Config>{f.config(256, 256, false)});
}

TEST(Neighbourhood, MovesCrossConstraintsByRepair) {
  Coupled f;
  Neighbourhood n(*f.chain);
  Config start = f.config(256, 256, false);
  std::mt19937_64 rng(3), again(3);
  bool vectorized = false;
  for (int i = 0; i < 200; ++i) {
    std::optional<Config> m = n.move(start, rng);
    ASSERT_TRUE(m);
    EXPECT_TRUE(n.feasible(*m));
    EXPECT_FALSE(*m == start);
    EXPECT_TRUE(*m == *n.move(start, again)); // Same seed, same moves.
    vectorized |= m->getValues()[2].getBoolean();
  }
  // Turning vectorization on is a move: it comes with smaller tiles.
  EXPECT_TRUE(vectorized);
}

} // namespace
