#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Builds the folder that a GPU machine runs: compiled models and their data.

The GPU machine has the NVIDIA driver, Python, numpy and PyTorch, but no
LLVM, MLIR or protobuf: everything is compiled here. For each ONNX node test
(ONNX 1.22's suite; --filter narrows it) the model is compiled ahead of time
for --device (cuda by default) into OUT/cases/NAME/model.so and its test data
sets are written as .npy files (OUT/cases/NAME/N/{input,output}_K.npy with
the tensors' names in names.txt). OUT/lib holds the runtime library (all a
compiled model needs besides the driver), OUT/run_carry.py the script that
runs it all there (utils/gpu/run_carry.py) and OUT/bench the benchmark
models.

OUT/models holds the whole-model benchmark (--models, --batches): each model
of bench/models.py's BATCHED at each batch size, compiled with every
initializer of more than --weight-bytes bytes turned into a graph input (the
weights: ResNet-50's 100 MB or BERT-base's 340 MB would not fit the carry),
as OUT/models/NAME_bB.so (at --profile-batches also with its launches named
for the run's profile, NAME_bB.profile.so), and OUT/models/manifest.json:
per entry the data
input's and the output's names and shapes, and each weight's name, shape,
dtype and sha256. The weights themselves are not carried: run_carry.py
rebuilds each model there with bench/models.py (fixed numpy seeds) and
checks the checksums. Finally OUT.tar.gz is written (what the device tool
carries).

OUT/cases/half__NAME__half hold products of f16 and bf16 operands compiled
with the tensor cores' half-mma (HALF_ENV), and OUT/bench f16 products with
and without it (--no-half leaves both out).

Usage: utils/gpu/make_carry.py [--build build] [--out gpu-carry]
         [--device cuda] [--chip sm_90] [--filter REGEX] [--jobs 2]
         [--no-half] [--models resnet50,bert] [--batches 1,32]
         [--profile-batches 32] [--weight-bytes 4096]
"""

import argparse
import concurrent.futures
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time

import numpy as np
import onnx
from onnx import numpy_helper

# The element types run_carry.py hands to the C API with numpy's own dtypes.
PLAIN_DTYPES = {1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13}

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import run_conformance  # noqa: E402  (the suites and their discovery)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "bench"))
import models as bench_models  # noqa: E402  (the benchmark models)


def tensor_files(case_dir, out_dir):
    """Writes each test data set's tensors as .npy; False if one is not a
    plain tensor (sequences and optionals are not carried)."""
    for n, data_set in enumerate(sorted(glob.glob(
            os.path.join(case_dir, "test_data_set_*")))):
        target = os.path.join(out_dir, str(n))
        os.makedirs(target, exist_ok=True)
        names = []
        for kind in ("input", "output"):
            for k, pb in enumerate(sorted(
                    glob.glob(os.path.join(data_set, kind + "_*.pb")),
                    key=lambda p: int(re.findall(r"(\d+)\.pb$", p)[0]))):
                tensor = onnx.TensorProto()
                with open(pb, "rb") as f:
                    tensor.ParseFromString(f.read())
                if tensor.data_type not in PLAIN_DTYPES:
                    return False
                try:
                    array = numpy_helper.to_array(tensor)
                except Exception:  # noqa: BLE001  (not a plain tensor)
                    return False
                if array.dtype.kind not in "biuf":
                    return False
                np.save(os.path.join(target, "%s_%d.npy" % (kind, k)), array)
                names.append("%s_%d %s" % (kind, k, tensor.name))
        with open(os.path.join(target, "names.txt"), "w") as f:
            f.write("\n".join(names) + "\n")
    return True


def carried_type(t):
    """True for the types run_carry.py feeds as values: tensors of numpy's
    element types or strings, and sequences and optionals of those."""
    kind = t.WhichOneof("value")
    if kind == "tensor_type":
        return t.tensor_type.elem_type in PLAIN_DTYPES | {8}
    if kind == "sequence_type":
        return carried_type(t.sequence_type.elem_type)
    if kind == "optional_type":
        return carried_type(t.optional_type.elem_type)
    return False


def value_files(path, case_out, model):
    """For a model with sequences, optionals or strings: its test data as
    the .pb files themselves and the model (run_carry.py reads both with
    onnx there); False where a type is not carried (maps, other element
    types)."""
    inits = {i.name for i in model.graph.initializer}
    if not all(carried_type(v.type) for v in list(model.graph.input) +
               list(model.graph.output) if v.name not in inits):
        return False
    data_sets = sorted(glob.glob(os.path.join(path, "test_data_set_*")))
    if not data_sets:
        return False
    for n, data_set in enumerate(data_sets):
        target = os.path.join(case_out, str(n))
        os.makedirs(target, exist_ok=True)
        for pb in glob.glob(os.path.join(data_set, "*.pb")):
            shutil.copy(pb, target)
    shutil.copy(os.path.join(path, "model.onnx"), case_out)
    return True


# The kernels' options of a "plain" build: no elementwise ops fused into
# the product and reduction kernels, no row chains, the default tiles,
# convolutions, depthwise convolutions and pools reading padded copies of
# their images.
PLAIN_ENV = {"ONNXD_GPU_CONTRACTION": "fuse=false min-blocks=0 pad-images=false",
             "ONNXD_GPU_REDUCTION": "fuse=false chains=false pad-images=false"}


def build_case(onnx_run, device, chip, name, path, out, variant=""):
    """Compiles one node test into OUT/cases: with --gpu-tf32 (variant
    "tf32") under the name's suffix __tf32, which run_carry.py checks with
    TF32's tolerance; with PLAIN_ENV (variant "plain") under __plain, which
    tells a fault of the fusion, the row chains or the small tiles from
    the kernels'."""
    tf32 = variant == "tf32"
    case_out = os.path.join(out, "cases", name.replace("/", "__") +
                            ("__" + variant if variant else ""))
    os.makedirs(case_out, exist_ok=True)
    if not tensor_files(path, case_out):
        shutil.rmtree(case_out)
        os.makedirs(case_out)
        if not value_files(path, case_out, onnx.load(
                os.path.join(path, "model.onnx"), load_external_data=False)):
            shutil.rmtree(case_out)
            return name, "skipped: maps or element types numpy lacks"
    # Input names: the model's graph inputs without initializers, in order.
    model = onnx.load(os.path.join(path, "model.onnx"), load_external_data=False)
    inits = {i.name for i in model.graph.initializer}
    with open(os.path.join(case_out, "inputs.txt"), "w") as f:
        f.write("\n".join(i.name for i in model.graph.input
                          if i.name not in inits) + "\n")
    return name, compile_case(
        [onnx_run, os.path.join(path, "model.onnx"), "--device", device,
         "--gpu-chip", chip] + (["--gpu-tf32"] if tf32 else []),
        case_out, PLAIN_ENV if variant == "plain" else {})


def compile_case(command, case_out, env):
    """Runs COMMAND (onnx-run without -o) with ENV added to compile
    CASE_OUT/model.so: "ok", or "compile: " and its last line of error
    (CASE_OUT removed)."""
    run = subprocess.run(command + ["-o", os.path.join(case_out, "model.so")],
                         capture_output=True, text=True, timeout=600,
                         env=dict(os.environ, **env))
    if run.returncode != 0:
        shutil.rmtree(case_out)
        lines = (run.stderr or run.stdout).strip().splitlines()
        return "compile: " + (lines[-1] if lines else "failed")
    os.unlink(os.path.join(case_out, "model.h"))
    return "ok"


# Products of f16 and bf16 operands on the tensor cores (the contraction
# kernels' half-mma, off by default until a GPU run checks it): models with
# f32 inputs and outputs that cast to the type, multiply in it and cast
# back, with sizes that leave partial tiles and depths not a multiple of
# 16. run_carry.py checks their cases (suffix __half) with TF32's tolerance;
# a wrong fragment layout is off by the outputs' own magnitude.
HALF_ENV = {"ONNXD_GPU_CONTRACTION": "half-mma=true"}


def round_to(array, elem_type):
    """ARRAY (f32) rounded to ELEM_TYPE (f16 or bf16, to nearest even), as
    float64."""
    if elem_type == onnx.TensorProto.FLOAT16:
        return array.astype(np.float16).astype(np.float64)
    bits = array.astype(np.float32).view(np.uint32).astype(np.uint64)
    bits = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) << 16
    return bits.astype(np.uint32).view(np.float32).astype(np.float64)


def half_models():
    """[(name, model, inputs, expected)] of the __half cases."""
    rng = np.random.default_rng(16)
    f16, bf16 = onnx.TensorProto.FLOAT16, onnx.TensorProto.BFLOAT16
    helper = onnx.helper
    result = []
    specs = [
        ("matmul_f16_200x300x100", f16, "MatMul", [200, 300], [300, 100], {}),
        ("matmul_bf16_200x300x100", bf16, "MatMul", [200, 300], [300, 100], {}),
        ("matmul_f16_batched_3x70x40x90", f16, "MatMul", [3, 70, 40], [3, 40, 90], {}),
        ("gemm_bf16_transb_64x128x96", bf16, "Gemm", [64, 128], [96, 128], {"transB": 1}),
        # (Full 128x64 tiles, 32 k-steps; 1024 would add 11 MB to the carry.)
        ("matmul_f16_512", f16, "MatMul", [512, 512], [512, 512], {}),
        ("conv_f16_1x16x14x14_k3", f16, "Conv", [1, 16, 14, 14], [32, 16, 3, 3],
         {"pads": [1, 1, 1, 1]}),
    ]
    for name, elem, op, a_shape, b_shape, attrs in specs:
        a = rng.standard_normal(a_shape).astype(np.float32)
        b = rng.standard_normal(b_shape).astype(np.float32)
        a64, b64 = round_to(a, elem), round_to(b, elem)
        if op == "MatMul":
            want = np.matmul(a64, b64)
        elif op == "Gemm":
            want = a64 @ b64.T
        else:  # a 3x3 convolution with unit strides, padded by 1
            n, c, h, w = a_shape
            padded = np.pad(a64, ((0, 0), (0, 0), (1, 1), (1, 1)))
            want = np.zeros((n, b_shape[0], h, w))
            for i in range(3):
                for j in range(3):
                    want += np.einsum("nchw,fc->nfhw",
                                      padded[:, :, i:i + h, j:j + w],
                                      b64[:, :, i, j])
        want = round_to(want.astype(np.float32), elem).astype(np.float32)
        graph = helper.make_graph(
            [helper.make_node("Cast", ["a"], ["ah"], to=elem),
             helper.make_node("Cast", ["b"], ["bh"], to=elem),
             helper.make_node(op, ["ah", "bh"], ["ch"], **attrs),
             helper.make_node("Cast", ["ch"], ["c"], to=onnx.TensorProto.FLOAT)],
            name,
            [helper.make_tensor_value_info("a", onnx.TensorProto.FLOAT, a_shape),
             helper.make_tensor_value_info("b", onnx.TensorProto.FLOAT, b_shape)],
            [helper.make_tensor_value_info("c", onnx.TensorProto.FLOAT,
                                           list(want.shape))])
        model = helper.make_model(graph,
                                  opset_imports=[helper.make_opsetid("", 21)])
        model.ir_version = 10
        result.append((name, model, [("a", a), ("b", b)], [("c", want)]))
    return result


def build_half_case(onnx_run, args, name, model, inputs, outputs):
    """Compiles one of half_models() with HALF_ENV into
    OUT/cases/half__NAME__half."""
    case_out = os.path.join(args.out, "cases", "half__%s__half" % name)
    os.makedirs(os.path.join(case_out, "0"))
    with open(os.path.join(case_out, "inputs.txt"), "w") as f:
        f.write("\n".join(n for n, _ in inputs) + "\n")
    names = []
    for kind, tensors in (("input", inputs), ("output", outputs)):
        for k, (tensor_name, array) in enumerate(tensors):
            np.save(os.path.join(case_out, "0", "%s_%d.npy" % (kind, k)), array)
            names.append("%s_%d %s" % (kind, k, tensor_name))
    with open(os.path.join(case_out, "0", "names.txt"), "w") as f:
        f.write("\n".join(names) + "\n")
    with tempfile.TemporaryDirectory() as tmp:
        # Not in the case: model.onnx there would make run_carry.py read
        # the data as .pb values.
        path = os.path.join(tmp, "model.onnx")
        onnx.save(model, path)
        return name, compile_case(
            [onnx_run, path, "--device", args.device, "--gpu-chip", args.chip],
            case_out, HALF_ENV)


def weights_as_inputs(model, min_bytes):
    """Turns each float initializer of more than MIN_BYTES bytes into a
    graph input (after the model's own inputs, in initializer order);
    returns [(name, array)] of those."""
    graph = model.graph
    keep, weights = [], []
    for init in graph.initializer:
        array = numpy_helper.to_array(init)
        if array.dtype.kind == "f" and array.nbytes > min_bytes:
            weights.append((init.name, array))
        else:
            keep.append(init)
    del graph.initializer[:]
    graph.initializer.extend(keep)
    for name, array in weights:
        graph.input.append(onnx.helper.make_tensor_value_info(
            name, onnx.helper.np_dtype_to_tensor_dtype(array.dtype)
            if hasattr(onnx.helper, "np_dtype_to_tensor_dtype")
            else onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[array.dtype],
            list(array.shape)))
    return weights


def value_shape(value):
    return [d.dim_value for d in value.type.tensor_type.shape.dim]


def build_models(onnx_run, args):
    """Compiles the whole-model benchmark into OUT/models; writes its
    manifest. Returns the manifest's entries."""
    folder = os.path.join(args.out, "models")
    os.makedirs(folder)
    names = [n for n in args.models.split(",") if n]
    batches = [int(b) for b in args.batches.split(",") if b]
    profile_batches = [int(b) for b in args.profile_batches.split(",") if b]
    tmp = tempfile.mkdtemp(prefix="carry-models-")
    jobs = []
    entries = []
    try:
        for name in names:
            if name not in bench_models.BATCHED:
                sys.exit("--models: unknown model '%s' (known: %s)" % (
                    name, ", ".join(bench_models.BATCHED)))
            for batch in batches:
                model = bench_models.BATCHED[name](batch=batch)
                data = model.graph.input[0]
                weights = weights_as_inputs(model, args.weight_bytes)
                entry = {
                    "model": name, "batch": batch,
                    "file": "%s_b%d.so" % (name, batch),
                    "input": {"name": data.name, "shape": value_shape(data)},
                    "output": {"name": model.graph.output[0].name,
                               "shape": value_shape(model.graph.output[0])},
                    "weights": [{"name": n, "shape": list(a.shape),
                                 "dtype": str(a.dtype),
                                 "sha256": hashlib.sha256(
                                     np.ascontiguousarray(a).tobytes()).hexdigest()}
                                for n, a in weights],
                    "weight_bytes": int(sum(a.nbytes for _, a in weights)),
                }
                if batch in profile_batches:
                    entry["profile_file"] = "%s_b%d.profile.so" % (name, batch)
                path = os.path.join(tmp, entry["file"][:-3] + ".onnx")
                onnx.save(model, path)
                del model, weights
                entries.append(entry)
                jobs.append((entry, path))

        def compile_so(path, so, extra):
            """onnx-run PATH ... -o SO: None, or the error's last line."""
            run = subprocess.run(
                [onnx_run, path, "--device", args.device, "--gpu-chip",
                 args.chip, "-o", so] + extra, capture_output=True, text=True,
                timeout=3600)
            if os.path.exists(so[:-3] + ".h"):
                os.unlink(so[:-3] + ".h")
            if run.returncode == 0:
                return None
            if os.path.exists(so):
                os.unlink(so)
            lines = (run.stderr or run.stdout).strip().splitlines()
            return "compile: " + (lines[-1] if lines else "failed")

        def compile_one(job):
            entry, path = job
            so = os.path.join(folder, entry["file"])
            start = time.time()
            error = compile_so(path, so, [])
            entry["compile_s"] = round(time.time() - start, 1)
            if error:
                entry["error"] = error
            else:
                entry["so_bytes"] = os.path.getsize(so)
            # The same model with its launches named and timed for the
            # run's profile (onnx-run --profile; run_carry.py --profile-dir).
            if "profile_file" in entry:
                if compile_so(path, os.path.join(folder, entry["profile_file"]),
                              ["--profile", "profile.json"]):
                    del entry["profile_file"]
            return entry

        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            for entry in pool.map(compile_one, jobs):
                print("model %s b%d: %s in %.1f s, %s; weights as inputs: "
                      "%d (%.1f MB)" % (
                          entry["model"], entry["batch"],
                          entry.get("error", "compiled"), entry["compile_s"],
                          "%.1f MB" % (entry["so_bytes"] / 1e6)
                          if "so_bytes" in entry else "no .so",
                          len(entry["weights"]), entry["weight_bytes"] / 1e6),
                      flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    with open(os.path.join(folder, "manifest.json"), "w") as f:
        json.dump({"device": args.device, "chip": args.chip,
                   "weight_bytes": args.weight_bytes,
                   "models_version": bench_models.VERSION,
                   "entries": entries}, f, indent=1)
    return entries


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--out", default="gpu-carry")
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--chip", default="sm_90")
    parser.add_argument("--filter", default="")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--variants",
                        default="tf32=true;tf32=true tile-k=16;"
                        "tf32=true tile-k=32;"
                        "tf32=true tile-n=128 tile-k=16",
                        help="';'-separated options of the matrix-product "
                        "kernels to compile MatMul 4096 with as well")
    parser.add_argument("--tf32-filter", default=r"node/test_(conv|matmul|gemm)",
                        help="node tests compiled with --gpu-tf32 as well "
                        "(device cuda; '' for none)")
    parser.add_argument("--plain-filter",
                        default=r"node/test_(softmax|layer_normalization|"
                        r"matmul|gemm|conv_|maxpool|averagepool)",
                        help="node tests compiled also without fusion, row "
                        "chains, small tiles or reading through padding "
                        "(device cuda; '' for none)")
    parser.add_argument("--no-half", dest="half", action="store_false",
                        help="leave out the f16/bf16 tensor-core cases and "
                        "benchmarks (half-mma)")
    parser.add_argument("--models", default="resnet50,bert",
                        help="bench/models.py models for the whole-model "
                        "benchmark, comma-separated ('' for none)")
    parser.add_argument("--profile-batches", default="32",
                        help="batch sizes whose models are also compiled "
                        "with --profile (their launches named after the "
                        "ONNX nodes; '' for none)")
    parser.add_argument("--batches", default="1,32",
                        help="their batch sizes, comma-separated")
    parser.add_argument("--weight-bytes", type=int, default=4096,
                        help="initializers larger than this become inputs")
    args = parser.parse_args()
    onnx_run = os.path.join(args.build, "bin", "onnx-run")
    shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(os.path.join(args.out, "lib"))
    shutil.copy(os.path.join(args.build, "lib", "libOnnxDialectRuntime.so"),
                os.path.join(args.out, "lib"))
    shutil.copy(os.path.join(HERE, "run_carry.py"), args.out)
    cases = [c for s, p in run_conformance.SUITES if s == "onnx-1.22/node"
             for c in run_conformance.discover(s, p)
             if re.search(args.filter, c[0])]
    builds = [c + ("",) for c in cases]
    for variant, regex in (("tf32", args.tf32_filter),
                           ("plain", args.plain_filter)):
        if args.device == "cuda" and regex:
            builds += [c + (variant,) for c in cases if re.search(regex, c[0])]
    counts = {}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for name, status in pool.map(
                lambda c: build_case(onnx_run, args.device, args.chip, c[0],
                                     c[1], args.out, variant=c[2]), builds):
            kind = status.split(":")[0]
            counts[kind] = counts.get(kind, 0) + 1
            if kind == "compile":
                print("%s: %s" % (name, status))
    halves = half_models() if args.device == "cuda" and args.half else []
    for name, model, inputs, outputs in halves:
        name, status = build_half_case(onnx_run, args, name, model, inputs,
                                       outputs)
        kind = status.split(":")[0]
        counts[kind] = counts.get(kind, 0) + 1
        if kind == "compile":
            print("half/%s: %s" % (name, status))
    # The benchmark: f32 MatMul 4096^3 (bench/ runs it against cuBLAS there).
    bench = os.path.join(args.out, "bench")
    os.makedirs(bench)
    # f32 at three sizes; f16 (bench name matmulN_f16) at two, with and
    # without half-mma, against cuBLAS's f16 product there.
    sizes = [(n, onnx.TensorProto.FLOAT, "") for n in (1024, 2048, 4096)]
    if args.device == "cuda" and args.half:
        sizes += [(n, onnx.TensorProto.FLOAT16, "_f16") for n in (1024, 4096)]
    for n, elem, kind in sizes:
        model = onnx.helper.make_model(onnx.helper.make_graph(
            [onnx.helper.make_node("MatMul", ["a", "b"], ["c"])], "matmul",
            [onnx.helper.make_tensor_value_info("a", elem, [n, n]),
             onnx.helper.make_tensor_value_info("b", elem, [n, n])],
            [onnx.helper.make_tensor_value_info("c", elem, [n, n])]),
            opset_imports=[onnx.helper.make_opsetid("", 17)])
        model.ir_version = 8
        path = os.path.join(bench, "matmul%d%s.onnx" % (n, kind))
        onnx.save(model, path)
        # The largest also with other options of the matrix-product kernels
        # (ONNXD_GPU_CONTRACTION), to compare them on the GPU.
        variants = [""] + (args.variants.split(";") if n == 4096 and not kind
                           and args.variants else [])
        if kind:
            variants += ["half-mma=true", "half-mma=true tile-k=32"]
        for variant in variants:
            suffix = "_" + re.sub(r"[^A-Za-z0-9=-]+", "_", variant) if variant else ""
            env = dict(os.environ, ONNXD_GPU_CONTRACTION=variant)
            subprocess.run([onnx_run, path, "--device", args.device, "--gpu-chip",
                            args.chip, "-o", path[:-5] + suffix + ".so"],
                           check=True, env=env)
            os.unlink(path[:-5] + suffix + ".h")
        os.unlink(path)
    if args.models:
        build_models(onnx_run, args)
    with tarfile.open(args.out.rstrip("/") + ".tar.gz", "w:gz") as tar:
        tar.add(args.out, arcname=os.path.basename(args.out.rstrip("/")))
    size = os.path.getsize(args.out.rstrip("/") + ".tar.gz")
    print("%d cases (%d with --gpu-tf32, %d plain, %d half-mma): %s; "
          "%s.tar.gz %.1f MB" % (
        len(builds) + len(halves), sum(1 for b in builds if b[2] == "tf32"),
        sum(1 for b in builds if b[2] == "plain"), len(halves),
        ", ".join("%d %s" % (v, k) for k, v in sorted(counts.items())),
        args.out.rstrip("/"), size / 1e6))


if __name__ == "__main__":
    main()
