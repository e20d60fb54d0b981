#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Configures the checked build that utils/fuzz.sh and
# utils/run-tests.sh --sanitize use (docs/testing.md):
#   utils/configure-checked.sh BUILD_DIR
# clang-22 with AddressSanitizer, UndefinedBehaviorSanitizer (LLVM's
# LLVM_USE_SANITIZER="Address;Undefined") and libFuzzer's coverage
# instrumentation (LLVM_USE_SANITIZE_COVERAGE), optimized, without the
# Python package (CPython is not instrumented). Installs what is missing
# (utils/setup.sh --packages: clang-22 and libclang-rt-22-dev among the
# rest). Does nothing when BUILD_DIR is configured already.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=$1
[ -f "$build/build.ninja" ] && exit 0
"$root/utils/setup.sh" --packages
CC=clang-22 CXX=clang++-22 cmake -G Ninja -S "$root" -B "$build" \
  -DCMAKE_BUILD_TYPE=Release -DONNX_SPEC_DIR="$root/../shared/onnx-spec" \
  -DLLVM_USE_SANITIZER="Address;Undefined" -DLLVM_USE_SANITIZE_COVERAGE=ON \
  -DONNX_DIALECT_ENABLE_PYTHON=OFF >/dev/null
