#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes the seed corpus of a fuzz target (tools/fuzz) into a directory.

  utils/fuzz_seeds.py TARGET DIR

Seeds come from ONNX's conformance data (shared/onnx-tests-1.22 and Debian's
libonnx-testdata) and the repository's own tests:
  onnx-import-fuzzer  the node and light test models (binary ModelProto),
                      those of 64 KiB or less;
  onnx-text-fuzzer    the same models printed in protobuf text format, and
                      test/**/*.textproto;
  onnx-syntax-fuzzer  test/**/*.onnxtxt (the ONNX textual syntax);
  onnx-tensor-fuzzer  the test cases' input_*.pb, each prefixed with the byte
                      that picks its reader (FuzzTensorFiles.cpp: 0 .npy,
                      1 TensorProto, 2 SequenceProto, 3 OptionalProto), and
                      the tensors again as .npy files.
"""
import glob
import hashlib
import io
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUITES = [
    os.path.join(ROOT, "..", "shared", "onnx-tests-1.22"),
    "/usr/share/libonnx-testdata/data",
]
MAX_SEED = 64 << 10


def models():
    for suite in SUITES:
        for path in sorted(glob.glob(os.path.join(suite, "*", "*", "model.onnx"))):
            if os.path.getsize(path) <= MAX_SEED:
                yield path


def write(out, data):
    name = hashlib.sha1(data).hexdigest()
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)


def main():
    target, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    count = 0
    if target == "onnx-import-fuzzer":
        for path in models():
            write(out, open(path, "rb").read())
            count += 1
    elif target == "onnx-text-fuzzer":
        import onnx

        for path in models():
            write(out, str(onnx.load(path)).encode())
            count += 1
        for path in glob.glob(os.path.join(ROOT, "test", "**", "*.textproto"), recursive=True):
            write(out, open(path, "rb").read())
            count += 1
    elif target == "onnx-syntax-fuzzer":
        for path in glob.glob(os.path.join(ROOT, "test", "**", "*.onnxtxt"), recursive=True):
            write(out, open(path, "rb").read())
            count += 1
    elif target == "onnx-tensor-fuzzer":
        import numpy
        import onnx
        from onnx import numpy_helper

        for suite in SUITES:
            for case in sorted(glob.glob(os.path.join(suite, "node", "*"))):
                model = os.path.join(case, "model.onnx")
                if not os.path.exists(model):
                    continue
                kinds = []
                for i in onnx.load(model).graph.input:
                    field = i.type.WhichOneof("value")
                    kinds.append({"sequence_type": 2, "optional_type": 3}.get(field, 1))
                for pb in sorted(glob.glob(os.path.join(case, "test_data_set_0", "input_*.pb"))):
                    index = int(os.path.basename(pb)[6:-3])
                    kind = kinds[index] if index < len(kinds) else 1
                    data = open(pb, "rb").read()
                    if len(data) > MAX_SEED:
                        continue
                    write(out, bytes([kind]) + data)
                    count += 1
                    if kind != 1:
                        continue
                    tensor = onnx.TensorProto()
                    tensor.ParseFromString(data)
                    try:
                        array = numpy_helper.to_array(tensor)
                    except Exception:
                        continue
                    if array.dtype == object:
                        continue
                    buf = io.BytesIO()
                    numpy.save(buf, array)
                    write(out, b"\0" + buf.getvalue())
                    count += 1
    else:
        sys.exit(f"fuzz_seeds.py: unknown target {target}")
    print(f"{target}: {count} seeds in {out}")


if __name__ == "__main__":
    main()
