#!/usr/bin/env python3
"""Plots a cost model's predictions against measured speedups.

Reads the JSON that `tuner-train --evaluate --json FILE` writes (its "rows"
of program, measured and predicted speedup) and draws the figures of the
Tiramisu cost model paper:

  predictions.png       measured and predicted speedups of every schedule,
                        sorted by measured speedup (paper Figure 4);
  errors.png            the distribution of the absolute percentage error
                        (APE): a histogram, and APE against measured speedup
                        (paper Figure 5);
  programs.png          measured against predicted speedup for up to 16
                        programs, one panel each, with the line of perfect
                        predictions (paper Figure 8).

Usage: plot_predictions.py EVALUATION.json [-o OUTPUT_DIR] [--programs N]

Needs numpy and matplotlib (Debian: python3-numpy, python3-matplotlib).
"""

import argparse
import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker as ticker  # noqa: E402
import numpy as np  # noqa: E402


def read_rows(path):
    """(programs, measured, predicted) arrays from an evaluation file."""
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        sys.exit(f"plot_predictions.py: error: cannot read {path}: {e}")
    rows = data.get("rows") if isinstance(data, dict) else None
    if not rows:
        sys.exit(f"plot_predictions.py: error: {path} has no \"rows\" "
                 "(write it with tuner-train --evaluate --json)")
    try:
        programs = [str(r["program"]) for r in rows]
        measured = np.array([float(r["measured"]) for r in rows])
        predicted = np.array([float(r["predicted"]) for r in rows])
    except (KeyError, TypeError, ValueError) as e:
        sys.exit(f"plot_predictions.py: error: {path}: malformed row: {e}")
    if np.any(measured <= 0):
        sys.exit(f"plot_predictions.py: error: {path}: measured speedups "
                 "must be positive")
    return programs, measured, predicted, data


def plot_sorted(measured, predicted, path):
    order = np.argsort(measured, kind="stable")
    x = np.arange(len(order))
    fig, ax = plt.subplots(figsize=(9, 4.5))
    ax.scatter(x, predicted[order], s=4, color="tab:blue", alpha=0.6,
               label="predicted")
    ax.plot(x, measured[order], color="tab:red", linewidth=1.5,
            label="measured")
    ax.set_yscale("log")
    ax.set_xlabel("schedules, sorted by measured speedup")
    ax.set_ylabel("speedup")
    ax.set_title("Predicted and measured speedups")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot_errors(measured, predicted, path):
    ape = np.abs(measured - predicted) / measured * 100
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 7))
    bins = np.linspace(0, max(100.0, float(np.percentile(ape, 99))), 41)
    top.hist(np.clip(ape, 0, bins[-1]), bins=bins, color="tab:blue")
    top.set_xlabel("absolute percentage error (%)")
    top.set_ylabel("schedules")
    top.set_title(f"APE distribution (MAPE {ape.mean():.1f}%)")
    bottom.scatter(measured, ape, s=4, color="tab:blue", alpha=0.6)
    bottom.set_xscale("log")
    bottom.set_xlabel("measured speedup")
    bottom.set_ylabel("APE (%)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot_programs(programs, measured, predicted, path, limit):
    names = sorted(set(programs))[:limit]
    columns = min(4, len(names))
    lines = math.ceil(len(names) / columns)
    fig, axes = plt.subplots(lines, columns, figsize=(3.2 * columns,
                                                      3.0 * lines),
                             squeeze=False)
    programs = np.array(programs)
    for ax, name in zip(axes.flat, names):
        mask = programs == name
        m, p = measured[mask], predicted[mask]
        low = min(m.min(), p.min()) / 1.5
        high = max(m.max(), p.max()) * 1.5
        ax.plot([low, high], [low, high], color="tab:red", linewidth=1)
        ax.scatter(m, p, s=8, color="tab:blue")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlim(low, high)
        ax.set_ylim(low, high)
        ax.set_title(name, fontsize=9)
        ax.tick_params(labelsize=7)
        # Plain numbers on the log axes, major ticks only.
        for axis in (ax.xaxis, ax.yaxis):
            axis.set_major_formatter(ticker.FormatStrFormatter("%g"))
            axis.set_minor_formatter(ticker.NullFormatter())
    for ax in list(axes.flat)[len(names):]:
        ax.axis("off")
    fig.supxlabel("measured speedup")
    fig.supylabel("predicted speedup")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("evaluation",
                        help="JSON written by tuner-train --evaluate --json")
    parser.add_argument("-o", "--output-dir", default=".",
                        help="folder for the PNG files (default: .)")
    parser.add_argument("--programs", type=int, default=16,
                        help="programs in programs.png (default: 16)")
    args = parser.parse_args()
    if args.programs < 1:
        sys.exit("plot_predictions.py: error: --programs must be positive")

    programs, measured, predicted, _ = read_rows(args.evaluation)
    os.makedirs(args.output_dir, exist_ok=True)
    outputs = {
        "predictions.png": lambda p: plot_sorted(measured, predicted, p),
        "errors.png": lambda p: plot_errors(measured, predicted, p),
        "programs.png": lambda p: plot_programs(programs, measured,
                                                predicted, p, args.programs),
    }
    for name, plot in outputs.items():
        path = os.path.join(args.output_dir, name)
        plot(path)
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
