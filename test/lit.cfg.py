# -*- Python -*-
import os
import sys

import lit.formats
from lit.llvm import llvm_config

config.name = "tuner"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "Unit", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tuner_obj_root, "test")

llvm_config.use_default_substitutions()

sys.path.insert(0, os.path.dirname(__file__))
import lit_sanitizers
lit_sanitizers.configure(config)
import lit_cuda
lit_cuda.configure(config)
# Our tools first, then LLVM 22's (FileCheck, not, mlir-opt, mlir-runner).
llvm_config.with_environment("PATH", config.mlir_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.tuner_tools_dir, append_path=True)

config.substitutions.append(("%tuner_plugin",
                             os.path.join(config.tuner_lib_dir, "TunerPlugin.so")))
config.substitutions.append(("%mlir_lib_dir", config.mlir_lib_dir))
config.substitutions.append(("%runner_utils",
                             os.path.join(config.mlir_lib_dir, "libmlir_runner_utils.so")))
config.substitutions.append(("%c_runner_utils",
                             os.path.join(config.mlir_lib_dir, "libmlir_c_runner_utils.so")))
mlir_opt = os.path.join(config.mlir_tools_dir, "mlir-opt")
if config.tuner_sanitized:
    # Stock mlir-opt is not sanitized: the shared ASan runtime, preloaded,
    # serves the sanitized plugin it loads (mlir-opt's own leaks are not ours).
    mlir_opt = "env LD_PRELOAD=%s ASAN_OPTIONS=%s:detect_leaks=0 %s" % (
        config.tuner_asan_runtime,
        config.environment["ASAN_OPTIONS"].replace("detect_leaks=1:", ""),
        mlir_opt)
config.substitutions.append(("%mlir_opt", mlir_opt))
config.substitutions.append(("%src_root", config.tuner_src_root))
config.substitutions.append(("%tuner_bin", config.tuner_tools_dir))
config.substitutions.append(("%tuner_opt", os.path.join(config.tuner_tools_dir, "tuner-opt")))
config.substitutions.append(("%tuner_train", os.path.join(config.tuner_tools_dir, "tuner-train")))

