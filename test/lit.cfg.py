# The OnnxDialect lit suite: FileCheck tests of the tools, and Python checks
# (generated ODS is fresh, the schemas agree with ONNX's registry, the proto
# schema is wire-compatible with ONNX's).
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "OnnxDialect"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test", ".textproto", ".onnxtxt"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.onnx_dialect_obj_root, "test")

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

# Debian's python3-onnx and python3-protobuf live with the system interpreter,
# whatever python3 comes first on PATH. What a test needs from the system is a
# feature (`REQUIRES: onnx-python`): without it the test is unsupported, not
# failed.
import subprocess

python = "/usr/bin/python3"
config.substitutions.append(("%python", python))


def python_has(*modules):
    if not os.path.exists(python):
        return False
    code = "; ".join("import " + m for m in modules)
    return subprocess.run([python, "-c", code], capture_output=True).returncode == 0


if os.path.exists(python):
    config.available_features.add("python3")
# The checked build (utils/configure-checked.sh: LLVM_USE_SANITIZER): its
# libraries need the sanitizers' runtimes, which a program built without
# them does not link.
if getattr(config, "sanitizers", ""):
    config.available_features.add("sanitized")
if python_has("numpy"):
    config.available_features.add("numpy")
if python_has("onnx", "numpy"):
    config.available_features.add("onnx-python")
# ONNX 1.12's conformance data (Debian's libonnx-testdata).
onnx_testdata = "/usr/share/libonnx-testdata/data"
if os.path.isdir(onnx_testdata):
    config.available_features.add("onnx-testdata")
config.substitutions.append(("%onnx_testdata", onnx_testdata))
config.substitutions.append(("%src_root", config.onnx_dialect_src_root))
config.substitutions.append(("%obj_root", config.onnx_dialect_obj_root))
config.substitutions.append(("%spec_dir", config.onnx_spec_dir))
config.substitutions.append(("%protoc", config.protoc))
config.substitutions.append(("%mlir_dir", config.mlir_dir))
config.substitutions.append(("%cmake", config.cmake_command))
# The Python package onnx_dialect (python/), where `cmake --install` puts it.
if config.python_package_built:
    config.available_features.add("python-package")
config.substitutions.append(("%py_site_dir", config.python_install_dir))
# Open MPI (openmpi-bin) runs the multi-device tests; as root it needs its
# two consent variables.
import shutil

if shutil.which("mpirun") and os.path.exists(
    "/usr/lib/x86_64-linux-gnu/libmpi.so.40"
):
    config.available_features.add("mpi")
for var in ("OMPI_ALLOW_RUN_AS_ROOT", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"):
    config.environment[var] = "1"
config.substitutions.append(("%mpirun", "mpirun --oversubscribe"))
# The GPU tests run the GPU runtime over a stub of the NVIDIA driver
# (test/Integration/GPU/Inputs/cuda-stub.c); ptxas, where a CUDA toolkit is
# on PATH, checks the PTX the compiler writes.
config.substitutions.append(
    (
        "%cuda_stub",
        os.path.join(config.onnx_dialect_obj_root, "lib/cuda-stub/libcuda.so.1"),
    )
)
if shutil.which("ptxas"):
    config.available_features.add("ptxas")


def cuda_device_present():
    """Whether the NVIDIA driver loads and sees a device (tests that run
    kernels REQUIRE cuda-driver)."""
    import ctypes

    try:
        cuda = ctypes.CDLL("libcuda.so.1")
        count = ctypes.c_int(0)
        return cuda.cuInit(0) == 0 and cuda.cuDeviceGetCount(
            ctypes.byref(count)) == 0 and count.value > 0
    except OSError:
        return False


if cuda_device_present():
    config.available_features.add("cuda-driver")
# The project's runtime library, for mlir-runner tests of what compiled code
# calls (the GPU emulator).
config.substitutions.append(
    (
        "%onnxd_runtime",
        os.path.join(config.onnx_dialect_obj_root, "lib/libOnnxDialectRuntime.so"),
    )
)
# mlir-runner's support libraries (printMemref*), for tests that run lowered
# code without the project's runtime.
config.substitutions.append(
    (
        "%mlir_runner_utils",
        ",".join(
            os.path.join(config.llvm_lib_dir, lib)
            for lib in ["libmlir_runner_utils.so", "libmlir_c_runner_utils.so"]
        ),
    )
)

tool_dirs = [config.onnx_dialect_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(
    ["onnx-opt", "onnx-translate", "onnx-run", "onnxd-api-test", "onnxd-values-test",
     "onnxd-run-only", "onnxd-mpi-comm-test", "onnx-import-fuzzer", "onnx-text-fuzzer",
     "onnx-syntax-fuzzer", "onnx-tensor-fuzzer"], tool_dirs)
