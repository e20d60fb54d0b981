# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""onnx_dialect.InferenceSession: the ONNX Runtime surface, element types,
sequences/optionals/strings, errors, ahead-of-time libraries, and equality
with onnx-run."""

import os
import re
import subprocess
import sys

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import onnx_dialect
from conftest import EXAMPLE, identity_model, make_model


def test_surface(add_model):
    sess = onnx_dialect.InferenceSession(add_model)
    (x, y), (z,) = sess.get_inputs(), sess.get_outputs()
    assert (x.name, x.type, x.shape) == ("x", "tensor(float)", ["N", 4])
    assert (y.name, z.name, z.shape) == ("y", "z", ["N", 4])
    assert sess.get_providers() == ["CPUExecutionProvider"]
    a = np.arange(8, dtype=np.float32).reshape(2, 4)
    b = np.ones((2, 4), np.float32)
    out = sess.run(None, {"x": a, "y": b})
    assert isinstance(out, list) and len(out) == 1
    np.testing.assert_array_equal(out[0], a + b)
    assert sess.run(["z"], {"x": a, "y": b})[0].shape == (2, 4)
    # Lists and scalars go through numpy.asarray in the input's type.
    np.testing.assert_array_equal(
        sess.run(None, {"x": [[1, 2, 3, 4]], "y": b[:1]})[0], [[2, 3, 4, 5]])


def test_model_forms(add_model, tmp_path):
    """A path, bytes and a ModelProto compile to the same thing."""
    path = tmp_path / "add.onnx"
    onnx.save(add_model, str(path))
    a = np.full((3, 4), 2, np.float32)
    for model in (str(path), path, add_model.SerializeToString(), add_model):
        sess = onnx_dialect.InferenceSession(model)
        np.testing.assert_array_equal(sess.run(None, {"x": a, "y": a})[0], a * 2)


def test_outputs_owned_by_numpy(add_model):
    sess = onnx_dialect.InferenceSession(add_model)
    a = np.ones((2, 4), np.float32)
    z = sess.run(None, {"x": a, "y": a})[0]
    del sess  # the output outlives the session
    assert z.flags["C_CONTIGUOUS"] and z.flags["WRITEABLE"]
    z[0, 0] = 7
    np.testing.assert_array_equal(z[1], [2, 2, 2, 2])


def test_non_contiguous_input(add_model):
    sess = onnx_dialect.InferenceSession(add_model)
    big = np.arange(32, dtype=np.float32).reshape(4, 8)
    view = big[:, ::2]  # strided: copied once
    z = sess.run(None, {"x": view, "y": view})[0]
    np.testing.assert_array_equal(z, view * 2)
    t = np.asfortranarray(np.arange(8, dtype=np.float32).reshape(2, 4))
    np.testing.assert_array_equal(sess.run(None, {"x": t, "y": t})[0], t * 2)


# Every element type numpy has, through Identity.
NUMPY_TYPES = [
    (TensorProto.FLOAT, np.float32), (TensorProto.DOUBLE, np.float64),
    (TensorProto.FLOAT16, np.float16), (TensorProto.INT8, np.int8),
    (TensorProto.INT16, np.int16), (TensorProto.INT32, np.int32),
    (TensorProto.INT64, np.int64), (TensorProto.UINT8, np.uint8),
    (TensorProto.UINT16, np.uint16), (TensorProto.UINT32, np.uint32),
    (TensorProto.UINT64, np.uint64), (TensorProto.BOOL, np.bool_),
]


@pytest.mark.parametrize("elem,dtype", NUMPY_TYPES,
                         ids=[np.dtype(t).name for _, t in NUMPY_TYPES])
def test_dtype_round_trip(elem, dtype):
    sess = onnx_dialect.InferenceSession(identity_model(elem))
    rng = np.random.default_rng(0)
    if dtype == np.bool_:
        x = rng.integers(0, 2, (5, 3)).astype(bool)
    elif np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        x = rng.integers(info.min, info.max, (5, 3), dtype=dtype, endpoint=True)
    else:
        x = rng.standard_normal((5, 3)).astype(dtype)
    y = sess.run(None, {"x": x})[0]
    assert y.dtype == x.dtype and y.shape == x.shape
    np.testing.assert_array_equal(y, x)


def test_bfloat16_as_uint16_bits():
    """bfloat16 travels as uint16 bit patterns: Cast float -> bfloat16 ->
    Identity, and bfloat16 -> float."""
    to_bf16 = make_model(
        [helper.make_node("Cast", ["x"], ["y"], to=TensorProto.BFLOAT16)],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])],
        [helper.make_tensor_value_info("y", TensorProto.BFLOAT16, [4])])
    sess = onnx_dialect.InferenceSession(to_bf16)
    assert sess.get_outputs()[0].type == "tensor(bfloat16)"
    x = np.array([1.0, -2.5, 0.15625, 3.0e38], np.float32)
    bits = sess.run(None, {"x": x})[0]
    assert bits.dtype == np.uint16
    np.testing.assert_array_equal(bits, [0x3F80, 0xC020, 0x3E20, 0x7F62])
    back = onnx_dialect.InferenceSession(identity_model(TensorProto.BFLOAT16))
    np.testing.assert_array_equal(back.run(None, {"x": bits.reshape(1, 4)[:, :3]})[0],
                                  bits.reshape(1, 4)[:, :3])


def test_int4_sign_extended():
    # ONNX's textual syntax: onnx 1.12's helper has no INT4.
    model = b"""<ir_version: 10, opset_import: ["" : 21]>
        g (int32[4] x) => (int4[4] y) { y = Cast<to = 22>(x) }"""
    y = onnx_dialect.InferenceSession(model).run(None, {"x": np.array([-8, -1, 3, 7], np.int32)})[0]
    assert y.dtype == np.int8
    np.testing.assert_array_equal(y, [-8, -1, 3, 7])


def test_strings():
    sess = onnx_dialect.InferenceSession(identity_model(TensorProto.STRING))
    words = ["abc", "Grüße", "", "日本語"] * 3
    for x in (np.array(words).reshape(4, 3),
              np.array(words, dtype=object).reshape(4, 3),
              np.array([w.encode() for w in words], dtype=object).reshape(4, 3)):
        y = sess.run(None, {"x": x})[0]
        assert y.dtype == object and y.shape == (4, 3)
        assert list(y.ravel()) == words
    upper = make_model(
        [helper.make_node("StringNormalizer", ["x"], ["y"],
                          case_change_action="UPPER")],
        [helper.make_tensor_value_info("x", TensorProto.STRING, [2])],
        [helper.make_tensor_value_info("y", TensorProto.STRING, [2])])
    y = onnx_dialect.InferenceSession(upper).run(None, {"x": np.array(["abc", "Xy"])})[0]
    assert list(y) == ["ABC", "XY"]
    with pytest.raises(onnx_dialect.InvalidArgument, match="a string tensor holds a int"):
        sess.run(None, {"x": np.array([[1, "a", "b"]], dtype=object)})


def test_sequences_and_optionals():
    seq = make_model(
        [helper.make_node("SequenceInsert", ["s", "t"], ["out"])],
        [helper.make_tensor_sequence_value_info("s", TensorProto.FLOAT, None),
         helper.make_tensor_value_info("t", TensorProto.FLOAT, [2])],
        [helper.make_tensor_sequence_value_info("out", TensorProto.FLOAT, None)])
    sess = onnx_dialect.InferenceSession(seq)
    assert sess.get_inputs()[0].type == "seq(tensor(float))"
    a, b = np.ones(3, np.float32), np.array([5, 6], np.float32)
    out = sess.run(None, {"s": [a], "t": b})[0]
    assert isinstance(out, list) and len(out) == 2
    np.testing.assert_array_equal(out[1], b)

    opt_type = helper.make_optional_type_proto(
        helper.make_tensor_type_proto(TensorProto.FLOAT, [2]))
    has = make_model(
        [helper.make_node("OptionalHasElement", ["o"], ["h"])],
        [helper.make_value_info("o", opt_type)],
        [helper.make_tensor_value_info("h", TensorProto.BOOL, [])], opset=18)
    sess = onnx_dialect.InferenceSession(has)
    assert sess.get_inputs()[0].type == "optional(tensor(float))"
    assert sess.run(None, {"o": None})[0] == False  # noqa: E712
    assert sess.run(None, {"o": b})[0] == True  # noqa: E712

    make = make_model(
        [helper.make_node("Optional", [], ["o"], type=helper.make_tensor_type_proto(TensorProto.FLOAT, [2]))],
        [], [helper.make_value_info("o", opt_type)], opset=18)
    assert onnx_dialect.InferenceSession(make).run(None, {})[0] is None


def test_input_errors(add_model):
    sess = onnx_dialect.InferenceSession(add_model)
    a = np.ones((2, 4), np.float32)
    with pytest.raises(onnx_dialect.InvalidArgument, match="input 'w'.*no such input"):
        sess.run(None, {"x": a, "y": a, "w": a})
    with pytest.raises(onnx_dialect.InvalidArgument, match=r"missing input(?s:.*)y: float32"):
        sess.run(None, {"x": a})
    with pytest.raises(onnx_dialect.InvalidArgument, match="input 'x'.*float64"):
        sess.run(None, {"x": a.astype(np.float64), "y": a})
    with pytest.raises(onnx_dialect.InvalidArgument, match="input 'y'.*rank 1"):
        sess.run(None, {"x": a, "y": np.ones(4, np.float32)})
    with pytest.raises(onnx_dialect.InvalidArgument, match="dim 1"):
        sess.run(None, {"x": a, "y": np.ones((2, 5), np.float32)})
    with pytest.raises(onnx_dialect.InvalidArgument, match="N"):
        sess.run(None, {"x": a, "y": np.ones((3, 4), np.float32)})
    with pytest.raises(onnx_dialect.InvalidArgument, match="output 'q'"):
        sess.run(["q"], {"x": a, "y": a})
    with pytest.raises(TypeError):
        sess.run(None, [a, a])
    # Errors are ValueErrors too, as ONNX Runtime's InvalidArgument.
    assert issubclass(onnx_dialect.InvalidArgument, ValueError)
    assert issubclass(onnx_dialect.InvalidArgument, onnx_dialect.Error)


def test_compile_errors(tmp_path):
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"\x08\x07garbage")
    with pytest.raises(onnx_dialect.CompileError, match="bad.onnx"):
        onnx_dialect.InferenceSession(str(bad))
    with pytest.raises(onnx_dialect.FileError, match="no such file"):
        onnx_dialect.InferenceSession(str(tmp_path / "missing.onnx"))
    with pytest.raises(onnx_dialect.Unsupported, match="'tpu'"):
        onnx_dialect.InferenceSession(EXAMPLE, device="tpu")
    with pytest.raises(onnx_dialect.Unsupported,
                       match="TensorrtExecutionProvider"):
        onnx_dialect.InferenceSession(
            EXAMPLE, providers=["TensorrtExecutionProvider"])


def run_python(code, **env):
    """Runs `code` in a fresh interpreter (the CUDA driver is opened once per
    process) with `env` added; its stdout, or the failure's output."""
    full = dict(os.environ, **env)
    run = subprocess.run([sys.executable, "-c", code], env=full,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout


def stub_driver():
    """The recording stub of the CUDA driver in the build
    (test/Integration/GPU/Inputs/cuda-stub.c); skips the test without it."""
    stub = os.path.join(os.environ.get("ONNX_DIALECT_BUILD", "build"),
                        "lib", "cuda-stub", "libcuda.so.1")
    if not os.path.exists(stub):
        pytest.skip("no CUDA driver stub (ONNX_DIALECT_BUILD)")
    return stub


def test_cuda_device(tmp_path):
    """Device cuda (docs/gpu.md): compiled here without a GPU; run through
    the driver, a stub of it here (test/Integration/GPU/Inputs/cuda-stub.c)
    that runs no kernel; no driver is an error before compiling."""
    ptx = onnx_dialect.compile(EXAMPLE, str(tmp_path / "m.ptx"), kind="ptx",
                               device="cuda", gpu_chip="sm_80")
    text = open(ptx).read()
    assert ".target sm_80" in text and ".entry" in text
    assert ".extern" not in text
    out = run_python(
        "import onnx_dialect\n"
        "for kw in ({'device': 'cuda'},\n"
        "           {'providers': ['CUDAExecutionProvider']}):\n"
        "    try:\n"
        "        onnx_dialect.InferenceSession(%r, **kw)\n"
        "    except onnx_dialect.RunError as e:\n"
        "        print(e)\n" % EXAMPLE,
        ONNXD_CUDA_DRIVER=str(tmp_path / "none" / "libcuda.so.1"))
    assert out.count("device cuda: no CUDA driver") == 2, out
    stub = stub_driver()
    out = run_python(
        "import numpy as np, onnx_dialect\n"
        "s = onnx_dialect.InferenceSession(\n"
        "    %r, providers=['CUDAExecutionProvider'])\n"
        "print(s.get_providers())\n"
        "y, = s.run(None, {'image': np.ones((3, 1, 28, 28), np.float32)})\n"
        "print(y.shape, y.dtype)\n" % EXAMPLE,
        ONNXD_CUDA_DRIVER=stub, ONNXD_CUDA_STUB_LOG=str(tmp_path / "log"))
    assert out.splitlines() == ["['CUDAExecutionProvider']",
                                "(3, 10) float32"], out
    log = open(tmp_path / "log").read()
    assert "cuLaunchKernel" in log and " mma=0" in log
    assert not re.search(r" mma=[1-9]", log)
    # ONNX Runtime's provider option use_tf32: the products' kernels on the
    # tensor cores (the stub counts the mma instructions of each module).
    run_python(
        "import numpy as np, onnx_dialect\n"
        "s = onnx_dialect.InferenceSession(\n"
        "    %r, providers=[('CUDAExecutionProvider', {'use_tf32': 1})])\n"
        "s.run(None, {'image': np.ones((3, 1, 28, 28), np.float32)})\n"
        % EXAMPLE,
        ONNXD_CUDA_DRIVER=stub, ONNXD_CUDA_STUB_LOG=str(tmp_path / "tf32"))
    assert len(re.findall(r" mma=[1-9]",
                          open(tmp_path / "tf32").read())) == 2


def test_device_inputs(tmp_path):
    """OrtValue.ortvalue_from_numpy(a, "cuda") (onnxd_device_buffer_create):
    copied to the device once; runs read it device to device (over the stub
    driver, whose log says which way each copy goes)."""
    stub = stub_driver()
    out = run_python(
        "import numpy as np, onnx_dialect\n"
        "x = np.arange(3 * 28 * 28, dtype=np.float32).reshape(3, 1, 28, 28)\n"
        "v = onnx_dialect.OrtValue.ortvalue_from_numpy(x, 'cuda', 0)\n"
        "print(v.device_name(), v.shape(), np.array_equal(v.numpy(), x))\n"
        "s = onnx_dialect.InferenceSession(\n"
        "    %r, providers=['CUDAExecutionProvider'])\n"
        "for _ in range(2):\n"
        "    y, = s.run(None, {'image': v})\n"
        "print(y.shape)\n"
        "cpu = onnx_dialect.InferenceSession(%r)\n"
        "want, = cpu.run(None, {'image': x})\n"
        "got, = cpu.run(None, {'image': v})\n"
        "print('cpu model', np.array_equal(got, want))\n"
        "for bad in (np.array(['a']),):\n"
        "    try:\n"
        "        onnx_dialect.OrtValue.ortvalue_from_numpy(bad, 'cuda')\n"
        "    except onnx_dialect.InvalidArgument as e:\n"
        "        print(e)\n"
        "try:\n"
        "    s.run(None, {'image': onnx_dialect.OrtValue.ortvalue_from_numpy(\n"
        "        np.ones((3, 1, 28, 28), np.float64), 'cuda')})\n"
        "except onnx_dialect.Error as e:\n"
        "    print(type(e).__name__)\n" % (EXAMPLE, EXAMPLE),
        ONNXD_CUDA_DRIVER=stub, ONNXD_CUDA_STUB_LOG=str(tmp_path / "log"))
    lines = out.splitlines()
    assert lines[:3] == ["cuda [3, 1, 28, 28] True", "(3, 10)",
                         "cpu model True"], out
    assert "only numbers and booleans go to the device" in lines[3], out
    assert lines[4] == "InvalidArgument", out
    log = open(tmp_path / "log").read()
    # 3x1x28x28 f32: copied to the device once, then device to device by
    # each run (the entry's copy of its input).
    assert log.count("cuMemcpyAsync bytes=9408 host->device") == 1, log
    assert log.count("cuMemcpyAsync bytes=9408 device->device") == 2, log
    # Without a driver: an error saying so; cpu values need none.
    out = run_python(
        "import numpy as np, onnx_dialect\n"
        "v = onnx_dialect.OrtValue.ortvalue_from_numpy(np.ones(2), 'cpu')\n"
        "print(v.device_name(), v.numpy().tolist())\n"
        "for args in ((np.ones(2), 'cuda'), (np.ones(2), 'cuda', 1),\n"
        "             (np.ones(2), 'tpu')):\n"
        "    try:\n"
        "        onnx_dialect.OrtValue.ortvalue_from_numpy(*args)\n"
        "    except onnx_dialect.Error as e:\n"
        "        print(type(e).__name__, e)\n",
        ONNXD_CUDA_DRIVER=str(tmp_path / "none" / "libcuda.so.1"))
    lines = out.splitlines()
    assert lines[0] == "cpu [1.0, 1.0]", out
    assert lines[1].startswith("RunError device cuda: no CUDA driver"), out
    assert lines[2].startswith("Unsupported device_id 1"), out
    assert lines[3].startswith("Unsupported device 'tpu'"), out
    # The C API's own checks: another device, a pointer not its own.
    import ctypes
    lib = ctypes.CDLL(os.path.join(
        os.environ.get("ONNX_DIALECT_BUILD", "build"), "lib",
        "libOnnxDialectRuntime.so"))
    lib.onnxd_last_error.restype = ctypes.c_char_p
    lib.onnxd_device_buffer_free.argtypes = [ctypes.c_void_p]
    buf = ctypes.c_void_p()
    assert lib.onnxd_device_buffer_create(b"cpu", None, 4,
                                          ctypes.byref(buf)) != 0
    assert b"only cuda has memory of its own" in lib.onnxd_last_error()
    assert lib.onnxd_device_buffer_free(ctypes.c_void_p(4096)) != 0
    assert b"not a live device buffer" in lib.onnxd_last_error()
    assert lib.onnxd_device_buffer_free(None) == 0


def test_gpu_tf32(tmp_path):
    """gpu_tf32 (docs/gpu.md): TF32 tensor-core products, off by default;
    the CUDAExecutionProvider's use_tf32 sets it on device cuda; asked for
    on the CPU it is an error."""
    ptx = onnx_dialect.compile(EXAMPLE, str(tmp_path / "m.ptx"), kind="ptx",
                               device="cuda", gpu_tf32=True)
    text = open(ptx).read()
    assert "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32" in text
    assert "cvt.rna.tf32.f32" in text
    from onnx_dialect._session import _gpu_tf32
    cuda = [("CUDAExecutionProvider", {"use_tf32": "1"})]
    assert _gpu_tf32(None, "cuda", cuda)
    assert not _gpu_tf32(None, "cuda", [("CUDAExecutionProvider",
                                         {"use_tf32": 0})])
    assert not _gpu_tf32(None, "cuda", ["CUDAExecutionProvider"])
    assert not _gpu_tf32(None, "cpu", cuda)
    assert not _gpu_tf32(False, "cuda", cuda)
    with pytest.raises(onnx_dialect.InvalidArgument, match="gpu_tf32"):
        onnx_dialect.InferenceSession(EXAMPLE, gpu_tf32=True)
    with pytest.raises(onnx_dialect.InvalidArgument, match="sm_80 or newer"):
        onnx_dialect.compile(EXAMPLE, str(tmp_path / "old.ptx"), kind="ptx",
                             device="cuda", gpu_chip="sm_75", gpu_tf32=True)


def test_run_time_check_fails():
    """A broadcast of two dynamic dims that differ fails the run."""
    model = make_model(
        [helper.make_node("Add", ["x", "y"], ["z"])],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["A"]),
         helper.make_tensor_value_info("y", TensorProto.FLOAT, ["B"])],
        [helper.make_tensor_value_info("z", TensorProto.FLOAT, [None])])
    sess = onnx_dialect.InferenceSession(model)
    np.testing.assert_array_equal(
        sess.run(None, {"x": np.ones(3, np.float32), "y": np.ones(1, np.float32)})[0], [2, 2, 2])
    with pytest.raises(onnx_dialect.RunError):
        sess.run(None, {"x": np.ones(3, np.float32), "y": np.ones(2, np.float32)})


def test_aot_compile_and_load(tmp_path):
    lib = tmp_path / "tiny.so"
    assert onnx_dialect.compile(EXAMPLE, str(lib), threads=2) == str(lib)
    assert lib.exists() and (tmp_path / "tiny.h").exists()
    jit = onnx_dialect.InferenceSession(EXAMPLE)
    aot = onnx_dialect.load(str(lib), threads=2)
    assert [i.shape for i in aot.get_inputs()] == [i.shape for i in jit.get_inputs()]
    x = np.load(os.path.join(os.path.dirname(EXAMPLE), "tiny-cnn-input.npy"))
    name = jit.get_inputs()[0].name
    np.testing.assert_array_equal(aot.run(None, {name: x})[0], jit.run(None, {name: x})[0])
    onnx_dialect.compile(EXAMPLE, str(tmp_path / "tiny.mlir"), kind="mlir")
    assert "llvm.func" in (tmp_path / "tiny.mlir").read_text()
    with pytest.raises(onnx_dialect.FileError):
        onnx_dialect.load(str(tmp_path / "nothing.so"))


def test_threads_and_sess_options(add_model):
    class Options:  # what onnxruntime.SessionOptions carries
        intra_op_num_threads = 2
    sess = onnx_dialect.InferenceSession(add_model, Options())
    a = np.ones((64, 4), np.float32)
    np.testing.assert_array_equal(sess.run(None, {"x": a, "y": a})[0], a * 2)
    sess.set_threads(1)
    np.testing.assert_array_equal(sess.run(None, {"x": a, "y": a})[0], a * 2)
    with pytest.raises(onnx_dialect.InvalidArgument):
        sess.set_threads(0)


def test_profile(add_model, tmp_path):
    import json
    sess = onnx_dialect.InferenceSession(add_model, profile=True)
    a = np.ones((2, 4), np.float32)
    sess.run(None, {"x": a, "y": a})
    path = sess.end_profiling(str(tmp_path / "p.json"))
    events = json.load(open(path))
    assert any(e["name"] == "model_run" for e in events)


def test_profile_cuda(tmp_path):
    """profile=True on device cuda: a trace event per kernel launch, named
    after the ONNX nodes its kernel computes (CUDA events; the stub driver's
    intervals are 0.5 ms)."""
    stub = stub_driver()
    out = run_python(
        "import json, numpy as np, onnx_dialect\n"
        "s = onnx_dialect.InferenceSession(%r, profile=True,\n"
        "    providers=['CUDAExecutionProvider'])\n"
        "s.run(None, {'image': np.ones((3, 1, 28, 28), np.float32)})\n"
        "for e in json.load(open(s.end_profiling(%r))):\n"
        "    print(e['name'], e['dur'], e['args'].get('provider'))\n"
        % (EXAMPLE, str(tmp_path / "p.json")), ONNXD_CUDA_DRIVER=stub)
    lines = out.splitlines()
    assert "conv1,relu1_kernel_time 500.0 OnnxDialectCUDA" in lines, out
    assert sum(line.endswith(" OnnxDialectCUDA") for line in lines) == 8, out
    assert any(line.startswith("model_run ") for line in lines), out


def test_same_outputs_as_onnx_run(tmp_path, onnx_run):
    """The example model and input through onnx_dialect and onnx-run."""
    x = os.path.join(os.path.dirname(EXAMPLE), "tiny-cnn-input.npy")
    sess = onnx_dialect.InferenceSession(EXAMPLE)
    name = sess.get_inputs()[0].name
    ours = sess.run(None, {name: np.load(x)})[0]
    out = tmp_path / "out"
    subprocess.run([onnx_run, EXAMPLE, "--input", "%s=%s" % (name, x),
                    "--output-dir", str(out)], check=True, capture_output=True)
    files = os.listdir(out)
    assert len(files) == 1, files
    theirs = np.load(out / files[0])
    assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
    np.testing.assert_array_equal(ours, theirs)  # identical, not close


def chain_model():
    """y = MatMul(Relu(MatMul(x, W1)), W2) + x on static shapes, whose
    intermediate tensors the memory plan places in one arena, and c = a + b
    on two dynamic dims, whose broadcast fails the run when they differ."""
    rng = np.random.default_rng(0)
    w1 = (rng.standard_normal((256, 256)) / 16).astype(np.float32)
    w2 = (rng.standard_normal((256, 256)) / 16).astype(np.float32)
    model = make_model(
        [helper.make_node("MatMul", ["x", "w1"], ["h"]),
         helper.make_node("Relu", ["h"], ["r"]),
         helper.make_node("MatMul", ["r", "w2"], ["m"]),
         helper.make_node("Add", ["m", "x"], ["y"]),
         helper.make_node("Add", ["a", "b"], ["c"])],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [256, 256]),
         helper.make_tensor_value_info("a", TensorProto.FLOAT, ["A"]),
         helper.make_tensor_value_info("b", TensorProto.FLOAT, ["B"])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [256, 256]),
         helper.make_tensor_value_info("c", TensorProto.FLOAT, [None])],
        [numpy_helper.from_array(w1, "w1"), numpy_helper.from_array(w2, "w2")])
    return model, lambda x: np.maximum(x @ w1, 0) @ w2 + x


def test_concurrent_runs_of_one_session():
    """Runs on several threads at once (each some milliseconds long, so that
    they overlap): one holds the model's arena, the others allocate their
    own; every result is its own input's."""
    import threading
    model, reference = chain_model()
    sess = onnx_dialect.InferenceSession(model)
    ones = np.ones(3, np.float32)
    errors = []

    def worker(seed):
        rng = np.random.default_rng(seed)
        for _ in range(25):
            x = rng.standard_normal((256, 256)).astype(np.float32)
            y, _ = sess.run(None, {"x": x, "a": ones, "b": ones})
            if not np.allclose(y, reference(x), rtol=1e-4, atol=1e-5):
                errors.append(seed)

    threads = [threading.Thread(target=worker, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_runs_after_a_failed_run():
    """A run that a run-time check ends keeps the arena's flag: later runs
    allocate their own arena and are still right."""
    model, reference = chain_model()
    sess = onnx_dialect.InferenceSession(model)
    x = np.linspace(-1, 1, 256 * 256, dtype=np.float32).reshape(256, 256)
    ones = np.ones(3, np.float32)
    first = sess.run(None, {"x": x, "a": ones, "b": ones})[0]
    np.testing.assert_allclose(first, reference(x), rtol=1e-4, atol=1e-5)
    with pytest.raises(onnx_dialect.RunError):
        sess.run(None, {"x": x, "a": ones, "b": np.ones(2, np.float32)})
    for _ in range(3):
        np.testing.assert_array_equal(
            sess.run(None, {"x": x, "a": ones, "b": ones})[0], first)


def test_without_memory_plan():
    """memory_plan=False compiles each buffer as its own allocation: the
    same outputs."""
    model, reference = chain_model()
    x = np.linspace(-1, 1, 256 * 256, dtype=np.float32).reshape(256, 256)
    feed = {"x": x, "a": np.ones(3, np.float32), "b": np.ones(3, np.float32)}
    planned = onnx_dialect.InferenceSession(model).run(None, feed)[0]
    unplanned = onnx_dialect.InferenceSession(model, memory_plan=False).run(None, feed)[0]
    np.testing.assert_array_equal(planned, unplanned)
    np.testing.assert_allclose(planned, reference(x), rtol=1e-4, atol=1e-5)


def test_winograd_option():
    """winograd=4 (the default), 2 and 0 compile a 3x3 convolution through
    Winograd's F(4, 3), F(2, 3) along its rows, or directly: the same outputs
    within float32 rounding; another value is an error."""
    rng = np.random.default_rng(3)
    w = (rng.standard_normal((16, 16, 3, 3)) / 12).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("Conv", ["x", "w"], ["y"], pads=[1] * 4)], "conv",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 16, 12, 12])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 16, 12, 12])],
        [numpy_helper.from_array(w, "w")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    x = rng.standard_normal((1, 16, 12, 12)).astype(np.float32)
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
    reference = sum(np.einsum("chw,fc->fhw", xp[0, :, i:i + 12, j:j + 12],
                              w[:, :, i, j]) for i in range(3) for j in range(3))
    for m in (4, 2, 0):
        y = onnx_dialect.InferenceSession(model, winograd=m).run(None, {"x": x})[0]
        np.testing.assert_allclose(y[0], reference, rtol=1e-5, atol=1e-5)
    with pytest.raises(onnx_dialect.InvalidArgument, match="winograd 3"):
        onnx_dialect.InferenceSession(model, winograd=3)


def test_blocked_layout_option():
    """blocked_layout=True (the default) and False compile a convolution, its
    Relu and a depthwise convolution on [N, C/c0, H, W, c0] or on
    [N, C, H, W]: the same outputs within float32 rounding."""
    rng = np.random.default_rng(4)
    w = (rng.standard_normal((32, 16, 1, 1)) / 4).astype(np.float32)
    wd = rng.standard_normal((32, 1, 3, 3)).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("Conv", ["x", "w"], ["c"]),
         helper.make_node("Relu", ["c"], ["r"]),
         helper.make_node("Conv", ["r", "wd"], ["y"], pads=[1] * 4, group=32)],
        "blocked",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 16, 14, 14])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 32, 14, 14])],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(wd, "wd")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    x = rng.standard_normal((1, 16, 14, 14)).astype(np.float32)
    r = np.maximum(np.einsum("chw,fc->fhw", x[0].astype(np.float64), w[:, :, 0, 0]), 0)
    rp = np.pad(r, ((0, 0), (1, 1), (1, 1)))
    reference = sum(rp[:, i:i + 14, j:j + 14] * wd[:, 0, i, j, None, None]
                    for i in range(3) for j in range(3))
    for blocked in (True, False):
        y = onnx_dialect.InferenceSession(model, blocked_layout=blocked).run(
            None, {"x": x})[0]
        np.testing.assert_allclose(y[0], reference, rtol=1e-5, atol=1e-5)
