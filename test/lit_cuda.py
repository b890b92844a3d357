"""The lit features of the GPU parts, for test/lit.cfg.py and the unit tests.

cuda: the build has the GPU parts (TUNER_ENABLE_CUDA: the CUDA toolkit was
found; libTunerCudaRuntime.so and tuner-run --gpu are built).
cuda-device: besides, `nvidia-smi -L` lists a GPU (tests that run kernels).
"""
import os
import shutil
import subprocess


def has_device():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    try:
        listed = subprocess.run([smi, "-L"], capture_output=True, text=True,
                                timeout=60)
    except (OSError, subprocess.SubprocessError):
        return False
    return listed.returncode == 0 and "GPU" in listed.stdout


def configure(config):
    if not getattr(config, "tuner_enable_cuda", False):
        return
    config.available_features.add("cuda")
    if has_device():
        config.available_features.add("cuda-device")
    cuda_bin = os.path.join(config.tuner_cuda_root, "bin")
    config.substitutions.append(("%cuda_bin", cuda_bin))
    config.substitutions.append(
        ("%cuda_runtime_dir", os.path.join(config.tuner_obj_root, "lib")))
    config.substitutions.append(
        ("%cuda_runtime",
         os.path.join(config.tuner_obj_root, "lib", "libTunerCudaRuntime.so")))
    # ptxas for gpu-module-to-binary format=bin.
    path = config.environment.get("PATH") or os.environ.get("PATH", "")
    config.environment["PATH"] = os.pathsep.join(filter(None, [path, cuda_bin]))
