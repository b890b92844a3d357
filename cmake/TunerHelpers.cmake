include(Layering)

# add_tuner_library(name SOURCES... [MLIR] [LINK libs...])
# Declares one library of the data flow, a target of the library of its folder
# (lib/<Lib>). Libraries that touch IR pass MLIR and link the shared
# libMLIR.so, so that TunerPlugin.so loads into stock mlir-opt. The target
# sees only the headers cmake/Layering.txt allows its library (and MLIR's
# only with MLIR), and is built after the layering check.
function(add_tuner_library name)
  cmake_parse_arguments(ARG "MLIR" "" "SOURCES;LINK;DEPENDS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_compile_options(${name} PRIVATE -Wall -Wextra -Wno-unused-parameter)
  if(ARG_MLIR)
    target_link_libraries(${name} PUBLIC MLIR LLVM)
  else()
    target_link_libraries(${name} PUBLIC LLVM)
  endif()
  if(ARG_LINK)
    target_link_libraries(${name} PUBLIC ${ARG_LINK})
  endif()
  get_filename_component(lib "${CMAKE_CURRENT_SOURCE_DIR}" NAME)
  if(ARG_MLIR)
    tuner_layering_apply(${name} ${lib} MLIR)
  else()
    tuner_layering_apply(${name} ${lib})
  endif()
  if(ARG_DEPENDS)
    add_dependencies(${name} ${ARG_DEPENDS})
  endif()
endfunction()

# tuner_unsanitized(target): builds `target` without the sanitizers of a
# TUNER_SANITIZE build (for the harness child, see tools/tuner-run).
function(tuner_unsanitized target)
  get_target_property(options ${target} COMPILE_OPTIONS)
  if(options)
    list(REMOVE_ITEM options ${TUNER_SANITIZER_FLAGS})
    set_property(TARGET ${target} PROPERTY COMPILE_OPTIONS ${options})
  endif()
  get_target_property(type ${target} TYPE)
  if(NOT type STREQUAL "STATIC_LIBRARY")
    get_target_property(links ${target} LINK_OPTIONS)
    if(links)
      list(REMOVE_ITEM links -fsanitize=address,undefined)
      set_property(TARGET ${target} PROPERTY LINK_OPTIONS "${links}")
    endif()
  endif()
endfunction()

# tuner_unsanitized_copy(name original LINK libs...): a static library `name`
# built from the sources of the library `original` (same include paths),
# without sanitizers, linking `libs`.
function(tuner_unsanitized_copy name original)
  cmake_parse_arguments(ARG "" "" "LINK" ${ARGN})
  get_target_property(sources ${original} SOURCES)
  get_target_property(dir ${original} SOURCE_DIR)
  list(TRANSFORM sources PREPEND "${dir}/")
  add_library(${name} STATIC ${sources})
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_include_directories(${name} PRIVATE
    $<TARGET_PROPERTY:${original},INCLUDE_DIRECTORIES>)
  target_link_libraries(${name} PUBLIC ${ARG_LINK})
  tuner_unsanitized(${name})
endfunction()
