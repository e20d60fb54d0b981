# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Multi-device runs from Python (docs/multi-device.md): an IR 11 device
configuration run as an MPI job, one rank a process, every rank creating the
session and running it with the same inputs."""

import os
import re
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

pytestmark = pytest.mark.skipif(
    not shutil.which("mpirun")
    or not os.path.exists("/usr/lib/x86_64-linux-gnu/libmpi.so.40"),
    reason="no Open MPI (openmpi-bin, libopenmpi3)")

RANK_SCRIPT = r"""
import glob, sys
import numpy as np, onnx
from onnx import numpy_helper
import onnx_dialect

case, config, micro = sys.argv[1], sys.argv[2], int(sys.argv[3])
rank, size = onnx_dialect.mpi_init()
s = onnx_dialect.InferenceSession(case + "/model.onnx", device_config=config,
                                  micro_batches=micro)
data = sorted(glob.glob(case + "/test_data_set_0/*.pb"))
def load(path):
    t = onnx.TensorProto()
    t.ParseFromString(open(path, "rb").read())
    return t.name, numpy_helper.to_array(t)
feed = dict(load(p) for p in data if "/input_" in p)
expected = [load(p)[1] for p in data if "/output_" in p]
outputs = s.run(None, feed)
ok = all(np.allclose(o, e, rtol=1e-3, atol=1e-5)
         for o, e in zip(outputs, expected))
print("rank %d of %d: %s" % (rank, size, "PASS" if ok else "FAIL"), flush=True)
"""


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    out = tmp_path_factory.mktemp("multidevice")
    build = os.environ.get("ONNX_DIALECT_BUILD", os.path.join(ROOT, "build"))
    subprocess.run([sys.executable,
                    os.path.join(ROOT, "utils", "make_multidevice_models.py"),
                    str(out), "--translate",
                    os.path.join(build, "bin", "onnx-translate")],
                   check=True, capture_output=True)
    script = out / "rank.py"
    script.write_text(RANK_SCRIPT)
    return out


def mpirun(n, *args):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    return subprocess.run(["mpirun", "--oversubscribe", "-np", str(n),
                           sys.executable] + [str(a) for a in args],
                          env=env, capture_output=True, text=True,
                          timeout=600)


@pytest.mark.parametrize("model,config,ranks,micro", [
    ("mlp", "tp2", 2, 1), ("pipeline", "pp2", 2, 2)])
def test_ranks(models, model, config, ranks, micro):
    run = mpirun(ranks, models / "rank.py", models / model, config, micro)
    assert run.returncode == 0, run.stdout + run.stderr
    # mpirun forwards each rank's output in chunks: two ranks' lines may
    # share one line of its stdout.
    reports = sorted(re.findall(r"rank \d+ of \d+: (?:PASS|FAIL)", run.stdout))
    assert reports == ["rank %d of %d: PASS" % (r, ranks)
                       for r in range(ranks)], run.stdout + run.stderr


def test_wrong_job_size(models):
    run = mpirun(1, models / "rank.py", models / "mlp", "tp2", 1)
    assert run.returncode != 0
    assert "device configuration 'tp2' has 2 devices but the MPI job has " \
           "1 rank" in run.stdout + run.stderr
