#!/usr/bin/env python3
"""Imports every model of the ONNX conformance suites with onnx-translate.

  check_import.py ONNX_TRANSLATE [--expected-failures FILE] DIR...

DIR is a suite root (e.g. /usr/share/libonnx-testdata/data or
../shared/onnx-tests-1.22); every */*/model.onnx below it is imported, on all
cores. A model listed in the expected-failures file (suite-relative path, then
a reason) must fail; any other must import. Prints each unexpected result and
ends with 'N passed, M failed'."""
import argparse
import concurrent.futures
import os
import subprocess
import sys


def run(translate, path):
    p = subprocess.run([translate, "--import", path, "-o", os.devnull],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120)
    return p.returncode == 0, p.stderr.decode(errors="replace").strip().split("\n")[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("translate")
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--expected-failures")
    args = ap.parse_args()
    expected = {}
    if args.expected_failures:
        with open(args.expected_failures) as f:
            for line in f:
                line = line.strip()
                if line and not line.startswith("#"):
                    key, _, reason = line.partition(" ")
                    expected[key] = reason.strip()
    models = []
    for root in args.dirs:
        suite = os.path.basename(os.path.normpath(root))
        for group in sorted(os.listdir(root)):
            gdir = os.path.join(root, group)
            if not os.path.isdir(gdir):
                continue
            for case in sorted(os.listdir(gdir)):
                path = os.path.join(gdir, case, "model.onnx")
                if os.path.exists(path):
                    models.append(("%s/%s/%s" % (suite, group, case), path))
    passed = failed = 0
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        results = pool.map(lambda m: (m[0], run(args.translate, m[1])), models)
        for key, (ok, err) in results:
            if ok == (key not in expected):
                passed += 1
            else:
                failed += 1
                if ok:
                    print("UNEXPECTED PASS %s (listed: %s)" % (key, expected[key]))
                else:
                    print("FAIL %s: %s" % (key, err))
    print("%d models: %d as expected" % (len(models), passed))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
