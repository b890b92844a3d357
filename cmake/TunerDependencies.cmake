# Finds LLVM/MLIR 22 (Debian's packages under /usr/lib/llvm-22), GoogleTest,
# Eigen, LBFGS++, SQLite and XGBoost.
set(TUNER_LLVM_ROOT "/usr/lib/llvm-22" CACHE PATH "LLVM/MLIR 22 install prefix")
list(APPEND CMAKE_PREFIX_PATH "${TUNER_LLVM_ROOT}")

find_package(MLIR REQUIRED CONFIG
             HINTS "${TUNER_LLVM_ROOT}/lib/cmake/mlir")
message(STATUS "Using MLIRConfig.cmake in: ${MLIR_DIR}")
message(STATUS "Using LLVMConfig.cmake in: ${LLVM_DIR}")

list(APPEND CMAKE_MODULE_PATH "${MLIR_CMAKE_DIR}" "${LLVM_CMAKE_DIR}")
set(LLVM_RUNTIME_OUTPUT_INTDIR ${CMAKE_BINARY_DIR}/bin)
set(LLVM_LIBRARY_OUTPUT_INTDIR ${CMAKE_BINARY_DIR}/lib)
set(MLIR_BINARY_DIR ${CMAKE_BINARY_DIR})
include(TableGen)
include(AddLLVM)
include(AddMLIR)

include_directories(SYSTEM ${LLVM_INCLUDE_DIRS} ${MLIR_INCLUDE_DIRS})
separate_arguments(TUNER_LLVM_DEFINITIONS NATIVE_COMMAND "${LLVM_DEFINITIONS}")
add_definitions(${TUNER_LLVM_DEFINITIONS})

# Debian's LLVM cmake points at a missing llvm-lit.
set(LLVM_EXTERNAL_LIT "${TUNER_LLVM_ROOT}/bin/lit" CACHE FILEPATH "lit" FORCE)
set(TUNER_MLIR_TOOLS_DIR "${TUNER_LLVM_ROOT}/bin")

find_package(Eigen3 3.3 REQUIRED NO_MODULE)
# LBFGS++ (Debian: liblbfgspp-dev) is header-only: its L-BFGS-B fits the
# hyperparameters of Bayesian optimization's Gaussian processes.
find_path(LBFGSPP_INCLUDE_DIR LBFGSB.h PATH_SUFFIXES include)
if(NOT LBFGSPP_INCLUDE_DIR)
  message(FATAL_ERROR "LBFGS++ (LBFGSB.h) not found: install liblbfgspp-dev "
                      "(scripts/install-deps.sh) or set LBFGSPP_INCLUDE_DIR")
endif()
find_package(SQLite3 REQUIRED)
# XGBoost's C API (Debian: libxgboost-dev, 1.7) trains and runs the cost
# model's gradient-boosted trees (lib/CostModel/GradientBoostedTrees.cpp).
# Required: scripts/install-deps.sh installs it. (Debian's XGBoostConfig.cmake
# names a command-line tool the package does not ship, so find the header
# and library directly.)
find_path(XGBOOST_INCLUDE_DIR xgboost/c_api.h)
find_library(XGBOOST_LIBRARY NAMES xgboost)
if(NOT XGBOOST_INCLUDE_DIR OR NOT XGBOOST_LIBRARY)
  message(FATAL_ERROR "XGBoost (xgboost/c_api.h, libxgboost) not found: "
                      "install libxgboost-dev (scripts/install-deps.sh) or set "
                      "XGBOOST_INCLUDE_DIR and XGBOOST_LIBRARY")
endif()
add_library(TunerXGBoost INTERFACE)
target_include_directories(TunerXGBoost SYSTEM INTERFACE ${XGBOOST_INCLUDE_DIR})
target_link_libraries(TunerXGBoost INTERFACE ${XGBOOST_LIBRARY})
message(STATUS "Using XGBoost: ${XGBOOST_LIBRARY}")
find_package(GTest REQUIRED)
find_package(Threads REQUIRED)

# LLVM/MLIR are built without RTTI: our subclasses of their classes must be too.
if(NOT LLVM_ENABLE_RTTI)
  add_compile_options(-fno-rtti)
endif()
