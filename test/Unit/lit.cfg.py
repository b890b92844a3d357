# -*- Python -*-
# Runs every GoogleTest binary named *Tests under test/Unit of the build tree.
import os
import sys

import lit.formats

config.name = "tuner-unit"
config.suffixes = []
config.test_source_root = os.path.join(config.tuner_obj_root, "test", "Unit")
config.test_exec_root = config.test_source_root
config.test_format = lit.formats.GoogleTest(".", "Tests")

sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))
import lit_sanitizers
lit_sanitizers.configure(config)
import lit_cuda
lit_cuda.configure(config)
