# The optional GPU parts (see README "GPU target"): TUNER_ENABLE_CUDA is on by
# default where the CUDA toolkit is found (/usr/local/cuda, or CMake's
# CUDAToolkit); without it everything else builds and the GPU parts say they
# were left out. The toolkit gives cuda.h (the runtime dlopens the driver,
# so no libcuda is needed at link time) and bin/ptxas for cubins.
set(TUNER_CUDA_ROOT "" CACHE PATH "CUDA toolkit root (empty: search)")
set(_tuner_cuda_root "${TUNER_CUDA_ROOT}")
if(NOT _tuner_cuda_root AND EXISTS "/usr/local/cuda/include/cuda.h")
  set(_tuner_cuda_root "/usr/local/cuda")
endif()
if(NOT _tuner_cuda_root)
  find_package(CUDAToolkit QUIET)
  if(CUDAToolkit_FOUND)
    get_filename_component(_tuner_cuda_root "${CUDAToolkit_BIN_DIR}" DIRECTORY)
  endif()
endif()
set(_tuner_cuda_found OFF)
if(_tuner_cuda_root AND EXISTS "${_tuner_cuda_root}/include/cuda.h")
  set(_tuner_cuda_found ON)
endif()
option(TUNER_ENABLE_CUDA
       "Build the GPU parts (CUDA runtime, tuner-run --gpu)" ${_tuner_cuda_found})
if(TUNER_ENABLE_CUDA AND NOT _tuner_cuda_found)
  message(FATAL_ERROR "TUNER_ENABLE_CUDA=ON but no CUDA toolkit (cuda.h) was "
          "found: set TUNER_CUDA_ROOT or configure with TUNER_ENABLE_CUDA=OFF")
endif()
if(TUNER_ENABLE_CUDA)
  set(TUNER_CUDA_ROOT "${_tuner_cuda_root}" CACHE PATH
      "CUDA toolkit root (empty: search)" FORCE)
  set(TUNER_CUDA_INCLUDE_DIR "${TUNER_CUDA_ROOT}/include")
  set(TUNER_CUDA_BIN_DIR "${TUNER_CUDA_ROOT}/bin")
  message(STATUS "CUDA: toolkit at ${TUNER_CUDA_ROOT}; GPU parts on "
          "(TUNER_ENABLE_CUDA; the driver is loaded at run time)")
elseif(_tuner_cuda_found)
  message(STATUS "CUDA: toolkit at ${_tuner_cuda_root}, but "
          "TUNER_ENABLE_CUDA=OFF: GPU parts off")
else()
  message(STATUS "CUDA: no toolkit found (/usr/local/cuda, CUDAToolkit): "
          "GPU parts off (the CUDA runtime, tuner-run --gpu); set "
          "TUNER_CUDA_ROOT to enable them")
endif()
