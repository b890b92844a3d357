//===- GpuSchedule.h - GPU config -> Transform-dialect script ---*- C++ -*-===//
//
// Turns a Config of a GPU space (tuner/Space/GpuSpace.h) into a Transform
// script that, per linalg nest: tiles it with tile_using_forall onto
// #gpu.block dims, tiles its reduction loops with tile_using_for (a serial
// loop per block), promotes the chosen inputs to workgroup memory
// (promote_tensor), tiles it onto #gpu.thread dims, unrolls the innermost
// reduction loop; then bufferizes the function (one-shot, function
// boundaries, identity layouts, copies as linalg.copy), distributes the
// copies into shared memory over the threads (vectorized with the vector
// width), maps the foralls with map_forall_to_blocks (generate_gpu_launch)
// and map_nested_forall_to_threads (barriers after each distributed loop),
// and ends with transform.tuner.gpu_finalize (results as out-params, device
// buffers, workgroup attributions). The result: memref functions whose
// computations sit in gpu.launch ops.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_SCHEDULE_GPUSCHEDULE_H
#define TUNER_SCHEDULE_GPUSCHEDULE_H

#include "tuner/Analysis/ProgramTree.h"
#include "tuner/Space/Space.h"

#include "llvm/Support/Error.h"

#include <string>

namespace tuner {

/// Builds the GPU script for `config` (which must be in `space`, a space of
/// buildGpuSpace: checked, with an error naming the parameter and value).
llvm::Expected<std::string> buildGpuTransformScript(const ProgramTree &tree,
                                                    const Space &space,
                                                    const Config &config);

} // namespace tuner

#endif // TUNER_SCHEDULE_GPUSCHEDULE_H
