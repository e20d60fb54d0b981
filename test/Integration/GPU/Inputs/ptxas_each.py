# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""ptxas on each kernel module of `onnx-run --emit ptx` output.

Usage: ptxas_each.py FILE.ptx CHIP. Prints `N kernel modules, all accepted
by ptxas`, or ptxas's error and exits 1.
"""
import os
import re
import subprocess
import sys
import tempfile

text = open(sys.argv[1]).read()
modules = [m for m in re.split(r"^// kernel module .*$", text, flags=re.M)
           if ".entry" in m]
with tempfile.TemporaryDirectory() as tmp:
    for i, module in enumerate(modules):
        path = os.path.join(tmp, "m%d.ptx" % i)
        with open(path, "w") as f:
            f.write(module)
        run = subprocess.run(["ptxas", "-arch=" + sys.argv[2], path, "-o",
                              os.devnull], capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit("module %d: %s" % (i, run.stderr.strip()))
print("%d kernel modules, all accepted by ptxas" % len(modules))
