#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Installs what the project needs on Debian 12 (when missing), configures and
# builds it. Idempotent and non-interactive; run as root (or with sudo).
#   utils/setup.sh [ninja targets...]      (default: all)
#   utils/setup.sh --packages              (the packages only)
#   utils/setup.sh --corpus                (only what utils/real_models.py
#                                           fetch uses: torchvision, npm)
# Environment: BUILD_DIR (default: build), BUILD_TYPE (default: Release),
# JOBS (default: the number of cores).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
jobs=${JOBS:-$(nproc)}

packages=(
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
  libprotobuf-dev protobuf-compiler python3-protobuf
  python3-onnx python3-numpy libonnx-testdata
  python3-dev pybind11-dev python3-pytest libopenmpi-dev openmpi-bin
  cmake ninja-build ccache g++ clang-format
  clang-22 libclang-rt-22-dev
)
if [ "${1:-}" = --corpus ]; then
  packages=(python3-torchvision)
  # Node's own npm (bench/README.md) does as well as Debian's.
  command -v npm >/dev/null || packages+=(npm)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

case "${1:-}" in --packages | --corpus) exit 0 ;; esac

if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" \
    -DONNX_SPEC_DIR="$root/../shared/onnx-spec"
fi
ninja -C "$build" -j "$jobs" "$@"
