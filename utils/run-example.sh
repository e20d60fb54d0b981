#!/usr/bin/env bash
# The main job on the bundled example model: sets up and builds what is
# missing, then imports examples/models/tiny-cnn.onnx and prints its MLIR
# (weights as dense_resource blobs, elided when large).
#   utils/run-example.sh [MODEL.onnx]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
"$root/utils/setup.sh" onnx-translate onnx-opt >&2
model=${1:-$root/examples/models/tiny-cnn.onnx}
exec "$build/bin/onnx-translate" --import "$model" \
  --mlir-elide-resource-strings-if-larger=64
