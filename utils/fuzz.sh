#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Runs one libFuzzer target of tools/fuzz for a while (docs/testing.md,
# "Fuzzing"):
#   utils/fuzz.sh TARGET MINUTES [libFuzzer options...]
# TARGET: onnx-import-fuzzer, onnx-text-fuzzer, onnx-syntax-fuzzer or
# onnx-tensor-fuzzer. Builds the checked configuration first (clang-22,
# AddressSanitizer + UndefinedBehaviorSanitizer + libFuzzer's coverage, in
# BUILD_DIR, default build-san: the one utils/run-tests.sh --sanitize uses),
# seeds the corpus from the conformance data (utils/fuzz_seeds.py) and keeps
# it between runs in $BUILD_DIR/fuzz/TARGET/corpus. An input that crashes,
# hangs (20 s) or needs more than 4 GiB is written to
# $BUILD_DIR/fuzz/TARGET/crash-*, timeout-* or oom-*: make it a regression
# test under test/Fuzz/Inputs/TARGET (test/Fuzz/replay.test runs them all).
# Prints the executions per second and the artifacts found; exit status 1
# when there are any.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -lt 2 ]; then
  sed -n '3,16p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
target=$1
minutes=$2
shift 2
case "$target" in
  onnx-import-fuzzer | onnx-text-fuzzer | onnx-syntax-fuzzer | onnx-tensor-fuzzer) ;;
  *) echo "fuzz.sh: unknown target '$target'" >&2; exit 2 ;;
esac
[[ "$minutes" =~ ^[0-9]+$ ]] && [ "$minutes" -gt 0 ] ||
  { echo "fuzz.sh: MINUTES must be a positive whole number, not '$minutes'" >&2; exit 2; }

build=${BUILD_DIR:-$root/build-san}
"$root/utils/configure-checked.sh" "$build" || exit 2
ninja -C "$build" "$target" || exit 2

work=$build/fuzz/$target
mkdir -p "$work/corpus" "$work/seeds"
if [ -z "$(ls -A "$work/seeds")" ]; then
  /usr/bin/python3 "$root/utils/fuzz_seeds.py" "$target" "$work/seeds" || exit 2
fi
log=$work/last-run.log
# The targets' AddressSanitizer defaults are in tools/fuzz/SanitizerOptions.cpp.
# Every sanitizer report ends the run.
start=$(date +%s)
touch "$work/.start"
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
  "$build/bin/$target" "$work/corpus" "$work/seeds" \
  -max_total_time=$((minutes * 60)) -timeout=20 -rss_limit_mb=4096 \
  -artifact_prefix="$work/" -print_final_stats=1 "$@" 2>&1 | tee "$log" |
  grep -E "^#[0-9]+ +(INITED|DONE|pulse)|ERROR|SUMMARY|Test unit written|stat::" 
seconds=$(($(date +%s) - start))
execs=$(grep -E "^stat::number_of_executed_units:" "$log" | awk '{print $2}')
per_s=$(grep -E "^stat::average_exec_per_sec:" "$log" | awk '{print $2}')
artifacts=$(find "$work" -maxdepth 1 -newer "$work/.start" -printf "%f\n" |
  grep -E "^(crash|timeout|oom|leak|slow-unit)-" || true)
echo "$target: ${execs:-0} executions in $seconds s, ${per_s:-0} per second," \
  "corpus $(ls "$work/corpus" | wc -l) inputs"
if [ -n "$artifacts" ]; then
  echo "$target: artifacts in $work:"
  echo "$artifacts" | sed 's/^/  /'
  exit 1
fi
echo "$target: no crash, hang or out-of-memory"
