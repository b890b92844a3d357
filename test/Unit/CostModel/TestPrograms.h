//===- TestPrograms.h - Hand-made program trees for the tests ---*- C++ -*-===//

#ifndef TUNER_TEST_UNIT_COSTMODEL_TESTPROGRAMS_H
#define TUNER_TEST_UNIT_COSTMODEL_TESTPROGRAMS_H

#include "tuner/Analysis/ProgramTree.h"
#include "tuner/CostModel/Dataset.h"
#include "tuner/CostModel/Training.h"
#include "tuner/Space/Space.h"
#include "tuner/Space/SpaceBuilder.h"
#include "tuner/Target/Target.h"

#include "llvm/Support/Error.h"

#include "gtest/gtest.h"

#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace tuner::test {

/// Builds ProgramTrees of perfectly nested linalg-style nests, one
/// computation each.
class TreeBuilder {
public:
  explicit TreeBuilder(std::string function) {
    tree.functionName = std::move(function);
  }

  int buffer(std::vector<int64_t> shape) {
    Buffer b;
    b.id = int(tree.buffers.size());
    b.name = "%b" + std::to_string(b.id);
    b.shape = std::move(shape);
    b.elementType = ElementType::F32;
    b.isTensor = true;
    tree.buffers.push_back(b);
    return b.id;
  }

  /// An access of `bufferId` whose dimension d is indexed by loop
  /// dims[d] (-1: constant 0) of a nest of `depth` loops.
  static Access access(int bufferId, std::vector<int> dims, size_t depth,
                       bool isWrite = false) {
    Access a;
    a.bufferId = bufferId;
    a.isWrite = isWrite;
    for (int dim : dims) {
      std::vector<int64_t> row(depth + 1, 0);
      if (dim >= 0)
        row[dim] = 1;
      a.matrix.push_back(row);
    }
    return a;
  }

  /// Adds a nest of loops with `extents` (reduction where `reduction`), its
  /// computation writing `written`; returns the computation id.
  int nest(const std::string &name, std::vector<int64_t> extents,
           std::vector<bool> reduction, int written,
           std::vector<Access> accesses, OpCounts ops,
           NestSource source = NestSource::Linalg) {
    LoopNest n;
    n.id = int(tree.nests.size());
    n.name = name;
    n.source = source;
    n.opIndex = source == NestSource::Linalg ? linalgOps++ : affineNests++;
    Computation comp;
    comp.id = int(tree.computations.size());
    comp.name = name + ".s0";
    comp.opName = "linalg.generic";
    comp.writtenBufferId = written;
    comp.writtenShape = tree.buffers[written].shape;
    comp.elementType = ElementType::F32;
    comp.accesses = std::move(accesses);
    comp.opCounts = ops;
    comp.nestId = n.id;
    int parent = -1;
    for (size_t d = 0; d < extents.size(); ++d) {
      Loop loop;
      loop.id = int(tree.loops.size());
      loop.name = name + ".d" + std::to_string(d);
      loop.extent = extents[d];
      loop.isReduction = reduction[d];
      loop.isParallel = !reduction[d];
      loop.parentId = parent;
      loop.depth = int(d);
      if (parent >= 0)
        tree.loops[parent].children.push_back({true, loop.id});
      else
        tree.rootLoopIds.push_back(loop.id);
      comp.loopIds.push_back(loop.id);
      parent = loop.id;
      tree.loops.push_back(loop);
    }
    if (parent >= 0)
      tree.loops[parent].children.push_back({false, comp.id});
    n.rootLoopId = comp.loopIds.empty() ? -1 : comp.loopIds.front();
    n.computationIds = {comp.id};
    n.outerLoopParallel = !reduction.empty() && !reduction.front();
    tree.nests.push_back(n);
    tree.computations.push_back(comp);
    return comp.id;
  }

  void edge(int producer, int consumer, int bufferId, bool intoInit) {
    tree.edges.push_back({producer, consumer, bufferId, true, intoInit});
  }

  ProgramTree tree;

private:
  int linalgOps = 0, affineNests = 0;
};

/// fill(C) then C += A * B, for an M x N x K matmul.
inline ProgramTree fillMatmul(int64_t m, int64_t n, int64_t k) {
  TreeBuilder b("mm");
  int a = b.buffer({m, k}), bb = b.buffer({k, n}), c = b.buffer({m, n});
  int fill = b.nest("fill", {m, n}, {false, false}, c,
                    {TreeBuilder::access(c, {0, 1}, 2, true)}, OpCounts());
  OpCounts ops;
  ops.add = 1;
  ops.mul = 1;
  int mm = b.nest("matmul", {m, n, k}, {false, false, true}, c,
                  {TreeBuilder::access(a, {0, 2}, 3),
                   TreeBuilder::access(bb, {2, 1}, 3),
                   TreeBuilder::access(c, {0, 1}, 3),
                   TreeBuilder::access(c, {0, 1}, 3, true)},
                  ops);
  b.edge(fill, mm, c, /*intoInit=*/true);
  return b.tree;
}

/// out = relu(in + bias) on an M x N tensor (one elementwise nest).
inline ProgramTree elementwise(int64_t m, int64_t n) {
  TreeBuilder b("ew");
  int in = b.buffer({m, n}), bias = b.buffer({n}), out = b.buffer({m, n});
  OpCounts ops;
  ops.add = 1;
  ops.other = 1;
  b.nest("relu", {m, n}, {false, false}, out,
         {TreeBuilder::access(in, {0, 1}, 2), TreeBuilder::access(bias, {1}, 2),
          TreeBuilder::access(out, {0, 1}, 2, true)},
         ops);
  return b.tree;
}

/// A two-core target with AVX-512-sized vectors.
inline Target testTarget() {
  Target target;
  target.cpu = "test-cpu";
  target.cores = 2;
  target.vectorBits = 512;
  target.numVectorRegisters = 32;
  return target;
}

inline Space spaceOf(const ProgramTree &tree) {
  llvm::Expected<Space> space = buildSpace(tree, testTarget());
  EXPECT_TRUE(bool(space)) << llvm::toString(space.takeError());
  return space ? std::move(*space) : Space();
}

/// The default config of `space` with the named values replaced.
inline Config configOf(const Space &space,
                       const std::map<std::string, ParamValue> &values) {
  Config config = space.defaultConfig();
  for (const auto &[name, value] : values) {
    std::optional<size_t> index = space.indexOf(name);
    EXPECT_TRUE(index.has_value()) << "no parameter " << name;
    if (index)
      config[*index] = value;
  }
  return config;
}

inline ParamValue integer(int64_t v) { return ParamValue::integer(v); }
inline ParamValue boolean(bool v) { return ParamValue::boolean(v); }
inline ParamValue order(std::vector<int64_t> v) {
  return ParamValue::permutation(std::move(v));
}

/// Random configs of `space` that vary its tile sizes (the rest default),
/// keeping those in the space.
inline std::vector<Config> randomTilings(const Space &space, unsigned count,
                                         std::mt19937_64 &rng) {
  std::vector<Config> configs;
  for (unsigned attempt = 0; configs.size() < count && attempt < 20 * count;
       ++attempt) {
    Config config = space.defaultConfig();
    for (size_t i = 0; i < space.size(); ++i) {
      const Parameter &p = space[i];
      if (p.role == ParamRole::Tile)
        config[i] = p.values[rng() % p.values.size()];
    }
    if (llvm::Error err = space.check(config))
      llvm::consumeError(std::move(err));
    else
      configs.push_back(config);
  }
  return configs;
}

/// The configs of the samples of program `id`, in the dataset's order.
inline std::vector<Config> sampledConfigs(const Dataset &dataset,
                                          llvm::StringRef id) {
  std::vector<Config> configs;
  for (const SampleRecord &sample : dataset.samples)
    if (sample.programId == id)
      configs.push_back(sample.config);
  return configs;
}

/// A dataset of `programs` programs (matmuls and elementwise ops of several
/// sizes) with `samples` random tilings each, labeled by a smooth function
/// of the tile sizes.
inline Dataset syntheticDataset(unsigned programs, unsigned samples,
                                uint64_t seed) {
  Dataset dataset;
  std::mt19937_64 rng(seed);
  for (unsigned p = 0; p < programs; ++p) {
    ProgramRecord program;
    program.id = "p" + std::to_string(p);
    int64_t size = int64_t(8) << (p % 3);
    program.tree =
        p % 2 ? elementwise(size, 2 * size) : fillMatmul(size, 2 * size, size);
    program.space = spaceOf(program.tree);
    program.generator = "unit test";
    program.baselineSeconds = 1e-3;
    program.target = "test-cpu";
    for (const Config &config : randomTilings(program.space, samples, rng)) {
      double logSpeedup = 0;
      for (size_t i = 0; i < program.space.size(); ++i) {
        const Parameter &param = program.space[i];
        if (param.role != ParamRole::Tile)
          continue;
        double tile = double(config[i].getInteger());
        logSpeedup +=
            0.3 * std::log2(tile) - 0.04 * std::log2(tile) * std::log2(tile);
      }
      SampleRecord sample;
      sample.programId = program.id;
      sample.config = config;
      sample.status = Status::Ok;
      sample.speedup = std::exp(logSpeedup);
      sample.medianSeconds = program.baselineSeconds / sample.speedup;
      dataset.samples.push_back(sample);
    }
    dataset.programs.push_back(std::move(program));
  }
  return dataset;
}

/// Training options for a network small and short enough to train in
/// milliseconds: for tests that need a model, not a good one.
inline TrainingOptions tinyTrainingOptions() {
  TrainingOptions options;
  options.shape.computationLayers = {6};
  options.shape.embedding = 4;
  options.shape.mergeLayers = {4};
  options.shape.regressionLayers = {4};
  options.epochs = 2;
  return options;
}

} // namespace tuner::test

#endif // TUNER_TEST_UNIT_COSTMODEL_TESTPROGRAMS_H
