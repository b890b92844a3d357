//===- ConstraintTest.cpp - Constraint parsing and evaluation -------------===//

#include "tuner/Space/Space.h"

#include "gtest/gtest.h"

using namespace tuner;
using llvm::StringRef;

namespace {

ParamValue I(int64_t v) { return ParamValue::integer(v); }
ParamValue R(double v) { return ParamValue::real(v); }
ParamValue B(bool v) { return ParamValue::boolean(v); }
ParamValue S(std::string v) { return ParamValue::string(std::move(v)); }
ParamValue P(ParamValue::Permutation v) {
  return ParamValue::permutation(std::move(v));
}

/// a, b, c: integers; x: real; s: categorical; v: boolean; p: permutation
/// of 4; m.n_1: integer (dotted name); r: real ordinal.
class ConstraintTest : public ::testing::Test {
protected:
  void SetUp() override {
    for (const char *name : {"a", "b", "c"})
      add(Parameter::integer(name, -100, 100));
    add(Parameter::real("x", -10, 10));
    add(Parameter::categorical("s", {"nchw", "nhwc", "x"}));
    add(Parameter::boolean("v"));
    add(Parameter::permutation("p", 4));
    add(Parameter::integer("m.n_1", 0, 10));
    add(Parameter::ordinal("r", {R(0.5), R(1.5)}));
    values = {I(7), I(2),  I(3), R(0.5), S("nhwc"), B(true), P({2, 0, 3, 1}),
              I(4), R(1.5)};
  }

  void add(Parameter p) {
    llvm::Error error = space.addParameter(std::move(p));
    ASSERT_FALSE(bool(error)) << llvm::toString(std::move(error));
  }

  /// Parses and evaluates `text` on `values`; fails the test on a parse
  /// error.
  bool eval(StringRef text) {
    llvm::Expected<Constraint> c = Constraint::parse(text, space);
    if (!c) {
      ADD_FAILURE() << llvm::toString(c.takeError());
      return false;
    }
    bool byVector = c->evaluate(values);
    bool byConfig = c->evaluate(Config(values));
    std::vector<const ParamValue *> pointers;
    for (const ParamValue &v : values)
      pointers.push_back(&v);
    bool byPointers = c->evaluate(pointers);
    EXPECT_EQ(byVector, byConfig) << text.str();
    EXPECT_EQ(byVector, byPointers) << text.str();
    return byVector;
  }

  /// The first line of the parse error of `text` ("" if it parses).
  std::string parseError(StringRef text) {
    llvm::Expected<Constraint> c = Constraint::parse(text, space);
    if (c)
      return "";
    std::string m = llvm::toString(c.takeError());
    return m.substr(0, m.find('\n'));
  }

  Space space;
  std::vector<ParamValue> values;
};

TEST_F(ConstraintTest, ErrorColumns) {
  EXPECT_EQ(parseError("a % q == 0"),
            "constraint 'a % q == 0', column 5: unknown parameter 'q'");
  EXPECT_EQ(parseError("(a + b"),
            "constraint '(a + b', column 7: expected ')' to close the '(' at "
            "column 1");
  EXPECT_EQ(parseError("a + b) > 0"),
            "constraint 'a + b) > 0', column 6: unbalanced ')'");
  EXPECT_EQ(parseError("a < b c"),
            "constraint 'a < b c', column 7: unexpected 'c' after a complete "
            "expression");
  EXPECT_EQ(parseError("a == 12x"),
            "constraint 'a == 12x', column 6: invalid number '12x'");
  EXPECT_EQ(parseError("x < 1.2.3"),
            "constraint 'x < 1.2.3', column 5: invalid number '1.2.3'");
  EXPECT_EQ(parseError("a == 99999999999999999999"),
            "constraint 'a == 99999999999999999999', column 6: integer "
            "'99999999999999999999' does not fit in 64 bits");
  EXPECT_EQ(parseError("s == \"nchw"),
            "constraint 's == \"nchw', column 6: unterminated string");
  EXPECT_EQ(parseError("a = b"),
            "constraint 'a = b', column 3: unexpected '='; did you mean '=='?");
  EXPECT_EQ(parseError("a & b"),
            "constraint 'a & b', column 3: unexpected '&'; did you mean '&&'?");
  EXPECT_EQ(parseError("a < #"),
            "constraint 'a < #', column 5: unexpected character '#'");
  EXPECT_EQ(parseError("a <"),
            "constraint 'a <', column 4: unexpected end of the constraint; "
            "expected an expression");
  EXPECT_EQ(parseError(""),
            "constraint '', column 1: unexpected end of the constraint; "
            "expected an expression");
  EXPECT_EQ(parseError("a < * b"),
            "constraint 'a < * b', column 5: expected an expression, got '*'");
  EXPECT_EQ(parseError("foo(a) > 0"),
            "constraint 'foo(a) > 0', column 1: unknown function 'foo' (known: "
            "min, max)");
  EXPECT_EQ(parseError("min(a) > 0"),
            "constraint 'min(a) > 0', column 6: min needs at least two "
            "arguments");
  EXPECT_EQ(parseError("max(a b) > 0"),
            "constraint 'max(a b) > 0', column 7: expected ',' or ')' in "
            "max(...)");
  EXPECT_EQ(parseError("s == 1"),
            "constraint 's == 1', column 3: cannot compare a string with an "
            "integer");
  EXPECT_EQ(parseError("s + 1 > 0"),
            "constraint 's + 1 > 0', column 3: operator '+' needs numbers, got "
            "a string");
  EXPECT_EQ(parseError("a + b"),
            "constraint 'a + b', column 1: the constraint is an integer, not a "
            "condition; compare it with something (e.g. '... == 0')");
  EXPECT_EQ(parseError("a < b < c"),
            "constraint 'a < b < c', column 7: comparisons do not chain; "
            "combine them with '&&'");
  EXPECT_EQ(parseError("p == 1"),
            "constraint 'p == 1', column 1: permutation 'p' must be indexed, "
            "as in p[0]");
  EXPECT_EQ(parseError("p[4] == 1"),
            "constraint 'p[4] == 1', column 3: index 4 is out of range for "
            "permutation 'p' of size 4");
  EXPECT_EQ(parseError("p[x] == 1"),
            "constraint 'p[x] == 1', column 3: a permutation index must be an "
            "integer, got a real number");
  EXPECT_EQ(parseError("a[0] == 1"),
            "constraint 'a[0] == 1', column 2: 'a' is an integer; only "
            "permutations can be indexed");
  EXPECT_EQ(parseError("p[0 == 1"),
            "constraint 'p[0 == 1', column 9: expected ']'");
  EXPECT_EQ(parseError("s == 'a\\q'"),
            "constraint 's == 'a\\q'', column 8: unknown escape '\\q' in a "
            "string");
}

TEST_F(ConstraintTest, ErrorCaret) {
  llvm::Expected<Constraint> c = Constraint::parse("a %  q == 0", space);
  ASSERT_FALSE(bool(c));
  EXPECT_EQ(llvm::toString(c.takeError()),
            "constraint 'a %  q == 0', column 6: unknown parameter 'q'\n"
            "  a %  q == 0\n"
            "       ^");
}

TEST_F(ConstraintTest, Parameters) {
  llvm::Expected<Constraint> c =
      Constraint::parse("c + a * a <= m.n_1 || p[b] == 0", space);
  ASSERT_TRUE(bool(c)) << llvm::toString(c.takeError());
  EXPECT_EQ(c->getParameters(), (std::vector<size_t>{0, 1, 2, 6, 7}));
  EXPECT_EQ(c->getText(), "c + a * a <= m.n_1 || p[b] == 0");
  llvm::Expected<Constraint> constant = Constraint::parse("1 < 2", space);
  ASSERT_TRUE(bool(constant));
  EXPECT_TRUE(constant->getParameters().empty());
}

TEST_F(ConstraintTest, Conjuncts) {
  llvm::Expected<Constraint> c =
      Constraint::parse("a < b && (c > 0 && s == 'x') && (v || a > c)", space);
  ASSERT_TRUE(bool(c)) << llvm::toString(c.takeError());
  std::vector<Constraint> parts = c->conjuncts();
  ASSERT_EQ(parts.size(), 4u);
  EXPECT_EQ(parts[0].getParameters(), (std::vector<size_t>{0, 1}));
  EXPECT_EQ(parts[1].getParameters(), (std::vector<size_t>{2}));
  EXPECT_EQ(parts[2].getParameters(), (std::vector<size_t>{4}));
  EXPECT_EQ(parts[3].getParameters(), (std::vector<size_t>{0, 2, 5}));
  EXPECT_EQ(parts[2].getText(), c->getText());
  // a = 7, b = 2: the first part fails, the others hold.
  EXPECT_FALSE(parts[0].evaluate(values));
  EXPECT_TRUE(parts[1].evaluate(values));
  EXPECT_FALSE(parts[2].evaluate(values)); // s is "nhwc"
  EXPECT_TRUE(parts[3].evaluate(values));
  EXPECT_FALSE(c->evaluate(values));
  llvm::Expected<Constraint> single = Constraint::parse("a < b || c", space);
  ASSERT_TRUE(bool(single));
  EXPECT_EQ(single->conjuncts().size(), 1u);
}

TEST_F(ConstraintTest, IntegerArithmetic) {
  // a = 7, b = 2, c = 3.
  EXPECT_TRUE(eval("a / b == 3"));
  EXPECT_TRUE(eval("-a / b == -3")); // truncation toward zero
  EXPECT_TRUE(eval("a % c == 1"));
  EXPECT_TRUE(eval("-a % c == -1"));
  EXPECT_TRUE(eval("a / 2.0 == 3.5")); // real when one side is real
  EXPECT_TRUE(eval("a % 2.5 == 2"));
  EXPECT_TRUE(eval("a - b - c == 2")); // left associative
  EXPECT_TRUE(eval("a / b / c == 1"));
  EXPECT_TRUE(eval("a + b * c == 13")); // precedence
  EXPECT_TRUE(eval("(a + b) * c == 27"));
  EXPECT_TRUE(eval("a + b * c - a % c * 2 == 11"));
  EXPECT_TRUE(eval("--a == 7"));
  EXPECT_TRUE(eval("+a == 7"));
  EXPECT_TRUE(eval("m.n_1 * 2 == 8"));
}

TEST_F(ConstraintTest, DivisionByZeroAndOverflowAreFalse) {
  EXPECT_FALSE(eval("a / (b - 2) == 0"));
  EXPECT_FALSE(eval("a % (b - 2) == 0"));
  EXPECT_FALSE(eval("!(a % (b - 2) == 0)")); // false, not negated
  EXPECT_FALSE(eval("x / (b - 2) > 0"));
  EXPECT_FALSE(eval("a * 9223372036854775807 > 0"));
  // Short circuit guards a division.
  EXPECT_TRUE(eval("b == 2 || a % (b - 2) == 0"));
  EXPECT_FALSE(eval("b != 2 && a % (b - 2) == 0"));
}

TEST_F(ConstraintTest, ComparisonsAndLogic) {
  EXPECT_TRUE(eval("a > b && b < c"));
  EXPECT_TRUE(eval("a >= 7 && a <= 7 && a != 8 && !(a == 8)"));
  EXPECT_TRUE(eval("a < b || c == 3"));
  EXPECT_FALSE(eval("a < b || c != 3"));
  // && binds tighter than ||.
  EXPECT_TRUE(eval("true || false && false"));
  EXPECT_FALSE(eval("(true || false) && false"));
  EXPECT_TRUE(eval("!false"));
  EXPECT_TRUE(eval("x < a && x == 0.5 && x > 0.49"));
  EXPECT_TRUE(eval("r == 1.5 && r > x"));
  EXPECT_TRUE(eval("v"));
  EXPECT_TRUE(eval("v == true && v + 1 == 2"));
  EXPECT_FALSE(eval("!v"));
  EXPECT_TRUE(eval("a && !(b - 2)")); // numbers as conditions
}

TEST_F(ConstraintTest, MinMax) {
  EXPECT_TRUE(eval("min(a, b) == 2"));
  EXPECT_TRUE(eval("max(a, b) == 7"));
  EXPECT_TRUE(eval("max(a, b, c * 3) == 9"));
  EXPECT_TRUE(eval("min(a, x) == 0.5"));
  EXPECT_TRUE(eval("max(min(a, c), b) + 1 == 4"));
}

TEST_F(ConstraintTest, Strings) {
  EXPECT_TRUE(eval("s == \"nhwc\""));
  EXPECT_TRUE(eval("s != 'nchw'"));
  EXPECT_TRUE(eval("s > \"nchw\" && s < \"x\"")); // lexicographic
  EXPECT_FALSE(eval("s == \"NHWC\""));
  EXPECT_TRUE(eval("\"a\\\"b\" == 'a\"b'"));
}

TEST_F(ConstraintTest, PermutationIndexing) {
  // p = [2, 0, 3, 1]
  EXPECT_TRUE(eval("p[0] == 2 && p[1] == 0 && p[3] == 1"));
  EXPECT_TRUE(eval("p[b] == 3"));       // dynamic index
  EXPECT_TRUE(eval("p[p[1]] == 2"));    // nested
  EXPECT_FALSE(eval("p[a] == 0"));      // index 7 out of range: false
  EXPECT_FALSE(eval("p[-b + 1] >= 0")); // index -1: false
  EXPECT_TRUE(eval("p[0] < p[2]"));
}

TEST_F(ConstraintTest, PartialAndMismatchedAssignments) {
  llvm::Expected<Constraint> c = Constraint::parse("a <= b", space);
  ASSERT_TRUE(bool(c));
  std::vector<const ParamValue *> partial(space.size(), nullptr);
  ParamValue one = I(1), two = I(2), real = R(1);
  partial[0] = &one;
  EXPECT_FALSE(c->evaluate(partial)); // b missing
  partial[1] = &two;
  EXPECT_TRUE(c->evaluate(partial));
  partial[1] = &real;
  EXPECT_FALSE(c->evaluate(partial));                       // type mismatch
  EXPECT_FALSE(c->evaluate(std::vector<ParamValue>{I(1)})); // too short
  EXPECT_TRUE(c->evaluate(std::vector<ParamValue>{I(1), I(1)}));
}

// Found by fuzz/ConstraintFuzzer.cpp (fuzz/corpus/constraint/
// crash-deep-parentheses): deep nesting overflowed the parser's stack.
// Nesting and tree depth are limited; within the limits, deep expressions
// parse and evaluate.
TEST_F(ConstraintTest, DeepExpressionsAreErrorsNotCrashes) {
  std::string deep = std::string(100000, '(') + "a" +
                     std::string(100000, ')') + " > 0";
  EXPECT_EQ(parseError(deep).substr(parseError(deep).find("column")),
            "column 257: the expression nests more than 256 levels deep "
            "(parentheses, unary operators, indices, min/max)");
  EXPECT_NE(parseError(std::string(100000, '!') + "v").find("nests more than"),
            std::string::npos);
  EXPECT_NE(parseError(std::string(100000, '-') + "a > 0").find("nests more"),
            std::string::npos);
  std::string sum = "a";
  for (int i = 0; i < 20000; ++i)
    sum += " + a";
  EXPECT_NE(parseError(sum + " > 0")
                .find("the expression is more than 4096 operators deep"),
            std::string::npos);
  // Within the limits.
  EXPECT_TRUE(eval(std::string(200, '(') + "a" + std::string(200, ')') +
                   " == 7"));
  std::string chain = "a";
  for (int i = 0; i < 4000; ++i)
    chain += " - 1";
  EXPECT_TRUE(eval(chain + " == -3993"));
}

} // namespace
