//===- GpuSpace.h - The schedule space of a program on a GPU ----*- C++ -*-===//
//
// The space of GPU schedules of a ProgramTree's linalg nests, for a target
// of kind "gpu" (buildSpace dispatches here). Per nest `N`, with the
// innermost parallel loop of its band mapped to x, the next to y and the
// next to z (at most three; other parallel loops are not distributed):
//
//   N.block.lK    GpuBlockTile      the tile of loop K one thread block
//                                   computes (divisors of the extent)
//   N.thread.lK   GpuThreadTile     the tile of loop K one thread computes
//   N.reduce.lK   GpuReductionTile  the tile of reduction loop K staged per
//                                   step of the block's serial loop
//   N.promote.oI  GpuPromote        copy input operand I into shared memory
//                                   per reduction step
//   N.vector      GpuVectorWidth    elements per thread and access of those
//                                   copies
//   N.unroll      Unroll            unroll of the innermost reduction loop
//
// Known constraints, from the GpuTarget: block % thread == 0; threads per
// block (the product of block / thread) at most the target's limit and a
// multiple of the warp size (at most 64 along z); the shared memory of the
// promoted operands within the limit per block; an estimate of registers
// per thread within the limit and, times the threads, per block.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_SPACE_GPUSPACE_H
#define TUNER_SPACE_GPUSPACE_H

#include "tuner/Analysis/ProgramTree.h"
#include "tuner/Space/Space.h"
#include "tuner/Target/Target.h"

#include <vector>

namespace tuner {

struct SpaceOptions;

/// The band positions of `nest`'s parallel loops that a GPU schedule maps
/// onto the x, y and z dims of blocks and threads, x (the innermost parallel
/// loop) first; loops of extent 1 are left out. At most three.
std::vector<size_t> gpuMappedLoops(const ProgramTree &tree,
                                   const LoopNest &nest);

/// The input accesses of a linalg nest's computation that may be promoted
/// to shared memory: the reads of buffers it does not write, in operand
/// order (the index in this list is the operand index of the promote
/// parameter).
std::vector<const Access *> gpuInputAccesses(const ProgramTree &tree,
                                             const LoopNest &nest);

/// Builds the GPU space (see above). Fails, naming the nest, on an affine
/// nest, a nest of several computations, or one without a parallel loop.
llvm::Expected<Space> buildGpuSpace(const ProgramTree &tree,
                                    const Target &target,
                                    const SpaceOptions &options);

/// Whether `space` was built by buildGpuSpace (its parameters have GPU
/// roles).
bool isGpuSpace(const Space &space);

} // namespace tuner

#endif // TUNER_SPACE_GPUSPACE_H
