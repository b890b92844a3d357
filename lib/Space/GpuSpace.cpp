//===- GpuSpace.cpp - The schedule space of a program on a GPU ------------===//

#include "tuner/Space/GpuSpace.h"
#include "tuner/Space/SpaceBuilder.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace tuner;

namespace {

/// Largest block tile offered per loop.
constexpr int64_t kMaxBlockTile = 512;
/// Largest reduction tile offered (besides the whole loop).
constexpr int64_t kMaxReductionTile = 64;
/// Thread tiles offered (those that divide the extent).
constexpr int64_t kThreadTiles[] = {1, 2, 4, 8, 16};
/// Vector widths offered for the copies into shared memory.
constexpr int64_t kVectorWidths[] = {1, 2, 4};
/// Registers a thread needs besides its accumulators and operands
/// (addresses, indices, loop counters): part of the register estimate.
constexpr int64_t kRegisterOverhead = 32;
/// CUDA's limit on the threads of a block along z.
constexpr int64_t kMaxThreadsZ = 64;
/// CUDA's limit on the blocks of a grid along y and z.
constexpr int64_t kMaxGridYZ = 65535;

const char *const kDims[] = {"x", "y", "z"};

/// Divisors of `extent` up to `cap`, at most `limit` of them spread evenly
/// in log scale (the smallest and the largest kept).
std::vector<int64_t> divisorCandidates(int64_t extent, int64_t cap,
                                       unsigned limit) {
  std::vector<int64_t> divisors;
  for (int64_t d = 1; d <= extent && d <= cap; ++d)
    if (extent % d == 0)
      divisors.push_back(d);
  return spreadInLogScale(std::move(divisors), limit);
}


/// The largest candidate at most `goal` (the smallest when none is).
int64_t largestUpTo(llvm::ArrayRef<int64_t> candidates, int64_t goal) {
  int64_t best = candidates.front();
  for (int64_t c : candidates)
    if (c <= goal)
      best = c;
  return best;
}

class GpuBuilder {
public:
  GpuBuilder(const ProgramTree &tree, const Target &target,
             const SpaceOptions &options)
      : tree(tree), target(target), options(options) {}

  llvm::Expected<Space> build() {
    if (tree.nests.empty())
      return llvm::createStringError(
          "function @" + tree.functionName +
          " has no loop nest to tune (no linalg op, no affine.for)");
    space.attributes["function"] = tree.functionName;
    space.attributes["target"] = target.fingerprint();
    space.attributes["target-kind"] = "gpu";
    for (const LoopNest &nest : tree.nests)
      if (auto err = addNest(nest))
        return std::move(err);
    if (space.size() == 0)
      return llvm::createStringError(
          "function @" + tree.functionName +
          " has no loop nest that runs: nothing to map onto the GPU");
    return std::move(space);
  }

private:
  const ProgramTree &tree;
  const Target &target;
  const SpaceOptions &options;
  Space space;

  llvm::Error add(Parameter parameter, const LoopNest &nest, ParamRole role,
                  int64_t loop = -1) {
    parameter.role = role;
    parameter.nest = nest.name;
    parameter.loop = loop;
    return space.addParameter(std::move(parameter));
  }

  llvm::Error constrain(const std::string &text) {
    return space.addConstraint(text);
  }

  llvm::Error addNest(const LoopNest &nest) {
    if (nest.source != NestSource::Linalg)
      return llvm::createStringError(
          "nest '" + nest.name +
          "' is an affine loop nest: GPU schedules map linalg ops onto "
          "blocks and threads (write it as a linalg op, or tune it for a "
          "CPU target)");
    std::vector<int> band = tree.bandOf(nest.id);
    if (band.empty() || zeroTripLoop(tree, nest))
      return llvm::Error::success();
    if (nest.computationIds.size() != 1)
      return llvm::createStringError("nest '" + nest.name +
                                     "' has several computations: a GPU "
                                     "schedule maps one linalg op");
    const Computation &comp = tree.computations[nest.computationIds.front()];
    std::vector<size_t> mapped = gpuMappedLoops(tree, nest);
    if (mapped.empty())
      return llvm::createStringError(
          "nest '" + nest.name + "' (" + comp.opName +
          ") has no parallel loop to map onto GPU threads (a full "
          "reduction): GPU schedules distribute parallel loops");
    const std::string &n = nest.name;
    const GpuTarget &gpu = target.gpu;

    // Per band position: the expression of the tile a block covers per
    // reduction step ("" for loops that keep their extent).
    std::vector<std::string> blockTile(band.size());
    std::vector<std::string> threadTile(band.size());
    std::vector<std::string> reduceTile(band.size());

    // Block and thread tiles of the mapped loops, x first.
    std::vector<std::string> threadsPerDim;
    for (auto [dim, position] : llvm::enumerate(mapped)) {
      const Loop &loop = tree.loops[band[position]];
      std::vector<int64_t> blocks = divisorCandidates(
          loop.extent, kMaxBlockTile, options.maxTileCandidates);
      std::string blockName = llvm::formatv("{0}.block.l{1}", n, position);
      Parameter block =
          Parameter::ordinal(blockName, integerValues(blocks), /*logScale=*/true);
      block.defaultValue = ParamValue::integer(
          largestUpTo(blocks, dim == 0 ? 32 : dim == 1 ? 4 : 1));
      block.description = llvm::formatv(
          "tile of loop {0} (extent {1}) one thread block computes "
          "(mapped to {2})",
          loop.name, loop.extent, kDims[dim]);
      if (auto err = add(std::move(block), nest, ParamRole::GpuBlockTile,
                         position))
        return err;

      std::vector<int64_t> threads;
      for (int64_t t : kThreadTiles)
        if (loop.extent % t == 0)
          threads.push_back(t);
      std::string threadName = llvm::formatv("{0}.thread.l{1}", n, position);
      Parameter thread =
          Parameter::ordinal(threadName, integerValues(threads), /*logScale=*/true);
      thread.defaultValue = ParamValue::integer(1);
      thread.description = llvm::formatv(
          "tile of loop {0} one thread computes inside its block's tile",
          loop.name);
      if (auto err = add(std::move(thread), nest, ParamRole::GpuThreadTile,
                         position))
        return err;
      if (auto err = constrain(blockName + " % " + threadName + " == 0"))
        return err;
      blockTile[position] = blockName;
      threadTile[position] = threadName;
      threadsPerDim.push_back("(" + blockName + " / " + threadName + ")");
      if (dim == 2)
        if (auto err = constrain(threadsPerDim.back() + " <= " +
                                 std::to_string(kMaxThreadsZ)))
          return err;
      if (dim > 0 && loop.extent > kMaxGridYZ)
        if (auto err = constrain(std::to_string(loop.extent) + " / " +
                                 blockName +
                                 " <= " + std::to_string(kMaxGridYZ)))
          return err;
    }
    std::string threads = llvm::join(threadsPerDim, " * ");
    if (auto err = constrain(threads + " <= " +
                             std::to_string(gpu.maxThreadsPerBlock) + " && " +
                             threads + " % " + std::to_string(gpu.warpSize) +
                             " == 0"))
      return err;

    // Reduction tiles.
    int innermostReduction = -1;
    for (auto [position, loopId] : llvm::enumerate(band)) {
      const Loop &loop = tree.loops[loopId];
      if (!loop.isReduction)
        continue;
      innermostReduction = int(position);
      if (loop.extent <= 1)
        continue;
      std::vector<int64_t> tiles = divisorCandidates(
          loop.extent, kMaxReductionTile, options.maxTileCandidates);
      if (tiles.back() != loop.extent)
        tiles.push_back(loop.extent);
      std::string name = llvm::formatv("{0}.reduce.l{1}", n, position);
      Parameter reduce =
          Parameter::ordinal(name, integerValues(tiles), /*logScale=*/true);
      reduce.defaultValue = ParamValue::integer(largestUpTo(tiles, 16));
      reduce.description = llvm::formatv(
          "tile of reduction loop {0} (extent {1}) a block stages per step "
          "of its serial loop; the extent means one step",
          loop.name, loop.extent);
      if (auto err =
              add(std::move(reduce), nest, ParamRole::GpuReductionTile,
                  position))
        return err;
      reduceTile[position] = name;
    }

    // Unroll of the innermost reduction loop, per thread.
    std::string unrollName;
    if (options.unroll && innermostReduction >= 0) {
      int64_t extent = tree.loops[band[innermostReduction]].extent;
      std::vector<int64_t> factors;
      for (int64_t f : options.unrollFactors)
        if (f >= 1 && f <= extent && extent % f == 0)
          factors.push_back(f);
      if (factors.size() > 1) {
        unrollName = n + ".unroll";
        Parameter unroll = Parameter::ordinal(unrollName, integerValues(factors));
        unroll.defaultValue = ParamValue::integer(factors.front());
        unroll.description = "unroll factor of the innermost reduction loop "
                             "each thread runs";
        if (auto err = add(std::move(unroll), nest, ParamRole::Unroll))
          return err;
        if (!reduceTile[innermostReduction].empty())
          if (auto err = constrain(reduceTile[innermostReduction] + " % " +
                                   unrollName + " == 0"))
            return err;
      }
    }

    // Promotion of the inputs to shared memory, and the copies' vector
    // width.
    std::vector<const Access *> inputs = gpuInputAccesses(tree, nest);
    std::vector<std::string> sharedTerms, promoteNames;
    std::vector<std::pair<std::string, std::string>> vectorRules;
    for (auto [operand, access] : llvm::enumerate(inputs)) {
      if (access->matrix.empty() || !access->isAffine)
        continue;
      // Reads at constant offsets (a stencil's shifted neighbours) are not
      // promoted: their copies did not distribute over the threads in the
      // space's property test (--tuner-check-space).
      if (llvm::any_of(access->matrix, [](const std::vector<int64_t> &row) {
            return !row.empty() && row.back() != 0;
          }))
        continue;
      unsigned bytes =
          elementTypeBytes(tree.buffers[access->bufferId].elementType);
      if (bytes == 0)
        continue;
      // The extent of each buffer dim a block reads per reduction step.
      std::vector<std::string> rows;
      std::string innermost;
      bool plainInnermost = false;
      for (auto [d, row] : llvm::enumerate(access->matrix)) {
        std::vector<std::string> terms;
        int loops = 0;
        // The tile itself when the dim is one loop with coefficient 1.
        std::string plainLoopTile;
        for (size_t c = 0; c + 1 < row.size(); ++c) {
          if (row[c] == 0 || c >= comp.loopIds.size())
            continue;
          ++loops;
          auto it = llvm::find(band, comp.loopIds[c]);
          size_t position = it - band.begin();
          std::string tile;
          if (it != band.end() && !blockTile[position].empty())
            tile = blockTile[position];
          else if (it != band.end() && !reduceTile[position].empty())
            tile = reduceTile[position];
          else
            tile = std::to_string(tree.loops[comp.loopIds[c]].extent);
          int64_t coefficient = std::abs(row[c]);
          plainLoopTile = coefficient == 1 ? tile : std::string();
          terms.push_back((coefficient == 1 ? "" : std::to_string(coefficient) +
                                                       " * ") +
                          "(" + tile + " - 1)");
          if (d + 1 == access->matrix.size())
            plainInnermost = loops == 1 && coefficient == 1;
        }
        std::string size =
            terms.empty() ? "1"
            : loops == 1 && terms.front().rfind("(", 0) == 0 &&
                    plainLoopTile.size()
                ? plainLoopTile
                : "(1 + " + llvm::join(terms, " + ") + ")";
        rows.push_back(size);
        if (d + 1 == access->matrix.size())
          innermost = size;
      }
      std::string name = llvm::formatv("{0}.promote.o{1}", n, operand);
      Parameter promote = Parameter::boolean(name);
      promote.defaultValue = ParamValue::boolean(false);
      promote.description = llvm::formatv(
          "copy input operand {0} into shared memory per reduction step",
          operand);
      if (auto err = add(std::move(promote), nest, ParamRole::GpuPromote,
                         int64_t(operand)))
        return err;
      promoteNames.push_back(name);
      sharedTerms.push_back(name + " * " + llvm::join(rows, " * ") + " * " +
                            std::to_string(bytes));
      const std::vector<int64_t> &shape = tree.buffers[access->bufferId].shape;
      bool alignedRows = !shape.empty() && shape.back() % 4 == 0;
      vectorRules.push_back(
          {name, plainInnermost && alignedRows ? innermost : std::string()});
    }
    if (!sharedTerms.empty())
      if (auto err = constrain(llvm::join(sharedTerms, " + ") +
                               " <= " +
                               std::to_string(gpu.sharedMemoryPerBlock)))
        return err;
    if (options.vectorize && !promoteNames.empty()) {
      std::string name = n + ".vector";
      Parameter vector = Parameter::ordinal(name, integerValues(kVectorWidths),
                                            /*logScale=*/true);
      vector.defaultValue = ParamValue::integer(1);
      vector.description = "elements each thread copies per access into "
                           "shared memory (vector loads)";
      if (auto err = add(std::move(vector), nest, ParamRole::GpuVectorWidth))
        return err;
      // Only with a promoted operand, and only where every promoted
      // operand's rows are whole vectors.
      if (auto err = constrain(name + " == 1 || " +
                               llvm::join(promoteNames, " || ")))
        return err;
      for (const auto &[promote, innermost] : vectorRules)
        if (auto err = constrain(
                "!" + promote + " || " +
                (innermost.empty() ? name + " == 1"
                                   : innermost + " % " + name + " == 0")))
          return err;
    }

    // Registers per thread: the accumulators of its output tile, the
    // operands of each unrolled reduction step, and a fixed overhead.
    std::vector<std::string> accumulators, operands;
    for (auto [position, loopId] : llvm::enumerate(band)) {
      const Loop &loop = tree.loops[loopId];
      if (loop.isReduction)
        continue;
      if (!threadTile[position].empty()) {
        accumulators.push_back(threadTile[position]);
        operands.push_back(threadTile[position]);
      } else if (loop.extent > 1) {
        accumulators.push_back(std::to_string(loop.extent));
      }
    }
    std::string registers =
        "(" + (accumulators.empty() ? "1" : llvm::join(accumulators, " * ")) +
        " + " + (unrollName.empty() ? "" : unrollName + " * ") + "(" +
        llvm::join(operands, " + ") + ") + " +
        std::to_string(kRegisterOverhead) + ")";
    if (auto err = constrain(registers + " <= " +
                             std::to_string(gpu.registersPerThread) + " && " +
                             registers + " * " + threads +
                             " <= " + std::to_string(gpu.registersPerBlock)))
      return err;
    return llvm::Error::success();
  }
};

} // namespace

std::vector<size_t> tuner::gpuMappedLoops(const ProgramTree &tree,
                                          const LoopNest &nest) {
  std::vector<int> band = tree.bandOf(nest.id);
  std::vector<size_t> mapped;
  for (size_t position = band.size(); position-- > 0 && mapped.size() < 3;) {
    const Loop &loop = tree.loops[band[position]];
    if (!loop.isReduction && loop.extent > 1)
      mapped.push_back(position);
  }
  return mapped;
}

std::vector<const Access *> tuner::gpuInputAccesses(const ProgramTree &tree,
                                                    const LoopNest &nest) {
  std::vector<const Access *> inputs;
  if (nest.computationIds.size() != 1)
    return inputs;
  const Computation &comp = tree.computations[nest.computationIds.front()];
  for (const Access &access : comp.accesses) {
    bool written = llvm::any_of(comp.accesses, [&](const Access &other) {
      return other.isWrite && other.bufferId == access.bufferId;
    });
    if (!access.isWrite && !written)
      inputs.push_back(&access);
  }
  return inputs;
}

llvm::Expected<Space> tuner::buildGpuSpace(const ProgramTree &tree,
                                           const Target &target,
                                           const SpaceOptions &options) {
  return GpuBuilder(tree, target, options).build();
}

bool tuner::isGpuSpace(const Space &space) {
  return llvm::any_of(space.getParameters(), [](const Parameter &p) {
    return p.role == ParamRole::GpuBlockTile;
  });
}
