//===- GpuSchedule.cpp - GPU config -> Transform-dialect script -----------===//
//
// See tuner/Schedule/GpuSchedule.h for the steps of the script.
//
//===----------------------------------------------------------------------===//

#include "tuner/Schedule/GpuSchedule.h"
#include "tuner/Space/GpuSpace.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace tuner;

namespace {

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

const char *const kDims[] = {"x", "y", "z"};

/// What a config says about one nest.
struct GpuNestPlan {
  const LoopNest *nest = nullptr;
  std::string handle;
  std::vector<int> band;
  std::vector<int64_t> extents;
  std::vector<size_t> mapped; ///< Band positions mapped to x, y, z.
  std::vector<int64_t> block, thread, reduce; ///< Per band position; 0: none.
  std::vector<size_t> promoted;               ///< Input operand indices.
  int64_t vector = 1;
  int64_t unroll = 1;

  bool configured() const { return !mapped.empty(); }
  /// Threads per block along x, y, z.
  std::vector<int64_t> blockDims() const {
    std::vector<int64_t> dims(3, 1);
    for (auto [dim, position] : llvm::enumerate(mapped))
      dims[dim] = block[position] / thread[position];
    return dims;
  }
};

class GpuScriptBuilder {
public:
  GpuScriptBuilder(const ProgramTree &tree, const Space &space,
                   const Config &config)
      : tree(tree), space(space), config(config) {}

  llvm::Expected<std::string> build() {
    if (llvm::Error err = space.check(config))
      return std::move(err);
    if (llvm::Error err = plan())
      return std::move(err);
    return emit();
  }

private:
  const ProgramTree &tree;
  const Space &space;
  const Config &config;
  std::vector<GpuNestPlan> plans;
  std::string text;
  llvm::raw_string_ostream os{text};

  void line(const llvm::Twine &s) { os << "    " << s << "\n"; }

  llvm::Error plan() {
    std::map<std::string, size_t> byName;
    for (const LoopNest &nest : tree.nests) {
      GpuNestPlan &p = plans.emplace_back();
      p.nest = &nest;
      std::string stem;
      for (char c : nest.name)
        stem.push_back(llvm::isAlnum(c) || c == '_' ? c : '_');
      p.handle = "n" + std::to_string(nest.id) + "_" + stem;
      p.band = tree.bandOf(nest.id);
      for (int loopId : p.band)
        p.extents.push_back(tree.loops[loopId].extent);
      p.block.assign(p.band.size(), 0);
      p.thread.assign(p.band.size(), 0);
      p.reduce.assign(p.band.size(), 0);
      byName[nest.name] = plans.size() - 1;
    }
    for (size_t i = 0; i < space.size(); ++i) {
      const Parameter &parameter = space[i];
      const ParamValue &value = config[i];
      auto it = byName.find(parameter.nest);
      if (it == byName.end())
        return error("parameter '" + parameter.name + "' names nest '" +
                     parameter.nest + "', which the function does not have");
      GpuNestPlan &p = plans[it->second];
      auto position = [&]() -> llvm::Expected<size_t> {
        if (parameter.loop < 0 || size_t(parameter.loop) >= p.band.size())
          return error("parameter '" + parameter.name + "': loop " +
                       llvm::Twine(parameter.loop) + " is not in the band");
        return size_t(parameter.loop);
      };
      switch (parameter.role) {
      case ParamRole::GpuBlockTile:
      case ParamRole::GpuThreadTile:
      case ParamRole::GpuReductionTile: {
        llvm::Expected<size_t> pos = position();
        if (!pos)
          return pos.takeError();
        if (!value.isInteger() || value.getInteger() < 1)
          return error("parameter '" + parameter.name +
                       "' must be a positive integer");
        std::vector<int64_t> &sizes =
            parameter.role == ParamRole::GpuBlockTile    ? p.block
            : parameter.role == ParamRole::GpuThreadTile ? p.thread
                                                         : p.reduce;
        sizes[*pos] = value.getInteger();
        break;
      }
      case ParamRole::GpuPromote:
        if (!value.isBoolean())
          return error("parameter '" + parameter.name + "' must be a boolean");
        if (value.getBoolean())
          p.promoted.push_back(size_t(parameter.loop));
        break;
      case ParamRole::GpuVectorWidth:
        p.vector = value.getInteger();
        break;
      case ParamRole::Unroll:
        p.unroll = value.getInteger();
        break;
      default:
        return error("parameter '" + parameter.name + "' has role '" +
                     stringifyParamRole(parameter.role) +
                     "', which GPU schedules do not have");
      }
    }
    for (GpuNestPlan &p : plans) {
      if (llvm::all_of(p.block, [](int64_t b) { return b == 0; }))
        continue;
      p.mapped = gpuMappedLoops(tree, *p.nest);
      for (size_t position : p.mapped)
        if (p.block[position] == 0 || p.thread[position] == 0)
          return error("nest '" + p.nest->name +
                       "': the config has no block or thread tile for loop " +
                       llvm::Twine(position));
    }
    return llvm::Error::success();
  }

  /// The shape a block copies of input `operand` per reduction step.
  std::vector<int64_t> footprint(const GpuNestPlan &p, size_t operand) const {
    std::vector<const Access *> inputs = gpuInputAccesses(tree, *p.nest);
    const Access &access = *inputs[operand];
    const Computation &comp =
        tree.computations[p.nest->computationIds.front()];
    std::vector<int64_t> shape;
    for (const std::vector<int64_t> &row : access.matrix) {
      int64_t size = 1;
      for (size_t c = 0; c + 1 < row.size() && c < comp.loopIds.size(); ++c) {
        if (row[c] == 0)
          continue;
        auto it = llvm::find(p.band, comp.loopIds[c]);
        int64_t tile = tree.loops[comp.loopIds[c]].extent;
        if (it != p.band.end()) {
          size_t position = it - p.band.begin();
          if (p.block[position])
            tile = p.block[position];
          else if (p.reduce[position])
            tile = p.reduce[position];
        }
        size += std::abs(row[c]) * (tile - 1);
      }
      shape.push_back(size);
    }
    return shape;
  }

  static int64_t largestDivisorUpTo(int64_t n, int64_t cap) {
    for (int64_t d = std::min(n, cap); d > 1; --d)
      if (n % d == 0)
        return d;
    return 1;
  }

  std::string mappingOf(const GpuNestPlan &p, llvm::StringRef kind) const {
    std::vector<std::string> mapping;
    for (size_t position = 0; position < p.band.size(); ++position) {
      auto it = llvm::find(p.mapped, position);
      if (it != p.mapped.end())
        mapping.push_back(("#gpu." + kind + "<" +
                           kDims[it - p.mapped.begin()] + ">")
                              .str());
    }
    return "(mapping = [" + llvm::join(mapping, ", ") + "])";
  }

  void describe(const GpuNestPlan &p) {
    std::vector<int64_t> block, thread, reduce;
    for (size_t position = 0; position < p.band.size(); ++position) {
      bool mapped = llvm::is_contained(p.mapped, position);
      block.push_back(mapped ? p.block[position] : 0);
      thread.push_back(mapped ? p.thread[position] : 0);
      reduce.push_back(p.reduce[position] &&
                               p.reduce[position] < p.extents[position]
                           ? p.reduce[position]
                           : 0);
    }
    std::vector<int64_t> dims = p.blockDims();
    std::string s = "// " + p.nest->name + ": block " + list(block) +
                    ", thread " + list(thread) + ", threads " + list(dims);
    if (llvm::any_of(reduce, [](int64_t r) { return r != 0; }))
      s += ", reduce " + list(reduce);
    if (!p.promoted.empty()) {
      std::vector<int64_t> promoted(p.promoted.begin(), p.promoted.end());
      s += ", shared memory " + list(promoted);
      if (p.vector > 1)
        s += " (vector " + std::to_string(p.vector) + ")";
    }
    if (p.unroll > 1)
      s += ", unroll " + std::to_string(p.unroll);
    os << "    " << s << "\n";
  }

  /// Tiling on tensors: blocks, the reduction loop, promotion, threads,
  /// unrolling.
  void emitTiling(const GpuNestPlan &p) {
    describe(p);
    const std::string &h = p.handle;
    std::vector<int64_t> blockSizes(p.band.size(), 0),
        threadSizes(p.band.size(), 0), reduceSizes(p.band.size(), 0);
    for (size_t position : p.mapped) {
      blockSizes[position] = p.block[position];
      threadSizes[position] = p.thread[position];
    }
    for (size_t position = 0; position < p.band.size(); ++position)
      if (p.reduce[position] && p.reduce[position] < p.extents[position])
        reduceSizes[position] = p.reduce[position];
    line("%" + h + "_b, %" + h +
         "_blocks = transform.structured.tile_using_forall %" + h +
         " tile_sizes " + list(blockSizes) + " " + mappingOf(p, "block") +
         " : (!transform.any_op) -> (!transform.any_op, !transform.any_op)");
    std::string op = "%" + h + "_b";
    size_t reductionLoops =
        llvm::count_if(reduceSizes, [](int64_t s) { return s != 0; });
    if (reductionLoops) {
      std::vector<std::string> types(1 + reductionLoops, "!transform.any_op");
      line("%" + h + "_r, %" + h + "_steps:" + std::to_string(reductionLoops) +
           " = transform.structured.tile_using_for " + op + " tile_sizes " +
           list(reduceSizes) + " : (!transform.any_op) -> (" +
           llvm::join(types, ", ") + ")");
      op = "%" + h + "_r";
    }
    for (size_t operand : p.promoted) {
      std::string value = "%" + h + "_in" + std::to_string(operand);
      line(value + " = transform.get_operand " + op + "[" +
           std::to_string(operand) +
           "] : (!transform.any_op) -> !transform.any_value");
      line(value + "_shared = transform.structured.promote_tensor to "
                   "#gpu.address_space<workgroup> " +
           value + " : !transform.any_value");
    }
    line("%" + h + "_t, %" + h +
         "_threads = transform.structured.tile_using_forall " + op +
         " tile_sizes " + list(threadSizes) + " " + mappingOf(p, "thread") +
         " : (!transform.any_op) -> (!transform.any_op, !transform.any_op)");
    if (p.unroll > 1) {
      int innermost = -1;
      for (size_t position = 0; position < p.band.size(); ++position)
        if (tree.loops[p.band[position]].isReduction)
          innermost = int(position);
      std::vector<int64_t> unit(p.band.size(), 0);
      unit[innermost] = 1;
      line("%" + h + "_k, %" + h + "_kloop = transform.structured.tile_using_for %" +
           h + "_t tile_sizes " + list(unit) +
           " : (!transform.any_op) -> (!transform.any_op, !transform.any_op)");
      line("transform.loop.unroll %" + h + "_kloop {factor = " +
           std::to_string(p.unroll) + "} : !transform.any_op");
    }
    // Found again after bufferization by this mark.
    line("transform.annotate %" + h + "_blocks \"tuner.gpu_nest_" +
         std::to_string(p.nest->id) + "\" : !transform.any_op");
  }

  /// On buffers: the copies into shared memory over the threads, then the
  /// mapping onto blocks and threads.
  void emitMapping(const GpuNestPlan &p) {
    const std::string &h = p.handle;
    std::vector<int64_t> dims = p.blockDims();
    line("%" + h + "_grid = transform.structured.match ops{[\"scf.forall\"]} "
                   "attributes{tuner.gpu_nest_" +
         std::to_string(p.nest->id) +
         "} in %func_buffers : (!transform.any_op) -> !transform.any_op");
    if (!p.promoted.empty()) {
      size_t count = p.promoted.size();
      std::string copies = "%" + h + "_copies";
      line(copies + " = transform.structured.match ops{[\"linalg.copy\"]} in %" +
           h + "_grid : (!transform.any_op) -> !transform.any_op");
      std::vector<std::string> names;
      for (size_t i = 0; i < count; ++i)
        names.push_back("%" + h + "_copy" + std::to_string(i));
      if (count > 1)
        line(llvm::join(names, ", ") + " = transform.split_handle " + copies +
             " : (!transform.any_op) -> (" +
             llvm::join(std::vector<std::string>(count, "!transform.any_op"),
                        ", ") +
             ")");
      else
        names[0] = copies;
      for (auto [i, operand] : llvm::enumerate(p.promoted)) {
        std::vector<int64_t> shape = footprint(p, operand);
        size_t rank = shape.size();
        std::vector<int64_t> sizes(rank, 0);
        std::vector<std::string> mapping;
        for (size_t k = 0; k < std::min<size_t>(rank, 3); ++k) {
          size_t d = rank - 1 - k;
          int64_t width = k == 0 ? p.vector : 1;
          int64_t threads = largestDivisorUpTo(shape[d] / width, dims[k]);
          sizes[d] = shape[d] / threads;
          mapping.insert(mapping.begin(),
                         std::string("#gpu.thread<") + kDims[k] + ">");
        }
        std::string tiled = "%" + h + "_copy" + std::to_string(i) + "_t";
        line(tiled + ", %" + h + "_copy" + std::to_string(i) +
             "_forall = transform.structured.tile_using_forall " + names[i] +
             " tile_sizes " + list(sizes) + " (mapping = [" +
             llvm::join(mapping, ", ") +
             "]) : (!transform.any_op) -> (!transform.any_op, "
             "!transform.any_op)");
        if (p.vector > 1)
          line("transform.structured.vectorize " + tiled +
               " : !transform.any_op");
      }
      // The copies' transfers as 1-D vector loads and stores, which the
      // NVVM lowering takes.
      if (p.vector > 1) {
        line("transform.apply_patterns to %func_buffers {");
        line("  transform.apply_patterns.vector.transfer_to_scf "
             "max_transfer_rank = 1 full_unroll = true");
        line("  transform.apply_patterns.vector.lower_transfer "
             "max_transfer_rank = 1");
        line("} : !transform.any_op");
      }
    }
    line("%" + h + "_launch = transform.gpu.map_forall_to_blocks %" + h +
         "_grid generate_gpu_launch : (!transform.any_op) -> "
         "!transform.any_op");
    line("transform.gpu.map_nested_forall_to_threads %" + h +
         "_launch block_dims = " + list(dims) +
         " warp_size = 32 : (!transform.any_op) -> !transform.any_op");
  }

  void cleanup(llvm::StringRef func) {
    line("transform.apply_cse to " + func + " : !transform.any_op");
    line("transform.apply_patterns to " + func + " {");
    line("  transform.apply_patterns.linalg.tiling_canonicalization");
    line("  transform.apply_patterns.canonicalization");
    line("} : !transform.any_op");
    line("transform.apply_cse to " + func + " : !transform.any_op");
  }

  llvm::Expected<std::string> emit() {
    os << "// GPU schedule of @" << tree.functionName
       << " written by the tuner; replay it with\n"
       << "//   mlir-opt --load-dialect-plugin=TunerPlugin.so "
          "--transform-preload-library=transform-library-paths=<this file> "
          "--transform-interpreter\n"
          "// Sizes are listed by loop, 0 meaning not tiled; threads are "
          "[x, y, z].\n";
    os << "module attributes {transform.with_named_sequence} {\n";
    os << "  transform.named_sequence @__transform_main(%root: "
          "!transform.any_op {transform.consumed}) {\n";
    std::string name;
    llvm::raw_string_ostream nameStream(name);
    nameStream << '"';
    llvm::printEscapedString(tree.functionName, nameStream);
    nameStream << '"';
    line("%func = transform.structured.match ops{[\"func.func\"]} "
         "attributes{sym_name = " +
         name + "} in %root : (!transform.any_op) -> !transform.any_op");
    std::map<int, const GpuNestPlan *> byIndex;
    for (const GpuNestPlan &p : plans)
      if (p.configured() &&
          !byIndex.emplace(p.nest->opIndex, &p).second)
        return error("nest '" + p.nest->name + "' has a duplicate op index");
    if (byIndex.empty())
      return error("the config maps no nest of @" + tree.functionName +
                   " onto the GPU");
    int count = 0;
    for (const LoopNest &nest : tree.nests)
      count = std::max(count, nest.opIndex + 1);
    if (count == 1) {
      line("%" + byIndex.begin()->second->handle +
           " = transform.structured.match interface{LinalgOp} in %func : "
           "(!transform.any_op) -> !transform.any_op");
    } else {
      line("%linalg_ops = transform.structured.match interface{LinalgOp} in "
           "%func : (!transform.any_op) -> !transform.any_op");
      std::vector<std::string> names;
      for (int i = 0; i < count; ++i) {
        auto it = byIndex.find(i);
        names.push_back(it == byIndex.end() ? "%linalg_" + std::to_string(i)
                                            : "%" + it->second->handle);
      }
      line(llvm::join(names, ", ") +
           " = transform.split_handle %linalg_ops : (!transform.any_op) -> (" +
           llvm::join(std::vector<std::string>(count, "!transform.any_op"),
                      ", ") +
           ")");
    }
    for (const auto &[index, p] : byIndex)
      emitTiling(*p);
    cleanup("%func");
    os << "    // Bufferization: function arguments and results become "
          "memrefs, copies linalg.copy.\n";
    line("%buffers = transform.bufferization.one_shot_bufferize %root "
         "{bufferize_function_boundaries = true, "
         "function_boundary_type_conversion = 1 : i32, memcpy_op = "
         "\"linalg.copy\"} : (!transform.any_op) -> !transform.any_op");
    line("%func_buffers = transform.structured.match ops{[\"func.func\"]} "
         "attributes{sym_name = " +
         name + "} in %buffers : (!transform.any_op) -> !transform.any_op");
    cleanup("%func_buffers");
    os << "    // Blocks and threads.\n";
    for (const auto &[index, p] : byIndex)
      emitMapping(*p);
    cleanup("%func_buffers");
    os << "    // Results as out-params, device buffers, shared memory.\n";
    line("transform.tuner.gpu_finalize %buffers : !transform.any_op");
    line("transform.yield");
    os << "  }\n}\n";
    return os.str();
  }
};

} // namespace

llvm::Expected<std::string>
tuner::buildGpuTransformScript(const ProgramTree &tree, const Space &space,
                               const Config &config) {
  return GpuScriptBuilder(tree, space, config).build();
}
