//===- Space.h - Typed, constrained search spaces ---------------*- C++ -*-===//
//
// A Space is a list of typed parameters plus known constraints over them
// (BaCO §4). A Config assigns one value to every parameter of a Space. Neither
// knows anything about MLIR or about how a space is searched.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_SPACE_SPACE_H
#define TUNER_SPACE_SPACE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace tuner {

enum class ParamKind {
  Ordinal,
  Integer,
  Real,
  Categorical,
  Boolean,
  Permutation
};

llvm::StringRef stringifyParamKind(ParamKind kind);
std::optional<ParamKind> parseParamKind(llvm::StringRef text);

/// What a parameter controls in a schedule, so that the schedule builder and
/// the search read a config without parsing names or strings. The nest- and
/// loop-level roles come from SpaceBuilder (see tuner/Space/SpaceBuilder.h),
/// Knob and Alternatives from a Transform script's transform.tune ops.
enum class ParamRole {
  /// No role: a user's parameter (tuner-search) or a free annotation.
  None,
  /// "tile": cache-level tile size of band loop `loop` of nest `nest`.
  Tile,
  /// "rtile": register-level tile size of band loop `loop` of nest `nest`.
  RegisterTile,
  /// "order": permutation of the band loops of nest `nest`.
  Order,
  /// "unroll": unroll factor of the innermost loop of nest `nest`.
  Unroll,
  /// "vectorize": whether to vectorize the innermost tile of nest `nest`.
  Vectorize,
  /// "parallel": whether to run the outer tile loops of `nest` on all cores.
  Parallel,
  /// "fuse": whether to fuse nest `producer` into the tile loops of nest
  /// `consumer`.
  Fuse,
  /// "knob": a transform.tune.knob of a Transform script.
  Knob,
  /// "alternatives": the region a transform.tune.alternatives selects.
  Alternatives,
  /// "lowering": how the vector contractions of nest `nest`'s micro-kernel
  /// are lowered ("outerproduct", "dot", "parallelarith").
  Lowering,
  /// "distribute": which tiled parallel loops of nest `nest` the cores share
  /// ("all" of them, as one multi-dimensional scf.forall, or only the
  /// "outer" one in loop order).
  Distribute,
  /// "skew": whether to skew affine nest `nest` (time tiling: its band, with
  /// the sibling nests of its innermost loop fused, becomes fully
  /// permutable), so that its tile sizes apply to the skewed band and
  /// `parallel` runs its tiles as a wavefront.
  Skew,
  /// "conv": how the convolution of nest `nest` is computed ("direct",
  /// "im2col": an im2col copy and a contraction, "decompose": 1-D
  /// convolutions; see tuner/Analysis/Convolution.h).
  Convolution,
  /// "partial": how the partial tiles of nest `nest`'s distributed loops
  /// (the last scf.forall tiles, when a tile size does not divide the
  /// extent) are computed: "peel" (cut into static slices) or "pad" (padded
  /// with zeros to full tiles, so that they run the full micro-kernel).
  Partial,
  // GPU schedules (a space built for a target of kind "gpu", see
  // tuner/Space/GpuSpace.h):
  /// "block": the tile of parallel band loop `loop` of nest `nest` that one
  /// thread block computes.
  GpuBlockTile,
  /// "thread": the tile of parallel band loop `loop` that one thread
  /// computes inside its block's tile.
  GpuThreadTile,
  /// "reduce": the tile of reduction band loop `loop` that a block stages
  /// per step of its serial reduction loop.
  GpuReductionTile,
  /// "promote": whether input operand `loop` (its operand index) of nest
  /// `nest` is copied into shared (workgroup) memory per reduction step.
  GpuPromote,
  /// "vector": the vector width of the copies into shared memory.
  GpuVectorWidth
};

/// The name of a role in JSON: "tile", "rtile", "order", "unroll",
/// "vectorize", "parallel", "fuse", "knob", "alternatives", "lowering",
/// "distribute", "skew", "conv", "partial", "block", "thread", "reduce",
/// "promote", "vector";
/// "none" for None,
/// which JSON spells by leaving the role out.
llvm::StringRef stringifyParamRole(ParamRole role);
/// The role named `text` in JSON; nullopt for any other text ("none"
/// included, since JSON never spells None).
std::optional<ParamRole> parseParamRole(llvm::StringRef text);

/// The value of one parameter: an integer (ordinal, integer), a real (ordinal
/// over reals, real), a boolean, a string (categorical), or a permutation.
class ParamValue {
public:
  using Permutation = std::vector<int64_t>;

  ParamValue() : storage(int64_t(0)) {}
  static ParamValue integer(int64_t v) { return ParamValue(v); }
  static ParamValue real(double v) { return ParamValue(v); }
  static ParamValue boolean(bool v) { return ParamValue(v); }
  static ParamValue string(std::string v) { return ParamValue(std::move(v)); }
  static ParamValue permutation(Permutation v) {
    return ParamValue(std::move(v));
  }

  bool isInteger() const { return std::holds_alternative<int64_t>(storage); }
  bool isReal() const { return std::holds_alternative<double>(storage); }
  bool isBoolean() const { return std::holds_alternative<bool>(storage); }
  bool isString() const { return std::holds_alternative<std::string>(storage); }
  bool isPermutation() const {
    return std::holds_alternative<Permutation>(storage);
  }

  int64_t getInteger() const { return std::get<int64_t>(storage); }
  double getReal() const { return std::get<double>(storage); }
  bool getBoolean() const { return std::get<bool>(storage); }
  const std::string &getString() const {
    return std::get<std::string>(storage);
  }
  const Permutation &getPermutation() const {
    return std::get<Permutation>(storage);
  }

  /// Numeric view used by constraints and by search strategies: integers and
  /// reals as themselves, booleans as 0/1. Asserts on strings/permutations.
  double asNumber() const;

  /// Textual form: 32, 0.5, true, "nchw", [1, 0, 2]. Reals print with the
  /// fewest digits that read back exactly, and always with a '.' or exponent.
  std::string str() const;
  llvm::json::Value toJSON() const;
  /// Structural hash (stable across runs).
  uint64_t hash() const;

  bool operator==(const ParamValue &other) const {
    return storage == other.storage;
  }
  bool operator!=(const ParamValue &other) const { return !(*this == other); }
  bool operator<(const ParamValue &other) const {
    return storage < other.storage;
  }

private:
  template <typename T> explicit ParamValue(T v) : storage(std::move(v)) {}
  std::variant<int64_t, double, bool, std::string, Permutation> storage;
};

/// One typed parameter.
struct Parameter {
  std::string name;
  ParamKind kind = ParamKind::Integer;
  std::string description;

  /// Ordinal: sorted distinct numbers (all integers or all reals).
  /// Categorical: distinct strings.
  std::vector<ParamValue> values;
  /// Ordinal, Integer, Real: search in log space (values must be > 0).
  bool logScale = false;
  /// Integer and Real: inclusive bounds (integer bounds: integers in
  /// [-2^53, 2^53], which a double holds exactly).
  double lower = 0, upper = 0;
  /// Permutation: number of elements, and an optional list of the allowed
  /// permutations (empty: all n! permutations are allowed).
  int64_t permutationSize = 0;
  std::vector<ParamValue::Permutation> allowedPermutations;
  /// The value used when nothing else is known (the untransformed program).
  std::optional<ParamValue> defaultValue;
  /// What the parameter controls in a schedule, and what it refers to: the
  /// loop nest (a ProgramTree nest name) of the per-nest roles, the band
  /// position of Tile and RegisterTile, the producer and consumer nests of
  /// Fuse. Unset: None, empty names, loop -1. Ignored by the space itself
  /// (domains, constraints, enumeration); kept in JSON as the "role",
  /// "nest", "loop" (a decimal string), "producer" and "consumer" keys of
  /// the parameter's "attributes".
  ParamRole role = ParamRole::None;
  std::string nest;
  int64_t loop = -1;
  std::string producer;
  std::string consumer;
  /// Free-form annotations for the clients of the space. Kept in JSON,
  /// ignored by the space. The keys of the typed fields above ("role",
  /// "nest", "loop", "producer", "consumer") are reserved.
  std::map<std::string, std::string> attributes;

  /// Factories (validate in Space::addParameter).
  static Parameter ordinal(std::string name, std::vector<ParamValue> values,
                           bool logScale = false);
  static Parameter integer(std::string name, int64_t lower, int64_t upper,
                           bool logScale = false);
  static Parameter real(std::string name, double lower, double upper,
                        bool logScale = false);
  static Parameter categorical(std::string name,
                               std::vector<std::string> choices);
  static Parameter boolean(std::string name);
  static Parameter
  permutation(std::string name, int64_t size,
              std::vector<ParamValue::Permutation> allowed = {});

  /// Whether `value` has this parameter's type and lies in its domain.
  bool contains(const ParamValue &value) const;
  /// Like contains, with an error naming the parameter and the value when it
  /// is not: "parameter 'x': value 48 is not one of [1, 2, 4]".
  llvm::Error checkValue(const ParamValue &value) const;
  /// Converts a JSON value to a value of this parameter's type (integers for
  /// integer ordinals and ranges, numbers for reals, strings, booleans, arrays
  /// of integers for permutations). Checks the type, not the domain.
  llvm::Expected<ParamValue> valueFromJSON(const llvm::json::Value &json) const;
  /// Whether this is an ordinal parameter over reals (else over integers).
  bool isRealOrdinal() const;
  /// Number of values for discrete kinds; nullopt for Real.
  std::optional<uint64_t> domainSize() const;
  /// The index-th value of a discrete domain in canonical order (ordinal:
  /// sorted; integer: lower..upper; boolean: false, true; categorical: as
  /// given; permutation: allowed list or lexicographic order).
  ParamValue valueAt(uint64_t index) const;
  /// Inverse of valueAt; nullopt when not in the domain.
  std::optional<uint64_t> indexOf(const ParamValue &value) const;
  /// Value used when none is given: defaultValue, else the first value.
  ParamValue fallbackValue() const;
  /// The domain in words: "one of [1, 2, 4]", "in [0, 3]", "false or true",
  /// "a permutation of 0..2", "one of the allowed permutations [...]".
  std::string describeDomain() const;
  /// Whether `other` has this parameter's kind and the same set of values
  /// (in any order; an integer ordinal never equals a real one). Names,
  /// scales, defaults, descriptions, roles and attributes are not compared.
  bool sameDomain(const Parameter &other) const;
  /// Whether `other` has this parameter's kind and a domain inside this
  /// one's (every value of an ordinal, categorical or allowed-permutation
  /// list contained; an integer or real range within the bounds).
  bool containsDomain(const Parameter &other) const;
};

class Space;

/// One assignment of a value to every parameter of a space, in the space's
/// parameter order.
class Config {
public:
  Config() = default;
  explicit Config(std::vector<ParamValue> values) : values(std::move(values)) {}

  const std::vector<ParamValue> &getValues() const { return values; }
  std::vector<ParamValue> &getValues() { return values; }
  const ParamValue &operator[](size_t i) const { return values[i]; }
  ParamValue &operator[](size_t i) { return values[i]; }
  size_t size() const { return values.size(); }

  /// Structural hash: equal configs hash equal, stable across runs.
  uint64_t hash() const;
  bool operator==(const Config &o) const { return values == o.values; }
  bool operator<(const Config &o) const { return values < o.values; }

  /// {"name": value, ...} (llvm::json prints object keys sorted).
  llvm::json::Value toJSON(const Space &space) const;
  /// Reads {"name": value, ...}. Every parameter must be present (unless it
  /// has a default and allowMissing), no unknown names, each value of the
  /// parameter's type and in its domain; constraints are not checked here.
  /// Errors name the parameter and the value.
  static llvm::Expected<Config> fromJSON(const Space &space,
                                         const llvm::json::Value &json,
                                         bool allowMissing = false);

private:
  std::vector<ParamValue> values;
};

/// A parsed constraint expression over parameters: + - * / % (integer
/// semantics when both sides are integers), comparisons, && || !, min(a, b),
/// max(a, b), parentheses, integer/real/string/true/false literals, parameter
/// names (letters, digits, '_' and '.'), and p[i] for element i of a
/// permutation parameter.
class Constraint {
public:
  /// Parses `text`; names must be parameters of `space`. Errors say what is
  /// wrong and point at the offending character: "constraint 'a % b == 0',
  /// column 5: unknown parameter 'b'", followed by the text and a caret line.
  /// Operands are type-checked (numbers and booleans in arithmetic and
  /// comparisons, strings only compared with strings, a permutation only
  /// indexed) and the whole expression must be a condition.
  static llvm::Expected<Constraint> parse(llvm::StringRef text,
                                          const Space &space);

  const std::string &getText() const { return text; }
  /// Indices (in the space) of the parameters the constraint reads, sorted.
  const std::vector<size_t> &getParameters() const { return parameters; }

  /// Evaluates on a full config. A division by zero or a type mismatch makes
  /// the constraint false.
  bool evaluate(const Config &config) const;
  /// Evaluates on a partial assignment indexed like the space's parameters:
  /// only the entries of getParameters() are read.
  bool evaluate(const std::vector<ParamValue> &values) const;
  /// Same, through pointers indexed like the space's parameters (null or
  /// out-of-range entries read by the constraint make it false).
  bool evaluate(llvm::ArrayRef<const ParamValue *> values) const;

  /// The operands of the top-level '&&'s as constraints of their own (just
  /// this constraint when it is no conjunction), each reading only its own
  /// parameters and keeping this constraint's text. They all hold iff this
  /// one does; split, each can be checked as soon as its parameters are known.
  std::vector<Constraint> conjuncts() const;

  struct Node; ///< Expression AST (defined in the .cpp).

private:
  std::string text;
  std::vector<size_t> parameters;
  std::shared_ptr<const Node> root;
};

/// A typed, constrained space.
class Space {
public:
  /// Adds a parameter; fails on a duplicate name, a name the constraint
  /// language cannot spell (it must start with a letter or '_' and hold only
  /// letters, digits, '_' and '.'; "true" and "false" are reserved) or an
  /// invalid domain (empty, unsorted ordinal, lower > upper, log scale with
  /// values <= 0, log scale on another kind, a permutation of more than 20
  /// elements without an allowed list, bad permutation list, default outside
  /// the domain), a free-form attribute with a reserved key, or a loop
  /// below -1.
  llvm::Error addParameter(Parameter parameter);
  /// Parses and adds a known constraint.
  llvm::Error addConstraint(llvm::StringRef expression);

  const std::vector<Parameter> &getParameters() const { return parameters; }
  const std::vector<Constraint> &getConstraints() const { return constraints; }
  size_t size() const { return parameters.size(); }
  std::optional<size_t> indexOf(llvm::StringRef name) const;
  const Parameter &operator[](size_t i) const { return parameters[i]; }

  /// Checks that `config` is in the space: the right number of values, each in
  /// its parameter's domain, every constraint true. The error names the
  /// parameter and value, or the violated constraint and the values it read.
  llvm::Error check(const Config &config) const;
  /// The config of fallback values (may violate constraints).
  Config defaultConfig() const;

  /// Free-form description of the space (e.g. the workload it came from).
  std::map<std::string, std::string> attributes;

  /// JSON form: {"version": 1, "attributes": {...}, "parameters": [{"name",
  /// "kind", "values" | "lower"/"upper" | "size"/"allowed", "log",
  /// "default", "description", "attributes"}...], "constraints": ["..."]}.
  /// An ordinal over reals is marked "real": true (reading also infers it
  /// from a non-integral value). Optional fields are written only when set.
  /// A parameter's typed role and target are written into, and read from,
  /// its "attributes" (see Parameter::role), so that files keep one form.
  /// Reading rejects unknown fields and versions, an unknown role, an empty
  /// nest, producer or consumer name, and a loop that is not a non-negative
  /// integer written in canonical decimal, naming what is wrong.
  llvm::json::Value toJSON() const;
  static llvm::Expected<Space> fromJSON(const llvm::json::Value &json);
  /// 16 hex digits that identify the space's parameters, domains, defaults
  /// and constraints (its JSON less the free-form space attributes): a
  /// record of a config is only meaningful against the space it was made
  /// in.
  std::string fingerprint() const;
  static llvm::Expected<Space> readFile(llvm::StringRef path);
  llvm::Error writeFile(llvm::StringRef path) const;

private:
  std::vector<Parameter> parameters;
  std::vector<Constraint> constraints;
  llvm::StringMap<size_t> parameterIndex;
};

/// `narrowed` (e.g. a space file a user edited to search fewer values) as a
/// sub-space of `space`: the same parameters (names, in any order of the
/// file, returned in `space`'s order), each of the same kind with a domain
/// inside the original one, and every constraint of `space` kept beside
/// `narrowed`'s own, so that what was illegal stays out. The parameters'
/// roles and targets come from `space`. Errors name the parameter and what
/// is wrong.
llvm::Expected<Space> narrowSpace(const Space &space, const Space &narrowed);

/// Reads a JSON file (with the path and the parser's line:column in errors).
llvm::Expected<llvm::json::Value> readJSONFile(llvm::StringRef path);
/// Writes pretty-printed JSON atomically (temporary file + rename).
llvm::Error writeJSONFile(llvm::StringRef path, const llvm::json::Value &value);

} // namespace tuner

#endif // TUNER_SPACE_SPACE_H
