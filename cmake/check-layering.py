#!/usr/bin/env python3
"""Checks that tuner's libraries include only the layers they may.

Reads the layering table (cmake/Layering.txt) and every #include of the C++
files in ROOT/lib/<Lib>/ and ROOT/include/tuner/<Lib>/, and reports each
include the table forbids as

  FILE:LINE: error: #include "INCLUDE": RULE

then exits with 1. A library that includes one of ours that it must not, a
file that includes MLIR headers (directly or through one of our headers)
where its library may not, a folder missing from the table and an include of
an unknown library are errors. Libraries of the table without a folder are
skipped.
"""

import argparse
import os
import re
import sys

SOURCE_SUFFIXES = (".h", ".hpp", ".cpp", ".def", ".inc")
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


class TableError(Exception):
    pass


class Library:
    def __init__(self, name, uses, mlir, line):
        self.name = name
        self.uses = uses  # list of library names, in table order
        self.mlir = mlir  # True, False or a list of file names
        self.line = line

    def may_use_mlir(self, stem):
        if isinstance(self.mlir, bool):
            return self.mlir
        return stem in self.mlir

    def describe_uses(self):
        if not self.uses:
            return f"{self.name} may include nothing of ours"
        return f"{self.name} may include {', '.join(self.uses)}"


def read_table(path):
    """Returns the libraries of the table, by name, in table order."""
    libraries = {}
    with open(path, encoding="utf-8") as f:
        for number, text in enumerate(f, start=1):
            text = text.split("#", 1)[0].strip()
            if not text:
                continue
            columns = [c.strip() for c in text.split("|")]
            if len(columns) != 3 or not columns[0]:
                raise TableError(f"{path}:{number}: expected "
                                 "'library | may include | MLIR'")
            name, uses, mlir = columns
            uses = [] if uses == "-" else uses.split()
            if mlir == "yes":
                mlir = True
            elif mlir == "no":
                mlir = False
            else:
                mlir = mlir.split()
            if name in libraries:
                raise TableError(f"{path}:{number}: {name} is listed twice")
            libraries[name] = Library(name, uses, mlir, number)
    # Every name is a library of the table, and the lists are closed: what a
    # library may include, the libraries that include it may include too (or
    # a forbidden include would hide behind an allowed one).
    for lib in libraries.values():
        for used in lib.uses:
            if used not in libraries:
                raise TableError(f"{path}:{lib.line}: {lib.name} may include "
                                 f"{used}, which is not in the table")
            if used == lib.name:
                raise TableError(f"{path}:{lib.line}: {lib.name} lists "
                                 "itself")
            for indirect in libraries[used].uses:
                if indirect != lib.name and indirect not in lib.uses:
                    raise TableError(
                        f"{path}:{lib.line}: {lib.name} may include {used}, "
                        f"which may include {indirect}, but {lib.name} may "
                        f"not: add {indirect} to {lib.name}'s row or remove "
                        f"{used}")
                if indirect == lib.name:
                    raise TableError(
                        f"{path}:{lib.line}: {lib.name} and {used} may "
                        "include each other")
    return libraries


class Checker:
    def __init__(self, root, libraries):
        self.root = root
        self.libraries = libraries
        self.errors = []
        self.skipped = []
        self.files = {}  # relative path -> (library name, includes)
        self._mlir_reach = {}

    def show(self, rel):
        """A path as the user passed the root (plain when it is '.')."""
        if os.path.normpath(self.root) == ".":
            return rel
        return os.path.join(self.root, rel)

    def error(self, rel, line, message):
        where = f"{self.show(rel)}:{line}" if line else self.show(rel)
        self.errors.append(f"{where}: error: {message}")

    def collect(self):
        folders = {}
        for base in ("lib", os.path.join("include", "tuner")):
            top = os.path.join(self.root, base)
            if not os.path.isdir(top):
                continue
            for name in sorted(os.listdir(top)):
                if os.path.isdir(os.path.join(top, name)):
                    folders.setdefault(name, []).append(os.path.join(base,
                                                                     name))
        for name, paths in sorted(folders.items()):
            if name not in self.libraries:
                for path in paths:
                    self.error(path, None,
                               f"library {name} is not in the layering table:"
                               " add a row for it")
                continue
            for path in paths:
                for dirpath, dirnames, filenames in os.walk(
                        os.path.join(self.root, path)):
                    dirnames.sort()
                    for filename in sorted(filenames):
                        if filename.endswith(SOURCE_SUFFIXES):
                            full = os.path.join(dirpath, filename)
                            rel = os.path.relpath(full, self.root)
                            self.files[rel] = (name, self.read_includes(full))
        self.skipped = [name for name in self.libraries
                        if name not in folders]

    @staticmethod
    def read_includes(path):
        includes = []
        with open(path, encoding="utf-8", errors="replace") as f:
            for number, text in enumerate(f, start=1):
                match = INCLUDE_RE.match(text)
                if match:
                    includes.append((number, match.group(1) == '"',
                                     match.group(2)))
        return includes

    def resolve(self, rel, quoted, include):
        """The file of the tree an include names, or None."""
        if include.startswith("tuner/"):
            candidate = os.path.join("include", include)
        elif quoted:
            candidate = os.path.normpath(
                os.path.join(os.path.dirname(rel), include))
        else:
            return None
        return candidate if candidate in self.files else None

    def library_of_include(self, rel, quoted, include):
        """The library an include belongs to, or None for a foreign one."""
        target = self.resolve(rel, quoted, include)
        if target is not None:
            return self.files[target][0]
        if include.startswith("tuner/"):
            parts = include.split("/")
            return parts[1] if len(parts) > 2 else ""
        return None

    def mlir_reach(self, rel, visiting=()):
        """The first MLIR include a file reaches: (file, line, include)."""
        if rel in self._mlir_reach:
            return self._mlir_reach[rel]
        found = None
        for line, quoted, include in self.files[rel][1]:
            if is_mlir(include):
                found = (rel, line, include)
                break
            target = self.resolve(rel, quoted, include)
            if target is not None and target not in visiting:
                found = self.mlir_reach(target, visiting + (rel,))
                if found:
                    break
        self._mlir_reach[rel] = found
        return found

    def check(self):
        for rel, (name, includes) in self.files.items():
            lib = self.libraries[name]
            stem = os.path.basename(rel).split(".", 1)[0]
            for line, quoted, include in includes:
                spelled = (f'#include "{include}"' if quoted else
                           f"#include <{include}>")
                if is_mlir(include):
                    if not lib.may_use_mlir(stem):
                        self.error(rel, line,
                                   f"{spelled}: {self.no_mlir(lib, stem)}")
                    continue
                used = self.library_of_include(rel, quoted, include)
                if used is None:
                    continue
                if used not in self.libraries:
                    self.error(rel, line,
                               f"{spelled}: names no library of the layering"
                               " table")
                    continue
                if used != name and used not in lib.uses:
                    self.error(rel, line,
                               f"{spelled}: {name} must not include {used} "
                               f"({lib.describe_uses()})")
                    continue
                target = self.resolve(rel, quoted, include)
                if target is None or lib.may_use_mlir(stem):
                    continue
                reach = self.mlir_reach(target)
                if reach:
                    where = f"{self.show(reach[0])}:{reach[1]}"
                    self.error(rel, line,
                               f'{spelled} reaches "{reach[2]}" ({where}): '
                               f"{self.no_mlir(lib, stem)}")

    @staticmethod
    def no_mlir(lib, stem):
        if lib.mlir is False:
            return (f"{lib.name} must not include MLIR headers "
                    f"({lib.name} has no MLIR files)")
        return (f"{lib.name}'s {stem} must not include MLIR headers "
                f"(in {lib.name} only {', '.join(lib.mlir)} may)")


def is_mlir(include):
    return include.startswith(("mlir/", "mlir-c/"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("root", help="the source tree (holds lib/ and "
                        "include/tuner/)")
    parser.add_argument("--table", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "Layering.txt"),
        help="the layering table (default: Layering.txt beside this script)")
    args = parser.parse_args()

    try:
        libraries = read_table(args.table)
    except (OSError, TableError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    checker = Checker(args.root, libraries)
    checker.collect()
    checker.check()
    if checker.errors:
        for message in checker.errors:
            print(message, file=sys.stderr)
        count = len(checker.errors)
        print(f"layering: {count} violation{'s' if count != 1 else ''} of "
              f"the rules in {args.table}", file=sys.stderr)
        return 1
    present = len(libraries) - len(checker.skipped)
    skipped = (f" (no folder: {', '.join(checker.skipped)})"
               if checker.skipped else "")
    print(f"layering: {len(checker.files)} files in {present} libraries "
          f"follow {args.table}{skipped}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
