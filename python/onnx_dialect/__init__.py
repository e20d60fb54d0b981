# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""OnnxDialect from Python: compile and run ONNX models, and reach the MLIR
level of the `onnx` dialect.

    import numpy as np, onnx_dialect
    sess = onnx_dialect.InferenceSession("model.onnx")
    x = sess.get_inputs()[0]
    y, = sess.run(None, {x.name: np.zeros([1, 3, 224, 224], np.float32)})

InferenceSession has ONNX Runtime's surface (get_inputs, get_outputs, run),
so it can stand in for onnxruntime.InferenceSession. Element types: numpy's
own; bfloat16, float8 and the 4/2-bit types, which numpy lacks, travel as
integer arrays of their bit patterns (bfloat16: uint16; float8 and uint4/
uint2/float4e2m1: uint8; int4/int2: int8, sign-extended), or as ml_dtypes'
types when ml_dtypes is installed. Strings are numpy arrays of str (object
dtype on output), sequences are lists, an optional is None or its value.
OrtValue.ortvalue_from_numpy(a, "cuda") keeps an input on the GPU across
runs (as with ONNX Runtime's CUDA OrtValues).

The MLIR level: import_model, run_passes and export_model work on MLIR text
(or bytecode) through the dialect's C API.

Errors raise onnx_dialect.Error (InvalidArgument, CompileError, FileError,
RunError, Unsupported) with the runtime's message, which names the input,
node or rule.
"""

from ._onnx_dialect import (CompileError, Error, FileError, InvalidArgument,
                            RunError, Unsupported)
from ._session import (InferenceSession, NodeArg, OrtValue, compile,
                       export_model, import_model, load, mpi_init, mpi_set_comm,
                       run_passes)

__all__ = [
    "InferenceSession", "NodeArg", "OrtValue", "compile", "load",
    "import_model",
    "run_passes", "export_model", "Error", "InvalidArgument", "CompileError",
    "FileError", "RunError", "Unsupported", "mpi_init", "mpi_set_comm",
]
__version__ = "0.1.0"
