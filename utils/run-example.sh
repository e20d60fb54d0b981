#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The main job on the bundled example model: sets up and builds what is
# missing, then imports examples/models/tiny-cnn.onnx, compiles it to native
# code for this CPU and runs it on examples/models/tiny-cnn-input.npy (two
# 28x28 images), printing its outputs and how far they are from the numpy
# reference (examples/make_example_model.py).
#   utils/run-example.sh                          the bundled model
#   utils/run-example.sh MODEL.onnx NAME=FILE...  another model and its inputs
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
"$root/utils/setup.sh" onnx-translate onnx-opt onnx-run >&2
models=$root/examples/models
if [ $# -gt 0 ]; then
  model=$1
  shift
  inputs=("$@")
else
  model=$models/tiny-cnn.onnx
  inputs=("image=$models/tiny-cnn-input.npy")
fi
args=()
for input in "${inputs[@]}"; do args+=(--input "$input"); done

echo "== $model: the graph as imported (onnx dialect)"
"$build/bin/onnx-translate" --import "$model" \
  --mlir-elide-resource-strings-if-larger=16 | sed -n '/func.func/,/^  }/p'
echo "== compiled for this CPU and run"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$build/bin/onnx-run" "$model" "${args[@]}"
if [ "$model" = "$models/tiny-cnn.onnx" ]; then
  "$build/bin/onnx-run" "$model" "${args[@]}" --output-dir "$out"
  /usr/bin/python3 - "$out/probabilities.npy" "$models/tiny-cnn-expected.npy" <<'PY'
import sys
import numpy as np
got, want = np.load(sys.argv[1]), np.load(sys.argv[2])
print("== against the numpy reference: max abs difference %.3g, classes %s (expected %s)"
      % (np.abs(got - want).max(), got.argmax(1).tolist(), want.argmax(1).tolist()))
sys.exit(0 if np.allclose(got, want, rtol=1e-4, atol=1e-6) else 1)
PY
fi
