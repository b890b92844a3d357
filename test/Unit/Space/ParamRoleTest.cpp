//===- ParamRoleTest.cpp - Typed parameter roles and their JSON -----------===//

#include "tuner/Space/Space.h"

#include "llvm/Support/raw_ostream.h"

#include <iterator>
#include <map>

#include "ErrorMessage.h"

#include "gtest/gtest.h"

using namespace tuner;
using tuner::test::message;
using llvm::StringRef;
namespace json = llvm::json;

namespace {

/// A space with a parameter of every role, one with a role and a free-form
/// attribute, one with only a free-form attribute and one with none, in the
/// on-disk form spaces have always had.
constexpr StringRef kEveryRole = R"json({
  "version": 1,
  "attributes": {"function": "mm"},
  "parameters": [
    {"name": "mm.tile.l0", "kind": "ordinal", "values": [1, 4, 16],
     "attributes": {"role": "tile", "nest": "mm", "loop": "0", "note": "x"}},
    {"name": "mm.rtile.l12", "kind": "ordinal", "values": [1, 2],
     "attributes": {"role": "rtile", "nest": "mm", "loop": "12"}},
    {"name": "mm.order", "kind": "permutation", "size": 3,
     "attributes": {"role": "order", "nest": "mm"}},
    {"name": "mm.unroll", "kind": "ordinal", "values": [1, 2, 4],
     "attributes": {"role": "unroll", "nest": "mm"}},
    {"name": "mm.vectorize", "kind": "boolean", "default": false,
     "attributes": {"role": "vectorize", "nest": "mm"}},
    {"name": "mm.parallel", "kind": "boolean",
     "attributes": {"role": "parallel", "nest": "mm"}},
    {"name": "fuse.fill.mm", "kind": "boolean", "default": false,
     "description": "fuse fill into mm",
     "attributes": {"role": "fuse", "producer": "fill", "consumer": "mm"}},
    {"name": "k", "kind": "ordinal", "values": [8, 16],
     "attributes": {"role": "knob"}},
    {"name": "alt", "kind": "integer", "lower": 0, "upper": 1,
     "attributes": {"role": "alternatives"}},
    {"name": "free", "kind": "boolean", "attributes": {"owner": "me"}},
    {"name": "plain", "kind": "boolean"}
  ],
  "constraints": ["mm.rtile.l12 <= mm.tile.l0"]
})json";

json::Value parse(StringRef text) {
  llvm::Expected<json::Value> json = json::parse(text);
  EXPECT_TRUE(bool(json)) << message(json);
  return json ? std::move(*json) : json::Value(nullptr);
}

std::string print(const json::Value &json) {
  std::string text;
  llvm::raw_string_ostream(text) << json;
  return text;
}

TEST(ParamRole, EveryRoleKeepsItsJSONAndFingerprint) {
  json::Value input = parse(kEveryRole);
  llvm::Expected<Space> space = Space::fromJSON(input);
  ASSERT_TRUE(bool(space)) << message(space);
  // Written back byte for byte (llvm::json prints keys sorted), and with the
  // fingerprint it had when roles were string attributes.
  EXPECT_EQ(print(space->toJSON()), print(input));
  EXPECT_EQ(space->fingerprint(), "8e915bab04cae186");
}

TEST(ParamRole, NamesRoundTrip) {
  const ParamRole roles[] = {
      ParamRole::Tile,     ParamRole::RegisterTile, ParamRole::Order,
      ParamRole::Unroll,   ParamRole::Vectorize,    ParamRole::Parallel,
      ParamRole::Fuse,     ParamRole::Knob,         ParamRole::Alternatives,
      ParamRole::Lowering, ParamRole::Distribute,   ParamRole::Skew,
      ParamRole::Convolution, ParamRole::Partial, ParamRole::GpuBlockTile,
      ParamRole::GpuThreadTile, ParamRole::GpuReductionTile,
      ParamRole::GpuPromote, ParamRole::GpuVectorWidth};
  const char *names[] = {"tile",         "rtile",    "order",      "unroll",
                         "vectorize",    "parallel", "fuse",       "knob",
                         "alternatives", "lowering", "distribute", "skew",
                         "conv",         "partial",  "block",      "thread",
                         "reduce",       "promote",  "vector"};
  static_assert(std::size(roles) == std::size(names));
  for (size_t i = 0; i < std::size(roles); ++i) {
    EXPECT_EQ(stringifyParamRole(roles[i]), names[i]);
    EXPECT_EQ(parseParamRole(names[i]), roles[i]) << names[i];
  }
  // None is spelled by leaving the role out, never by a name.
  EXPECT_EQ(stringifyParamRole(ParamRole::None), "none");
  EXPECT_EQ(parseParamRole("none"), std::nullopt);
  EXPECT_EQ(parseParamRole(""), std::nullopt);
  EXPECT_EQ(parseParamRole("Tile"), std::nullopt);
}

TEST(ParamRole, JSONReadsTypedFields) {
  llvm::Expected<Space> space = Space::fromJSON(parse(kEveryRole));
  ASSERT_TRUE(bool(space)) << message(space);
  struct Expected {
    const char *name;
    ParamRole role;
    const char *nest;
    int64_t loop;
    const char *producer, *consumer;
    std::map<std::string, std::string> attributes;
  };
  const Expected expected[] = {
      {"mm.tile.l0", ParamRole::Tile, "mm", 0, "", "", {{"note", "x"}}},
      {"mm.rtile.l12", ParamRole::RegisterTile, "mm", 12, "", "", {}},
      {"mm.order", ParamRole::Order, "mm", -1, "", "", {}},
      {"mm.unroll", ParamRole::Unroll, "mm", -1, "", "", {}},
      {"mm.vectorize", ParamRole::Vectorize, "mm", -1, "", "", {}},
      {"mm.parallel", ParamRole::Parallel, "mm", -1, "", "", {}},
      {"fuse.fill.mm", ParamRole::Fuse, "", -1, "fill", "mm", {}},
      {"k", ParamRole::Knob, "", -1, "", "", {}},
      {"alt", ParamRole::Alternatives, "", -1, "", "", {}},
      {"free", ParamRole::None, "", -1, "", "", {{"owner", "me"}}},
      {"plain", ParamRole::None, "", -1, "", "", {}}};
  ASSERT_EQ(space->size(), std::size(expected));
  for (size_t i = 0; i < space->size(); ++i) {
    const Parameter &p = (*space)[i];
    const Expected &e = expected[i];
    EXPECT_EQ(p.name, e.name);
    EXPECT_EQ(p.role, e.role) << e.name;
    EXPECT_EQ(p.nest, e.nest) << e.name;
    EXPECT_EQ(p.loop, e.loop) << e.name;
    EXPECT_EQ(p.producer, e.producer) << e.name;
    EXPECT_EQ(p.consumer, e.consumer) << e.name;
    // The typed keys leave the free-form attributes.
    EXPECT_EQ(p.attributes, e.attributes) << e.name;
  }
}

TEST(ParamRole, TypedFieldsAreWrittenAsAttributes) {
  Space space;
  Parameter tile =
      Parameter::ordinal("t", {ParamValue::integer(1), ParamValue::integer(8)});
  tile.role = ParamRole::RegisterTile;
  tile.nest = "conv_2";
  tile.loop = 3;
  ASSERT_EQ(message(space.addParameter(tile)), "");
  Parameter fuse = Parameter::boolean("f");
  fuse.role = ParamRole::Fuse;
  fuse.producer = "fill_0";
  fuse.consumer = "conv_2";
  ASSERT_EQ(message(space.addParameter(fuse)), "");
  Parameter knob = Parameter::boolean("k");
  knob.role = ParamRole::Knob;
  knob.attributes["source"] = "script.mlir";
  ASSERT_EQ(message(space.addParameter(knob)), "");
  ASSERT_EQ(message(space.addParameter(Parameter::boolean("none"))), "");

  json::Value json = space.toJSON();
  const json::Array *parameters = json.getAsObject()->getArray("parameters");
  ASSERT_TRUE(parameters);
  ASSERT_EQ(parameters->size(), 4u);
  auto attributesOf = [&](size_t i) {
    const json::Value *attributes =
        (*parameters)[i].getAsObject()->get("attributes");
    return attributes ? print(*attributes) : std::string("(none)");
  };
  EXPECT_EQ(attributesOf(0), R"({"loop":"3","nest":"conv_2","role":"rtile"})");
  EXPECT_EQ(attributesOf(1),
            R"({"consumer":"conv_2","producer":"fill_0","role":"fuse"})");
  EXPECT_EQ(attributesOf(2), R"({"role":"knob","source":"script.mlir"})");
  EXPECT_EQ(attributesOf(3), "(none)");

  llvm::Expected<Space> copy = Space::fromJSON(json);
  ASSERT_TRUE(bool(copy)) << message(copy);
  EXPECT_EQ((*copy)[0].role, ParamRole::RegisterTile);
  EXPECT_EQ((*copy)[0].loop, 3);
  EXPECT_EQ((*copy)[1].producer, "fill_0");
  EXPECT_EQ((*copy)[2].role, ParamRole::Knob);
  EXPECT_EQ((*copy)[2].attributes.at("source"), "script.mlir");
  EXPECT_EQ((*copy)[3].role, ParamRole::None);
  EXPECT_EQ(print(copy->toJSON()), print(json));
  EXPECT_EQ(copy->fingerprint(), space.fingerprint());

  // The role is part of what the space is.
  Space other;
  tile.role = ParamRole::Tile;
  ASSERT_EQ(message(other.addParameter(tile)), "");
  ASSERT_EQ(message(other.addParameter(fuse)), "");
  ASSERT_EQ(message(other.addParameter(knob)), "");
  ASSERT_EQ(message(other.addParameter(Parameter::boolean("none"))), "");
  EXPECT_NE(other.fingerprint(), space.fingerprint());
}

/// The error of reading a one-parameter space whose attributes are
/// `attributes` (a JSON object).
std::string attributeError(StringRef attributes) {
  std::string text = (R"({"version": 1, "parameters": [{"name": "x.tile",
      "kind": "boolean", "attributes": )" +
                      attributes + "}]}")
                         .str();
  llvm::Expected<Space> space = Space::fromJSON(parse(text));
  EXPECT_FALSE(bool(space)) << text;
  return message(space);
}

TEST(ParamRole, JSONErrors) {
  EXPECT_EQ(attributeError(R"({"role": "reticulate"})"),
            "parameter 'x.tile': unknown role 'reticulate' (known: tile, "
            "rtile, order, unroll, vectorize, parallel, fuse, knob, "
            "alternatives, lowering, distribute, skew, conv, partial, block, "
            "thread, reduce, promote, vector)");
  EXPECT_EQ(attributeError(R"({"role": "none"})"),
            "parameter 'x.tile': unknown role 'none' (known: tile, rtile, "
            "order, unroll, vectorize, parallel, fuse, knob, alternatives, "
            "lowering, distribute, skew, conv, partial, block, thread, reduce, "
            "promote, vector)");
  EXPECT_EQ(attributeError(R"({"role": "Tile"})").substr(0, 40),
            "parameter 'x.tile': unknown role 'Tile' ");
  for (StringRef loop : {"one", "", "-1", "+1", "01", "1.0", " 1", "0x1",
                         "99999999999999999999"})
    EXPECT_EQ(attributeError(R"({"role": "tile", "nest": "x", "loop": ")" +
                             loop.str() + R"("})"),
              "parameter 'x.tile': attribute 'loop' must be a non-negative "
              "integer (a band position), not '" +
                  loop.str() + "'")
        << loop.str();
  for (StringRef key : {"nest", "producer", "consumer"})
    EXPECT_EQ(attributeError((R"({")" + key + R"(": ""})").str()),
              "parameter 'x.tile': attribute '" + key.str() +
                  "' must name a loop nest, not be empty");
  EXPECT_EQ(attributeError(R"({"role": 1})"),
            "parameter 'x.tile': attribute 'role' must be a string");
  EXPECT_EQ(attributeError(R"({"loop": 0})"),
            "parameter 'x.tile': attribute 'loop' must be a string");
}

TEST(ParamRole, ReservedAttributesAreRejected) {
  for (StringRef key : {"role", "nest", "loop", "producer", "consumer"}) {
    Space space;
    Parameter p = Parameter::boolean("p");
    p.attributes[key.str()] = "tile";
    EXPECT_EQ(message(space.addParameter(p)),
              "parameter 'p': attribute '" + key.str() +
                  "' is reserved for the typed role and target "
                  "(Parameter::role, nest, loop, producer, consumer)");
  }
  Space space;
  Parameter p = Parameter::boolean("p");
  p.loop = -2;
  EXPECT_EQ(message(space.addParameter(p)),
            "parameter 'p': loop -2 is neither a band position (>= 0) nor "
            "unset (-1)");
}

} // namespace
