#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Checks the licence banners of the sources (LLVM's file header style).

C, C++ and TableGen files under include/, lib/, tools/, examples/, python/
and bench/ start
with one 80-column line that names the file, then the licence block:

  //===- Foo.h - What it holds ------------------------------*- C++ -*-===//
  //
  // Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
  // Exceptions. See LICENSE for license information.
  // SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
  //
  //===----------------------------------------------------------------------===//

Headers end the first line with `-*- C++ -*-===//` (`-*- C -*-===//` for a C
header in /* */ comments), .td files with `-*- tablegen -*-===//`. Python and
shell scripts under utils/, bench/, examples/ and python/ carry the SPDX line in their
first lines. Prints `file:line: problem` for each offence; exits 1 if any.
"""

import argparse
import os
import re
import sys

SPDX = "SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception"
SOURCE_DIRS = ("include", "lib", "tools", "examples", "python", "bench")
SCRIPT_DIRS = ("utils", "bench", "examples", "python")
SOURCE_EXTS = (".h", ".cpp", ".c", ".td")
SCRIPT_EXTS = (".py", ".sh")
# How far down the SPDX line may stand (after a shebang or the banner line).
SPDX_WITHIN = 6

FIRST_LINE = re.compile(r"^(//|/\*)===-+ (\S+) - \S.*===//$")


def mode_of(path, first):
    """The editor mode the first line of `path` must end with, or None."""
    if path.endswith(".td"):
        return "-*- tablegen -*-===//"
    if path.endswith(".h"):
        return "-*- C -*-===//" if first.startswith("/*") else "-*- C++ -*-===//"
    return None


def check_source(rel, lines, problems):
    first = lines[0] if lines else ""
    m = FIRST_LINE.match(first)
    if not m:
        problems.append((rel, 1, "first line is not a `//===- Name - What "
                         "---===//` banner"))
    else:
        if m.group(2) != os.path.basename(rel):
            problems.append((rel, 1, "banner names %s" % m.group(2)))
        if len(first) != 80:
            problems.append((rel, 1, "banner is %d columns, not 80" % len(first)))
        mode = mode_of(rel, first)
        if mode and not first.endswith(" " + mode) and not first.endswith("-" + mode):
            problems.append((rel, 1, "banner does not end with `%s`" % mode))
    if not any(SPDX in l for l in lines[1:SPDX_WITHIN + 1]):
        problems.append((rel, 2, "no `%s` line under the banner" % SPDX))


def check_script(rel, lines, problems):
    if not any(l.startswith("# " + SPDX) for l in lines[:SPDX_WITHIN]):
        problems.append((rel, 1, "no `# %s` line in the first %d lines"
                         % (SPDX, SPDX_WITHIN)))


def walk(root, dirs, exts):
    for d in dirs:
        for base, subdirs, files in os.walk(os.path.join(root, d)):
            subdirs[:] = sorted(s for s in subdirs if s not in (
                "build", "node_modules", "__pycache__") and not s.startswith("."))
            for name in sorted(files):
                if name.endswith(exts):
                    rel = os.path.relpath(os.path.join(base, name), root)
                    yield rel


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))), help="the repository (default: this one)")
    args = ap.parse_args()

    problems = []
    count = 0
    for dirs, exts, check in ((SOURCE_DIRS, SOURCE_EXTS, check_source),
                              (SCRIPT_DIRS, SCRIPT_EXTS, check_script)):
        for rel in walk(args.root, dirs, exts):
            with open(os.path.join(args.root, rel), encoding="utf-8") as f:
                lines = f.read().split("\n")
            count += 1
            check(rel, lines, problems)
    for rel, line, what in problems:
        print("%s:%d: %s" % (rel, line, what))
    print("%d files checked, %d problems" % (count, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
