"""What the benchmark scripts record about the machine they ran on."""

import os
import platform
from pathlib import Path


def cpu_model():
    """The CPU's model name from /proc/cpuinfo (or what Python knows)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


def machine_record():
    """The machine as a JSON object: CPU, cores, kernel release, host."""
    return {"cpu": cpu_model(), "cores": os.cpu_count(),
            "kernel": platform.release(), "host": platform.node()}


def machine_line():
    """The machine in one line: `CPU, N cores, Linux release`."""
    return (f"{cpu_model()}, {os.cpu_count()} cores, "
            f"{platform.system()} {platform.release()}")
