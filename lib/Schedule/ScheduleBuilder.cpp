//===- ScheduleBuilder.cpp - Config -> Transform-dialect script -----------===//
//
// The script, per linalg nest that is not fused into another one:
//   1. cache tiles: tile_using_forall over the parallel dims when the nest is
//      parallel, then tile_using_for over the remaining dims in the chosen
//      loop order;
//   2. fusion: each producer fused into this nest (and, transitively, the
//      producers fused into those) is fused into the tile loops, outermost
//      first, up to the first loop over a reduction dim;
//   3. register tiles: tile_using_for on the cache-tiled op;
//   4. vectorize the innermost tiled op;
//   5. unroll the innermost generated scf.for.
// Per affine nest: interchange, tile, unroll the innermost loop, parallelize
// the outermost one. Cleanup patterns run once at the end.
//
//===----------------------------------------------------------------------===//

#include "tuner/Schedule/ScheduleBuilder.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <numeric>

using namespace tuner;

namespace {

/// What the config says about one nest, in band positions (0 = not tiled).
struct NestPlan {
  const LoopNest *nest = nullptr;
  std::vector<int64_t> extents;
  std::vector<bool> isReduction;
  std::vector<int64_t> tile;  ///< Cache tile sizes; 0: not tiled.
  std::vector<int64_t> rtile; ///< Register tile sizes; 0: not tiled again.
  std::vector<int64_t> order; ///< Position i holds band loop order[i].
  int64_t unroll = 1;
  bool vectorize = false;
  bool parallel = false;
  /// Nests fused into this one (indices of plans, i.e. of tree nests).
  std::vector<int> producers;
  /// The plan index of the nest this one is fused into (-1: none).
  int fusedInto = -1;
  /// The fuse parameter that fused this nest (for error messages).
  std::string fuseParameter;
  /// Handle name stem.
  std::string handle;
};

llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::string list(llvm::ArrayRef<int64_t> values) {
  return "[" +
         llvm::join(llvm::map_range(
                        values, [](int64_t v) { return std::to_string(v); }),
                    ", ") +
         "]";
}

bool isIdentity(llvm::ArrayRef<int64_t> order) {
  for (auto [i, v] : llvm::enumerate(order))
    if (v != int64_t(i))
      return false;
  return true;
}

/// "(!transform.any_op, ...)" with `n` handles; a single one unparenthesized.
std::string handleTypes(size_t n) {
  if (n == 1)
    return "!transform.any_op";
  std::vector<std::string> types(n, "!transform.any_op");
  return "(" + llvm::join(types, ", ") + ")";
}

std::string signature(size_t operands, size_t results) {
  return "(" +
         llvm::join(std::vector<std::string>(operands, "!transform.any_op"),
                    ", ") +
         ") -> " + handleTypes(results);
}

/// A group of `count` handles named `name` (`%name:count`, or `%name`).
struct Group {
  std::string name;
  size_t count = 0;
  std::string def() const {
    return count == 1 ? "%" + name : "%" + name + ":" + std::to_string(count);
  }
  std::string operator[](size_t i) const {
    return count == 1 ? "%" + name : "%" + name + "#" + std::to_string(i);
  }
};

/// A loop handle of a linalg nest and whether it iterates a reduction dim.
struct LoopHandle {
  std::string ref;
  bool isReduction = false;
};

class ScriptBuilder {
public:
  ScriptBuilder(const ProgramTree &tree, const Space &space,
                const Config &config)
      : tree(tree), space(space), config(config) {}

  llvm::Expected<std::string> build() {
    if (auto err = space.check(config))
      return std::move(err);
    if (auto err = initPlans())
      return std::move(err);
    if (auto err = readConfig())
      return std::move(err);
    if (auto err = checkFusion())
      return std::move(err);
    return emit();
  }

private:
  llvm::Error initPlans() {
    llvm::StringSet<> used = {"root", "func", "linalg_ops"};
    for (const LoopNest &nest : tree.nests) {
      NestPlan plan;
      plan.nest = &nest;
      for (int loopId : tree.bandOf(nest.id)) {
        if (loopId < 0 || size_t(loopId) >= tree.loops.size())
          return error("nest '" + nest.name + "' has an invalid band loop id " +
                       llvm::Twine(loopId));
        const Loop &loop = tree.loops[loopId];
        plan.extents.push_back(loop.extent);
        plan.isReduction.push_back(loop.isReduction);
      }
      size_t depth = plan.extents.size();
      plan.tile.assign(depth, 0);
      plan.rtile.assign(depth, 0);
      plan.order.resize(depth);
      std::iota(plan.order.begin(), plan.order.end(), 0);
      // A handle name the parser accepts and no other nest has.
      std::string stem;
      for (char c : nest.name)
        stem.push_back(llvm::isAlnum(c) || c == '_' ? c : '_');
      if (stem.empty() || llvm::isDigit(stem.front()))
        stem = "nest_" + stem;
      if (used.contains(stem))
        stem += "_" + std::to_string(nest.id);
      used.insert(stem);
      plan.handle = stem;
      nestByName[nest.name] = plans.size();
      plans.push_back(std::move(plan));
    }
    return llvm::Error::success();
  }

  /// The nest named by attribute `key` of parameter `p`.
  llvm::Expected<NestPlan *> nestOf(const Parameter &p, llvm::StringRef key) {
    auto attr = p.attributes.find(key.str());
    if (attr == p.attributes.end())
      return error("parameter '" + p.name + "' has no '" + key + "' attribute");
    auto it = nestByName.find(attr->second);
    if (it == nestByName.end())
      return error("parameter '" + p.name + "' names nest '" + attr->second +
                   "', which function @" + tree.functionName +
                   " does not have");
    return &plans[it->second];
  }

  /// The band position named by the `loop` attribute of `p`.
  llvm::Expected<size_t> loopOf(const Parameter &p, const NestPlan &plan) {
    auto attr = p.attributes.find("loop");
    int64_t loop = -1;
    if (attr == p.attributes.end() ||
        llvm::StringRef(attr->second).getAsInteger(10, loop) || loop < 0 ||
        size_t(loop) >= plan.extents.size())
      return error("parameter '" + p.name +
                   "' needs a 'loop' attribute in [0, " +
                   llvm::Twine(plan.extents.size()) + ") for nest '" +
                   plan.nest->name + "'");
    return size_t(loop);
  }

  static llvm::Error typeError(const Parameter &p, const ParamValue &v,
                               llvm::StringRef expected) {
    return error("parameter '" + p.name + "': value " + v.str() + " is not " +
                 expected);
  }

  llvm::Error readConfig() {
    for (size_t i = 0; i < space.size(); ++i) {
      const Parameter &p = space[i];
      const ParamValue &v = config[i];
      auto roleAttr = p.attributes.find("role");
      if (roleAttr == p.attributes.end())
        return error("parameter '" + p.name +
                     "' has no 'role' attribute: the schedule builder does "
                     "not know what it controls");
      llvm::StringRef role = roleAttr->second;
      if (role == "fuse") {
        if (!v.isBoolean())
          return typeError(p, v, "a boolean");
        if (!v.getBoolean())
          continue;
        llvm::Expected<NestPlan *> producer = nestOf(p, "producer");
        if (!producer)
          return producer.takeError();
        llvm::Expected<NestPlan *> consumer = nestOf(p, "consumer");
        if (!consumer)
          return consumer.takeError();
        if ((*producer)->fusedInto >= 0)
          return error("parameter '" + p.name + "' = true: nest '" +
                       (*producer)->nest->name + "' is already fused by '" +
                       (*producer)->fuseParameter + "'");
        if (*producer == *consumer)
          return error("parameter '" + p.name +
                       "' = true: a nest cannot be fused into itself");
        (*producer)->fusedInto = int(*consumer - plans.data());
        (*producer)->fuseParameter = p.name;
        (*consumer)->producers.push_back(int(*producer - plans.data()));
        continue;
      }
      llvm::Expected<NestPlan *> planOr = nestOf(p, "nest");
      if (!planOr)
        return planOr.takeError();
      NestPlan &plan = **planOr;
      bool isLinalg = plan.nest->source == NestSource::Linalg;
      if (role == "tile" || role == "rtile") {
        llvm::Expected<size_t> loop = loopOf(p, plan);
        if (!loop)
          return loop.takeError();
        if (!v.isInteger())
          return typeError(p, v, "an integer");
        int64_t extent = plan.extents[*loop];
        if (v.getInteger() < 1 || v.getInteger() > extent)
          return error("parameter '" + p.name + "': tile size " + v.str() +
                       " is outside [1, " + llvm::Twine(extent) +
                       "] (the loop's extent)");
        if (role == "rtile" && !isLinalg)
          return error("parameter '" + p.name +
                       "': register tiles apply to linalg nests only");
        (role == "tile" ? plan.tile : plan.rtile)[*loop] =
            v.getInteger() == extent ? 0 : v.getInteger();
      } else if (role == "order") {
        if (!v.isPermutation() ||
            v.getPermutation().size() != plan.extents.size())
          return typeError(p, v,
                           "a permutation of the nest's " +
                               std::to_string(plan.extents.size()) + " loops");
        plan.order = v.getPermutation();
      } else if (role == "unroll") {
        if (!v.isInteger() || v.getInteger() < 1)
          return typeError(p, v, "a positive integer");
        plan.unroll = v.getInteger();
      } else if (role == "vectorize") {
        if (!v.isBoolean())
          return typeError(p, v, "a boolean");
        if (v.getBoolean() && !isLinalg)
          return error("parameter '" + p.name +
                       "' = true: vectorization applies to linalg nests only");
        plan.vectorize = v.getBoolean();
      } else if (role == "parallel") {
        if (!v.isBoolean())
          return typeError(p, v, "a boolean");
        plan.parallel = v.getBoolean();
      } else {
        return error("parameter '" + p.name + "' has unknown role '" + role +
                     "'");
      }
    }
    // A register tile equal to its cache tile does not tile again.
    for (NestPlan &plan : plans)
      for (size_t l = 0; l < plan.extents.size(); ++l) {
        int64_t cache = plan.tile[l] ? plan.tile[l] : plan.extents[l];
        if (plan.rtile[l] == cache)
          plan.rtile[l] = 0;
      }
    return llvm::Error::success();
  }

  llvm::Error checkFusion() {
    for (NestPlan &plan : plans) {
      if (plan.fusedInto < 0)
        continue;
      if (plan.nest->source != NestSource::Linalg ||
          plans[plan.fusedInto].nest->source != NestSource::Linalg)
        return error("parameter '" + plan.fuseParameter +
                     "' = true: only linalg nests can be fused");
      // The nest it ends up in (cycles are impossible in a producer/consumer
      // DAG, but a hand-written space could say otherwise).
      int host = plan.fusedInto;
      for (size_t steps = 0; plans[host].fusedInto >= 0; ++steps) {
        if (steps > plans.size())
          return error("parameter '" + plan.fuseParameter +
                       "' = true: the fusions form a cycle");
        host = plans[host].fusedInto;
      }
    }
    for (NestPlan &plan : plans)
      llvm::sort(plan.producers);
    return llvm::Error::success();
  }

  //===--------------------------------------------------------------------===//
  // Emission
  //===--------------------------------------------------------------------===//

  void line(const llvm::Twine &text) { os << "    " << text << "\n"; }

  std::string fresh(const std::string &stem) {
    unsigned &n = counters[stem];
    std::string name = n == 0 ? stem : stem + "_" + std::to_string(n);
    ++n;
    return name;
  }

  llvm::Expected<std::string> emit() {
    bool usesTunerOps = llvm::any_of(plans, [](const NestPlan &plan) {
      return plan.nest->source == NestSource::Affine;
    });
    os << "// Schedule of @" << tree.functionName
       << " written by the tuner; replay it with\n"
       << "//   mlir-opt "
       << (usesTunerOps ? "--load-dialect-plugin=TunerPlugin.so " : "")
       << "--transform-preload-library=transform-library-paths=<this file> "
          "--transform-interpreter\n"
          "// Tile sizes are listed by loop, 0 meaning not tiled.\n";
    os << "module attributes {transform.with_named_sequence} {\n";
    os << "  transform.named_sequence @__transform_main(%root: "
          "!transform.any_op {transform.readonly}) {\n";
    std::string name;
    llvm::raw_string_ostream nameStream(name);
    nameStream << '"';
    llvm::printEscapedString(tree.functionName, nameStream);
    nameStream << '"';
    line("%func = transform.structured.match ops{[\"func.func\"]} "
         "attributes{sym_name = " +
         name + "} in %root : " + signature(1, 1));

    // Handles to every nest, before anything moves.
    std::map<int, const NestPlan *> linalgByIndex;
    for (const NestPlan &plan : plans) {
      if (plan.nest->source == NestSource::Linalg) {
        if (plan.nest->opIndex < 0 ||
            !linalgByIndex.emplace(plan.nest->opIndex, &plan).second)
          return error("nest '" + plan.nest->name +
                       "' has an invalid or duplicate op index " +
                       llvm::Twine(plan.nest->opIndex));
        continue;
      }
      line("%" + plan.handle + " = transform.tuner.affine_nest %func index = " +
           llvm::Twine(plan.nest->opIndex) + " : " + signature(1, 1));
    }
    if (!linalgByIndex.empty()) {
      size_t count = linalgByIndex.rbegin()->first + 1;
      std::string matched =
          count == 1 ? linalgByIndex.begin()->second->handle : "linalg_ops";
      line("%" + matched +
           " = transform.structured.match interface{LinalgOp} in %func : " +
           signature(1, 1));
      if (count > 1) {
        std::vector<std::string> names;
        for (size_t i = 0; i < count; ++i) {
          auto it = linalgByIndex.find(i);
          names.push_back(it == linalgByIndex.end()
                              ? "%linalg_" + std::to_string(i)
                              : "%" + it->second->handle);
        }
        line(llvm::join(names, ", ") +
             " = transform.split_handle %linalg_ops : " + signature(1, count));
      }
    }

    for (const NestPlan &plan : plans) {
      if (plan.fusedInto >= 0)
        continue;
      llvm::Error err = plan.nest->source == NestSource::Linalg
                            ? emitLinalg(plan)
                            : emitAffine(plan);
      if (err)
        return std::move(err);
    }

    if (transformed) {
      os << "    // Cleanup.\n";
      line("transform.apply_patterns to %func {");
      line("  transform.apply_patterns.linalg.tiling_canonicalization");
      line("  transform.apply_patterns.scf.for_loop_canonicalization");
      line("  transform.apply_patterns.canonicalization");
      line("} : !transform.any_op");
      if (vectorized) {
        line("transform.apply_patterns to %func {");
        line("  transform.apply_patterns.vector.transfer_permutation_patterns");
        line("  transform.apply_patterns.vector.lower_contraction "
             "lowering_strategy = \"outerproduct\"");
        line("  transform.apply_patterns.vector.lower_outerproduct");
        line("  transform.apply_patterns.canonicalization");
        line("} : !transform.any_op");
      }
      line("transform.apply_cse to %func : !transform.any_op");
    }
    line("transform.yield");
    os << "  }\n}\n";
    return os.str();
  }

  /// One comment line describing what the config chose for `plan`.
  void describe(const NestPlan &plan) {
    std::string text = "// " + plan.nest->name + ": tile " + list(plan.tile);
    if (!isIdentity(plan.order))
      text += ", order " + list(plan.order);
    if (llvm::any_of(plan.rtile, [](int64_t s) { return s != 0; }))
      text += ", register tile " + list(plan.rtile);
    if (!plan.producers.empty()) {
      std::vector<std::string> names;
      collectFused(plan, names);
      text += ", fuse " + llvm::join(names, ", ");
    }
    if (plan.vectorize)
      text += ", vectorize";
    if (plan.unroll > 1)
      text += ", unroll " + std::to_string(plan.unroll);
    if (plan.parallel)
      text += ", parallel";
    os << "    " << text << "\n";
  }

  void collectFused(const NestPlan &plan, std::vector<std::string> &names) {
    for (int producer : plan.producers) {
      names.push_back(plans[producer].nest->name);
      collectFused(plans[producer], names);
    }
  }

  /// Emits `tile_using_for` of `target` with `sizes` in `plan`'s loop order;
  /// returns the tiled op and appends the loops to `loops`.
  std::string tileFor(const NestPlan &plan, const std::string &target,
                      llvm::ArrayRef<int64_t> sizes, llvm::StringRef stem,
                      std::vector<LoopHandle> &loops) {
    Group group{fresh(plan.handle + "_" + stem.str() + "_loops"), 0};
    std::vector<bool> loopIsReduction;
    for (int64_t dim : plan.order)
      if (sizes[dim] != 0)
        loopIsReduction.push_back(plan.isReduction[dim]);
    group.count = loopIsReduction.size();
    std::string tiled = fresh(plan.handle + "_" + stem.str());
    std::string text = "%" + tiled + ", " + group.def() +
                       " = transform.structured.tile_using_for " + target +
                       " tile_sizes " + list(sizes);
    if (!isIdentity(plan.order))
      text += " interchange = " + list(plan.order);
    line(text + " : " + signature(1, 1 + group.count));
    for (size_t i = 0; i < group.count; ++i)
      loops.push_back({group[i], loopIsReduction[i]});
    return "%" + tiled;
  }

  /// Fuses the producers of `consumer` (recursively) into `loops`, the first
  /// `fusible` tile loops of `host`.
  void fuseProducers(const NestPlan &host, const NestPlan &consumer,
                     std::vector<LoopHandle> &loops, size_t fusible) {
    for (int id : consumer.producers) {
      const NestPlan &producer = plans[id];
      std::string current = "%" + producer.handle;
      for (size_t i = 0; i < fusible; ++i) {
        std::string fused = fresh(producer.handle + "_fused");
        std::string loop = fresh(host.handle + "_loop");
        line("%" + fused + ", %" + loop +
             " = transform.structured.fuse_into_containing_op " + current +
             " into " + loops[i].ref + " : " + signature(2, 2));
        current = "%" + fused;
        loops[i].ref = "%" + loop;
      }
      fuseProducers(host, producer, loops, fusible);
    }
  }

  llvm::Error emitLinalg(const NestPlan &plan) {
    const std::string &n = plan.nest->name;
    size_t depth = plan.extents.size();
    bool tiles = llvm::any_of(plan.tile, [](int64_t s) { return s != 0; });
    bool rtiles = llvm::any_of(plan.rtile, [](int64_t s) { return s != 0; });
    if (!tiles && !rtiles && !plan.vectorize && plan.unroll == 1 &&
        plan.producers.empty())
      return llvm::Error::success();
    transformed = true;
    describe(plan);

    std::string op = "%" + plan.handle;
    std::vector<LoopHandle> loops;
    // 1. Cache tiles (forall over the parallel dims first when parallel).
    std::vector<int64_t> forSizes = plan.tile;
    size_t forallLoops = 0;
    if (plan.parallel) {
      std::vector<int64_t> forallSizes(depth, 0);
      for (size_t d = 0; d < depth; ++d)
        if (!plan.isReduction[d]) {
          forallSizes[d] = plan.tile[d];
          forSizes[d] = 0;
        }
      if (llvm::all_of(forallSizes, [](int64_t s) { return s == 0; }))
        return error("nest '" + n +
                     "' is parallel but none of its parallel loops is tiled: "
                     "there are no tiles to distribute");
      std::string tiled = fresh(plan.handle + "_tiled");
      std::string forall = fresh(plan.handle + "_forall");
      line("%" + tiled + ", %" + forall +
           " = transform.structured.tile_using_forall " + op + " tile_sizes " +
           list(forallSizes) + " : " + signature(1, 2));
      op = "%" + tiled;
      loops.push_back({"%" + forall, false});
      forallLoops = 1;
    }
    if (llvm::any_of(forSizes, [](int64_t s) { return s != 0; }))
      op = tileFor(plan, op, forSizes, "tiled", loops);

    // 2. Fusion into the tile loops outside the first reduction loop.
    if (!plan.producers.empty()) {
      size_t fusible = 0;
      while (fusible < loops.size() && !loops[fusible].isReduction)
        ++fusible;
      if (fusible == 0) {
        const NestPlan &first = plans[plan.producers.front()];
        return error("parameter '" + first.fuseParameter + "' = true: nest '" +
                     n +
                     "' has no tile loop over a parallel dim outside its "
                     "reduction loops to fuse into");
      }
      fuseProducers(plan, plan, loops, fusible);
    }

    // 3. Register tiles.
    std::vector<LoopHandle> registerLoops;
    if (rtiles)
      op = tileFor(plan, op, plan.rtile, "rtiled", registerLoops);

    // 4. Vectorization.
    if (plan.vectorize) {
      line("transform.structured.vectorize " + op +
           " {create_named_contraction} : !transform.any_op");
      vectorized = true;
    }

    // 5. Unrolling of the innermost scf.for.
    if (plan.unroll > 1) {
      const LoopHandle *innermost = nullptr;
      if (!registerLoops.empty())
        innermost = &registerLoops.back();
      else if (loops.size() > forallLoops)
        innermost = &loops.back();
      if (!innermost)
        return error("nest '" + n + "' is unrolled by " +
                     llvm::Twine(plan.unroll) +
                     " but has no scf.for loop to unroll (no loop is tiled "
                     "outside the scf.forall)");
      line("transform.loop.unroll " + innermost->ref +
           " {factor = " + llvm::Twine(plan.unroll) + "} : !transform.any_op");
    }
    return llvm::Error::success();
  }

  llvm::Error emitAffine(const NestPlan &plan) {
    size_t depth = plan.extents.size();
    bool tiles = llvm::any_of(plan.tile, [](int64_t s) { return s != 0; });
    bool interchange = !isIdentity(plan.order);
    if (!tiles && !interchange && plan.unroll == 1 && !plan.parallel)
      return llvm::Error::success();
    transformed = true;
    describe(plan);

    std::string root = "%" + plan.handle;
    if (interchange) {
      std::string next = fresh(plan.handle + "_interchanged");
      line("%" + next + " = transform.tuner.affine_interchange " + root +
           " permutation = " + list(plan.order) + " : " + signature(1, 1));
      root = "%" + next;
    }
    if (!tiles && plan.unroll == 1) {
      // Only the outermost loop is needed.
      if (plan.parallel)
        line("transform.tuner.affine_parallelize " + root + " : " +
             signature(1, 1));
      return llvm::Error::success();
    }
    // Tile sizes follow the loops to their new positions.
    std::vector<int64_t> sizes(depth);
    for (size_t position = 0; position < depth; ++position)
      sizes[position] = plan.tile[plan.order[position]];
    Group loops{fresh(plan.handle + "_loops"), 0};
    loops.count = depth + llvm::count_if(sizes, [](int64_t s) { return s; });
    line(loops.def() + " = transform.tuner.affine_tile " + root +
         " tile_sizes " + list(sizes) + " : " + signature(1, loops.count));
    if (plan.unroll > 1) {
      if (plan.parallel && loops.count == 1)
        return error("nest '" + plan.nest->name +
                     "' has a single loop: it cannot be both unrolled and "
                     "parallelized");
      line("transform.loop.unroll " + loops[loops.count - 1] +
           " {factor = " + llvm::Twine(plan.unroll) + "} : !transform.any_op");
    }
    if (plan.parallel)
      line("transform.tuner.affine_parallelize " + loops[0] + " : " +
           signature(1, 1));
    return llvm::Error::success();
  }

  const ProgramTree &tree;
  const Space &space;
  const Config &config;
  std::vector<NestPlan> plans;
  std::map<std::string, size_t> nestByName;
  std::map<std::string, unsigned> counters;
  std::string scriptText;
  llvm::raw_string_ostream os{scriptText};
  bool transformed = false;
  bool vectorized = false;
};

} // namespace

llvm::Expected<std::string> tuner::buildTransformScript(const ProgramTree &tree,
                                                        const Space &space,
                                                        const Config &config) {
  return ScriptBuilder(tree, space, config).build();
}
