//===- KnobSpaceTest.cpp - Spaces from transform.tune.knob ops ------------===//

#include "tuner/Space/KnobSpace.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace tuner;

namespace {

ParamValue I(int64_t v) { return ParamValue::integer(v); }
ParamValue R(double v) { return ParamValue::real(v); }

/// A script whose named sequence holds `body`.
std::string script(llvm::StringRef body) {
  return ("module attributes {transform.with_named_sequence} {\n"
          "  transform.named_sequence @__transform_main(%root: "
          "!transform.any_op {transform.readonly}) {\n" +
          body + "\n    transform.yield\n  }\n}\n")
      .str();
}

/// Parses `text` (without verifying it, as the passes do) and reads its
/// space; the diagnostics go to `errors`.
struct Reader {
  Reader() {
    mlir::DialectRegistry registry;
    registerKnobDialects(registry);
    context.appendDialectRegistry(registry);
    context.getDiagEngine().registerHandler(
        [this](mlir::Diagnostic &diag) { errors += diag.str() + "\n"; });
  }
  mlir::FailureOr<Space> read(llvm::StringRef body) {
    module = mlir::parseSourceString<mlir::ModuleOp>(
        script(body), mlir::ParserConfig(&context, /*verifyAfterParse=*/false));
    if (!module) {
      ADD_FAILURE() << "parse error: " << errors;
      return mlir::failure();
    }
    return spaceFromKnobs(module.get());
  }
  /// The space of `body`, or an empty one and a test failure.
  Space readOrFail(llvm::StringRef body) {
    mlir::FailureOr<Space> space = read(body);
    if (failed(space)) {
      ADD_FAILURE() << errors;
      return Space();
    }
    return *space;
  }

  mlir::MLIRContext context{mlir::MLIRContext::Threading::DISABLED};
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::string errors;
};

/// A knob named `name` over `options`, with an optional selected value.
std::string knob(llvm::StringRef name, llvm::StringRef options,
                 llvm::StringRef selected = "") {
  std::string text =
      "    %" + name.str() + " = transform.tune.knob<\"" + name.str() + "\"> ";
  if (!selected.empty())
    text += "= " + selected.str() + " from ";
  return text + "options = " + options.str() + " -> !transform.any_param\n";
}

TEST(KnobSpace, GeometricOptionsAreLogScale) {
  struct Case {
    const char *options;
    bool logScale;
  };
  const Case cases[] = {
      {"[1, 2, 4, 8]", true},
      {"[3, 9, 27]", true},
      {"[16, 4, 8]", true},                           // geometric once sorted
      {"[4, 6, 9]", true},                            // ratio 1.5
      // Ratio 2^30: the cross products exceed 64 bits.
      {"[3, 3221225472, 3458764513820540928]", true},
      {"[3, 3221225472, 3458764513820540929]", false},
      {"[1, 2, 3]", false},
      {"[1, 2, 4, 9]", false},
      {"[2, 4]", false},    // fewer than three values
      {"[0, 1, 2]", false}, // not positive
      {"[-4, -2, -1]", false},
      {"[0.1, 0.2, 0.4, 0.8]", true},
      {"[0.001, 0.01, 0.1, 1.0]", true}, // ratios within rounding of 10
      {"[1.0, 2.0, 4.000001]", true},    // within the tolerance
      {"[1.0, 2.0, 4.01]", false},
      {"[1.5, 2.5, 3.5]", false},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.options);
    Reader reader;
    Space space = reader.readOrFail(knob("k", c.options));
    ASSERT_EQ(space.size(), 1u);
    EXPECT_EQ(space[0].kind, ParamKind::Ordinal);
    EXPECT_EQ(space[0].logScale, c.logScale);
  }
}

TEST(KnobSpace, SelectedValuesAreDefaults) {
  Reader reader;
  Space space = reader.readOrFail(
      knob("tile", "[2, 4, 8]", "4") + knob("free", "[2, 4, 8]") +
      knob("scale", "[0.5, 1.0]", "1.0") +
      knob("layout", "[\"nchw\", \"nhwc\"]", "\"nhwc\"") +
      knob("vectorize", "[false, true]", "true") +
      knob("order", "[array<i64: 0, 1>, array<i64: 1, 0>]",
           "array<i64: 1, 0>") +
      "    transform.tune.alternatives<\"pick\"> selected_region = 2 {\n"
      "    }, {\n    }, {\n    }\n"
      "    transform.tune.alternatives<\"open\"> {\n    }, {\n    }\n");
  ASSERT_EQ(space.size(), 8u);
  auto defaultOf = [&](llvm::StringRef name) {
    return space[*space.indexOf(name)].defaultValue;
  };
  EXPECT_EQ(defaultOf("tile"), I(4));
  EXPECT_EQ(defaultOf("free"), std::nullopt);
  EXPECT_EQ(defaultOf("scale"), R(1.0));
  EXPECT_EQ(defaultOf("layout"), ParamValue::string("nhwc"));
  EXPECT_EQ(defaultOf("vectorize"), ParamValue::boolean(true));
  EXPECT_EQ(defaultOf("order"), ParamValue::permutation({1, 0}));
  EXPECT_EQ(defaultOf("pick"), I(2));
  EXPECT_EQ(defaultOf("open"), std::nullopt);
  // The config a client falls back to is the selected one.
  Config fallback = space.defaultConfig();
  EXPECT_EQ(fallback[*space.indexOf("tile")], I(4));
  EXPECT_EQ(fallback[*space.indexOf("free")], I(2));

  // A knob declared twice selects its value once or the same way twice.
  Reader twice;
  Space again = twice.readOrFail(knob("t", "[2, 4, 8]") +
                                 "    %again = transform.tune.knob<\"t\"> = 8 "
                                 "from options = [2, 4, 8] -> "
                                 "!transform.any_param\n");
  EXPECT_EQ(again[0].defaultValue, I(8));
}

TEST(KnobSpace, SelectedValueErrors) {
  {
    // The verifier would only say that the value is not an option: the
    // reader names the knob and the value, at the knob.
    Reader reader;
    EXPECT_TRUE(failed(reader.read(knob("tile", "[2, 4, 8]", "5"))));
    EXPECT_EQ(reader.errors, "knob 'tile': selected value 5 : i64 is not one "
                             "of its options [2, 4, 8]\n");
  }
  {
    // Attributes are compared with their types, as the verifier does.
    Reader reader;
    EXPECT_TRUE(failed(reader.read(knob("tile", "[2, 4, 8]", "4 : i32"))));
    EXPECT_EQ(reader.errors, "knob 'tile': selected value 4 : i32 is not one "
                             "of its options [2, 4, 8]\n");
  }
  {
    Reader reader;
    EXPECT_TRUE(failed(reader.read(
        "    transform.tune.alternatives<\"pick\"> selected_region = 3 {\n"
        "    }, {\n    }\n")));
    EXPECT_EQ(reader.errors, "alternatives 'pick': selected region 3 is not "
                             "one of its 2 regions (0 to 1)\n");
  }
  {
    Reader reader;
    EXPECT_TRUE(failed(reader.read(knob("t", "[2, 4, 8]", "2") +
                                   "    %again = transform.tune.knob<\"t\"> "
                                   "= 8 from options = [2, 4, 8] -> "
                                   "!transform.any_param\n")));
    EXPECT_EQ(reader.errors, "knob 't' is declared twice with different "
                             "selected values (2 and 8)\n");
  }
  {
    // Whatever the knobs do not check, the verifier still does.
    Reader reader;
    EXPECT_TRUE(failed(reader.read(
        knob("t", "[2, 4, 8]") +
        "    %bad = \"transform.param.constant\"() <{value = 4 : i64}> : () "
        "-> !transform.any_op\n")));
    EXPECT_NE(reader.errors.find("transform.param.constant"), std::string::npos)
        << reader.errors;
  }
}

TEST(KnobSpace, CheckMatchesKnobs) {
  Reader reader;
  Space knobs = reader.readOrFail(knob("a", "[2, 4, 8]", "4") +
                                  knob("b", "[\"x\", \"y\"]") +
                                  "    transform.tune.alternatives<\"c\"> {\n"
                                  "    }, {\n    }\n");
  auto check = [&](const Space &space) {
    llvm::Error err = checkMatchesKnobs(space, knobs);
    return err ? llvm::toString(std::move(err)) : std::string();
  };
  auto space = [](std::vector<Parameter> parameters) {
    Space result;
    for (Parameter &p : parameters)
      if (llvm::Error err = result.addParameter(std::move(p)))
        ADD_FAILURE() << llvm::toString(std::move(err));
    return result;
  };
  Parameter a = Parameter::ordinal("a", {I(2), I(4), I(8)});
  Parameter b = Parameter::categorical("b", {"y", "x"});
  Parameter c = Parameter::integer("c", 0, 1);

  EXPECT_EQ(check(knobs), "");
  // Any order, other defaults and scales, and constraints are fine.
  Space reordered = space({c, b, a});
  ASSERT_FALSE(bool(reordered.addConstraint("a * c <= 4")));
  EXPECT_EQ(check(reordered), "");

  EXPECT_EQ(check(space({a, c})), "knob 'b' is not a parameter of the space");
  EXPECT_EQ(check(space({a, b, c, Parameter::boolean("d")})),
            "parameter 'd' of the space is not a knob");
  EXPECT_EQ(check(space({Parameter::integer("a", 2, 8), b, c})),
            "parameter 'a' is integer in the space but ordinal in the knobs");
  EXPECT_EQ(check(space({Parameter::ordinal("a", {I(2), I(4), I(16)}), b, c})),
            "parameter 'a' is one of [2, 4, 16] in the space but one of "
            "[2, 4, 8] in the knobs");
  EXPECT_EQ(check(space({a, b, Parameter::integer("c", 0, 2)})),
            "parameter 'c' is in [0, 2] in the space but in [0, 1] in the "
            "knobs");
}

} // namespace
