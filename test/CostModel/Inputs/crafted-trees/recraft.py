#!/usr/bin/env python3
"""Sets the feature count of the crafted boosters after a layout change.

The crafted boosters (README.md) must read as many features as the flat
layout of the build that tests them, or the tuner refuses them for that
before it reaches the crafted field. This rewrites `num_feature` (the
learner's and every tree's, UBJSON strings) in each file's booster and
recomputes its checksum (xxh3-64 of the bytes, as the tuner computes it,
through a helper compiled against LLVM 22), leaving the crafted field as
it is:

  recraft.py --num-feature 3942 *.json
"""
import argparse
import base64
import json
import os
import subprocess
import sys
import tempfile

HELPER = r'''
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
int main(int argc, char **argv) {
  auto buffer = llvm::MemoryBuffer::getFile(argv[1]);
  if (!buffer) return 1;
  llvm::outs() << llvm::formatv("{0:x-16}", llvm::xxh3_64bits(
                                    (*buffer)->getBuffer())).str() << "\n";
}
'''


def ubjson_string(text):
    """A string as XGBoost writes it: 'S', then its length as an int64."""
    data = text.encode()
    return b"SL" + len(data).to_bytes(8, "big") + data


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--num-feature", type=int, required=True)
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        source = os.path.join(work, "checksum.cpp")
        helper = os.path.join(work, "checksum")
        open(source, "w").write(HELPER)
        subprocess.run(["clang++-22", "-std=c++17", "-O1", source, "-o", helper,
                        "-I/usr/lib/llvm-22/include", "-L/usr/lib/llvm-22/lib",
                        "-lLLVM", "-Wl,-rpath,/usr/lib/llvm-22/lib"],
                       check=True)
        key = b"L" + len("num_feature").to_bytes(8, "big") + b"num_feature"
        for path in args.files:
            model = json.load(open(path))
            booster = model["booster"]
            data = base64.b64decode(booster["data"])
            parts = data.split(key)
            if len(parts) < 2:
                sys.exit("%s: no num_feature in the booster" % path)
            rebuilt = parts[0]
            for part in parts[1:]:
                if not part.startswith(b"SL"):
                    sys.exit("%s: num_feature is not a string" % path)
                length = int.from_bytes(part[2:10], "big")
                rebuilt += key + ubjson_string(str(args.num_feature)) + \
                    part[10 + length:]
            raw = os.path.join(work, "booster.ubj")
            open(raw, "wb").write(rebuilt)
            checksum = subprocess.run([helper, raw], check=True,
                                      capture_output=True,
                                      text=True).stdout.strip()
            booster["data"] = base64.b64encode(rebuilt).decode()
            booster["checksum"] = checksum
            json.dump(model, open(path, "w"), indent=2)
            open(path, "a").write("\n")
            print("%s: num_feature %d, checksum %s"
                  % (path, args.num_feature, checksum))


if __name__ == "__main__":
    main()
