#!/usr/bin/env python3
"""Tune the benchmark kernels and tabulate them against C references.

For each kernel in benchmarks/kernels/ (or the ones named), in turn:

  1. tune it: `tuner-opt KERNEL --tuner-autotune="budget=N seed=S
     strategy=X database=<fresh file> summary-output=<json>" -o tuned.mlir`
     (or, with --no-tune, only measure the untuned kernel: lower it, compile
     it and time it with reference/mlir_driver.c);
  2. build and time its C reference (benchmarks/reference/<kernel>.c) with
     `clang-22 -O3 -march=native`, with Polly (the same plus `-mllvm -polly`,
     one thread), with Polly parallel (plus `-mllvm -polly-parallel
     -fopenmp`, OMP_NUM_THREADS=--threads: the tuner's thread count) and,
     where the reference has a BLAS variant (matmul, 2mm), with OpenBLAS;
  3. with --check, compare the outputs of the untuned (and tuned) kernel with
     the C reference's on the same deterministic inputs.

Then it prints a Markdown table with the machine and the command line.
Kernels run one at a time, never in parallel. Standard library only.
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
import time
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO_DIR = BENCH_DIR.parent
KERNEL_DIR = BENCH_DIR / "kernels"
REFERENCE_DIR = BENCH_DIR / "reference"
LLVM_BIN = Path("/usr/lib/llvm-22/bin")

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
        run([self.clang, "-O3", "-march=native", "-shared", "-fPIC",
             "-fopenmp", "-Wno-override-module", str(ll), "-o",
             str(library)], env=env, what="compiling " + stem)
        return library


# ----------------------------------------------------------------------------
# Measuring one kernel


BLIS_DIR = Path("/usr/lib/x86_64-linux-gnu/blis-openmp")
HALIDE_INCLUDE = Path("/usr/include/halide14")
HALIDE_PLUGIN_DIR = Path("/usr/lib/x86_64-linux-gnu/halide14")
# The kernels halide/halide_bench.cpp defines, and the table's columns.
HALIDE_KERNELS = {"matmul", "convolution", "conv_relu", "doitgen", "heat2d",
                  "heat3d", "cvtcolor", "box_blur", "mvt"}
HALIDE_SCHEDULERS = [("halide_adams2019", "Adams2019"),
                     ("halide_mullapudi2016", "Mullapudi2016")]
DNNL_HEADER = Path("/usr/include/oneapi/dnnl/dnnl.h")


def reference_variants(kernel):
    """(column, extra clang flags, extra link flags) of the C builds."""
    variants = [("c_o3", [], []), ("polly", ["-mllvm", "-polly"], []),
                ("polly_parallel", ["-mllvm", "-polly", "-mllvm",
                                    "-polly-parallel", "-fopenmp"],
                 ["-fopenmp"])]
    if kernel.has_blas:
        variants.append(("openblas", ["-DUSE_BLAS"], ["-lopenblas"]))
        # BLIS (Debian's libblis-dev, its OpenMP build) through the same
        # CBLAS calls; its threads follow BLIS_NUM_THREADS.
        if BLIS_DIR.is_dir():
            variants.append(("blis", ["-DUSE_BLAS"],
                             ["-L%s" % BLIS_DIR, "-Wl,-rpath,%s" % BLIS_DIR,
                              "-lblis", "-fopenmp"]))
    if kernel.has_dnnl and DNNL_HEADER.exists():
        variants.append(("onednn", ["-DUSE_DNNL"], ["-ldnnl"]))
    return variants


def build_reference(tools, kernel, out_dir, column, flags, libs, env):
    binary = out_dir / ("%s.%s" % (kernel.name, column))
    # common.h lives with the shipped references, whatever folder holds this
    # kernel's.
    run([tools.clang, "-O3", "-march=native", "-I", str(REFERENCE_DIR)] +
        flags + [str(kernel.reference), "-o", str(binary), "-lm"] + libs,
        env=env, what="building the %s reference of %s" % (column, kernel.name))
    return binary


def time_binary(command, env, what, timeout):
    result = last_json(run(command, env=env, timeout=timeout, what=what), what)
    return {"median_s": result["median_s"], "min_s": result["min_s"],
            "max_s": result["max_s"]}


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
    scale = max(1.0, max((abs(x) for x in expected), default=0.0))
    error = 0.0
    for a, b in zip(actual, expected):
        diff = abs(a - b)
        if diff > error:
            error = diff
        elif diff != diff and not (a != a and b != b):
            return math.inf
    return error / scale


def measure_kernel(kernel, args, tools, work, env):
    out = work / kernel.name
    out.mkdir(parents=True, exist_ok=True)
    row = {"kernel": kernel.name, "function": kernel.function,
           "shape": kernel.shape, "flops": kernel.flops, "errors": []}
    timeout = args.timeout

    def step(name, action):
        try:
            return action()
        except BenchError as error:
            row["errors"].append("%s: %s" % (name, error))
            print("  %s failed: %s" % (name, error), file=sys.stderr)
            return None

    shapes = ",".join(kernel.buffers)
    compared = ",".join(str(i) for i in kernel.compared)

    def driver(library, extra):
        return [str(work / "mlir_driver"), str(library), kernel.function,
                shapes, compared] + extra

    # 1. Tune, or measure the untuned kernel.
    tuned_module = None
    if args.no_tune:
        def baseline():
            library = tools.lower(kernel.path, out, "baseline", env)
            return time_binary(driver(library, []), env,
                               "timing the untuned " + kernel.name, timeout)
        row["baseline"] = step("baseline", baseline)
    else:
        def tune():
            summary_path = out / "summary.json"
            database = out / "tuning.db"
            tuned = out / "tuned.mlir"
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
        tuned_result = step("tuning", tune)
        if tuned_result:
            summary, tuned_module = tuned_result
            row["summary"] = summary
            row["baseline"] = summary.get("baseline")
            row["best"] = summary.get("best")

    # 2. The C references.
    for column, flags, libs in reference_variants(kernel):
        def reference():
            binary = build_reference(tools, kernel, out, column, flags, libs,
                                     env)
            return time_binary([str(binary)], env, "timing the %s reference "
                               "of %s" % (column, kernel.name), timeout)
        row[column] = step(column, reference)

    # 3. Halide's autoschedulers, where the kernel is written in Halide; its
    # outputs are always compared with the C reference's, so that a Halide
    # definition that computes something else cannot pass for a figure.
    if tools.halide_bench and kernel.name in HALIDE_KERNELS:
        halide_env = dict(env, HL_NUM_THREADS=str(args.threads),
                          LD_LIBRARY_PATH=str(HALIDE_PLUGIN_DIR))
        for column, scheduler in HALIDE_SCHEDULERS:
            def halide():
                command = [str(tools.halide_bench), kernel.name, scheduler,
                           str(args.threads)]
                result = time_binary(command, halide_env, "timing Halide %s "
                                     "on %s" % (scheduler, kernel.name),
                                     timeout)
                binary = out / (kernel.name + ".c_o3")
                if not binary.exists():
                    binary = build_reference(tools, kernel, out, "c_o3", [],
                                             [], env)
                expected = out / "reference.out"
                if not expected.exists():
                    run([str(binary), "--dump", str(expected)], env=env,
                        timeout=timeout, what="the C reference of " +
                        kernel.name)
                actual = out / (column + ".out")
                run(command + ["--dump", str(actual)], env=halide_env,
                    timeout=timeout, what="Halide %s on %s" % (scheduler,
                                                               kernel.name))
                error = compare(actual, expected)
                if error > CHECK_TOLERANCE:
                    raise BenchError("Halide %s's output differs from the C "
                                     "reference's by %.2e" % (scheduler,
                                                              error))
                result["check"] = error
                return result
            row[column] = step(column, halide)

    # 4. Outputs against the C reference.
    if args.check:
        def check():
            binary = out / (kernel.name + ".c_o3")
            if not binary.exists():
                binary = build_reference(tools, kernel, out, "c_o3", [], [],
                                         env)
            expected = out / "reference.out"
            run([str(binary), "--dump", str(expected)], env=env,
                timeout=timeout, what="the C reference of " + kernel.name)
            checked = {}
            modules = [("untuned", kernel.path)]
            if tuned_module is not None:
                modules.append(("tuned", tuned_module))
            for label, module in modules:
                library = tools.lower(module, out, "check-" + label, env)
                actual = out / (label + ".out")
                run(driver(library, ["--dump", str(actual)]), env=env,
                    timeout=timeout, what="the %s %s" % (label, kernel.name))
                checked[label] = compare(actual, expected)
            return checked
        row["check"] = step("check", check)
    return row


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


def table(rows, args):
    header = ["kernel", "shape", "baseline", "tuned", "speedup",
              "tuned GFLOP/s", "C -O3", "Polly", "Polly parallel", "OpenBLAS",
              "BLIS", "oneDNN", "Halide Adams2019", "Halide Mullapudi2016"]
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
            fmt_time(median(row.get("c_o3"))),
            fmt_time(median(row.get("polly"))),
            fmt_time(median(row.get("polly_parallel"))),
            fmt_time(median(row.get("openblas"))),
            fmt_time(median(row.get("blis"))),
            fmt_time(median(row.get("onednn"))),
            fmt_time(median(row.get("halide_adams2019"))),
            fmt_time(median(row.get("halide_mullapudi2016"))),
        ]
        if not args.no_tune:
            cells.append(fmt_search(row))
        if args.check:
            cells.append(fmt_check(row))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def machine():
    model = platform.processor() or "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpu": model, "cores": os.cpu_count(),
            "kernel": platform.release(), "host": platform.node()}


def notes(args, tools, info):
    threads = args.threads
    text = [
        "Machine: %s, %d cores (%s). %s." % (
            info["cpu"], info["cores"], info["host"],
            datetime.datetime.now().strftime("%Y-%m-%d %H:%M")),
        "Command: `%s`" % shlex.join([sys.argv[0]] + sys.argv[1:]),
        "Times: median seconds per call over >= 5 repetitions of >= 20 ms "
        "each, after a warm-up. Baseline: the untuned kernel, %s. %s ran "
        "with OMP_NUM_THREADS=%d." % (
            "measured by the autotune pass in the same session"
            if not args.no_tune else
            "lowered by " + tools.lowering + " and timed by mlir_driver",
            "The kernels" if args.no_tune else "The tuner and its measurements",
            threads),
        "C -O3: `clang-22 -O3 -march=native`, one thread, the kernel's loops "
        "in the untuned kernel's order. Polly: the same plus `-mllvm -polly`, "
        "one thread. Polly parallel: plus `-mllvm -polly-parallel -fopenmp`, "
        "OMP_NUM_THREADS=%d. OpenBLAS: `cblas_sgemm`, OPENBLAS_NUM_THREADS=%d. "
        "BLIS: the same calls linked against BLIS's OpenMP build, "
        "BLIS_NUM_THREADS=%d. oneDNN (2.6): its forward convolution "
        "primitive on the kernel's NCHW/OIHW buffers (bias; ReLU as a "
        "post-op), created once, OMP_NUM_THREADS=%d. Halide 14: the kernel "
        "written in Halide (halide/halide_bench.cpp), scheduled by the "
        "Adams2019 or Mullapudi2016 autoscheduler (parallelism %d), "
        "JIT-compiled, HL_NUM_THREADS=%d, outputs checked against the C "
        "reference." % (threads, threads, threads, threads, threads, threads),
    ]
    return "\n".join(text)


# ----------------------------------------------------------------------------


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
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1,
                        help="OMP_NUM_THREADS for the tuner and "
                             "OPENBLAS_NUM_THREADS (default: all cores)")
    parser.add_argument("--no-tune", action="store_true",
                        help="do not tune: time the untuned kernels instead")
    parser.add_argument("--check", action="store_true",
                        help="compare kernel outputs with the C reference")
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
    parser.add_argument("--timeout", type=float, default=600,
                        help="seconds one reference or driver run may take")
    parser.add_argument("--tune-timeout", type=float, default=None,
                        help="seconds one autotune run may take (default: "
                             "no limit)")
    args = parser.parse_args()
    if args.threads < 1 or args.budget < 0:
        parser.error("--threads must be >= 1 and --budget >= 0")

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
        work = args.work_dir.resolve()
        work.mkdir(parents=True, exist_ok=True)
        run([tools.clang, "-O2", str(REFERENCE_DIR / "mlir_driver.c"), "-o",
             str(work / "mlir_driver"), "-ldl", "-lm"],
            what="building mlir_driver")
        # Halide 14 (libhalide14-0-dev), when installed and needed.
        tools.halide_bench = None
        if (HALIDE_INCLUDE.is_dir() and
                any(k.name in HALIDE_KERNELS for k in kernels)):
            tools.halide_bench = work / "halide_bench"
            cxx = (shutil.which(os.path.basename(tools.clang)
                                .replace("clang", "clang++")) or
                   shutil.which("clang++-22") or "clang++")
            run([cxx, "-O2", "-std=c++17",
                 "-I", str(HALIDE_INCLUDE), "-I", str(REFERENCE_DIR),
                 str(BENCH_DIR / "halide" / "halide_bench.cpp"), "-o",
                 str(tools.halide_bench), "-lHalide14", "-lpthread", "-ldl"],
                what="building halide/halide_bench.cpp")
    except BenchError as error:
        sys.exit("run.py: %s" % error)

    env = dict(os.environ, OMP_NUM_THREADS=str(args.threads),
               OPENBLAS_NUM_THREADS=str(args.threads),
               BLIS_NUM_THREADS=str(args.threads))
    rows = []
    for kernel in kernels:
        print("== %s" % kernel.name, file=sys.stderr, flush=True)
        rows.append(measure_kernel(kernel, args, tools, work, env))

    info = machine()
    text = table(rows, args) + "\n\n" + notes(args, tools, info) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text)
        raw = {"machine": info, "command": sys.argv, "threads": args.threads,
               "lowering": tools.lowering, "rows": rows}
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
