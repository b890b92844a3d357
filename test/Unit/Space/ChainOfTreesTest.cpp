//===- ChainOfTreesTest.cpp - Counting, enumeration, sampling -------------===//

#include "tuner/Space/ChainOfTrees.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FormatVariadic.h"

#include "gtest/gtest.h"

#include <cmath>
#include <map>
#include <set>

using namespace tuner;
using llvm::APInt;

namespace {

ParamValue I(int64_t v) { return ParamValue::integer(v); }
ParamValue R(double v) { return ParamValue::real(v); }

void add(Space &space, Parameter p) {
  llvm::Error error = space.addParameter(std::move(p));
  ASSERT_FALSE(bool(error)) << llvm::toString(std::move(error));
}

void constrain(Space &space, llvm::StringRef text) {
  llvm::Error error = space.addConstraint(text);
  ASSERT_FALSE(bool(error)) << llvm::toString(std::move(error));
}

Parameter ordinal(std::string name, std::vector<int64_t> values) {
  std::vector<ParamValue> v;
  for (int64_t x : values)
    v.push_back(I(x));
  return Parameter::ordinal(std::move(name), std::move(v));
}

ChainOfTrees
buildOrFail(const Space &space,
            ChainOfTrees::Options options = ChainOfTrees::Options()) {
  llvm::Expected<ChainOfTrees> chain = ChainOfTrees::build(space, options);
  if (!chain) {
    ADD_FAILURE() << llvm::toString(chain.takeError());
    Space empty;
    return std::move(*ChainOfTrees::build(empty));
  }
  return std::move(*chain);
}

std::string decimal(const APInt &value) {
  llvm::SmallString<64> text;
  value.toStringUnsigned(text, 10);
  return std::string(text);
}

/// Every config of the (discrete) space's domains, and which are feasible.
struct BruteForce {
  std::vector<Config> all;
  std::set<Config> feasible;
};

BruteForce enumerate(const Space &space) {
  BruteForce result;
  std::vector<uint64_t> digits(space.size(), 0);
  while (true) {
    std::vector<ParamValue> values;
    for (size_t i = 0; i < space.size(); ++i)
      values.push_back(space[i].valueAt(digits[i]));
    Config config(std::move(values));
    llvm::Error error = space.check(config);
    if (!error)
      result.feasible.insert(config);
    llvm::consumeError(std::move(error));
    result.all.push_back(std::move(config));
    size_t i = 0;
    while (i < space.size() && ++digits[i] == *space[i].domainSize())
      digits[i++] = 0;
    if (i == space.size())
      return result;
  }
}

/// Samples `perConfig * |feasible|` configs with a fixed seed and checks
/// that they are feasible and uniform: a chi-square bound and a per-config
/// bound of 5 standard deviations.
void expectUniform(const ChainOfTrees &chain, const std::set<Config> &feasible,
                   unsigned perConfig, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::map<Config, unsigned> histogram;
  size_t total = perConfig * feasible.size();
  for (size_t i = 0; i < total; ++i) {
    llvm::Expected<Config> sample = chain.sample(rng);
    ASSERT_TRUE(bool(sample)) << llvm::toString(sample.takeError());
    ASSERT_TRUE(feasible.count(*sample)) << "infeasible sample";
    ++histogram[*sample];
  }
  double expected = perConfig;
  double p = 1.0 / feasible.size();
  double sigma = std::sqrt(total * p * (1 - p));
  double chiSquare = 0;
  for (const Config &config : feasible) {
    double observed = histogram[config];
    chiSquare += (observed - expected) * (observed - expected) / expected;
    EXPECT_LE(std::abs(observed - expected), 5 * sigma + 1)
        << "observed " << observed << ", expected " << expected;
  }
  double df = feasible.size() - 1.0;
  EXPECT_LT(chiSquare, df + 6 * std::sqrt(2 * df) + 1)
      << feasible.size() << " configs";
}

TEST(ChainOfTrees, PaperExample) {
  // BaCO Fig. 4: p1 >= p2; p4 >= p3; p5 >= 2 p4.
  Space space;
  add(space, ordinal("p1", {2, 4}));
  add(space, ordinal("p2", {2, 4}));
  add(space, ordinal("p3", {1, 4}));
  add(space, ordinal("p4", {1, 2, 4}));
  add(space, ordinal("p5", {2, 4, 8}));
  constrain(space, "p1 >= p2");
  constrain(space, "p4 >= p3");
  constrain(space, "p5 >= 2 * p4");
  ChainOfTrees chain = buildOrFail(space);
  ASSERT_EQ(chain.getGroups().size(), 2u);
  std::set<size_t> first(chain.getGroups()[0].begin(),
                         chain.getGroups()[0].end());
  std::set<size_t> second(chain.getGroups()[1].begin(),
                          chain.getGroups()[1].end());
  EXPECT_EQ(first, (std::set<size_t>{0, 1}));
  EXPECT_EQ(second, (std::set<size_t>{2, 3, 4}));
  EXPECT_EQ(chain.leafCounts(), (std::vector<uint64_t>{3, 7}));
  EXPECT_EQ(chain.count(), 21u);
  EXPECT_EQ(chain.countString(), "21");
  EXPECT_FALSE(chain.hasRealParameters());
  EXPECT_TRUE(chain.contains(Config({I(2), I(2), I(4), I(4), I(8)})));
  EXPECT_FALSE(chain.contains(Config({I(2), I(4), I(4), I(4), I(8)})));
  EXPECT_FALSE(chain.contains(Config({I(2), I(2), I(4), I(4), I(4)})));
  EXPECT_FALSE(chain.contains(Config({I(2), I(2), I(4), I(4), I(16)})));
  EXPECT_FALSE(chain.contains(Config({I(2), I(2), I(4), I(4)})));
  EXPECT_FALSE(chain.contains(Config({I(2), R(2), I(4), I(4), I(8)})));
  // The chain is a self-contained copy of the space.
  EXPECT_EQ(chain.getSpace().toJSON(), space.toJSON());
}

TEST(ChainOfTrees, Grouping) {
  Space space;
  for (const char *name : {"a", "b", "c", "d", "e"})
    add(space, Parameter::integer(name, 0, 3));
  add(space, Parameter::real("x", 0, 1));
  add(space, Parameter::integer("f", 0, 3));
  constrain(space, "a < b");
  constrain(space, "c < d");
  constrain(space, "f + x < 3.5"); // reads a real: rejection, no grouping
  constrain(space, "b < c");
  ChainOfTrees chain = buildOrFail(space);
  ASSERT_EQ(chain.getGroups().size(), 3u);
  std::set<size_t> first(chain.getGroups()[0].begin(),
                         chain.getGroups()[0].end());
  EXPECT_EQ(first, (std::set<size_t>{0, 1, 2, 3}));
  EXPECT_EQ(chain.getGroups()[1], (std::vector<size_t>{4}));
  EXPECT_EQ(chain.getGroups()[2], (std::vector<size_t>{6}));
  // a < b < c < d over 0..3: exactly one chain.
  EXPECT_EQ(chain.leafCounts(), (std::vector<uint64_t>{1, 4, 4}));
  EXPECT_TRUE(chain.hasRealParameters());
  EXPECT_EQ(chain.countString(), "infinite");
}

/// A random small space: 2-5 parameters of every discrete kind and up to 3
/// random constraints drawn from templates.
Space randomSpace(std::mt19937_64 &rng) {
  Space space;
  size_t n = 2 + rng() % 4;
  std::vector<std::string> numeric, categorical, permutations;
  for (size_t i = 0; i < n; ++i) {
    std::string name = "p" + std::to_string(i);
    switch (rng() % 6) {
    case 0:
    case 1: {
      std::vector<int64_t> pool = {1, 2, 3, 4, 6, 8, 12, 16}, values;
      for (int64_t v : pool)
        if (rng() % 2)
          values.push_back(v);
      if (values.size() < 2)
        values = {2, 4};
      add(space, ordinal(name, values));
      numeric.push_back(name);
      break;
    }
    case 2: {
      int64_t lower = int64_t(rng() % 5) - 2;
      add(space, Parameter::integer(name, lower, lower + 1 + rng() % 5));
      numeric.push_back(name);
      break;
    }
    case 3:
      add(space, Parameter::boolean(name));
      numeric.push_back(name);
      break;
    case 4:
      add(space, Parameter::categorical(name, {"x", "y", "z"}));
      categorical.push_back(name);
      break;
    case 5:
      if (rng() % 2)
        add(space, Parameter::permutation(name, 3));
      else
        add(space,
            Parameter::permutation(name, 3, {{0, 1, 2}, {2, 1, 0}, {1, 2, 0}}));
      permutations.push_back(name);
      break;
    }
  }
  if (numeric.empty()) {
    add(space, Parameter::integer("q", 0, 3));
    numeric.push_back("q");
  }
  auto pick = [&](const std::vector<std::string> &names) {
    return names[rng() % names.size()];
  };
  size_t m = 1 + rng() % 3;
  for (size_t k = 0; k < m; ++k) {
    std::string a = pick(numeric), b = pick(numeric), d = pick(numeric);
    int64_t c = rng() % 10;
    std::string text;
    switch (rng() % 10) {
    case 0:
      text = a + " <= " + b;
      break;
    case 1:
      text = llvm::formatv("{0} + {1} <= {2}", a, b, c);
      break;
    case 2:
      text = a + " % " + b + " == 0";
      break;
    case 3:
      text = llvm::formatv("max({0}, {1}) - min({0}, {1}) <= {2}", a, b, c % 4);
      break;
    case 4:
      text = llvm::formatv("{0} * {1} >= {2}", a, b, c);
      break;
    case 5:
      text = llvm::formatv("!({0} == {1}) || {0} > {2}", a, b, c % 3);
      break;
    case 6:
      if (categorical.empty())
        continue;
      text = llvm::formatv("{0} != \"y\" || {1} >= {2}", pick(categorical), a,
                           c % 3);
      break;
    case 7:
      if (permutations.empty())
        continue;
      text = llvm::formatv("{0}[0] != {1} % 3", pick(permutations), a);
      break;
    case 8:
      if (permutations.empty())
        continue;
      text = pick(permutations) + "[1] < " + pick(permutations) + "[2]";
      break;
    case 9:
      text = llvm::formatv("{0} + {1} + {2} <= {3} || {0} / ({1} - {2}) > 1", a,
                           b, d, c + 2);
      break;
    }
    constrain(space, text);
  }
  return space;
}

TEST(ChainOfTrees, RandomSpacesMatchBruteForce) {
  std::mt19937_64 rng(20240611);
  unsigned sampled = 0, emptySpaces = 0;
  for (int round = 0; round < 120; ++round) {
    Space space = randomSpace(rng);
    SCOPED_TRACE(llvm::formatv("round {0}: {1}", round, space.toJSON()).str());
    BruteForce brute = enumerate(space);
    if (brute.feasible.empty()) {
      // An empty space is an error, naming the constraints that empty it.
      llvm::Expected<ChainOfTrees> empty = ChainOfTrees::build(space);
      ASSERT_FALSE(bool(empty));
      std::string message = llvm::toString(empty.takeError());
      EXPECT_EQ(message.rfind("the space has no feasible config: ", 0), 0u)
          << message;
      ++emptySpaces;
      continue;
    }
    ChainOfTrees chain = buildOrFail(space);

    APInt count = chain.count();
    ASSERT_EQ(count, brute.feasible.size());
    uint64_t product = 1;
    for (uint64_t leaves : chain.leafCounts())
      product *= leaves;
    EXPECT_EQ(product, brute.feasible.size());
    size_t grouped = 0;
    for (const auto &group : chain.getGroups())
      grouped += group.size();
    EXPECT_EQ(grouped, space.size());

    // at() enumerates each feasible config exactly once.
    std::set<Config> seen;
    for (uint64_t i = 0; i < brute.feasible.size(); ++i) {
      Config config = chain.at(APInt(64, i));
      EXPECT_TRUE(brute.feasible.count(config)) << "at(" << i << ")";
      EXPECT_TRUE(seen.insert(config).second) << "at(" << i << ") repeats";
    }
    EXPECT_EQ(seen, brute.feasible);

    for (const Config &config : brute.all)
      EXPECT_EQ(chain.contains(config), brute.feasible.count(config) == 1);

    if (brute.feasible.size() >= 2 && brute.feasible.size() <= 60 &&
        round % 3 == 0) {
      expectUniform(chain, brute.feasible, 150, round);
      ++sampled;
    }
  }
  EXPECT_GE(sampled, 10u);
  // The seed yields a few empty spaces, so the error path is exercised too.
  EXPECT_GE(emptySpaces, 1u);
}

TEST(ChainOfTrees, SamplingIsNotBiasedByTreeShape) {
  // A per-level uniform sampler would pick a (or b) uniformly first and then
  // the other among what remains: (8, 8) would come up 1/8 of the time
  // instead of 1/36. Sampling proportionally to leaf counts is uniform.
  Space space;
  add(space, Parameter::integer("a", 1, 8));
  add(space, Parameter::integer("b", 1, 8));
  constrain(space, "a <= b");
  ChainOfTrees chain = buildOrFail(space);
  ASSERT_EQ(chain.count(), 36u);
  std::set<Config> feasible;
  for (int64_t a = 1; a <= 8; ++a)
    for (int64_t b = a; b <= 8; ++b)
      feasible.insert(Config({I(a), I(b)}));
  expectUniform(chain, feasible, 1000, 7);
}

TEST(ChainOfTrees, UniformOverPermutations) {
  Space space;
  add(space, Parameter::permutation("p", 3));
  add(space, Parameter::permutation("q", 3, {{0, 1, 2}, {2, 1, 0}}));
  add(space, Parameter::categorical("c", {"a", "b"}));
  constrain(space, "p[0] != 0 || q[0] == 2");
  ChainOfTrees chain = buildOrFail(space);
  BruteForce brute = enumerate(space);
  EXPECT_EQ(chain.count(), brute.feasible.size());
  EXPECT_EQ(brute.feasible.size(), 20u); // (6*2 - 2*1) * 2
  expectUniform(chain, brute.feasible, 500, 99);
}

TEST(ChainOfTrees, SamplingIsDeterministic) {
  Space space;
  add(space, Parameter::integer("a", 1, 50));
  add(space, Parameter::integer("b", 1, 50));
  add(space, Parameter::real("x", 1, 100, /*logScale=*/true));
  constrain(space, "a % b == 0");
  ChainOfTrees chain = buildOrFail(space);
  std::mt19937_64 first(5), second(5);
  for (int i = 0; i < 50; ++i) {
    llvm::Expected<Config> a = chain.sample(first), b = chain.sample(second);
    ASSERT_TRUE(a && b);
    EXPECT_EQ(*a, *b);
  }
}

TEST(ChainOfTrees, BigCounts) {
  Space space;
  for (int i = 0; i < 40; ++i)
    add(space,
        ordinal("k" + std::to_string(i), {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  ChainOfTrees chain = buildOrFail(space);
  EXPECT_EQ(chain.countString(), "1" + std::string(40, '0'));
  EXPECT_EQ(decimal(chain.count()), "1" + std::string(40, '0'));

  // Mixed radix, first tree most significant.
  Config zero = chain.at(APInt(8, 0));
  Config small = chain.at(APInt(64, 123));
  Config last = chain.at(chain.count() - 1);
  for (int i = 0; i < 40; ++i) {
    EXPECT_EQ(zero[i], I(0));
    EXPECT_EQ(last[i], I(9));
    EXPECT_EQ(small[i], I(i == 37 ? 1 : i == 38 ? 2 : i == 39 ? 3 : 0));
  }
  APInt middle = APInt(200, 0);
  for (int digit = 0; digit < 40; ++digit)
    middle = middle * 10 + (digit % 10);
  Config decoded = chain.at(middle);
  for (int i = 0; i < 40; ++i)
    EXPECT_EQ(decoded[i], I(i % 10));
  EXPECT_TRUE(chain.contains(decoded));
  std::mt19937_64 rng(1);
  for (int i = 0; i < 20; ++i) {
    llvm::Expected<Config> sample = chain.sample(rng);
    ASSERT_TRUE(bool(sample));
    EXPECT_TRUE(chain.contains(*sample));
  }

  // 30 constrained pairs of 55 feasible leaves each: 55^30.
  Space pairs;
  for (int i = 0; i < 30; ++i) {
    std::string a = "a" + std::to_string(i), b = "b" + std::to_string(i);
    add(pairs, Parameter::integer(a, 1, 10));
    add(pairs, Parameter::integer(b, 1, 10));
    constrain(pairs, a + " <= " + b);
  }
  ChainOfTrees pairChain = buildOrFail(pairs);
  EXPECT_EQ(pairChain.countString(),
            "16251022246560461184530336180516518652439117431640625");
  EXPECT_EQ(pairChain.getGroups().size(), 30u);

  // An unconstrained parameter is never enumerated, however large.
  Space huge;
  add(huge, Parameter::integer("n", 1, 1'000'000'000'000));
  add(huge, Parameter::integer("m", 0, 9));
  ChainOfTrees hugeChain = buildOrFail(huge);
  EXPECT_EQ(hugeChain.countString(), "10000000000000");
  EXPECT_EQ(hugeChain.at(APInt(64, 10000000000000ULL - 1)),
            Config({I(1'000'000'000'000), I(9)}));
}

TEST(ChainOfTrees, MaxNodesPerTree) {
  Space space;
  add(space, Parameter::integer("a", 1, 100));
  add(space, Parameter::integer("b", 1, 100));
  add(space, Parameter::integer("c", 1, 3));
  constrain(space, "a <= b");
  ChainOfTrees::Options options;
  options.sampleLargeGroups = false;
  options.maxNodesPerTree = 1000;
  llvm::Expected<ChainOfTrees> refused = ChainOfTrees::build(space, options);
  ASSERT_FALSE(bool(refused));
  EXPECT_EQ(llvm::toString(refused.takeError()),
            "Chain-of-Trees: enumerating the group {'a', 'b'} visits more "
            "than maxNodesPerTree (1000) tree nodes; shrink their domains or "
            "relax the constraints that tie them");
  options.maxNodesPerTree = 20000;
  llvm::Expected<ChainOfTrees> accepted = ChainOfTrees::build(space, options);
  ASSERT_TRUE(bool(accepted)) << llvm::toString(accepted.takeError());
  EXPECT_EQ(accepted->count(), 5050u * 3);

  // The conjuncts of a constraint are checked separately, each as soon as
  // its parameters are known: "a == 1" prunes at a's level, so only
  // 100 + 100 candidates are visited.
  Space split;
  add(split, Parameter::integer("a", 1, 100));
  add(split, Parameter::integer("b", 1, 100));
  constrain(split, "a == 1 && a <= b");
  options.maxNodesPerTree = 200;
  llvm::Expected<ChainOfTrees> pruned = ChainOfTrees::build(split, options);
  ASSERT_TRUE(bool(pruned)) << llvm::toString(pruned.takeError());
  EXPECT_EQ(pruned->count(), 100u);

  Space wide;
  add(wide, Parameter::integer("w", 1, 5000));
  constrain(wide, "w % 7 == 0");
  options.maxNodesPerTree = 1000;
  llvm::Expected<ChainOfTrees> tooWide = ChainOfTrees::build(wide, options);
  ASSERT_FALSE(bool(tooWide));
  EXPECT_EQ(llvm::toString(tooWide.takeError()),
            "Chain-of-Trees: parameter 'w' of the group {'w'} has 5000 values, "
            "more than maxNodesPerTree (1000)");
  ChainOfTrees fine = buildOrFail(wide);
  EXPECT_EQ(fine.count(), 714u);
}

TEST(ChainOfTrees, GroupsTooLargeToEnumerateAreSampledByRejection) {
  Space space;
  add(space, Parameter::integer("a", 1, 100));
  add(space, Parameter::integer("b", 1, 100));
  add(space, Parameter::integer("c", 1, 3));
  constrain(space, "a <= b");
  ChainOfTrees::Options options;
  options.maxNodesPerTree = 1000;
  llvm::Expected<ChainOfTrees> chain = ChainOfTrees::build(space, options);
  ASSERT_TRUE(bool(chain)) << llvm::toString(chain.takeError());
  EXPECT_FALSE(chain->isExact());
  // 5050 * 3 = 15150 feasible configs, estimated from 20000 draws.
  double estimate = double(chain->count().getZExtValue());
  EXPECT_NEAR(estimate, 15150, 15150 * 0.05);
  EXPECT_EQ(chain->countString().rfind("~", 0), 0u) << chain->countString();
  EXPECT_NE(chain->countString().find("(estimated)"), std::string::npos);
  // Samples are feasible and uniform: P(a = k) is proportional to 101 - k,
  // so E[a] = 34 exactly.
  std::mt19937_64 rng(11);
  double sum = 0;
  const int draws = 20000;
  for (int i = 0; i < draws; ++i) {
    llvm::Expected<Config> config = chain->sample(rng);
    ASSERT_TRUE(bool(config)) << llvm::toString(config.takeError());
    ASSERT_TRUE(chain->contains(*config));
    ASSERT_LE((*config)[0].getInteger(), (*config)[1].getInteger());
    sum += (*config)[0].getInteger();
  }
  EXPECT_NEAR(sum / draws, 34.0, 1.0);
  EXPECT_FALSE(chain->contains(Config({I(5), I(4), I(1)})));

  // A single parameter wider than the budget is sampled too.
  Space wide;
  add(wide, Parameter::integer("w", 1, 5000));
  constrain(wide, "w % 7 == 0");
  llvm::Expected<ChainOfTrees> sampled = ChainOfTrees::build(wide, options);
  ASSERT_TRUE(bool(sampled)) << llvm::toString(sampled.takeError());
  EXPECT_FALSE(sampled->isExact());
  EXPECT_NEAR(double(sampled->count().getZExtValue()), 714, 714 * 0.1);
}

TEST(ChainOfTrees, GroupsCertainlyTooLargeAreNotEnumerated) {
  // About 5050^2 = 25.5M feasible assignments in one group: far more than
  // the budget, so enumeration would give up after 1001 visits.
  Space space;
  for (const char *name : {"a", "b", "c", "d"})
    add(space, Parameter::integer(name, 1, 100));
  constrain(space, "a <= b && c <= d && a + c < 1000");
  ChainOfTrees::Options options;
  options.maxNodesPerTree = 1000;
  llvm::Expected<ChainOfTrees> predicted = ChainOfTrees::build(space, options);
  ASSERT_TRUE(bool(predicted)) << llvm::toString(predicted.takeError());
  EXPECT_FALSE(predicted->isExact());
  EXPECT_EQ(predicted->visitedNodes(), 0u);
  EXPECT_NEAR(double(predicted->count().getZExtValue()), 5050.0 * 5050,
              5050.0 * 5050 * 0.05);

  // The same chain as the enumeration that gives up would reach.
  options.predictLargeGroups = false;
  llvm::Expected<ChainOfTrees> enumerated =
      ChainOfTrees::build(space, options);
  ASSERT_TRUE(bool(enumerated)) << llvm::toString(enumerated.takeError());
  EXPECT_EQ(enumerated->visitedNodes(), 1001u);
  EXPECT_FALSE(enumerated->isExact());
  EXPECT_EQ(predicted->countString(), enumerated->countString());
  std::mt19937_64 rngA(5), rngB(5);
  for (int i = 0; i < 100; ++i) {
    llvm::Expected<Config> a = predicted->sample(rngA);
    llvm::Expected<Config> b = enumerated->sample(rngB);
    ASSERT_TRUE(a && b);
    EXPECT_EQ(a->hash(), b->hash());
  }

  // What counts is the visits, not the leaves: 5050 leaves, but 100 +
  // 100 * 100 visits, certainly more than a budget of 6000.
  Space near;
  add(near, Parameter::integer("a", 1, 100));
  add(near, Parameter::integer("b", 1, 100));
  constrain(near, "a <= b");
  options.predictLargeGroups = true;
  options.maxNodesPerTree = 6000;
  llvm::Expected<ChainOfTrees> skipped = ChainOfTrees::build(near, options);
  ASSERT_TRUE(bool(skipped)) << llvm::toString(skipped.takeError());
  EXPECT_EQ(skipped->visitedNodes(), 0u);
  EXPECT_FALSE(skipped->isExact());
  // Against a budget of 10050 the estimate cannot tell: the group is
  // enumerated as before, which gives up after 10051 visits.
  options.maxNodesPerTree = 10050;
  llvm::Expected<ChainOfTrees> gaveUp = ChainOfTrees::build(near, options);
  ASSERT_TRUE(bool(gaveUp)) << llvm::toString(gaveUp.takeError());
  EXPECT_EQ(gaveUp->visitedNodes(), 10051u);
  EXPECT_FALSE(gaveUp->isExact());
  // Within the budget: exact, and every visit counted.
  options.maxNodesPerTree = 20000;
  llvm::Expected<ChainOfTrees> exact = ChainOfTrees::build(near, options);
  ASSERT_TRUE(bool(exact)) << llvm::toString(exact.takeError());
  EXPECT_TRUE(exact->isExact());
  EXPECT_EQ(exact->count(), 5050u);
  EXPECT_EQ(exact->visitedNodes(), 10100u);
}

TEST(ChainOfTrees, RealParameters) {
  Space space;
  add(space, Parameter::integer("n", 1, 4));
  add(space, Parameter::real("x", 0, 1));
  add(space, Parameter::real("y", 1, 10000, /*logScale=*/true));
  constrain(space, "x * n <= 1");
  ChainOfTrees chain = buildOrFail(space);
  EXPECT_EQ(chain.count(), 4u);
  EXPECT_EQ(chain.countString(), "infinite");
  EXPECT_EQ(chain.at(APInt(64, 2)), Config({I(3), R(0), R(1)}));
  std::mt19937_64 rng(3);
  int belowHundred = 0, samples = 4000;
  std::map<int64_t, int> perN;
  for (int i = 0; i < samples; ++i) {
    llvm::Expected<Config> config = chain.sample(rng);
    ASSERT_TRUE(bool(config)) << llvm::toString(config.takeError());
    EXPECT_TRUE(chain.contains(*config));
    EXPECT_LE((*config)[1].getReal() * (*config)[0].getInteger(), 1.0);
    double y = (*config)[2].getReal();
    EXPECT_GE(y, 1.0);
    EXPECT_LE(y, 10000.0);
    belowHundred += y < 100;
    ++perN[(*config)[0].getInteger()];
  }
  // Log-uniform: the geometric middle of [1, 10^4] is 100.
  EXPECT_NEAR(belowHundred / double(samples), 0.5, 0.04);
  // Rejection keeps the joint distribution uniform: P(n) is proportional to
  // the feasible length of x, 1/n (weights 12:6:4:3 out of 25).
  EXPECT_NEAR(perN[1] / double(samples), 12.0 / 25, 0.03);
  EXPECT_NEAR(perN[4] / double(samples), 3.0 / 25, 0.03);
  EXPECT_FALSE(chain.contains(Config({I(4), R(0.5), R(1)})));
  EXPECT_FALSE(chain.contains(Config({I(1), R(0.5), R(0.5)})));

  Space impossible;
  add(impossible, Parameter::real("x", 0, 1));
  constrain(impossible, "x > 2");
  ChainOfTrees none = buildOrFail(impossible);
  llvm::Expected<Config> failed = none.sample(rng);
  ASSERT_FALSE(bool(failed));
  EXPECT_EQ(llvm::toString(failed.takeError()),
            "cannot sample: 10000 random configs in a row violate 'x > 2'");
}

/// The message of ChainOfTrees::build's error on `space`, or "" (and a test
/// failure) when it builds.
std::string buildError(const Space &space) {
  llvm::Expected<ChainOfTrees> chain = ChainOfTrees::build(space);
  if (chain) {
    ADD_FAILURE() << "the chain was built, count " << decimal(chain->count());
    return "";
  }
  return llvm::toString(chain.takeError());
}

TEST(ChainOfTrees, EmptySpacesAreErrors) {
  // One constraint that no value satisfies: the error names the group's
  // parameters and quotes its constraints.
  Space space;
  add(space, Parameter::integer("a", 1, 10));
  add(space, Parameter::boolean("v"));
  constrain(space, "a > 100");
  EXPECT_EQ(buildError(space), "the space has no feasible config: no values "
                               "of {'a'} satisfy 'a > 100'");

  // Constraints that are satisfiable alone but not together, in a group of
  // three parameters; a feasible group beside it is not named.
  Space together;
  add(together, ordinal("x", {1, 2, 4, 8}));
  add(together, ordinal("y", {1, 2, 4, 8}));
  add(together, Parameter::integer("z", 0, 3));
  add(together, Parameter::integer("free", 0, 3));
  constrain(together, "free <= 2");
  constrain(together, "x * y >= 32");
  constrain(together, "x + y + z <= 10");
  EXPECT_EQ(buildError(together),
            "the space has no feasible config: no values of {'x', 'y', 'z'} "
            "satisfy 'x * y >= 32', 'x + y + z <= 10'");

  // A constraint that reads no parameter and is false.
  Space constant;
  add(constant, Parameter::integer("a", 1, 10));
  constrain(constant, "1 > 2");
  constrain(constant, "2 > 1");
  constrain(constant, "3 < 1 + 1");
  EXPECT_EQ(buildError(constant), "the space has no feasible config: the "
                                  "constraints '1 > 2', '3 < 1 + 1' are always "
                                  "false");

  // Satisfiable: a true constant, a tight but feasible group, no parameter.
  Space trivial;
  add(trivial, Parameter::integer("a", 1, 10));
  constrain(trivial, "2 > 1");
  EXPECT_EQ(buildOrFail(trivial).count(), 10u);

  Space tight;
  add(tight, ordinal("x", {1, 2, 4, 8}));
  add(tight, ordinal("y", {1, 2, 4, 8}));
  constrain(tight, "x * y >= 64");
  ChainOfTrees tightChain = buildOrFail(tight);
  EXPECT_EQ(tightChain.count(), 1u);
  EXPECT_EQ(tightChain.countString(), "1");
  EXPECT_EQ(tightChain.at(APInt(64, 0)), Config({I(8), I(8)}));

  Space nothing;
  ChainOfTrees nothingChain = buildOrFail(nothing);
  EXPECT_EQ(nothingChain.count(), 1u);
  EXPECT_EQ(nothingChain.at(APInt(64, 0)), Config());
  EXPECT_TRUE(nothingChain.contains(Config()));
}

TEST(ChainOfTrees, EmptyGroupsTooLargeToEnumerateAreErrors) {
  // Enumeration gives up, rejection finds nothing: still an error.
  Space wide;
  add(wide, Parameter::integer("a", 0, 999));
  add(wide, Parameter::integer("b", 0, 999));
  constrain(wide, "a + b > 5000");
  ChainOfTrees::Options options;
  options.maxNodesPerTree = 100;
  llvm::Expected<ChainOfTrees> chain = ChainOfTrees::build(wide, options);
  ASSERT_FALSE(bool(chain));
  EXPECT_NE(llvm::toString(chain.takeError()).find("no feasible config"),
            std::string::npos);
}

} // namespace
