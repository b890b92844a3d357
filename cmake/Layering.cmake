# The layering of the libraries (DESIGN.md, "Libraries"), enforced by the
# build from one table, cmake/Layering.txt:
#  - TunerLayeringCheck runs cmake/check-layering.py over lib/ and
#    include/tuner/ whenever a source or the table changes; every library
#    depends on it, so a forbidden include fails the build with its
#    file:line, the include and the rule;
#  - tuner_layering_apply() gives a library target the include paths it may
#    use: the folders of include/tuner/ of the libraries it may include, and
#    the MLIR headers only to MLIR targets;
#  - tuner_layering_check_links() checks that no library links one it may
#    not include, and that no target without MLIR links an MLIR one.
find_package(Python3 REQUIRED COMPONENTS Interpreter)

set(TUNER_LAYERING_TABLE "${CMAKE_CURRENT_LIST_DIR}/Layering.txt")
set(TUNER_LAYERING_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/check-layering.py")
set(TUNER_LAYERING_DIR "${CMAKE_BINARY_DIR}/layering")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             "${TUNER_LAYERING_TABLE}")

# Read the table: TUNER_LAYERS (the libraries) and, for each library L,
# TUNER_LAYER_USES_<L> (the libraries it may include). The script checks the
# rows; here they only decide include paths and links.
set(TUNER_LAYERS)
file(STRINGS "${TUNER_LAYERING_TABLE}" _tuner_rows)
foreach(row IN LISTS _tuner_rows)
  string(REGEX REPLACE "#.*" "" row "${row}")
  if(NOT row MATCHES "^ *([A-Za-z]+) *\\|([^|]*)\\|")
    continue()
  endif()
  set(lib "${CMAKE_MATCH_1}")
  string(STRIP "${CMAKE_MATCH_2}" uses)
  separate_arguments(uses UNIX_COMMAND "${uses}")
  list(REMOVE_ITEM uses "-")
  list(APPEND TUNER_LAYERS ${lib})
  set(TUNER_LAYER_USES_${lib} ${uses})
endforeach()

# One folder of links per library, <build>/layering/<L>/tuner/<X> ->
# include/tuner/<X> for L and each X it may include, so that it finds no
# other header of ours.
file(REMOVE_RECURSE "${TUNER_LAYERING_DIR}")
foreach(lib IN LISTS TUNER_LAYERS)
  file(MAKE_DIRECTORY "${TUNER_LAYERING_DIR}/${lib}/tuner")
  foreach(used IN ITEMS ${lib} ${TUNER_LAYER_USES_${lib}})
    if(IS_DIRECTORY "${PROJECT_SOURCE_DIR}/include/tuner/${used}")
      file(CREATE_LINK "${PROJECT_SOURCE_DIR}/include/tuner/${used}"
           "${TUNER_LAYERING_DIR}/${lib}/tuner/${used}" SYMBOLIC)
    endif()
  endforeach()
endforeach()

# The LLVM headers without the MLIR ones for targets without MLIR. Debian's
# packages install both in one folder (/usr/lib/llvm-22/include): such a
# folder is replaced by one with links to its llvm/ and llvm-c/ only.
set(TUNER_LLVM_ONLY_INCLUDE_DIRS)
foreach(dir IN LISTS LLVM_INCLUDE_DIRS)
  if(dir IN_LIST MLIR_INCLUDE_DIRS)
    set(shim "${TUNER_LAYERING_DIR}/llvm-only")
    file(MAKE_DIRECTORY "${shim}")
    foreach(sub llvm llvm-c)
      if(IS_DIRECTORY "${dir}/${sub}")
        file(CREATE_LINK "${dir}/${sub}" "${shim}/${sub}" SYMBOLIC)
      endif()
    endforeach()
    list(APPEND TUNER_LLVM_ONLY_INCLUDE_DIRS "${shim}")
  else()
    list(APPEND TUNER_LLVM_ONLY_INCLUDE_DIRS "${dir}")
  endif()
endforeach()

# The check, rerun when a file of lib/ or include/tuner/ or the table
# changes (and when a file is added: the glob is redone by every build).
file(GLOB_RECURSE _tuner_layering_sources CONFIGURE_DEPENDS
     "${PROJECT_SOURCE_DIR}/lib/*.h" "${PROJECT_SOURCE_DIR}/lib/*.cpp"
     "${PROJECT_SOURCE_DIR}/lib/*.def" "${PROJECT_SOURCE_DIR}/lib/*.inc"
     "${PROJECT_SOURCE_DIR}/include/tuner/*.h"
     "${PROJECT_SOURCE_DIR}/include/tuner/*.def"
     "${PROJECT_SOURCE_DIR}/include/tuner/*.inc")
add_custom_command(
  OUTPUT "${TUNER_LAYERING_DIR}/check.stamp"
  COMMAND "${Python3_EXECUTABLE}" "${TUNER_LAYERING_SCRIPT}"
          "${PROJECT_SOURCE_DIR}" --table "${TUNER_LAYERING_TABLE}"
  COMMAND "${CMAKE_COMMAND}" -E touch "${TUNER_LAYERING_DIR}/check.stamp"
  DEPENDS "${TUNER_LAYERING_SCRIPT}" "${TUNER_LAYERING_TABLE}"
          ${_tuner_layering_sources}
  COMMENT "Checking the layering of lib/ and include/tuner/ (cmake/Layering.txt)"
  VERBATIM)
add_custom_target(TunerLayeringCheck
  DEPENDS "${TUNER_LAYERING_DIR}/check.stamp")

# tuner_layering_apply(target library [MLIR])
# Gives a library target the include paths its row of the table allows and
# makes it wait for the layering check.
function(tuner_layering_apply target lib)
  cmake_parse_arguments(ARG "MLIR" "" "" ${ARGN})
  if(NOT lib IN_LIST TUNER_LAYERS)
    message(FATAL_ERROR "${target}: library ${lib} (folder lib/${lib}) is "
            "not in ${TUNER_LAYERING_TABLE}: add a row for it")
  endif()
  target_include_directories(${target} PRIVATE "${TUNER_LAYERING_DIR}/${lib}")
  if(ARG_MLIR)
    # Our TableGen output (include/tuner/<L>/*.inc in the build tree) is
    # MLIR code too.
    target_include_directories(${target} PRIVATE "${PROJECT_BINARY_DIR}/include")
    target_include_directories(${target} SYSTEM PRIVATE
                               ${LLVM_INCLUDE_DIRS} ${MLIR_INCLUDE_DIRS})
  else()
    target_include_directories(${target} SYSTEM PRIVATE
                               ${TUNER_LLVM_ONLY_INCLUDE_DIRS})
  endif()
  set_property(GLOBAL APPEND PROPERTY TUNER_LIBRARY_TARGETS ${target})
  set_property(TARGET ${target} PROPERTY TUNER_LAYER ${lib})
  set_property(TARGET ${target} PROPERTY TUNER_MLIR ${ARG_MLIR})
  add_dependencies(${target} TunerLayeringCheck)
endfunction()

# Checks the links between library targets against the table; called once
# every library is declared.
function(tuner_layering_check_links)
  get_property(targets GLOBAL PROPERTY TUNER_LIBRARY_TARGETS)
  foreach(target IN LISTS targets)
    get_target_property(lib ${target} TUNER_LAYER)
    get_target_property(mlir ${target} TUNER_MLIR)
    get_target_property(links ${target} LINK_LIBRARIES)
    foreach(link IN LISTS links)
      if(NOT link IN_LIST targets)
        continue()
      endif()
      get_target_property(used ${link} TUNER_LAYER)
      get_target_property(link_mlir ${link} TUNER_MLIR)
      if(NOT used STREQUAL lib AND NOT used IN_LIST TUNER_LAYER_USES_${lib})
        message(SEND_ERROR "${target} (${lib}) links ${link} (${used}), but "
                "${lib} must not include ${used} (${TUNER_LAYERING_TABLE})")
      elseif(link_mlir AND NOT mlir)
        message(SEND_ERROR "${target} (${lib}) has no MLIR but links ${link}, "
                "an MLIR target: declare ${target} with MLIR or link the "
                "plain part of ${used}")
      endif()
    endforeach()
  endforeach()
endfunction()
