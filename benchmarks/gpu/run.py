#!/usr/bin/env python3
"""The GPU benchmark of issue 17: three kernels tuned with `bo` on an NVIDIA
GPU against their naive GPU baseline, and the matmul against cuBLAS SGEMM,
in one run.

    benchmarks/gpu/run.py [--budget N] [--target gpu|<gpu.json>] [KERNEL ...]

Steps: check for a device (`nvidia-smi -L`; none: a message and exit code 4,
before anything else), build cublas_sgemm.cpp against the CUDA toolkit, tune
each kernel of benchmarks/gpu/kernels with
`tuner-opt K --tuner-autotune="target=T strategy=bo budget=N ..."`, read the
naive baseline and the best time from its `summary-output`, time cuBLAS
SGEMM at the matmul's size (CUBLAS_PEDANTIC_MATH: no tensor cores), and print
a table (kernel, naive baseline, tuned, speedup, cuBLAS, tuned/cuBLAS).
The table, the JSON rows, the machine (nvidia-smi's GPU name, the CPU) and
the command go to --results (default benchmarks/results/<date>-gpu).

Goals (issue 17): tuned matmul >= 0.7x cuBLAS SGEMM; >= 10x over the naive
baseline for the other kernels.
"""

import argparse
import datetime
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE.parent))
from machine import machine_line, machine_record  # noqa: E402
from run import fmt_time  # noqa: E402  (the CPU benchmark's table format)

KERNELS = ["matmul", "conv_relu", "stencil2d"]
NO_DEVICE = 4


def fail(message, code=1):
    print("gpu benchmark: " + message, file=sys.stderr)
    sys.exit(code)


def gpu_names(smi):
    """The GPUs `nvidia-smi -L` lists, or None with the reason."""
    try:
        listed = subprocess.run([smi, "-L"], capture_output=True, text=True,
                                timeout=60)
    except (OSError, subprocess.SubprocessError) as error:
        return None, "%s -L did not run: %s" % (smi, error)
    names = [m.group(1) for m in
             re.finditer(r"^GPU \d+: (.+?)(?: \(UUID:.*\))?$",
                         listed.stdout, re.M)]
    if listed.returncode != 0 or not names:
        why = (listed.stderr or listed.stdout).strip() or "no GPU listed"
        return None, "%s -L: %s" % (smi, why.splitlines()[0])
    return names, None


def kernel_info(path):
    """Shape, flops and extra autotune options from a kernel's header."""
    text = path.read_text()
    def header(key):
        found = re.search(r"^//\s*%s:\s*(.+)$" % key, text, re.M)
        return found.group(1).strip() if found else None
    flops = header("flops")
    value = None
    if flops:
        try:
            value = eval(flops.split("(")[0].strip(), {"__builtins__": {}})
        except Exception:  # noqa: BLE001 - a header that is no expression
            value = None
    return {"shape": header("shape") or "?", "flops": value,
            "autotune": header("autotune") or ""}


def run(command, what, timeout=None):
    try:
        done = subprocess.run(command, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        raise RuntimeError("%s: timed out after %s s" % (what, timeout))
    except OSError as error:
        raise RuntimeError("%s: %s" % (what, error))
    if done.returncode != 0:
        tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-5:])
        raise RuntimeError("%s failed (exit %d): %s" % (what, done.returncode,
                                                        tail))
    return done


def build_cublas(args, work):
    cuda = Path(args.cuda_root)
    binary = work / "cublas_sgemm"
    command = [args.cxx, "-O2", "-std=c++17", str(HERE / "cublas_sgemm.cpp"),
               "-I" + str(cuda / "include"), "-L" + str(cuda / "lib64"),
               "-lcublas", "-lcudart", "-Wl,-rpath," + str(cuda / "lib64"),
               "-o", str(binary)]
    run(command, "building cublas_sgemm")
    return binary


def median(entry):
    return entry.get("median_s") if isinstance(entry, dict) else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kernels", nargs="*", default=KERNELS,
                        help="kernels of benchmarks/gpu/kernels (default: all)")
    parser.add_argument("--budget", type=int, default=100,
                        help="candidates per kernel (default 100)")
    parser.add_argument("--strategy", default="bo")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--target", default="gpu",
                        help="gpu, gpu:N, or a target JSON of kind gpu")
    parser.add_argument("--kernel-dir", default=str(HERE / "kernels"),
                        help="folder of the kernels (default "
                        "benchmarks/gpu/kernels)")
    parser.add_argument("--tuner-opt", default=str(ROOT / "build/bin/tuner-opt"))
    parser.add_argument("--cuda-root", default="/usr/local/cuda")
    parser.add_argument("--cxx", default=shutil.which("clang++-22") or
                        shutil.which("clang++") or "g++")
    parser.add_argument("--nvidia-smi", default="nvidia-smi")
    parser.add_argument("--repetitions", type=int, default=7,
                        help="cuBLAS repetitions (>= 5)")
    parser.add_argument("--tune-timeout", type=float, default=7200,
                        help="seconds one kernel's tuning may take")
    parser.add_argument("--work-dir", default=None,
                        help="tuned modules, databases, summaries and the "
                        "cuBLAS binary (default build/gpu-bench)")
    parser.add_argument("--results", default=None,
                        help="folder for the table and JSON (default "
                        "benchmarks/results/<date>-gpu)")
    args = parser.parse_args()
    command_line = shlex.join([sys.argv[0]] + sys.argv[1:])

    # 1. A device, before anything else.
    smi = shutil.which(args.nvidia_smi)
    if not smi:
        fail("no device: '%s' not found (an NVIDIA driver and GPU are needed; "
             "nothing was built or tuned)" % args.nvidia_smi, NO_DEVICE)
    gpus, why = gpu_names(smi)
    if not gpus:
        fail("no device: %s (nothing was built or tuned)" % why, NO_DEVICE)
    kernel_dir = Path(args.kernel_dir)
    unknown = [k for k in args.kernels
               if not (kernel_dir / (k + ".mlir")).exists()]
    if unknown:
        fail("no kernel %s in %s" % (", ".join(unknown), kernel_dir), 2)
    if not Path(args.tuner_opt).exists():
        fail("tuner-opt not found at %s (build it, or pass --tuner-opt)"
             % args.tuner_opt, 2)

    stamp = datetime.date.today().isoformat()
    results = Path(args.results or ROOT / "benchmarks/results" /
                   (stamp + "-gpu"))
    work = Path(args.work_dir or ROOT / "build" / "gpu-bench")
    work.mkdir(parents=True, exist_ok=True)

    # 2. cuBLAS.
    errors = []
    try:
        cublas_bin = build_cublas(args, work)
    except RuntimeError as error:
        cublas_bin = None
        errors.append(str(error))

    # 3. Tune each kernel.
    rows = []
    for name in args.kernels:
        path = kernel_dir / (name + ".mlir")
        info = kernel_info(path)
        folder = work / name
        folder.mkdir(parents=True, exist_ok=True)
        summary_path = folder / "summary.json"
        for stale in (summary_path, folder / "tuning.db"):
            if stale.exists():
                stale.unlink()
        options = ("target=%s strategy=%s budget=%d seed=%d database=%s "
                   "summary-output=%s schedule-output=%s" % (
                       args.target, args.strategy, args.budget, args.seed,
                       folder / "tuning.db", summary_path,
                       folder / "schedule.mlir"))
        if info["autotune"]:
            options += " " + info["autotune"]
        command = [args.tuner_opt, str(path), "--tuner-autotune=" + options,
                   "-o", str(folder / "tuned.mlir")]
        row = {"kernel": name, "shape": info["shape"], "flops": info["flops"],
               "tune_command": shlex.join(command)}
        print("tuning %s ..." % name, file=sys.stderr, flush=True)
        started = time.monotonic()
        try:
            run(command, "tuning " + name, timeout=args.tune_timeout)
            summary = json.loads(summary_path.read_text())
            row["summary"] = summary
            row["baseline_s"] = median(summary.get("baseline"))
            best = median(summary.get("best"))
            row["tuned_s"] = best if best is not None else row["baseline_s"]
        except (RuntimeError, OSError, ValueError) as error:
            row["error"] = str(error)
        row["tune_wall_s"] = time.monotonic() - started

        # 4. cuBLAS at the matmul's size.
        if name == "matmul" and cublas_bin:
            dims = re.search(r"M = (\d+), N = (\d+), K = (\d+)|"
                             r"M = N = K = (\d+)", info["shape"])
            size = dims.group(4) if dims else "4096"
            out = folder / "cublas.json"
            try:
                run([str(cublas_bin), "--m", size, "--n", size, "--k", size,
                     "--repetitions", str(args.repetitions), "--json",
                     str(out)], "cuBLAS SGEMM", timeout=600)
                row["cublas"] = json.loads(out.read_text())
            except (RuntimeError, OSError, ValueError) as error:
                errors.append(str(error))
        rows.append(row)

    # 5. The table.
    lines = ["| kernel | shape | naive baseline | tuned | speedup | "
             "tuned GFLOP/s | cuBLAS SGEMM | tuned/cuBLAS |", "|---|"]
    for row in rows:
        base, tuned = row.get("baseline_s"), row.get("tuned_s")
        blas = median(row.get("cublas"))
        gflops = (row["flops"] / tuned * 1e-9
                  if tuned and row.get("flops") else None)
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            row["kernel"], row["shape"], fmt_time(base), fmt_time(tuned),
            "%.2fx" % (base / tuned) if base and tuned else "—",
            "%.0f" % gflops if gflops else "—", fmt_time(blas),
            "%.2fx" % (blas / tuned) if blas and tuned else "—"))
    for row in rows:
        if row.get("error"):
            lines.append("")
            lines.append("%s: %s" % (row["kernel"], row["error"]))
    for error in errors:
        lines.append("")
        lines.append(error)
    machine = "%s; host %s" % (", ".join(gpus), machine_line())
    notes = ["", "Machine: " + machine, "Command: `%s`" % command_line,
             "Tuning: `--tuner-autotune=\"target=%s strategy=%s budget=%d "
             "seed=%d\"` per kernel; the naive baseline is the untransformed "
             "function through the naive GPU lowering; times are medians of "
             "CUDA-event timings." % (args.target, args.strategy, args.budget,
                                       args.seed),
             "cuBLAS: cublasSgemm, CUBLAS_PEDANTIC_MATH (no tensor cores, "
             "no TF32). Goals: matmul tuned/cuBLAS >= 0.7x; the others "
             ">= 10x over the naive baseline."]
    text = "\n".join(lines + notes) + "\n"
    print(text)
    results.mkdir(parents=True, exist_ok=True)
    (results / "table.md").write_text(text)
    (results / "table.json").write_text(json.dumps(
        {"command": command_line, "gpus": gpus, "machine": machine_record(),
         "rows": rows, "errors": errors}, indent=2) + "\n")
    print("written to %s" % results, file=sys.stderr)
    return 1 if errors or any(row.get("error") for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
