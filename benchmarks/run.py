#!/usr/bin/env python3
"""Tune the benchmark kernels and tabulate them against C references and peers.

For each kernel in benchmarks/kernels/ (or the ones named), in turn, and for
each thread count of --threads (e.g. `--threads 1,2`: one table per count):

  1. tune it: `tuner-opt KERNEL --tuner-autotune="budget=N seed=S
     strategy=X database=<fresh file> summary-output=<json>" -o tuned.mlir`
     (or, with --no-tune, only measure the untuned kernel: lower it, compile
     it and time it with reference/mlir_driver.c);
  2. build and time its C reference (benchmarks/reference/<kernel>.c) with
     `clang-22 -O3 -march=native` and with Polly (`-mllvm -polly`), both one
     thread and measured once per kernel, with Polly parallel (plus `-mllvm
     -polly-parallel -fopenmp`) and, where the reference has a BLAS variant
     (matmul, 2mm), with OpenBLAS and with BLIS (a separate binary, against
     BLIS's own cblas.h and libblis), and where it has a oneDNN variant
     (convolution, conv_relu), with a oneDNN convolution primitive;
  3. where benchmarks/halide/ has a generator for it, autoschedule it with
     Halide's Adams2019 and Mullapudi2016 autoschedulers (parallelism = the
     thread count), compile it ahead of time and time it with
     benchmarks/halide/driver.c;
  4. with --check, compare the outputs of the untuned (and tuned) kernel and
     of every peer with the C reference's on the same deterministic inputs.

Every multi-threaded program runs with the thread count in OMP_NUM_THREADS,
OPENBLAS_NUM_THREADS, BLIS_NUM_THREADS and HL_NUM_THREADS. A peer that is not
installed is shown as "—" with a note (`--list-peers` says what was found).
Then it prints a Markdown table per thread count with the machine and the
command line. Kernels run one at a time, never in parallel. Standard library
only.
"""

import argparse
import array
import ast
import datetime
import json
import math
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from machine import machine_record

BENCH_DIR = Path(__file__).resolve().parent
REPO_DIR = BENCH_DIR.parent
KERNEL_DIR = BENCH_DIR / "kernels"
REFERENCE_DIR = BENCH_DIR / "reference"
HALIDE_DIR = BENCH_DIR / "halide"
LLVM_BIN = Path("/usr/lib/llvm-22/bin")

# The measured columns after the tuner's, in table order: (key, heading).
# "c_o3" and "polly" run one thread and are measured once per kernel; the
# others run with each thread count of --threads.
COLUMNS = [
    ("c_o3", "C -O3"), ("polly", "Polly"), ("polly_parallel", "Polly parallel"),
    ("openblas", "OpenBLAS"), ("blis", "BLIS"), ("onednn", "oneDNN"),
    ("halide_adams2019", "Halide Adams2019"),
    ("halide_mullapudi2016", "Halide Mullapudi2016"),
]
SINGLE_THREADED = ("c_o3", "polly")
PEERS = ("openblas", "blis", "onednn", "halide_adams2019",
         "halide_mullapudi2016")
# What --columns accepts besides the keys above.
COLUMN_GROUPS = {
    "all": ["baseline"] + [key for key, _ in COLUMNS],
    "c": ["c_o3", "polly", "polly_parallel"],
    "peers": list(PEERS),
    "halide": ["halide_adams2019", "halide_mullapudi2016"],
}
# The Halide autoschedulers: column key -> (name for -s, plugin library).
HALIDE_SCHEDULERS = {
    "halide_adams2019": ("Adams2019", "libautoschedule_adams2019.so"),
    "halide_mullapudi2016": ("Mullapudi2016",
                             "libautoschedule_mullapudi2016.so"),
}

# The measurement lowering of lib/Measure/Lowering.cpp
# (buildCpuLoweringPipeline), spelled as a textual pipeline for stock
# mlir-opt. Used only when tuner-opt (which registers it as
# --tuner-lower-cpu) is not built; keep the two in step.
STOCK_LOWERING = ",".join([
    "one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map}",
    "buffer-results-to-out-params{hoist-static-allocs modify-public-functions}",
    "buffer-deallocation-pipeline", "canonicalize", "cse",
    "convert-bufferization-to-memref",
    "func.func(convert-linalg-to-loops)", "scf-forall-to-parallel",
    "func.func(lower-vector-mask)",
    "func.func(lower-vector-multi-reduction{lowering-strategy=inner-parallel})",
    "convert-vector-to-scf{full-unroll}", "lower-affine",
    "convert-scf-to-openmp", "canonicalize", "cse", "func.func(arith-expand)",
    "convert-vector-to-llvm{vector-contract-lowering=outerproduct}",
    "convert-math-to-llvm", "convert-math-to-libm", "expand-strided-metadata",
    "lower-affine", "finalize-memref-to-llvm", "convert-scf-to-cf",
    "func.func(llvm-request-c-wrappers)", "convert-openmp-to-llvm",
    "convert-func-to-llvm", "convert-arith-to-llvm", "convert-cf-to-llvm",
    "convert-index-to-llvm", "convert-ub-to-llvm",
    "reconcile-unrealized-casts",
])

# Outputs agree when max |a - b| <= CHECK_TOLERANCE * max(1, max |reference|):
# the kernels' reductions are at most a few thousand terms long, so
# reassociation (vectorized or reordered reductions, FMA contraction) stays
# far below this.
CHECK_TOLERANCE = 1e-4


class BenchError(Exception):
    """A step of one kernel failed; the message says which and why."""


# ----------------------------------------------------------------------------
# Kernels


class Kernel:
    """One kernel file: its function, buffers, shape line and flop count."""

    def __init__(self, path, reference_dir=REFERENCE_DIR):
        self.path = path
        self.name = path.stem
        self.reference = reference_dir / (self.name + ".c")
        text = path.read_text()
        self.shape = self._header(text, "shape")
        self.flops = _evaluate_flops(self._header(text, "flops"), path)
        self.function, self.args, self.results = _parse_signature(text, path)
        # Extra --tuner-autotune options this kernel needs, e.g. a longer
        # timeout for a slow baseline.
        extra = re.search(r"^//\s*autotune:\s*(.+)$", text, re.M)
        self.autotune_options = extra.group(1).strip() if extra else ""
        # The Halide generator, when it is not benchmarks/halide/<kernel>.cpp.
        halide = re.search(r"^//\s*halide:\s*(\S+)\s*$", text, re.M)
        self.halide_name = halide.group(1) if halide else None

    def _header(self, text, key):
        match = re.search(r"^//\s*%s:\s*(.+)$" % key, text, re.M)
        if not match:
            raise BenchError("%s: no '// %s:' header line" % (self.path, key))
        return match.group(1).strip()

    @property
    def buffers(self):
        """Shapes of the lowered function's memrefs: arguments, then results."""
        return [shape for _, shape in self.args] + [s for s in self.results]

    @property
    def compared(self):
        """Indices of the output buffers: memref arguments and results."""
        written = [i for i, (kind, _) in enumerate(self.args)
                   if kind == "memref"]
        return written + [len(self.args) + i for i in range(len(self.results))]

    @property
    def has_blas(self):
        return "USE_BLAS" in self.reference.read_text()

    @property
    def has_dnnl(self):
        return "USE_DNNL" in self.reference.read_text()

    @property
    def halide_generator(self):
        """benchmarks/halide/<name>.cpp, where <name> is the kernel's, or the
        one its `// halide: <name>` header line names (a kernel of another
        folder reusing a shipped generator on its own shapes); None if there
        is no such file."""
        name = self.halide_name or self.name
        source = HALIDE_DIR / (name + ".cpp")
        return source if source.exists() else None


_TYPE = re.compile(r"(tensor|memref)<((?:\d+x)+)f32>")


def _parse_signature(text, path):
    """The one public func.func's name, (kind, shape) arguments and result
    shapes; every argument and result must be a static f32 tensor/memref."""
    funcs = re.findall(r"func\.func\s+(?!private)@(\w+)\s*\(", text)
    if len(funcs) != 1:
        raise BenchError("%s: expected one public func.func, found %d"
                         % (path, len(funcs)))
    start = re.search(r"func\.func\s+@%s\s*\(" % funcs[0], text).end()
    depth, i = 1, start
    while depth:
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        i += 1
    params = text[start:i - 1]
    body = text.index("{", i)
    results_text = text[i:body]
    args = []
    for param in re.findall(r"%\w+\s*:\s*([^,]+(?:<[^>]*>)?)", params):
        match = _TYPE.fullmatch(param.strip())
        if not match:
            raise BenchError("%s: argument type '%s' is not a static f32 "
                             "tensor or memref" % (path, param.strip()))
        args.append((match.group(1), match.group(2)[:-1]))
    results = [m.group(2)[:-1] for m in _TYPE.finditer(results_text)]
    if results_text.count("<") != len(results):
        raise BenchError("%s: results '%s' are not all static f32 tensors or "
                         "memrefs" % (path, results_text.strip()))
    return funcs[0], args, results


def _evaluate_flops(expression, path):
    """Evaluates an integer expression of + - * and parentheses."""
    def walk(node):
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        if isinstance(node, ast.BinOp) and isinstance(
                node.op, (ast.Add, ast.Sub, ast.Mult)):
            left, right = walk(node.left), walk(node.right)
            if isinstance(node.op, ast.Add):
                return left + right
            if isinstance(node.op, ast.Sub):
                return left - right
            return left * right
        raise BenchError("%s: flops expression '%s' may only use integers, "
                         "+, -, * and parentheses" % (path, expression))
    try:
        return walk(ast.parse(expression, mode="eval"))
    except SyntaxError as error:
        raise BenchError("%s: bad flops expression '%s': %s"
                         % (path, expression, error))


# ----------------------------------------------------------------------------
# Processes


def run(command, env=None, timeout=None, what=None):
    """Runs `command`; returns its stdout, or raises BenchError with stderr."""
    # The build tree is shared: a tool being relinked by a concurrent build
    # cannot be executed for a moment, so that is retried a few times.
    for attempt in range(4):
        try:
            done = subprocess.run(command, env=env, timeout=timeout,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
            break
        except subprocess.TimeoutExpired:
            raise BenchError("%s timed out after %s s: %s" % (
                what or command[0], timeout, shlex.join(command)))
        except OSError as error:
            if attempt == 3 or not os.path.exists(command[0]) and \
                    not shutil.which(command[0]):
                raise BenchError("cannot run %s: %s" % (command[0], error))
            time.sleep(10)
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines()
        # MLIR tools follow an error with the failing IR: show the errors.
        errors = [line for line in lines if re.search(r"\berror\b", line)]
        tail = "\n".join(errors[:5] if errors else lines[-15:])
        raise BenchError("%s failed (exit %d): %s\n%s"
                         % (what or command[0], done.returncode,
                            shlex.join(command), tail))
    return done.stdout


def last_json(output, what):
    for line in reversed(output.strip().splitlines()):
        line = line.strip()
        if line.startswith("{"):
            return json.loads(line)
    raise BenchError("%s printed no JSON result" % what)


class Tools:
    """The compilers and tools, checked once."""

    def __init__(self, args):
        self.tuner_opt = Path(args.tuner_opt)
        self.clang = shutil.which(args.clang) or args.clang
        # For the Halide generators only.
        self.cxx_name = args.cxx
        self.cxx = shutil.which(args.cxx)
        self.mlir_opt = str(LLVM_BIN / "mlir-opt")
        self.mlir_translate = str(LLVM_BIN / "mlir-translate")
        for tool in (self.clang, self.mlir_opt, self.mlir_translate):
            if not os.access(tool, os.X_OK):
                raise BenchError("missing tool: %s" % tool)
        self.tuner_help = ""
        if os.access(self.tuner_opt, os.X_OK):
            self.tuner_help = run([str(self.tuner_opt), "--help"],
                                  what="tuner-opt --help")

    def require_autotune(self):
        if not self.tuner_help:
            raise BenchError(
                "%s is not built: build it with `flock /tmp/tuner-build.lock "
                "ninja -C %s tuner-opt`, or pass --no-tune to measure only "
                "the untuned kernels" % (self.tuner_opt, REPO_DIR / "build"))
        if "--tuner-autotune" not in self.tuner_help:
            raise BenchError(
                "%s has no --tuner-autotune pass (it is not built in yet): "
                "pass --no-tune to measure only the untuned kernels"
                % self.tuner_opt)

    @property
    def lowering(self):
        """How kernels are lowered for the driver, as words."""
        if "--tuner-lower-cpu" in self.tuner_help:
            return "tuner-opt --tuner-lower-cpu"
        return "stock mlir-opt (copy of the --tuner-lower-cpu pipeline)"

    def lower(self, module, out_dir, stem, env):
        """module.mlir -> stem.so holding _mlir_ciface_<function>."""
        lowered = out_dir / (stem + ".llvm.mlir")
        if "--tuner-lower-cpu" in self.tuner_help:
            command = [str(self.tuner_opt), str(module), "--tuner-lower-cpu"]
        else:
            command = [self.mlir_opt, str(module),
                       "--pass-pipeline=builtin.module(%s)" % STOCK_LOWERING]
        run(command + ["-o", str(lowered)], env=env, what="lowering " + stem)
        ll = out_dir / (stem + ".ll")
        run([self.mlir_translate, "--mlir-to-llvmir", str(lowered), "-o",
             str(ll)], env=env, what="mlir-translate " + stem)
        library = out_dir / (stem + ".so")
        # MLIR's C runner utils hold memrefCopy, which a copy between
        # buffers of dynamic shape (a partial tile) lowers to; the tuner's
        # own harness links them the same way.
        runtime = Path("/usr/lib/llvm-22/lib")
        run([self.clang, "-O3", "-march=native", "-shared", "-fPIC",
             "-fopenmp", "-Wno-override-module", str(ll), "-o",
             str(library), "-L%s" % runtime, "-Wl,-rpath,%s" % runtime,
             "-lmlir_c_runner_utils"], env=env, what="compiling " + stem)
        return library


# ----------------------------------------------------------------------------
# Peers: what is installed


class Peer:
    """One peer column: whether it can run here, and how to build it."""

    def __init__(self, key):
        self.key = key
        self.label = dict(COLUMNS)[key]
        self.available = False
        self.note = ""      # what was found, or why it cannot run
        self.flags = []     # extra compiler flags of the reference variant
        self.libs = []      # extra link flags
        self.info = {}      # paths and versions, for the JSON

    def missing(self, why):
        self.available = False
        self.note = why
        return self

    def found(self, note):
        self.available = True
        self.note = note
        return self


def probe(clang, source, flags, libs):
    """Compiles and runs a small C program; returns its stdout, or raises
    BenchError with the compiler's or the program's complaint."""
    with tempfile.TemporaryDirectory(prefix="run-py-probe-") as folder:
        path = Path(folder) / "probe.c"
        path.write_text(source)
        binary = Path(folder) / "probe"
        run([clang, "-O1"] + flags + [str(path), "-o", str(binary)] + libs,
            what="a probe")
        return run([str(binary)], what="a probe", timeout=60)


SGEMM_PROBE = """#include <cblas.h>
#include <stdio.h>
%s
int main(void) {
  float a = 2, b = 3, c = 0;
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 1, 1, 1, 1.0f, &a, 1,
              &b, 1, 0.0f, &c, 1);
  if (c != 6.0f)
    return 1;
  %s
  return 0;
}
"""


def multiarch_dirs(base, pattern):
    """base/<multiarch>/pattern, this machine's multiarch first."""
    arch = "%s-linux-gnu" % platform.machine()
    paths = sorted(Path(base).glob("*/" + pattern))
    return sorted(paths, key=lambda path: arch not in str(path))


def detect_openblas(clang):
    peer = Peer("openblas")
    try:
        config = probe(clang, SGEMM_PROBE % (
            "char *openblas_get_config(void);",
            'printf("%s\\n", openblas_get_config());'), [], ["-lopenblas"])
    except BenchError as error:
        return peer.missing("OpenBLAS not found (libopenblas-dev): %s"
                            % str(error).splitlines()[-1])
    peer.flags, peer.libs = ["-DUSE_BLAS"], ["-lopenblas"]
    peer.info["config"] = config.strip()
    return peer.found(config.strip())


def detect_blis(clang):
    """BLIS's own cblas.h and libblis, never OpenBLAS's: Debian installs
    them as blis-{openmp,pthread,serial} flavours (libblis-dev), upstream
    as <prefix>/include/blis."""
    peer = Peer("blis")
    candidates = []
    for flavour in ("openmp", "pthread", "serial"):
        for include in multiarch_dirs("/usr/include", "blis-" + flavour):
            arch = include.parent.name
            candidates.append((include, Path("/usr/lib") / arch /
                               ("blis-" + flavour)))
    for prefix in ("/usr/local", "/usr", "/opt/blis"):
        candidates.append((Path(prefix) / "include" / "blis",
                           Path(prefix) / "lib"))
    tried = []
    for include, libdir in candidates:
        if not (include / "cblas.h").exists() or \
                not (include / "blis.h").exists():
            continue
        libs = ["-L", str(libdir), "-Wl,-rpath," + str(libdir), "-lblis"]
        tried.append(str(include))
        try:
            version = probe(clang, SGEMM_PROBE % (
                "#include <blis.h>",
                'printf("%s %s\\n", bli_info_get_version_str(), '
                'bli_arch_string(bli_arch_query_id()));'),
                ["-I", str(include)], libs)
        except BenchError:
            continue
        peer.flags = ["-DUSE_BLAS", "-I", str(include)]
        peer.libs = libs
        peer.info = {"include": str(include), "lib": str(libdir),
                     "version": version.strip()}
        return peer.found("BLIS %s, %s" % (version.strip(), libdir))
    if tried:
        return peer.missing("BLIS found in %s but a test program did not "
                            "build or run" % ", ".join(tried))
    return peer.missing("BLIS not installed (libblis-dev: no blis.h and "
                        "cblas.h in /usr/include/<arch>/blis-*/ or "
                        "<prefix>/include/blis/)")


DNNL_PROBE = """#include <dnnl.h>
#include <stdio.h>
#if DNNL_VERSION_MAJOR != 2
#error "the reference's oneDNN variant uses the 2.x C API"
#endif
int main(void) {
  const dnnl_version_t *v = dnnl_version();
  printf("%d.%d.%d\\n", v->major, v->minor, v->patch);
  return 0;
}
"""


def detect_onednn(clang):
    peer = Peer("onednn")
    try:
        version = probe(clang, DNNL_PROBE, [], ["-ldnnl"]).strip()
    except BenchError as error:
        return peer.missing("oneDNN 2.x not found (libdnnl-dev): %s"
                            % str(error).splitlines()[-1])
    peer.flags, peer.libs = ["-DUSE_DNNL"], ["-ldnnl"]
    peer.info["version"] = version
    return peer.found("oneDNN %s" % version)


def halide_install():
    """Halide 14 from Debian (libhalide14-0-dev) or a release unpacked under
    /usr/local or /opt/halide: its include folder, libHalide, GenGen.cpp and
    the autoscheduler plugins, as a dict (or a string saying what is
    missing)."""
    layouts = []
    for include in sorted(Path("/usr/include").glob("halide*"),
                          reverse=True):
        version = include.name[len("halide"):]
        for lib in multiarch_dirs("/usr/lib", "libHalide%s.so" % version):
            layouts.append({
                "version": version, "include": include, "library": lib,
                "plugins": lib.parent / ("halide" + version),
                "gengen": Path("/usr/src/halide%s/GenGen.cpp" % version),
                "cmake": lib.parent / "cmake" / ("Halide" + version)})
    for prefix in ("/usr/local", "/opt/halide"):
        prefix = Path(prefix)
        layouts.append({
            "version": "", "include": prefix / "include",
            "library": prefix / "lib" / "libHalide.so",
            "plugins": prefix / "lib",
            "gengen": prefix / "share" / "Halide" / "tools" / "GenGen.cpp",
            "cmake": prefix / "lib" / "cmake" / "Halide"})
    for layout in layouts:
        if not (layout["include"] / "Halide.h").exists() or \
                not layout["library"].exists():
            continue
        if not layout["gengen"].exists():
            return "Halide found in %s but not its GenGen.cpp (%s)" % (
                layout["include"], layout["gengen"])
        version = layout["version"]
        config = layout["cmake"] / "HalideConfigVersion.cmake"
        if config.exists():
            match = re.search(r'PACKAGE_VERSION "([\d.]+)"',
                              config.read_text())
            if match:
                version = match.group(1)
        layout["version"] = version
        if version.split(".")[0] != "14":
            return ("Halide %s found in %s: run.py drives Halide 14's "
                    "generators (auto_schedule=true machine_params=...)"
                    % (version or "of unknown version", layout["include"]))
        return layout
    return ("Halide not installed (libhalide14-0-dev: no Halide.h and "
            "libHalide in /usr/include/halide*, /usr/local or /opt/halide)")


def detect_halide(tools):
    peers = {key: Peer(key) for key in HALIDE_SCHEDULERS}
    layout = halide_install()
    if isinstance(layout, str):
        return {key: peer.missing(layout) for key, peer in peers.items()}
    if not tools.cxx:
        return {key: peer.missing("no C++ compiler (%s) for the Halide "
                                  "generators" % tools.cxx_name)
                for key, peer in peers.items()}
    for key, (name, plugin) in HALIDE_SCHEDULERS.items():
        peer = peers[key]
        path = layout["plugins"] / plugin
        if not path.exists():
            peer.missing("Halide %s has no %s" % (layout["version"], path))
            continue
        peer.info = {key: str(value) for key, value in layout.items()}
        peer.info["plugin"] = str(path)
        peer.info["scheduler"] = name
        peer.found("Halide %s, %s" % (layout["version"], path))
    return peers


def detect_peers(tools, pretend_missing=()):
    peers = {"openblas": detect_openblas(tools.clang),
             "blis": detect_blis(tools.clang),
             "onednn": detect_onednn(tools.clang)}
    peers.update(detect_halide(tools))
    for key in pretend_missing:
        peers[key].missing("taken as not installed (--pretend-missing)")
    return peers


# ----------------------------------------------------------------------------
# Measuring one kernel


def reference_builds(kernel, peers):
    """column -> (extra clang flags, extra link flags) of the C reference's
    builds for this kernel: the plain ones, and the library variants whose
    library is installed."""
    builds = {"c_o3": ([], []), "polly": (["-mllvm", "-polly"], []),
              "polly_parallel": (["-mllvm", "-polly", "-mllvm",
                                  "-polly-parallel", "-fopenmp"],
                                 ["-fopenmp"])}
    for key in ("openblas", "blis", "onednn"):
        if applicable(kernel, key) and peers[key].available:
            builds[key] = (peers[key].flags, peers[key].libs)
    return builds


def applicable(kernel, key):
    """Whether a column exists for this kernel at all."""
    if key in ("openblas", "blis"):
        return kernel.has_blas
    if key == "onednn":
        return kernel.has_dnnl
    if key in HALIDE_SCHEDULERS:
        return kernel.halide_generator is not None
    return True


def build_reference(tools, kernel, out_dir, column, flags, libs, env):
    binary = out_dir / ("%s.%s" % (kernel.name, column))
    # common.h lives with the shipped references, whatever folder holds this
    # kernel's.
    run([tools.clang, "-O3", "-march=native", "-I", str(REFERENCE_DIR)] +
        flags + [str(kernel.reference), "-o", str(binary), "-lm"] + libs,
        env=env, what="building the %s reference of %s" % (column, kernel.name))
    return binary


def time_binary(command, env, what, timeout):
    """Times a program of the protocol; its '# key: value' lines (e.g. the
    implementation oneDNN chose) are kept with the times."""
    output = run(command, env=env, timeout=timeout, what=what)
    result = last_json(output, what)
    timing = {"median_s": result["median_s"], "min_s": result["min_s"],
              "max_s": result["max_s"]}
    for line in output.splitlines():
        match = re.match(r"#\s*([\w ]+):\s*(.*)$", line)
        if match:
            timing[match.group(1).strip().replace(" ", "_")] = \
                match.group(2).strip()
    return timing


def read_floats(path):
    values = array.array("f")
    values.frombytes(path.read_bytes())
    if sys.byteorder != "little":
        values.byteswap()
    return values


def compare(actual_path, expected_path):
    """max |actual - expected| / max(1, max |expected|); NaN anywhere where
    the other side is not the same NaN counts as infinite."""
    actual, expected = read_floats(actual_path), read_floats(expected_path)
    if len(actual) != len(expected):
        raise BenchError("%s holds %d floats, %s %d" % (
            actual_path, len(actual), expected_path, len(expected)))
    scale = max(1.0, max(map(abs, expected), default=0.0))
    differences = list(map(float.__sub__, actual, expected))
    if any(map(math.isnan, differences)):
        # Only a NaN facing the same NaN is a match.
        for a, b in zip(actual, expected):
            if (a != a or b != b) and not (a != a and b != b):
                return math.inf
        differences = [d for d in differences if d == d]
    return max(map(abs, differences), default=0.0) / scale


class Halide:
    """Builds the Halide generators once (GenGen.cpp plus one generator
    file each, into <work>/halide/), then autoschedules, compiles and links
    a kernel's pipeline with the timing driver."""

    def __init__(self, tools, work, args):
        self.tools = tools
        self.folder = work / "halide"
        self.target = args.halide_target
        self.timeout = args.timeout

    def generator(self, source, info, env):
        """The generator executable of `source`, rebuilt when a file of
        benchmarks/halide/ is newer (a generator may include another)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        include = ["-std=c++17", "-O1", "-I", info["include"]]
        gengen = self.folder / "GenGen.o"
        if not gengen.exists():
            run([self.tools.cxx] + include + ["-c", info["gengen"], "-o",
                                              str(gengen)],
                env=env, what="compiling Halide's GenGen.cpp")
        executable = self.folder / (source.stem + ".generator")
        newest = max(path.stat().st_mtime for path in HALIDE_DIR.iterdir())
        if not executable.exists() or executable.stat().st_mtime < newest:
            library = Path(info["library"])
            run([self.tools.cxx] + include + ["-I", str(HALIDE_DIR),
                                              str(source), str(gengen),
                                              "-o", str(executable),
                                              "-L", str(library.parent),
                                              "-Wl,-rpath," +
                                              str(library.parent),
                                              "-l" + library.stem[3:],
                                              "-ldl", "-lpthread"],
                env=env, what="building the Halide generator " + source.name)
        return executable

    def build(self, kernel, peer, threads, out_dir, env):
        """Autoschedules the kernel's generator for `threads` cores,
        compiles it and links the driver; returns (the driver command,
        {autoschedule_s, compile_s, schedule})."""
        info = peer.info
        scheduler = info["scheduler"]
        executable = self.generator(kernel.halide_generator, info, env)
        function = "%s_%s" % (kernel.function, scheduler.lower())
        folder = out_dir / ("halide-" + scheduler.lower())
        if folder.exists():
            shutil.rmtree(folder)
        (folder / "schedule-only").mkdir(parents=True)
        command = [str(executable), "-g", "benchmark", "-f", function,
                   "-p", info["plugin"], "-s", scheduler,
                   "target=" + self.target, "auto_schedule=true",
                   "machine_params=%d,%d,40" % (threads, last_level_cache()),
                   "shapes=" + ",".join(kernel.buffers)]
        what = "%s on %s" % (scheduler, kernel.name)
        # The autoscheduler alone: a run that emits only the schedule (it
        # also starts the generator and lowers the pipeline, but does not
        # compile it). Its search is deterministic, so the second run, which
        # compiles, finds the same schedule.
        started = time.monotonic()
        run(command[:3] + ["-o", str(folder / "schedule-only"), "-e",
                           "schedule"] + command[3:],
            env=env, timeout=self.timeout, what=what)
        autoschedule = time.monotonic() - started
        started = time.monotonic()
        run(command[:3] + ["-o", str(folder), "-e",
                           "static_library,c_header,schedule"] + command[3:],
            env=env, timeout=self.timeout, what=what)
        compile_time = time.monotonic() - started
        driver = folder / "driver"
        library = folder / (function + ".a")
        run([self.tools.clang, "-O2", "-I", str(REFERENCE_DIR), "-I",
             info["include"], "-DHALIDE_FUNCTION=" + function,
             str(HALIDE_DIR / "driver.c"), str(library), "-o", str(driver),
             "-lpthread", "-ldl", "-lm"],
            env=env, what="linking the Halide driver of " + kernel.name)
        return [str(driver), ",".join(kernel.buffers)], {
            "autoschedule_s": autoschedule, "compile_s": compile_time,
            "schedule": str(folder / (function + ".schedule.h"))}


def last_level_cache():
    """Bytes of cpu0's last-level cache (Halide's machine_params), or
    Halide's default of 16 MiB."""
    best = (0, 16 * 1024 * 1024)
    for index in Path("/sys/devices/system/cpu/cpu0/cache").glob("index*"):
        try:
            level = int((index / "level").read_text())
            size = (index / "size").read_text().strip()
        except (OSError, ValueError):
            continue
        match = re.fullmatch(r"(\d+)([KMG]?)", size)
        if match and level >= best[0]:
            scale = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
            best = (level, int(match.group(1)) * scale[match.group(2)])
    return best[1]


def thread_env(base, threads):
    return dict(base, OMP_NUM_THREADS=str(threads),
                OPENBLAS_NUM_THREADS=str(threads),
                BLIS_NUM_THREADS=str(threads), HL_NUM_THREADS=str(threads))


def measure_kernel(kernel, args, tools, peers, halide, work, base_env):
    """Measures one kernel at every thread count; returns a row per count.
    The one-thread columns (C -O3, Polly) and the untuned kernel's check are
    measured once and shared by the rows."""
    out = work / kernel.name
    out.mkdir(parents=True, exist_ok=True)
    timeout = args.timeout
    selected = args.columns
    shared = {"errors": []}

    def step(errors, name, action):
        try:
            return action()
        except BenchError as error:
            errors.append("%s: %s" % (name, error))
            print("  %s failed: %s" % (name, error), file=sys.stderr)
            return None

    shapes = ",".join(kernel.buffers)
    compared = ",".join(str(i) for i in kernel.compared)

    def driver(library, extra):
        return [str(work / "mlir_driver"), str(library), kernel.function,
                shapes, compared] + extra

    builds = reference_builds(kernel, peers)
    binaries = {}   # column -> command (built once, timed per thread count)

    def reference_command(column, env):
        if column not in binaries:
            flags, libs = builds[column]
            binaries[column] = [str(build_reference(
                tools, kernel, out, column, flags, libs, env))]
        return binaries[column]

    def time_reference(column, env):
        return time_binary(reference_command(column, env), env,
                           "timing the %s reference of %s"
                           % (column, kernel.name), timeout)

    first_env = thread_env(base_env, args.threads[0])
    for column in SINGLE_THREADED:
        if column in selected:
            shared[column] = step(shared["errors"], column,
                                  lambda: time_reference(column, first_env))

    # The C reference's outputs, which every check compares with.
    expected = out / "reference.out"

    def reference_output():
        if not expected.exists():
            run(reference_command("c_o3", first_env) + ["--dump",
                                                        str(expected)],
                env=first_env, timeout=timeout,
                what="the C reference of " + kernel.name)
        return expected

    if expected.exists():
        expected.unlink()

    def check_module(label, module, folder, env):
        library = tools.lower(module, folder, "check-" + label, env)
        actual = folder / (label + ".out")
        run(driver(library, ["--dump", str(actual)]), env=env,
            timeout=timeout, what="the %s %s" % (label, kernel.name))
        return compare(actual, reference_output())

    def check_command(label, command, folder, env):
        actual = folder / (label + ".out")
        run(command + ["--dump", str(actual)], env=env, timeout=timeout,
            what="the %s %s" % (label, kernel.name))
        return compare(actual, reference_output())

    shared_check = {}
    if args.check and (not args.no_tune or "baseline" in selected):
        error = step(shared["errors"], "check untuned",
                     lambda: check_module("untuned", kernel.path, out,
                                          first_env))
        if error is not None:
            shared_check["untuned"] = error

    rows = []
    for threads in args.threads:
        env = thread_env(base_env, threads)
        if len(args.threads) > 1:
            print("-- %s, %d thread%s" % (kernel.name, threads,
                                           "s" if threads > 1 else ""),
                  file=sys.stderr, flush=True)
        folder = out / ("t%d" % threads)
        folder.mkdir(parents=True, exist_ok=True)
        row = {"kernel": kernel.name, "function": kernel.function,
               "shape": kernel.shape, "flops": kernel.flops,
               "threads": threads, "errors": list(shared["errors"])}
        for column in SINGLE_THREADED:
            row[column] = shared.get(column)
        errors = row["errors"]

        # 1. Tune, or measure the untuned kernel.
        tuned_module = None
        if args.no_tune:
            if "baseline" in selected:
                def baseline():
                    library = tools.lower(kernel.path, folder, "baseline",
                                          env)
                    return time_binary(driver(library, []), env,
                                       "timing the untuned " + kernel.name,
                                       timeout)
                row["baseline"] = step(errors, "baseline", baseline)
        else:
            def tune():
                summary_path = folder / "summary.json"
                database = folder / "tuning.db"
                tuned = folder / "tuned.mlir"
                for stale in (summary_path, database, tuned):
                    if stale.exists():
                        stale.unlink()
                options = "budget=%d seed=%d database=%s summary-output=%s" % (
                    args.budget, args.seed, database, summary_path)
                if args.strategy:
                    options += " strategy=" + args.strategy
                if kernel.autotune_options:
                    options += " " + kernel.autotune_options
                command = [str(tools.tuner_opt), str(kernel.path),
                           "--tuner-autotune=" + options, "-o", str(tuned)]
                row["tune_command"] = shlex.join(command)
                started = time.monotonic()
                run(command, env=env, timeout=args.tune_timeout,
                    what="tuning " + kernel.name)
                row["tune_wall_s"] = time.monotonic() - started
                return json.loads(summary_path.read_text()), tuned
            tuned_result = step(errors, "tuning", tune)
            if tuned_result:
                summary, tuned_module = tuned_result
                row["summary"] = summary
                row["baseline"] = summary.get("baseline")
                row["best"] = summary.get("best")

        # 2. The multi-threaded C builds and the libraries.
        commands = {}
        for column in ("polly_parallel", "openblas", "blis", "onednn"):
            if column in selected and column in builds:
                row[column] = step(errors, column,
                                   lambda: time_reference(column, env))
                if row[column] is not None:
                    commands[column] = binaries[column]

        # 3. Halide, autoscheduled for this thread count.
        for column in HALIDE_SCHEDULERS:
            if column in selected and applicable(kernel, column) and \
                    peers[column].available:
                def halide_column():
                    command, info = halide.build(kernel, peers[column],
                                                 threads, folder, env)
                    commands[column] = command
                    timing = time_binary(command, env, "timing %s of %s" % (
                        dict(COLUMNS)[column], kernel.name), timeout)
                    timing.update(info)
                    return timing
                row[column] = step(errors, column, halide_column)

        # 4. Outputs against the C reference.
        if args.check:
            check = dict(shared_check)
            if tuned_module is not None:
                error = step(errors, "check tuned",
                             lambda: check_module("tuned", tuned_module,
                                                  folder, env))
                if error is not None:
                    check["tuned"] = error
            for column, command in commands.items():
                label = CHECK_LABELS[column]
                error = step(errors, "check " + label,
                             lambda: check_command(column, command, folder,
                                                   env))
                if error is not None:
                    check[label] = error
            row["check"] = check
        rows.append(row)
    return rows


# The labels of the peers' results in the check column.
CHECK_LABELS = {"polly_parallel": "Polly parallel", "openblas": "OpenBLAS",
                "blis": "BLIS", "onednn": "oneDNN",
                "halide_adams2019": "Adams2019",
                "halide_mullapudi2016": "Mullapudi2016"}


# ----------------------------------------------------------------------------
# The table


def fmt_time(seconds):
    if seconds is None:
        return "—"
    if seconds >= 1:
        return "%.3g s" % seconds
    if seconds >= 1e-3:
        return "%.3g ms" % (seconds * 1e3)
    return "%.3g µs" % (seconds * 1e6)


def tuned_time(row):
    """Seconds per call of the module the pass wrote: the best candidate's,
    or the baseline's when no candidate beat it and the original was kept."""
    best = row.get("best")
    if not isinstance(best, dict):
        return None
    if best.get("applied") is False:
        return median(row.get("baseline"))
    return best.get("median_s")


def fmt_speedup(best):
    if not isinstance(best, dict) or not best.get("speedup"):
        return "—"
    if best.get("applied") is False:
        return "1.00x (best candidate %.2fx, not applied)" % best["speedup"]
    return "%.2fx" % best["speedup"]


def median(entry):
    return entry.get("median_s") if isinstance(entry, dict) else None


def fmt_check(row):
    check = row.get("check")
    if not check:
        return "error" if any(e.startswith("check")
                              for e in row["errors"]) else "—"
    parts = []
    for label, error in check.items():
        verdict = "ok" if error <= CHECK_TOLERANCE else "MISMATCH"
        parts.append("%s %s (%.1e)" % (label, verdict, error))
    if any(e.startswith("check") for e in row["errors"]):
        parts.append("errors")
    return ", ".join(parts)


def fmt_search(row):
    summary = row.get("summary")
    if not summary:
        return "—"
    failed = summary.get("failed") or {}
    failures = sum(failed.values())
    text = "%s cand." % summary.get("candidates", "?")
    if failures:
        text += ", %d failed (%s)" % (failures, ", ".join(
            "%s %d" % item for item in sorted(failed.items()) if item[1]))
    if "search_seconds" in summary:
        text += ", %.0f s" % summary["search_seconds"]
    return text


def fmt_autoschedule(row):
    """Seconds the Halide autoschedulers took: Adams2019 / Mullapudi2016."""
    cells = []
    for column in HALIDE_SCHEDULERS:
        entry = row.get(column)
        cells.append("%.2g s" % entry["autoschedule_s"]
                     if isinstance(entry, dict) and "autoschedule_s" in entry
                     else "—")
    return "—" if cells == ["—", "—"] else " / ".join(cells)


def table(rows, args):
    header = ["kernel", "shape", "baseline", "tuned", "speedup",
              "tuned GFLOP/s"] + [title for _, title in COLUMNS] + \
             ["Halide autoschedule (A / M)"]
    if not args.no_tune:
        header.append("search")
    if args.check:
        header.append("check vs C")
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join("---" for _ in header) + "|"]
    for row in rows:
        best = row.get("best")
        tuned = tuned_time(row)
        cells = [
            row["kernel"], row["shape"], fmt_time(median(row.get("baseline"))),
            fmt_time(tuned),
            fmt_speedup(best),
            "%.2f" % (row["flops"] / tuned / 1e9) if tuned else "—",
        ] + [fmt_time(median(row.get(key))) for key, _ in COLUMNS] + \
            [fmt_autoschedule(row)]
        if not args.no_tune:
            cells.append(fmt_search(row))
        if args.check:
            cells.append(fmt_check(row))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def tables(rows, args):
    """One table per thread count; headed by the count when there are
    several."""
    if len(args.threads) == 1:
        return table(rows, args)
    parts = []
    for threads in args.threads:
        parts.append("### %d thread%s\n\n%s" % (
            threads, "s" if threads > 1 else "",
            table([row for row in rows if row["threads"] == threads], args)))
    return "\n\n".join(parts)


def notes(args, tools, peers, kernels, rows, info):
    threads = ", ".join(str(t) for t in args.threads)
    counts = "T = %s (one table per T)" % threads \
        if len(args.threads) > 1 else "T = %s" % threads
    text = [
        "Machine: %s, %d cores (%s). %s." % (
            info["cpu"], info["cores"], info["host"],
            datetime.datetime.now().strftime("%Y-%m-%d %H:%M")),
        "Command: `%s`" % shlex.join([sys.argv[0]] + sys.argv[1:]),
        "Times: median seconds per call over >= 5 repetitions of >= 20 ms "
        "each, after a warm-up. Threads: %s; every multi-threaded column ran "
        "with OMP_NUM_THREADS = OPENBLAS_NUM_THREADS = BLIS_NUM_THREADS = "
        "HL_NUM_THREADS = T. Baseline: the untuned kernel, %s. %s ran with "
        "OMP_NUM_THREADS=T." % (
            counts,
            "measured by the autotune pass in the same session"
            if not args.no_tune else
            "lowered by " + tools.lowering + " and timed by mlir_driver",
            "The kernels" if args.no_tune else "The tuner and its measurements"),
        "C -O3: `clang-22 -O3 -march=native`, one thread, the kernel's loops "
        "in the untuned kernel's order. Polly: the same plus `-mllvm -polly`, "
        "one thread (both measured once, shown in every table). Polly "
        "parallel: plus `-mllvm -polly-parallel -fopenmp`. OpenBLAS and BLIS: "
        "`cblas_sgemm` (matmul, 2mm). oneDNN: a convolution primitive with "
        "bias (and a ReLU post-op), plain NCHW/OIHW f32 on the kernel's "
        "buffers. Halide: benchmarks/halide/<kernel>.cpp autoscheduled with "
        "machine_params=T,%d,40 for target=%s, compiled ahead of time; "
        "\"Halide autoschedule\" is the seconds of a generator run that only "
        "emits the schedule." % (last_level_cache(), args.halide_target),
    ]
    implementations = sorted({"%s: %s" % (row["kernel"],
                                          row["onednn"]["implementation"])
                              for row in rows
                              if isinstance(row.get("onednn"), dict) and
                              "implementation" in row["onednn"]})
    if implementations:
        text.append("oneDNN chose: %s." % "; ".join(implementations))
    found = ["%s: %s" % (peer.label, peer.note) for peer in peers.values()
             if peer.available]
    if found:
        text.append("Peers: %s." % "; ".join(found))
    for peer in peers.values():
        if not peer.available and any(applicable(k, peer.key)
                                      for k in kernels):
            text.append("%s: — (%s)." % (peer.label, peer.note))
    no_halide = [k.name for k in kernels if k.halide_generator is None]
    if no_halide:
        text.append("Halide: no generator in benchmarks/halide/ for %s."
                    % ", ".join(no_halide))
    skipped = [title for key, title in COLUMNS if key not in args.columns]
    if skipped:
        text.append("Not measured (--columns): %s." % ", ".join(skipped))
    return "\n".join(text)


# ----------------------------------------------------------------------------


def parse_threads(text):
    counts = []
    for item in text.split(","):
        item = item.strip()
        if not item.isdigit() or int(item) < 1:
            raise ValueError(text)
        if int(item) not in counts:
            counts.append(int(item))
    if not counts:
        raise ValueError(text)
    return counts


def parse_columns(text):
    known = ["baseline"] + [key for key, _ in COLUMNS]
    columns = set()
    for item in text.split(","):
        item = item.strip().lower().replace("-", "_")
        if item in COLUMN_GROUPS:
            columns.update(COLUMN_GROUPS[item])
        elif item in known:
            columns.add(item)
        else:
            raise ValueError("unknown column '%s'; known: %s" % (
                item, ", ".join(known + sorted(COLUMN_GROUPS))))
    return columns


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*", metavar="KERNEL",
                        help="kernels to run (default: all)")
    parser.add_argument("--kernels", default="",
                        help="comma-separated kernels to run (default: all)")
    parser.add_argument("--budget", type=int, default=32,
                        help="candidates the autotune pass measures")
    parser.add_argument("--seed", type=int, default=1,
                        help="seed of the search")
    parser.add_argument("--strategy", default="",
                        help="search strategy (default: the pass's default)")
    parser.add_argument("--threads", default=str(os.cpu_count() or 1),
                        help="thread count T, or comma-separated counts "
                             "(e.g. 1,2: everything is measured, and tuned, "
                             "once per count, a table each); T goes to "
                             "OMP_NUM_THREADS, OPENBLAS_NUM_THREADS, "
                             "BLIS_NUM_THREADS, HL_NUM_THREADS and Halide's "
                             "parallelism (default: all cores)")
    parser.add_argument("--columns", default="all",
                        help="comma-separated measurements to make: baseline "
                             "(the untuned kernel, with --no-tune), c_o3, "
                             "polly, polly_parallel, openblas, blis, onednn, "
                             "halide_adams2019, halide_mullapudi2016, or the "
                             "groups c, peers, halide, all (default: all)")
    parser.add_argument("--no-tune", action="store_true",
                        help="do not tune: time the untuned kernels instead")
    parser.add_argument("--check", action="store_true",
                        help="compare kernel and peer outputs with the C "
                             "reference")
    parser.add_argument("--list-peers", action="store_true",
                        help="say which peers are installed, and exit")
    parser.add_argument("--pretend-missing", default="",
                        help="comma-separated peers to take as not installed "
                             "(for tests)")
    parser.add_argument("--out", type=Path,
                        help="also write the table to OUT and the raw "
                             "results to OUT with the suffix .json")
    parser.add_argument("--work-dir", type=Path,
                        default=REPO_DIR / "build" / "benchmarks",
                        help="where builds, databases and outputs go")
    parser.add_argument("--kernel-dir", type=Path, default=KERNEL_DIR,
                        help="folder of the kernels (default: "
                             "benchmarks/kernels)")
    parser.add_argument("--reference-dir", type=Path, default=REFERENCE_DIR,
                        help="folder of their C references (default: "
                             "benchmarks/reference)")
    parser.add_argument("--tuner-opt", default=str(REPO_DIR / "build" / "bin" /
                                                   "tuner-opt"))
    parser.add_argument("--clang", default="clang-22")
    parser.add_argument("--cxx", default="clang++-22",
                        help="C++ compiler of the Halide generators")
    parser.add_argument("--halide-target", default="host",
                        help="Halide target of the generators (default: "
                             "host)")
    parser.add_argument("--timeout", type=float, default=600,
                        help="seconds one reference or driver run may take")
    parser.add_argument("--tune-timeout", type=float, default=None,
                        help="seconds one autotune run may take (default: "
                             "no limit)")
    args = parser.parse_args()
    try:
        args.threads = parse_threads(args.threads)
    except ValueError:
        parser.error("--threads takes counts >= 1, comma-separated, not '%s'"
                     % args.threads)
    try:
        args.columns = parse_columns(args.columns)
    except ValueError as error:
        parser.error("--columns: %s" % error)
    if args.budget < 0:
        parser.error("--budget must be >= 0")
    pretend = [p.strip().lower().replace("-", "_")
               for p in args.pretend_missing.split(",") if p.strip()]
    expanded = []
    for name in pretend:
        expanded += COLUMN_GROUPS["halide"] if name == "halide" else [name]
    unknown = [name for name in expanded if name not in PEERS]
    if unknown:
        parser.error("--pretend-missing: unknown peer(s) %s; known: %s"
                     % (", ".join(unknown), ", ".join(PEERS + ("halide",))))

    if args.list_peers:
        try:
            tools = Tools(args)
            peers = detect_peers(tools, expanded)
        except BenchError as error:
            sys.exit("run.py: %s" % error)
        for peer in peers.values():
            print("%s: %s: %s" % (peer.key, "available" if peer.available
                                  else "missing", peer.note))
        return

    available = {p.stem: p for p in sorted(args.kernel_dir.glob("*.mlir"))}
    if not available:
        parser.error("no kernels (*.mlir) in %s" % args.kernel_dir)
    names = list(args.names) + [n for n in args.kernels.split(",") if n]
    unknown = [n for n in names if n not in available]
    if unknown:
        parser.error("unknown kernel(s) %s; known: %s"
                     % (", ".join(unknown), ", ".join(available)))
    names = names or list(available)

    try:
        tools = Tools(args)
        if not args.no_tune:
            tools.require_autotune()
        kernels = [Kernel(available[n], args.reference_dir) for n in names]
        for kernel in kernels:
            if not kernel.reference.exists():
                raise BenchError("no C reference %s" % kernel.reference)
            if kernel.halide_name and kernel.halide_generator is None:
                raise BenchError("%s: no Halide generator %s.cpp in %s" % (
                    kernel.path, kernel.halide_name, HALIDE_DIR))
        work = args.work_dir.resolve()
        work.mkdir(parents=True, exist_ok=True)
        run([tools.clang, "-O2", str(REFERENCE_DIR / "mlir_driver.c"), "-o",
             str(work / "mlir_driver"), "-ldl", "-lm"],
            what="building mlir_driver")
        peers = detect_peers(tools, expanded)
    except BenchError as error:
        sys.exit("run.py: %s" % error)

    halide = Halide(tools, work, args)
    rows = []
    for kernel in kernels:
        print("== %s" % kernel.name, file=sys.stderr, flush=True)
        rows += measure_kernel(kernel, args, tools, peers, halide, work,
                               dict(os.environ))

    info = machine_record()
    text = tables(rows, args) + "\n\n" + notes(args, tools, peers, kernels,
                                               rows, info) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text)
        raw = {"machine": info, "command": sys.argv, "threads": args.threads,
               "lowering": tools.lowering,
               "peers": {key: {"available": peer.available,
                               "note": peer.note, "info": peer.info}
                         for key, peer in peers.items()},
               "rows": rows}
        args.out.with_suffix(".json").write_text(json.dumps(raw, indent=2) +
                                                 "\n")
    failed = [row["kernel"] for row in rows if row["errors"]]
    mismatched = [row["kernel"] for row in rows
                  if any(e > CHECK_TOLERANCE
                         for e in (row.get("check") or {}).values())]
    if failed or mismatched:
        sys.exit("run.py: errors in %s" % ", ".join(sorted(set(failed +
                                                             mismatched))))


if __name__ == "__main__":
    main()
