#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Runs on the GPU machine, in the repository root, what
# utils/gpu/make_carry.py built (.gpucarry/gpu-carry.tar.gz): one case first
# (with pinned host memory if managed memory fails there), then the node
# tests within BUDGET seconds, then the MatMul benchmark, then the models
# (ResNet-50, BERT-base at batch 1 and 32 against PyTorch eager, within
# --model-budget seconds: 120 unless given). Everything printed is also in
# $OUT/log; the results per case in $OUT/results.json, the models' figures
# in $OUT/models.json, the profiles of the models at batch 32 (each launch
# named after its ONNX nodes) in $OUT/profile_NAME_b32.json.
#   bash utils/gpu/device_run.sh [BUDGET] [run_carry.py options...]
set -u
budget=${1:-200}
shift || true
OUT=${OUT:-/tmp/gpu-out}
work=${WORK:-/tmp/onnxd-gpu}
rm -rf "$work"; mkdir -p "$OUT" "$work"
tar xzf .gpucarry/gpu-carry.tar.gz -C "$work"
cp utils/gpu/run_carry.py $work/gpu-carry/
carry=$work/gpu-carry
export PYTHONUNBUFFERED=1
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
  python3 -c 'import numpy, torch; print("numpy", numpy.__version__, "torch", torch.__version__, torch.cuda.get_device_name())'
  echo "== one case, managed memory"
  if ! python3 $carry/run_carry.py $carry --filter 'test_add$' --bench-runs 0 --model-runs 0 --jobs 1 | tee $work/smoke | grep -q '^1 passed'; then
    echo "== one case, pinned host memory (ONNXD_CUDA_MEMORY=host)"
    export ONNXD_CUDA_MEMORY=host
    python3 $carry/run_carry.py $carry --filter 'test_add$' --bench-runs 0 --model-runs 0 --jobs 1
  fi
  echo "== node tests (budget ${budget} s)"
  # run_carry.py is run from the carry: --repo finds bench/models.py here.
  python3 $carry/run_carry.py $carry --budget "$budget" --jobs 12 \
    --case-timeout 30 --json "$OUT/results.json" --repo "$PWD" \
    --profile-dir "$OUT" \
    --model-budget 120 "$@"
} 2>&1 | tee "$OUT/log"
tar czf "$OUT/worker-logs.tar.gz" -C $carry logs 2>/dev/null
