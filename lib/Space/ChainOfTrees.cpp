//===- ChainOfTrees.cpp - Exact counting and uniform sampling -------------===//
//
// BaCO §4.2 (after Rasch et al.): co-dependent parameters are grouped with a
// union-find over the parameter sets of the constraints; each group's
// feasible assignments are enumerated depth first into a tree whose nodes
// know their number of feasible leaves.
//
//===----------------------------------------------------------------------===//

#include "tuner/Space/ChainOfTrees.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <numeric>
#include <optional>

using namespace tuner;
using llvm::APInt;
using llvm::Error;
using llvm::Expected;

static Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

struct ChainOfTrees::Tree {
  struct Node {
    uint64_t leaves = 0;     ///< Feasible leaves below (1 for a leaf).
    uint64_t valueIndex = 0; ///< Index in the level's parameter domain.
    uint32_t firstChild = 0; ///< Children are contiguous and sorted by value.
    uint32_t numChildren = 0;
  };

  /// The group's parameters, one per level.
  std::vector<size_t> params;
  /// A lone unconstrained parameter: no nodes, every domain value is a leaf.
  bool implicit = false;
  uint64_t implicitSize = 0;
  /// nodes[0] is the root (no parameter assigned).
  std::vector<Node> nodes;

  /// A group too large to enumerate: its feasible assignments are sampled
  /// by rejection (uniform proposals conditioned on the constraints, which
  /// stays uniform over the feasible set) and counted by estimation.
  bool sampled = false;
  double estimatedLeaves = 0;
  std::vector<Constraint> parts;
  /// parts checked once the level's parameter is drawn (by index in parts).
  std::vector<std::vector<size_t>> partsAtLevel;

  uint64_t leafCount() const {
    if (sampled)
      return estimatedLeaves >= 1.8e19 ? UINT64_MAX
                                       : uint64_t(std::llround(estimatedLeaves));
    return implicit ? implicitSize : nodes.front().leaves;
  }

  /// Draws the group's part of a feasible config by rejection; false after
  /// `attempts` proposals that all violate a constraint.
  bool sampleByRejection(const Space &space, std::mt19937_64 &rng,
                         std::vector<ParamValue> &values,
                         uint64_t attempts) const;

  /// Writes the leaf-th feasible assignment (leaf < leafCount()) into values.
  void decode(const Space &space, uint64_t leaf,
              std::vector<ParamValue> &values) const {
    if (implicit) {
      values[params.front()] = space[params.front()].valueAt(leaf);
      return;
    }
    const Node *node = &nodes.front();
    for (size_t param : params) {
      const Node *child = &nodes[node->firstChild];
      while (leaf >= child->leaves) {
        leaf -= child->leaves;
        ++child;
      }
      values[param] = space[param].valueAt(child->valueIndex);
      node = child;
    }
  }

  /// Whether the group's part of `config` (domains already checked) is a
  /// feasible leaf.
  bool containsLeaf(const Space &space, const Config &config) const {
    if (implicit)
      return true;
    if (sampled)
      return llvm::all_of(parts, [&](const Constraint &c) {
        return c.evaluate(config);
      });
    const Node *node = &nodes.front();
    for (size_t param : params) {
      std::optional<uint64_t> index = space[param].indexOf(config[param]);
      if (!index)
        return false;
      const Node *begin = &nodes[node->firstChild];
      const Node *end = begin + node->numChildren;
      const Node *child =
          std::lower_bound(begin, end, *index, [](const Node &n, uint64_t i) {
            return n.valueIndex < i;
          });
      if (child == end || child->valueIndex != *index || child->leaves == 0)
        return false;
      node = child;
    }
    return true;
  }
};

namespace {
/// "{'a', 'b'}": the names of parameters.
std::string describeParameters(const Space &space,
                               const std::vector<size_t> &params) {
  std::vector<std::string> names;
  for (size_t p : params)
    names.push_back("'" + space[p].name + "'");
  return "{" + llvm::join(names, ", ") + "}";
}

/// "'a > 1', 'a < b'": the texts of constraints of the space, quoted.
std::string quoteConstraints(const Space &space,
                             const std::vector<size_t> &constraints) {
  std::vector<std::string> texts;
  for (size_t c : constraints)
    texts.push_back("'" + space.getConstraints()[c].getText() + "'");
  return llvm::join(texts, ", ");
}

/// Union-find over parameter indices.
class UnionFind {
public:
  explicit UnionFind(size_t n) : parent(n) {
    std::iota(parent.begin(), parent.end(), 0);
  }
  size_t find(size_t x) {
    while (parent[x] != x)
      x = parent[x] = parent[parent[x]];
    return x;
  }
  void unite(size_t a, size_t b) {
    a = find(a);
    b = find(b);
    if (a != b)
      parent[std::max(a, b)] = std::min(a, b);
  }

private:
  std::vector<size_t> parent;
};

/// Orders a group's parameters so that constraints become checkable early:
/// greedily take the parameter that completes the most constraints, then
/// the one most connected to those already placed, then the one in the most
/// constraints, then the smallest domain, then the lowest index.
std::vector<size_t> orderGroup(const Space &space,
                               const std::vector<size_t> &group,
                               const std::vector<Constraint> &constraints) {
  std::vector<size_t> order;
  std::vector<bool> placed(space.size(), false);
  std::vector<size_t> remaining = group;
  while (!remaining.empty()) {
    size_t bestPos = 0;
    std::tuple<size_t, size_t, size_t, uint64_t, size_t> bestKey;
    for (size_t pos = 0; pos < remaining.size(); ++pos) {
      size_t p = remaining[pos];
      size_t completes = 0, touches = 0, degree = 0;
      for (const Constraint &constraint : constraints) {
        const std::vector<size_t> &reads = constraint.getParameters();
        if (!llvm::is_contained(reads, p))
          continue;
        ++degree;
        bool others = true, anyPlaced = false;
        for (size_t q : reads) {
          if (q == p)
            continue;
          others &= bool(placed[q]);
          anyPlaced |= bool(placed[q]);
        }
        completes += others;
        touches += anyPlaced;
      }
      // Larger is better for every component (domain and index inverted).
      auto key = std::make_tuple(completes, touches, degree,
                                 ~*space[p].domainSize(), ~p);
      if (pos == 0 || key > bestKey) {
        bestKey = key;
        bestPos = pos;
      }
    }
    size_t chosen = remaining[bestPos];
    order.push_back(chosen);
    placed[chosen] = true;
    remaining.erase(remaining.begin() + bestPos);
  }
  return order;
}

/// Depth-first enumeration of one group's feasible assignments.
class TreeBuilder {
public:
  TreeBuilder(const Space &space, ChainOfTrees::Tree &tree, uint64_t limit)
      : space(space), tree(tree), limit(limit),
        assignment(space.size(), nullptr) {}

  Error build(const std::vector<Constraint> &constraints) {
    // Each constraint is checked at the level of its last parameter.
    std::vector<size_t> levelOf(space.size(), 0);
    for (size_t level = 0; level < tree.params.size(); ++level)
      levelOf[tree.params[level]] = level;
    checks.assign(tree.params.size(), {});
    for (const Constraint &constraint : constraints) {
      size_t level = 0;
      for (size_t p : constraint.getParameters())
        level = std::max(level, levelOf[p]);
      checks[level].push_back(&constraint);
    }
    for (size_t p : tree.params) {
      uint64_t size = *space[p].domainSize();
      if (size > limit) {
        tooLarge = true;
        return makeError(llvm::formatv(
            "Chain-of-Trees: parameter '{0}' of the group {1} has {2} values, "
            "more than maxNodesPerTree ({3})",
            space[p].name, describeGroup(), size, limit));
      }
      std::vector<ParamValue> values;
      values.reserve(size);
      for (uint64_t i = 0; i < size; ++i)
        values.push_back(space[p].valueAt(i));
      domains.push_back(std::move(values));
    }
    tree.nodes.emplace_back();
    if (!expand(0, 0)) {
      tooLarge = true;
      return makeError(llvm::formatv(
          "Chain-of-Trees: enumerating the group {0} visits more than "
          "maxNodesPerTree ({1}) tree nodes; shrink their domains or relax "
          "the constraints that tie them",
          describeGroup(), limit));
    }
    return Error::success();
  }

  /// Whether build() failed because the group is too large to enumerate.
  bool tooLarge = false;
  /// Candidate values tried so far.
  uint64_t getVisits() const { return visits; }

  /// Which constraint checks run at which level (by index in `parts`).
  static std::vector<std::vector<size_t>>
  levels(const Space &space, const std::vector<size_t> &params,
         const std::vector<Constraint> &parts) {
    std::vector<size_t> levelOf(space.size(), 0);
    for (size_t level = 0; level < params.size(); ++level)
      levelOf[params[level]] = level;
    std::vector<std::vector<size_t>> result(params.size());
    for (size_t c = 0; c < parts.size(); ++c) {
      size_t level = 0;
      for (size_t p : parts[c].getParameters())
        level = std::max(level, levelOf[p]);
      result[level].push_back(c);
    }
    return result;
  }

private:
  std::string describeGroup() const {
    return describeParameters(space, tree.params);
  }

  /// Expands node `index` at `level`; false when the node budget runs out.
  bool expand(uint32_t index, size_t level) {
    if (level == tree.params.size()) {
      tree.nodes[index].leaves = 1;
      return true;
    }
    size_t param = tree.params[level];
    const std::vector<ParamValue> &domain = domains[level];
    size_t first = tree.nodes.size();
    for (uint64_t v = 0; v < domain.size(); ++v) {
      if (++visits > limit)
        return false;
      assignment[param] = &domain[v];
      bool feasible = llvm::all_of(checks[level], [&](const Constraint *c) {
        return c->evaluate(assignment);
      });
      if (feasible) {
        ChainOfTrees::Tree::Node child;
        child.valueIndex = v;
        tree.nodes.push_back(child);
      }
    }
    size_t count = tree.nodes.size() - first;
    tree.nodes[index].firstChild = uint32_t(first);
    tree.nodes[index].numChildren = uint32_t(count);
    uint64_t leaves = 0;
    for (size_t c = first; c < first + count; ++c) {
      assignment[param] = &domain[tree.nodes[c].valueIndex];
      if (!expand(uint32_t(c), level + 1))
        return false;
      leaves += tree.nodes[c].leaves;
    }
    assignment[param] = nullptr;
    tree.nodes[index].leaves = leaves;
    return true;
  }

  const Space &space;
  ChainOfTrees::Tree &tree;
  uint64_t limit;
  uint64_t visits = 0;
  std::vector<std::vector<ParamValue>> domains;
  std::vector<std::vector<const Constraint *>> checks;
  std::vector<const ParamValue *> assignment;
};

/// Uniform integer in [0, n), n > 0, the same on every platform.
uint64_t uniformBelow(std::mt19937_64 &rng, uint64_t n) {
  uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  uint64_t r;
  do
    r = rng();
  while (r >= limit);
  return r % n;
}

/// Uniform real in [0, 1).
double uniformUnit(std::mt19937_64 &rng) {
  return double(rng() >> 11) * 0x1p-53;
}

ParamValue sampleReal(const Parameter &p, std::mt19937_64 &rng) {
  double u = uniformUnit(rng);
  double v;
  if (p.logScale) {
    double lo = std::log(p.lower), hi = std::log(p.upper);
    v = std::exp(lo + u * (hi - lo));
  } else {
    v = p.lower + u * (p.upper - p.lower);
  }
  return ParamValue::real(std::clamp(v, p.lower, p.upper));
}
} // namespace

bool ChainOfTrees::Tree::sampleByRejection(const Space &space,
                                            std::mt19937_64 &rng,
                                            std::vector<ParamValue> &values,
                                            uint64_t attempts) const {
  for (uint64_t attempt = 0; attempt < attempts; ++attempt) {
    bool feasible = true;
    for (size_t level = 0; level < params.size() && feasible; ++level) {
      size_t p = params[level];
      values[p] = space[p].valueAt(uniformBelow(rng, *space[p].domainSize()));
      for (size_t c : partsAtLevel[level])
        if (!parts[c].evaluate(values)) {
          feasible = false;
          break;
        }
    }
    if (feasible)
      return true;
  }
  return false;
}

namespace {
/// Proposals drawn to estimate the feasible fraction of a sampled group.
constexpr uint64_t kEstimationDraws = 20000;
/// Proposals per sample before a sampled group counts as (nearly) empty.
constexpr uint64_t kRejectionAttempts = 1000000;

/// Product of the domain sizes of `params`: the proposals of rejection.
double proposalCount(const Space &space, const std::vector<size_t> &params) {
  double total = 1;
  for (size_t p : params)
    total *= double(*space[p].domainSize());
  return total;
}

/// The kEstimationDraws uniform proposals (seeded by `seed`) that estimate
/// a sampled group's feasible fraction, checked level by level as rejection
/// does: reach[l] counts those whose first l levels satisfy the parts
/// checked there, so reach[0] is every draw and reach.back() the accepted
/// ones. `rng` is the generator after them.
struct Draws {
  std::vector<uint64_t> reach;
  std::mt19937_64 rng;
};

Draws drawProposals(const Space &space, const std::vector<size_t> &params,
                    const std::vector<Constraint> &parts, uint64_t seed) {
  std::vector<std::vector<size_t>> partsAtLevel =
      TreeBuilder::levels(space, params, parts);
  Draws draws{std::vector<uint64_t>(params.size() + 1, 0),
              std::mt19937_64(seed)};
  std::vector<ParamValue> values(space.size());
  for (uint64_t draw = 0; draw < kEstimationDraws; ++draw) {
    ++draws.reach[0];
    for (size_t level = 0; level < params.size(); ++level) {
      size_t p = params[level];
      values[p] = space[p].valueAt(
          uniformBelow(draws.rng, *space[p].domainSize()));
      bool feasible = llvm::all_of(partsAtLevel[level], [&](size_t c) {
        return parts[c].evaluate(values);
      });
      if (!feasible)
        break;
      ++draws.reach[level + 1];
    }
  }
  return draws;
}

/// Most candidate values that enumerating `params` in this order can try:
/// every node of a level tries its parameter's whole domain.
double visitBound(const Space &space, const std::vector<size_t> &params) {
  double bound = 0, nodes = 1;
  for (size_t p : params) {
    nodes *= double(*space[p].domainSize());
    bound += nodes;
  }
  return bound;
}

/// Whether enumerating the group of `params` (in level order) would visit
/// more than `limit` candidate values beyond doubt. Enumeration tries every
/// value of level l's parameter under each feasible prefix of length l, and
/// the draws' `reach` estimates how many prefixes are feasible (the fraction
/// of draws that reach level l); each level's count is taken five standard
/// errors below its estimate.
bool certainlyVisitsMoreThan(const Space &space,
                             const std::vector<size_t> &params,
                             const std::vector<uint64_t> &reach,
                             uint64_t limit) {
  double visits = 0, prefixes = 1;
  for (size_t level = 0; level < params.size(); ++level) {
    double reached = double(reach[level]);
    double low = level == 0 ? reached : reached - 5 * std::sqrt(reached);
    double domain = double(*space[params[level]].domainSize());
    if (low > 0)
      visits += prefixes * low / double(kEstimationDraws) * domain;
    prefixes *= domain;
  }
  return visits > double(limit);
}

/// Makes `tree` a sampled group of `parts`, its size estimated from
/// `draws` (drawProposals with the chain's seed).
Error makeSampledTree(const Space &space, ChainOfTrees::Tree &tree,
                      std::vector<Constraint> parts, Draws draws) {
  // The nodes of an enumeration that gave up (up to maxNodesPerTree).
  std::vector<ChainOfTrees::Tree::Node>().swap(tree.nodes);
  tree.sampled = true;
  tree.parts = std::move(parts);
  tree.partsAtLevel = TreeBuilder::levels(space, tree.params, tree.parts);
  // Feasible fraction of uniform proposals, by Monte Carlo: the draws that
  // satisfy every part.
  uint64_t accepted = draws.reach.back();
  double total = proposalCount(space, tree.params);
  if (accepted == 0) {
    // Rare feasible configs: make sure there is at least one.
    std::vector<ParamValue> values(space.size());
    if (!tree.sampleByRejection(space, draws.rng, values, kRejectionAttempts))
      return makeError("Chain-of-Trees: the group of '" +
                       space[tree.params.front()].name +
                       "' is too large to enumerate and no feasible config "
                       "was found by sampling");
    accepted = 1;
  }
  tree.estimatedLeaves =
      std::max(1.0, total * double(accepted) / double(kEstimationDraws));
  return Error::success();
}
} // namespace

bool ChainOfTrees::isExact() const { return exact; }

Expected<ChainOfTrees> ChainOfTrees::build(const Space &input,
                                           Options options) {
  ChainOfTrees chain;
  chain.space = std::make_shared<const Space>(input);
  const Space &space = *chain.space;
  uint64_t limit = std::min<uint64_t>(options.maxNodesPerTree, UINT32_MAX - 1);

  size_t n = space.size();
  std::vector<bool> isReal(n, false);
  for (size_t i = 0; i < n; ++i) {
    if (space[i].kind == ParamKind::Real) {
      isReal[i] = true;
      chain.realParameters.push_back(i);
    }
  }

  UnionFind unionFind(n);
  std::vector<size_t> treeConstraints, falseConstants;
  const std::vector<Constraint> &constraints = space.getConstraints();
  for (size_t c = 0; c < constraints.size(); ++c) {
    const std::vector<size_t> &reads = constraints[c].getParameters();
    if (reads.empty()) {
      if (!constraints[c].evaluate(std::vector<ParamValue>()))
        falseConstants.push_back(c);
      continue;
    }
    if (llvm::any_of(reads, [&](size_t p) { return isReal[p]; })) {
      chain.realConstraints.push_back(c);
      continue;
    }
    treeConstraints.push_back(c);
    for (size_t p : reads)
      unionFind.unite(reads.front(), p);
  }

  if (!falseConstants.empty())
    return makeError(llvm::formatv(
        "the space has no feasible config: {0} {1} {2} always false",
        falseConstants.size() == 1 ? "the constraint" : "the constraints",
        quoteConstraints(space, falseConstants),
        falseConstants.size() == 1 ? "is" : "are"));

  // Groups in order of their smallest parameter (the union-find root).
  std::vector<int64_t> groupOfRoot(n, -1);
  std::vector<std::vector<size_t>> members;
  for (size_t p = 0; p < n; ++p) {
    if (isReal[p])
      continue;
    size_t root = unionFind.find(p);
    if (groupOfRoot[root] < 0) {
      groupOfRoot[root] = members.size();
      members.emplace_back();
    }
    members[groupOfRoot[root]].push_back(p);
  }
  std::vector<std::vector<size_t>> groupConstraints(members.size());
  for (size_t c : treeConstraints) {
    size_t root = unionFind.find(constraints[c].getParameters().front());
    groupConstraints[groupOfRoot[root]].push_back(c);
  }

  for (size_t g = 0; g < members.size(); ++g) {
    auto tree = std::make_shared<Tree>();
    if (members[g].size() == 1 && groupConstraints[g].empty()) {
      tree->params = members[g];
      tree->implicit = true;
      tree->implicitSize = *space[members[g].front()].domainSize();
    } else {
      // Conjuncts are checked separately, each as early as possible.
      std::vector<Constraint> parts;
      for (size_t c : groupConstraints[g])
        for (Constraint &part : constraints[c].conjuncts())
          parts.push_back(std::move(part));
      tree->params = orderGroup(space, members[g], parts);
      // The draws that estimate a sampled group's size, made once: first
      // to tell whether enumeration would certainly give up, then for the
      // sampled tree.
      std::optional<Draws> draws;
      bool sample = false;
      if (options.sampleLargeGroups && options.predictLargeGroups &&
          visitBound(space, tree->params) > double(limit)) {
        draws = drawProposals(space, tree->params, parts, options.seed);
        sample = certainlyVisitsMoreThan(space, tree->params, draws->reach,
                                         limit);
      }
      if (!sample) {
        TreeBuilder builder(space, *tree, limit);
        Error error = builder.build(parts);
        chain.visited += builder.getVisits();
        if (error) {
          if (!builder.tooLarge || !options.sampleLargeGroups)
            return std::move(error);
          llvm::consumeError(std::move(error));
          sample = true;
        }
      }
      if (sample) {
        if (!draws)
          draws = drawProposals(space, tree->params, parts, options.seed);
        if (Error error = makeSampledTree(space, *tree, std::move(parts),
                                          std::move(*draws)))
          return std::move(error);
        chain.exact = false;
      }
      if (tree->leafCount() == 0)
        return makeError(llvm::formatv(
            "the space has no feasible config: no values of {0} satisfy {1}",
            describeParameters(space, members[g]),
            quoteConstraints(space, groupConstraints[g])));
    }
    chain.groups.push_back(tree->params);
    chain.trees.push_back(std::move(tree));
  }
  return chain;
}

APInt ChainOfTrees::count() const {
  APInt result(64, 1);
  for (const auto &tree : trees) {
    APInt factor(64, tree->leafCount());
    unsigned width = std::max(64u, result.getActiveBits() + 64);
    result = result.zextOrTrunc(width) * factor.zext(width);
    result = result.zextOrTrunc(std::max(64u, result.getActiveBits()));
  }
  return result;
}

std::string ChainOfTrees::countString() const {
  if (hasRealParameters())
    return "infinite";
  if (!exact) {
    double estimate = 1;
    for (const auto &tree : trees)
      estimate *= tree->sampled ? tree->estimatedLeaves
                                : double(tree->leafCount());
    return llvm::formatv("~{0:E2} (estimated)", estimate).str();
  }
  llvm::SmallString<64> text;
  count().toStringUnsigned(text, 10);
  return std::string(text);
}

bool ChainOfTrees::hasRealParameters() const { return !realParameters.empty(); }

Expected<Config> ChainOfTrees::sample(std::mt19937_64 &rng) const {
  const Space &s = *space;
  const int maxAttempts = realConstraints.empty() ? 1 : 10000;
  std::vector<ParamValue> values(s.size());
  for (int attempt = 0; attempt < maxAttempts; ++attempt) {
    for (const auto &tree : trees) {
      if (!tree->sampled) {
        tree->decode(s, uniformBelow(rng, tree->leafCount()), values);
        continue;
      }
      if (!tree->sampleByRejection(s, rng, values, kRejectionAttempts))
        return makeError(llvm::formatv(
            "cannot sample: {0} random assignments in a row of the group of "
            "'{1}' violate its constraints",
            kRejectionAttempts, s[tree->params.front()].name));
    }
    for (size_t p : realParameters)
      values[p] = sampleReal(s[p], rng);
    bool feasible = llvm::all_of(realConstraints, [&](size_t c) {
      return s.getConstraints()[c].evaluate(values);
    });
    if (feasible)
      return Config(std::move(values));
  }
  std::vector<std::string> texts;
  for (size_t c : realConstraints)
    texts.push_back("'" + s.getConstraints()[c].getText() + "'");
  return makeError(
      llvm::formatv("cannot sample: {0} random configs in a row violate {1}",
                    maxAttempts, llvm::join(texts, " or ")));
}

Config ChainOfTrees::at(const APInt &index) const {
  const Space &s = *space;
  std::vector<ParamValue> values(s.size());
  unsigned width = std::max(64u, index.getBitWidth());
  APInt rest = index.zext(width);
  for (size_t t = trees.size(); t-- > 0;) {
    uint64_t digit;
    APInt quotient;
    APInt::udivrem(rest, trees[t]->leafCount(), quotient, digit);
    rest = std::move(quotient);
    trees[t]->decode(s, digit, values);
  }
  for (size_t p : realParameters)
    values[p] = ParamValue::real(s[p].lower);
  return Config(std::move(values));
}

bool ChainOfTrees::contains(const Config &config) const {
  const Space &s = *space;
  if (config.size() != s.size())
    return false;
  for (size_t p = 0; p < s.size(); ++p)
    if (!s[p].contains(config[p]))
      return false;
  for (const auto &tree : trees)
    if (!tree->containsLeaf(s, config))
      return false;
  return llvm::all_of(realConstraints, [&](size_t c) {
    return s.getConstraints()[c].evaluate(config);
  });
}

std::vector<uint64_t> ChainOfTrees::leafCounts() const {
  std::vector<uint64_t> counts;
  for (const auto &tree : trees)
    counts.push_back(tree->leafCount());
  return counts;
}
