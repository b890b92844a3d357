//===- SpaceTest.cpp - Parameters, values, configs, spaces, JSON ----------===//

#include "tuner/Space/ChainOfTrees.h"
#include "tuner/Space/Space.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "ErrorMessage.h"

#include "gtest/gtest.h"

using namespace tuner;
using tuner::test::message;
using llvm::StringRef;
namespace json = llvm::json;

namespace {

#define ASSERT_OK(expr)                                                        \
  do {                                                                         \
    std::string msg_ = message(expr);                                          \
    ASSERT_EQ(msg_, "");                                                       \
  } while (false)

ParamValue I(int64_t v) { return ParamValue::integer(v); }
ParamValue R(double v) { return ParamValue::real(v); }
ParamValue B(bool v) { return ParamValue::boolean(v); }
ParamValue S(std::string v) { return ParamValue::string(std::move(v)); }
ParamValue P(ParamValue::Permutation v) {
  return ParamValue::permutation(std::move(v));
}

/// Every value of a discrete parameter round-trips through valueAt/indexOf.
void expectIndexRoundTrip(const Parameter &p) {
  uint64_t size = *p.domainSize();
  for (uint64_t i = 0; i < size; ++i) {
    ParamValue v = p.valueAt(i);
    EXPECT_TRUE(p.contains(v)) << p.name << " " << v.str();
    EXPECT_EQ(p.indexOf(v), std::optional<uint64_t>(i)) << v.str();
  }
}

TEST(ParamValue, StrAndJSON) {
  EXPECT_EQ(I(32).str(), "32");
  EXPECT_EQ(I(-5).str(), "-5");
  EXPECT_EQ(R(0.5).str(), "0.5");
  EXPECT_EQ(R(2).str(), "2.0");
  EXPECT_EQ(R(0.1).str(), "0.1");
  EXPECT_EQ(R(1e-20).str(), "1e-20");
  EXPECT_EQ(B(true).str(), "true");
  EXPECT_EQ(S("nchw").str(), "\"nchw\"");
  EXPECT_EQ(S("a\"b").str(), "\"a\\\"b\"");
  EXPECT_EQ(P({1, 0, 2}).str(), "[1, 0, 2]");
  EXPECT_EQ(llvm::formatv("{0}", P({1, 0, 2}).toJSON()).str(), "[1,0,2]");
  EXPECT_EQ(I(3).toJSON(), json::Value(3));
  EXPECT_EQ(S("x").toJSON(), json::Value("x"));
  EXPECT_EQ(B(false).toJSON(), json::Value(false));
  EXPECT_DOUBLE_EQ(B(true).asNumber(), 1.0);
  EXPECT_DOUBLE_EQ(I(7).asNumber(), 7.0);
}

TEST(ParamValue, Hash) {
  EXPECT_EQ(I(4).hash(), I(4).hash());
  EXPECT_NE(I(4).hash(), I(5).hash());
  EXPECT_NE(I(1).hash(), R(1).hash());
  EXPECT_NE(I(1).hash(), B(true).hash());
  EXPECT_EQ(R(0.0).hash(), R(-0.0).hash());
  EXPECT_NE(S("ab").hash(), S("ba").hash());
  EXPECT_NE(P({0, 1}).hash(), P({1, 0}).hash());
  Config a({I(1), S("x"), P({1, 0})}), b({I(1), S("x"), P({1, 0})});
  Config c({I(1), S("x"), P({0, 1})});
  EXPECT_EQ(a.hash(), b.hash());
  EXPECT_NE(a.hash(), c.hash());
  // Concatenation ambiguity: ["ab", ""] vs ["a", "b"].
  EXPECT_NE(Config({S("ab"), S("")}).hash(), Config({S("a"), S("b")}).hash());
  // Pinned: the hash is a function of the value alone, the same in every run
  // and build (xxh3 over a tagged little-endian encoding).
  EXPECT_EQ(Config({I(7), B(false)}).hash(), 0x341ae2543141cf88ULL)
      << std::hex << Config({I(7), B(false)}).hash();
}

TEST(Parameter, Ordinal) {
  Parameter p = Parameter::ordinal("t", {I(1), I(2), I(4), I(8)}, true);
  EXPECT_EQ(p.domainSize(), std::optional<uint64_t>(4));
  EXPECT_EQ(p.valueAt(2), I(4));
  EXPECT_EQ(p.indexOf(I(8)), std::optional<uint64_t>(3));
  EXPECT_EQ(p.indexOf(I(3)), std::nullopt);
  EXPECT_EQ(p.indexOf(R(4)), std::nullopt); // wrong type
  EXPECT_FALSE(p.isRealOrdinal());
  expectIndexRoundTrip(p);
  EXPECT_EQ(p.fallbackValue(), I(1));

  Parameter r = Parameter::ordinal("r", {R(0.25), R(0.5), R(1.0)});
  EXPECT_TRUE(r.isRealOrdinal());
  EXPECT_EQ(r.indexOf(R(0.5)), std::optional<uint64_t>(1));
  EXPECT_FALSE(r.contains(I(1)));
  expectIndexRoundTrip(r);
}

TEST(Parameter, Integer) {
  Parameter p = Parameter::integer("u", -3, 4);
  EXPECT_EQ(p.domainSize(), std::optional<uint64_t>(8));
  EXPECT_EQ(p.valueAt(0), I(-3));
  EXPECT_EQ(p.valueAt(7), I(4));
  EXPECT_EQ(p.indexOf(I(0)), std::optional<uint64_t>(3));
  EXPECT_EQ(p.indexOf(I(5)), std::nullopt);
  EXPECT_FALSE(p.contains(R(0)));
  expectIndexRoundTrip(p);
  const int64_t limit = int64_t(1) << 53;
  Parameter wide = Parameter::integer("w", -limit, limit);
  EXPECT_EQ(wide.domainSize(), std::optional<uint64_t>((1ULL << 54) + 1));
  EXPECT_EQ(wide.valueAt(1ULL << 54), I(limit));
  EXPECT_EQ(wide.indexOf(I(0)), std::optional<uint64_t>(1ULL << 53));
  Space space;
  llvm::Error ok = space.addParameter(wide);
  EXPECT_FALSE(bool(ok)) << llvm::toString(std::move(ok));
  EXPECT_EQ(message(space.addParameter(Parameter::integer("v", 0, limit + 2))),
            "parameter 'v': integer bounds must be integers in [-2^53, 2^53], "
            "got [0.0, 9007199254740994.0]");
}

TEST(Parameter, Real) {
  Parameter p = Parameter::real("x", 0.5, 2.0);
  EXPECT_EQ(p.domainSize(), std::nullopt);
  EXPECT_TRUE(p.contains(R(0.5)));
  EXPECT_TRUE(p.contains(R(2.0)));
  EXPECT_FALSE(p.contains(R(2.5)));
  EXPECT_FALSE(p.contains(I(1)));
  EXPECT_EQ(p.indexOf(R(1.0)), std::nullopt);
  EXPECT_EQ(p.fallbackValue(), R(0.5));
}

TEST(Parameter, CategoricalAndBoolean) {
  Parameter c = Parameter::categorical("layout", {"nchw", "nhwc", "chwn"});
  EXPECT_EQ(c.domainSize(), std::optional<uint64_t>(3));
  EXPECT_EQ(c.valueAt(1), S("nhwc"));
  EXPECT_EQ(c.indexOf(S("chwn")), std::optional<uint64_t>(2));
  EXPECT_EQ(c.indexOf(S("hwcn")), std::nullopt);
  expectIndexRoundTrip(c);

  Parameter b = Parameter::boolean("vec");
  EXPECT_EQ(b.domainSize(), std::optional<uint64_t>(2));
  EXPECT_EQ(b.valueAt(0), B(false));
  EXPECT_EQ(b.valueAt(1), B(true));
  EXPECT_FALSE(b.contains(I(1)));
  expectIndexRoundTrip(b);
}

TEST(Parameter, Permutation) {
  Parameter p = Parameter::permutation("order", 3);
  EXPECT_EQ(p.domainSize(), std::optional<uint64_t>(6));
  std::vector<ParamValue::Permutation> lexicographic = {
      {0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  for (size_t i = 0; i < lexicographic.size(); ++i)
    EXPECT_EQ(p.valueAt(i), P(lexicographic[i]));
  expectIndexRoundTrip(p);
  EXPECT_FALSE(p.contains(P({0, 0, 1})));
  EXPECT_FALSE(p.contains(P({0, 1})));
  EXPECT_FALSE(p.contains(P({0, 1, 3})));

  Parameter big = Parameter::permutation("big", 20);
  EXPECT_EQ(big.domainSize(), std::optional<uint64_t>(2432902008176640000ULL));
  ParamValue last = big.valueAt(2432902008176640000ULL - 1);
  EXPECT_EQ(last.getPermutation().front(), 19);
  EXPECT_EQ(big.indexOf(last),
            std::optional<uint64_t>(2432902008176640000ULL - 1));

  Parameter listed = Parameter::permutation("l", 3, {{2, 1, 0}, {0, 1, 2}});
  EXPECT_EQ(listed.domainSize(), std::optional<uint64_t>(2));
  EXPECT_EQ(listed.valueAt(0), P({2, 1, 0}));
  EXPECT_EQ(listed.indexOf(P({0, 1, 2})), std::optional<uint64_t>(1));
  EXPECT_FALSE(listed.contains(P({1, 0, 2})));
  expectIndexRoundTrip(listed);
}

TEST(Parameter, DescribeDomain) {
  EXPECT_EQ(Parameter::ordinal("o", {I(1), I(2), I(4)}).describeDomain(),
            "one of [1, 2, 4]");
  EXPECT_EQ(Parameter::integer("i", 0, 3).describeDomain(), "in [0, 3]");
  EXPECT_EQ(Parameter::real("r", 0.5, 2).describeDomain(), "in [0.5, 2.0]");
  EXPECT_EQ(Parameter::categorical("c", {"a", "b"}).describeDomain(),
            "one of [\"a\", \"b\"]");
  EXPECT_EQ(Parameter::boolean("b").describeDomain(), "false or true");
  EXPECT_EQ(Parameter::permutation("p", 3).describeDomain(),
            "a permutation of 0..2");
  EXPECT_EQ(Parameter::permutation("p", 2, {{1, 0}}).describeDomain(),
            "one of the allowed permutations [[1, 0]]");
}

TEST(Parameter, SameDomain) {
  // Kinds and values are compared; names, scales and defaults are not.
  Parameter ordinal = Parameter::ordinal("a", {I(1), I(2), I(4)});
  Parameter logOrdinal =
      Parameter::ordinal("b", {I(1), I(2), I(4)}, /*logScale=*/true);
  logOrdinal.defaultValue = I(4);
  EXPECT_TRUE(ordinal.sameDomain(logOrdinal));
  EXPECT_FALSE(ordinal.sameDomain(Parameter::ordinal("a", {I(1), I(2)})));
  EXPECT_FALSE(ordinal.sameDomain(Parameter::ordinal("a", {I(1), I(2), I(8)})));
  EXPECT_FALSE(ordinal.sameDomain(Parameter::ordinal("a", {R(1), R(2), R(4)})));
  EXPECT_FALSE(ordinal.sameDomain(Parameter::integer("a", 1, 4)));

  EXPECT_TRUE(
      Parameter::integer("a", 0, 2).sameDomain(Parameter::integer("b", 0, 2)));
  EXPECT_FALSE(
      Parameter::integer("a", 0, 2).sameDomain(Parameter::integer("a", 0, 3)));
  EXPECT_FALSE(
      Parameter::real("a", 0, 1).sameDomain(Parameter::real("a", 0, 2)));
  EXPECT_TRUE(Parameter::boolean("a").sameDomain(Parameter::boolean("b")));
  EXPECT_FALSE(
      Parameter::boolean("a").sameDomain(Parameter::integer("a", 0, 1)));

  // Categorical choices and allowed permutations in any order.
  EXPECT_TRUE(Parameter::categorical("c", {"x", "y"})
                  .sameDomain(Parameter::categorical("c", {"y", "x"})));
  EXPECT_FALSE(Parameter::categorical("c", {"x", "y"})
                   .sameDomain(Parameter::categorical("c", {"x", "z"})));
  Parameter listed = Parameter::permutation("p", 2, {{1, 0}, {0, 1}});
  EXPECT_TRUE(listed.sameDomain(Parameter::permutation("p", 2)));
  EXPECT_TRUE(Parameter::permutation("p", 2).sameDomain(listed));
  EXPECT_TRUE(
      listed.sameDomain(Parameter::permutation("p", 2, {{0, 1}, {1, 0}})));
  EXPECT_FALSE(listed.sameDomain(Parameter::permutation("p", 2, {{0, 1}})));
  EXPECT_FALSE(
      Parameter::permutation("p", 3, {{0, 1, 2}, {1, 0, 2}})
          .sameDomain(Parameter::permutation("p", 3, {{0, 1, 2}, {2, 1, 0}})));
  EXPECT_FALSE(Parameter::permutation("p", 2).sameDomain(
      Parameter::permutation("p", 3)));
}

TEST(Space, AddParameterValidation) {
  Space space;
  ASSERT_OK(space.addParameter(Parameter::integer("a", 1, 4)));
  auto fails = [&](Parameter p, StringRef expected) {
    std::string m = message(space.addParameter(std::move(p)));
    EXPECT_NE(m.find(expected.str()), std::string::npos)
        << "got: " << m << "\nwanted: " << expected.str();
  };
  fails(Parameter::integer("a", 1, 2), "duplicate parameter 'a'");
  fails(Parameter::integer("1a", 1, 2), "invalid parameter name '1a'");
  fails(Parameter::integer("a-b", 1, 2), "invalid parameter name 'a-b'");
  fails(Parameter::boolean("true"), "invalid parameter name 'true'");
  fails(Parameter::integer("r", 5, 2),
        "parameter 'r': lower bound 5 is above upper bound 2");
  fails(Parameter::integer("l", 0, 8, true),
        "parameter 'l': log scale needs a positive lower bound, got 0");
  fails(Parameter::ordinal("o", {I(1), I(4), I(2)}),
        "parameter 'o': ordinal values must be sorted and distinct (2 follows "
        "4)");
  fails(Parameter::ordinal("o", {I(1), I(1)}), "sorted and distinct");
  fails(Parameter::ordinal("o", {}), "at least one value");
  fails(Parameter::ordinal("o", {I(1), R(2)}), "all integers or all reals");
  fails(Parameter::ordinal("o", {I(0), I(2)}, true),
        "log scale needs positive values, got 0");
  fails(Parameter::categorical("c", {"x", "x"}), "choice \"x\" appears twice");
  fails(Parameter::categorical("c", {}), "at least one choice");
  Parameter logCat = Parameter::categorical("c", {"x"});
  logCat.logScale = true;
  fails(logCat, "log scale applies only to");
  fails(Parameter::permutation("p", 3, {{0, 1, 1}}),
        "allowed permutation [0, 1, 1] is not a permutation of 0..2");
  fails(Parameter::permutation("p", 3, {{0, 1, 2}, {0, 1, 2}}),
        "appears twice");
  fails(Parameter::permutation("p", 0), "size must be at least 1");
  fails(Parameter::permutation("p", 21), "list the allowed permutations");
  fails(Parameter::real("x", 1, std::nan("")), "must be finite");
  Parameter withDefault = Parameter::ordinal("d", {I(1), I(2)});
  withDefault.defaultValue = I(3);
  fails(withDefault, "parameter 'd': default value 3 is not one of [1, 2]");
  EXPECT_EQ(space.size(), 1u);
  // A permutation larger than 20 is fine with an explicit list.
  ASSERT_OK(
      space.addParameter(Parameter::permutation("p30", 30, {[] {
                                                  ParamValue::Permutation p(30);
                                                  for (int i = 0; i < 30; ++i)
                                                    p[i] = 29 - i;
                                                  return p;
                                                }()})));
}

/// A space with every kind, defaults, attributes and constraints.
Space everyKindSpace() {
  Space space;
  space.attributes["workload"] = "matmul 64x64x64";
  Parameter tile = Parameter::ordinal(
      "matmul_0.tile.l0", {I(1), I(2), I(4), I(8), I(16), I(32), I(64)},
      /*logScale=*/true);
  tile.defaultValue = I(64);
  tile.description = "cache tile of loop 0";
  tile.role = ParamRole::Tile;
  tile.nest = "0";
  tile.loop = 0;
  tile.attributes = {{"note", "free-form"}};
  EXPECT_EQ(message(space.addParameter(tile)), "");
  EXPECT_EQ(message(space.addParameter(
                Parameter::ordinal("alpha", {R(0.25), R(0.5), R(1.0)}))),
            "");
  EXPECT_EQ(message(space.addParameter(
                Parameter::ordinal("whole", {R(1.0), R(2.0)}))),
            "");
  EXPECT_EQ(
      message(space.addParameter(Parameter::integer("unroll", 1, 16, true))),
      "");
  EXPECT_EQ(message(space.addParameter(Parameter::real("ratio", 0.0, 2.5))),
            "");
  EXPECT_EQ(message(space.addParameter(
                Parameter::categorical("layout", {"nchw", "nhwc"}))),
            "");
  Parameter vec = Parameter::boolean("vec");
  vec.defaultValue = B(false);
  EXPECT_EQ(message(space.addParameter(vec)), "");
  EXPECT_EQ(message(space.addParameter(Parameter::permutation("order", 3))),
            "");
  EXPECT_EQ(message(space.addParameter(
                Parameter::permutation("order2", 2, {{1, 0}}))),
            "");
  EXPECT_EQ(message(space.addConstraint("matmul_0.tile.l0 % unroll == 0")), "");
  EXPECT_EQ(message(space.addConstraint(
                "layout == \"nchw\" || order[0] != 2 && vec")),
            "");
  EXPECT_EQ(message(space.addConstraint("ratio * alpha <= 2")), "");
  return space;
}

TEST(Space, JSONRoundTrip) {
  Space space = everyKindSpace();
  json::Value first = space.toJSON();
  llvm::Expected<Space> copy = Space::fromJSON(first);
  ASSERT_OK(copy);
  EXPECT_EQ(copy->toJSON(), first);
  ASSERT_EQ(copy->size(), space.size());
  for (size_t i = 0; i < space.size(); ++i) {
    const Parameter &a = space[i], &b = (*copy)[i];
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.kind, b.kind);
    EXPECT_EQ(a.values, b.values) << a.name;
    EXPECT_EQ(a.logScale, b.logScale);
    EXPECT_EQ(a.lower, b.lower);
    EXPECT_EQ(a.upper, b.upper);
    EXPECT_EQ(a.permutationSize, b.permutationSize);
    EXPECT_EQ(a.allowedPermutations, b.allowedPermutations);
    EXPECT_EQ(a.defaultValue, b.defaultValue);
    EXPECT_EQ(a.description, b.description);
    EXPECT_EQ(a.role, b.role) << a.name;
    EXPECT_EQ(a.nest, b.nest) << a.name;
    EXPECT_EQ(a.loop, b.loop) << a.name;
    EXPECT_EQ(a.producer, b.producer) << a.name;
    EXPECT_EQ(a.consumer, b.consumer) << a.name;
    EXPECT_EQ(a.attributes, b.attributes) << a.name;
  }
  // A real ordinal with integral values stays real.
  EXPECT_TRUE((*copy)[2].isRealOrdinal());
  EXPECT_EQ(copy->attributes, space.attributes);
  ASSERT_EQ(copy->getConstraints().size(), 3u);
  EXPECT_EQ(copy->getConstraints()[1].getText(),
            "layout == \"nchw\" || order[0] != 2 && vec");

  // Through a file, atomically: no temporary is left beside it.
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("space-test", dir));
  llvm::SmallString<128> path(dir);
  llvm::sys::path::append(path, "space.json");
  ASSERT_OK(space.writeFile(path));
  llvm::Expected<Space> read = Space::readFile(path);
  ASSERT_OK(read);
  EXPECT_EQ(read->toJSON(), first);
  std::error_code ec;
  int entries = 0;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec))
    ++entries;
  EXPECT_EQ(entries, 1);
  llvm::sys::fs::remove(path);
  llvm::sys::fs::remove(dir);
}

TEST(Space, Fingerprint) {
  Space space = everyKindSpace();
  std::string fingerprint = space.fingerprint();
  // 16 hex digits, as the tuning database stores it.
  EXPECT_EQ(fingerprint.size(), 16u) << fingerprint;
  EXPECT_TRUE(llvm::all_of(fingerprint, llvm::isHexDigit)) << fingerprint;
  // The same space, read back or described otherwise, is the same.
  llvm::Expected<Space> copy = Space::fromJSON(space.toJSON());
  ASSERT_OK(copy);
  EXPECT_EQ(copy->fingerprint(), fingerprint);
  copy->attributes["size"] = "12345";
  EXPECT_EQ(copy->fingerprint(), fingerprint);
  // Another parameter is another space.
  ASSERT_OK(copy->addParameter(Parameter::boolean("parallel")));
  EXPECT_NE(copy->fingerprint(), fingerprint);
}

TEST(Space, JSONErrors) {
  auto error = [](StringRef text) {
    llvm::Expected<json::Value> json = json::parse(text);
    EXPECT_TRUE(bool(json)) << text.str();
    if (!json) {
      llvm::consumeError(json.takeError());
      return std::string();
    }
    llvm::Expected<Space> space = Space::fromJSON(*json);
    EXPECT_FALSE(bool(space)) << text.str();
    return message(space);
  };
  EXPECT_EQ(error(R"({"version": 2, "parameters": []})"),
            "space: unsupported version 2 (this build reads version 1)");
  EXPECT_EQ(error(R"({"parameters": []})"),
            "space: field 'version' is missing");
  EXPECT_EQ(error(R"([1])"), "space: expected a JSON object");
  EXPECT_EQ(error(R"({"version": 1})"),
            "space: field 'parameters' is missing or not an array");
  EXPECT_EQ(error(R"({"version": 1, "parameters": [], "extra": 1})"),
            "space: unknown field 'extra' (known: version, attributes, "
            "parameters, constraints)");
  EXPECT_EQ(error(R"({"version": 1, "parameters": [{"kind": "boolean"}]})"),
            "parameters[0]: field 'name' is missing or not a string");
  EXPECT_EQ(
      error(R"({"version": 1, "parameters": [{"name": "a", "kind": "int"}]})"),
      "parameter 'a': unknown kind 'int' (known: ordinal, integer, real, "
      "categorical, boolean, permutation)");
  EXPECT_EQ(error(R"({"version": 1, "parameters": [{"name": "a",
      "kind": "integer", "lower": 1.5, "upper": 4}]})"),
            "parameter 'a': field 'lower' must be an integer");
  EXPECT_EQ(error(R"({"version": 1, "parameters": [{"name": "a",
      "kind": "integer", "lowr": 1, "upper": 4}]})"),
            "parameter 'a': unknown field 'lowr' (known: name, kind, default, "
            "description, attributes, lower, upper, log)");
  EXPECT_EQ(error(R"({"version": 1, "parameters": [{"name": "a",
      "kind": "ordinal", "values": [1, "x"]}]})"),
            "parameter 'a': field 'values' must be an array of numbers, got "
            "\"x\"");
  EXPECT_EQ(error(R"({"version": 1, "parameters": [{"name": "a",
      "kind": "ordinal", "values": [1, 2], "default": 3}]})"),
            "parameter 'a': default value 3 is not one of [1, 2]");
  EXPECT_EQ(error(R"({"version": 1, "parameters": [{"name": "a",
      "kind": "boolean", "default": 1}]})"),
            "parameter 'a': default value 1 is not a boolean");
  EXPECT_EQ(error(R"({"version": 1, "parameters": [{"name": "p",
      "kind": "permutation", "size": 2, "allowed": [[0, 1], [0]]}]})"),
            "parameter 'p': allowed permutation [0] is not a permutation of "
            "0..1");
  std::string bad = error(R"({"version": 1, "parameters": [{"name": "a",
      "kind": "boolean"}], "constraints": ["a &&"]})");
  EXPECT_EQ(bad.substr(0, bad.find('\n')),
            "constraint 'a &&', column 5: unexpected end of the constraint; "
            "expected an expression");
  // Reading infers a real ordinal from a non-integral value.
  llvm::Expected<Space> inferred = Space::fromJSON(*json::parse(
      R"({"version": 1, "parameters": [{"name": "a", "kind": "ordinal",
          "values": [1, 2.5]}]})"));
  ASSERT_OK(inferred);
  EXPECT_EQ((*inferred)[0].values, (std::vector<ParamValue>{R(1), R(2.5)}));
}

TEST(Space, ReadJSONFileErrors) {
  llvm::Expected<json::Value> missing =
      readJSONFile("/nonexistent/dir/space.json");
  EXPECT_NE(message(missing).find("cannot read '/nonexistent/dir/space.json'"),
            std::string::npos);

  llvm::SmallString<128> path;
  int fd;
  ASSERT_FALSE(
      llvm::sys::fs::createTemporaryFile("space-test", "json", fd, path));
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << "{\n  \"version\": 1,\n  \"parameters\": [,]\n}\n";
  }
  llvm::Expected<json::Value> bad = readJSONFile(path);
  std::string m = message(bad);
  EXPECT_NE(m.find(path.str().str() + ": invalid JSON"), std::string::npos)
      << m;
  EXPECT_NE(m.find("3:"), std::string::npos) << m; // line 3
  llvm::sys::fs::remove(path);

  EXPECT_NE(message(writeJSONFile("/nonexistent/dir/out.json", json::Value(1)))
                .find("cannot write '/nonexistent/dir/out.json'"),
            std::string::npos);
}

TEST(Config, JSON) {
  Space space;
  ASSERT_OK(space.addParameter(Parameter::ordinal(
      "matmul_0.tile.l0", {I(1), I(2), I(4), I(8), I(16), I(32), I(64)})));
  ASSERT_OK(space.addParameter(Parameter::real("x", 0, 1)));
  ASSERT_OK(space.addParameter(Parameter::categorical("c", {"a", "b"})));
  Parameter vec = Parameter::boolean("vec");
  vec.defaultValue = B(true);
  ASSERT_OK(space.addParameter(vec));
  ASSERT_OK(space.addParameter(Parameter::permutation("p", 3)));

  Config config({I(16), R(0.5), S("b"), B(false), P({2, 0, 1})});
  json::Value json = config.toJSON(space);
  EXPECT_EQ(
      llvm::formatv("{0}", json).str(),
      R"({"c":"b","matmul_0.tile.l0":16,"p":[2,0,1],"vec":false,"x":0.5})");
  llvm::Expected<Config> back = Config::fromJSON(space, json);
  ASSERT_OK(back);
  EXPECT_EQ(*back, config);
  EXPECT_EQ(back->hash(), config.hash());

  auto error = [&](StringRef text, bool allowMissing = false) {
    llvm::Expected<Config> c =
        Config::fromJSON(space, *json::parse(text), allowMissing);
    EXPECT_FALSE(bool(c)) << text.str();
    return message(c);
  };
  EXPECT_EQ(
      error(
          R"({"c":"b","matmul_0.tile.l0":48,"p":[2,0,1],"vec":false,"x":0.5})"),
      "parameter 'matmul_0.tile.l0': value 48 is not one of [1, 2, 4, 8, "
      "16, 32, 64]");
  EXPECT_EQ(
      error(
          R"({"c":"z","matmul_0.tile.l0":4,"p":[2,0,1],"vec":false,"x":0.5})"),
      "parameter 'c': value \"z\" is not one of [\"a\", \"b\"]");
  EXPECT_EQ(
      error(
          R"({"c":"a","matmul_0.tile.l0":4,"p":[2,0,1],"vec":false,"x":1.5})"),
      "parameter 'x': value 1.5 is not in [0.0, 1.0]");
  EXPECT_EQ(
      error(R"({"c":"a","matmul_0.tile.l0":4,"p":[2,0,0],"vec":false,"x":1})"),
      "parameter 'p': value [2, 0, 0] is not a permutation of 0..2");
  EXPECT_EQ(
      error(R"({"c":"a","matmul_0.tile.l0":4,"p":[2,0,1],"vec":1,"x":1})"),
      "parameter 'vec': value 1 is not a boolean");
  EXPECT_EQ(
      error(R"({"c":"a","matmul_0.tile.l0":"4","p":[2,0,1],"vec":true,"x":1})"),
      "parameter 'matmul_0.tile.l0': value \"4\" is not an integer");
  EXPECT_EQ(
      error(
          R"({"c":"a","matmul_0.tile.l0":4,"p":[2,0,1],"vec":true,"x":1,"y":2})"),
      "config: unknown parameter 'y'");
  EXPECT_EQ(error(R"({"c":"a","matmul_0.tile.l0":4,"p":[2,0,1],"x":1})"),
            "config: parameter 'vec' is missing");
  EXPECT_EQ(error(R"({"c":"a","matmul_0.tile.l0":4,"vec":true,"x":1})", true),
            "config: parameter 'p' is missing (and has no default)");
  EXPECT_EQ(error("[1]"), "config: expected an object {\"parameter\": value, "
                          "...}, got [1]");
  // An integral JSON number is a fine real; a missing parameter with a
  // default is filled in when allowed.
  llvm::Expected<Config> filled = Config::fromJSON(
      space,
      *json::parse(R"({"c":"a","matmul_0.tile.l0":4,"p":[0,1,2],"x":1})"),
      /*allowMissing=*/true);
  ASSERT_OK(filled);
  EXPECT_EQ((*filled)[1], R(1.0));
  EXPECT_EQ((*filled)[3], B(true));
}

TEST(Space, CheckAndDefaults) {
  Space space;
  ASSERT_OK(space.addParameter(Parameter::integer("a", 1, 8)));
  Parameter b = Parameter::integer("b", 1, 8);
  b.defaultValue = I(3);
  ASSERT_OK(space.addParameter(b));
  ASSERT_OK(space.addParameter(Parameter::boolean("unused")));
  ASSERT_OK(space.addConstraint("a <= b"));
  EXPECT_EQ(space.indexOf("b"), std::optional<size_t>(1));
  EXPECT_EQ(space.indexOf("c"), std::nullopt);

  EXPECT_EQ(space.defaultConfig(), Config({I(1), I(3), B(false)}));
  EXPECT_EQ(message(space.check(Config({I(2), I(2), B(true)}))), "");
  EXPECT_EQ(message(space.check(Config({I(4), I(2), B(true)}))),
            "constraint 'a <= b' is violated with a = 4, b = 2");
  EXPECT_EQ(message(space.check(Config({I(9), I(2), B(true)}))),
            "parameter 'a': value 9 is not in [1, 8]");
  EXPECT_EQ(message(space.check(Config({I(1), I(2)}))),
            "config has 2 values but the space has 3 parameters");
}

} // namespace

namespace {

tuner::Space narrowTestSpace(std::vector<int64_t> tiles, bool withOrder) {
  using namespace tuner;
  Space space;
  std::vector<ParamValue> values;
  for (int64_t v : tiles)
    values.push_back(ParamValue::integer(v));
  Parameter tile = Parameter::ordinal("t", values);
  tile.role = ParamRole::Tile;
  tile.nest = "n";
  tile.loop = 0;
  cantFail(space.addParameter(tile));
  cantFail(space.addParameter(Parameter::categorical("m", {"a", "b", "c"})));
  if (withOrder)
    cantFail(space.addParameter(Parameter::permutation("o", 3)));
  return space;
}

} // namespace

TEST(NarrowSpace, KeepsRolesAndEveryConstraint) {
  using namespace tuner;
  Space full = narrowTestSpace({1, 2, 4, 8}, true);
  cantFail(full.addConstraint("t <= 4 || m == \"a\""));
  // The file's parameters lost their roles (a hand-written file) and add a
  // constraint of their own.
  Parameter loose = Parameter::ordinal(
      "t", {ParamValue::integer(2), ParamValue::integer(8)});
  Space edited;
  cantFail(edited.addParameter(Parameter::permutation("o", 3)));
  cantFail(edited.addParameter(loose));
  cantFail(edited.addParameter(Parameter::categorical("m", {"c", "a"})));
  cantFail(edited.addConstraint("m != \"c\" || t == 2"));
  Space narrowed = cantFail(narrowSpace(full, edited));
  ASSERT_EQ(narrowed.size(), 3u);
  EXPECT_EQ(narrowed[0].name, "t"); // The function's order.
  EXPECT_EQ(narrowed[0].role, ParamRole::Tile);
  EXPECT_EQ(narrowed[0].nest, "n");
  ASSERT_EQ(narrowed.getConstraints().size(), 2u);
  ChainOfTrees chain = cantFail(ChainOfTrees::build(narrowed));
  // t in {2, 8} x m in {c, a} x 6 orders, less t = 8 with m = c (mine) and
  // nothing more from the full space's rule (8 needs m == a): 3 * 6.
  EXPECT_EQ(chain.count().getZExtValue(), 18u);
}

TEST(NarrowSpace, RefusesWiderMissingOrUnknownParameters) {
  using namespace tuner;
  Space full = narrowTestSpace({1, 2, 4}, false);
  auto message = [](llvm::Expected<Space> s) {
    EXPECT_FALSE(bool(s));
    return s ? std::string() : llvm::toString(s.takeError());
  };
  EXPECT_EQ(message(narrowSpace(full, narrowTestSpace({2, 16}, false))),
            "parameter 't': one of [2, 16] is not inside its domain, one of "
            "[1, 2, 4]");
  Space missing;
  cantFail(missing.addParameter(Parameter::ordinal("t", {ParamValue::integer(2)})));
  EXPECT_NE(message(narrowSpace(full, missing)).find("parameter 'm' is missing"),
            std::string::npos);
  EXPECT_EQ(message(narrowSpace(full, narrowTestSpace({2}, true))),
            "parameter 'o' is not in the space");
  Space kind;
  cantFail(kind.addParameter(Parameter::integer("t", 1, 4)));
  cantFail(kind.addParameter(Parameter::categorical("m", {"a"})));
  EXPECT_NE(message(narrowSpace(full, kind)).find("parameter 't'"),
            std::string::npos);
}
