# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""ONNX's backend interface (onnx.backend.base) over onnx_dialect, so that
ONNX's own test runner runs against OnnxDialect:

    import onnx.backend.test, onnx_dialect.backend
    tests = onnx.backend.test.BackendTest(onnx_dialect.backend, __name__)

Values follow onnx.numpy_helper's conventions, which the runner's data is
read with: bfloat16 tensors are float32 arrays holding the bfloat16 values
(the inputs' low 16 bits must be zero, as numpy_helper writes them).
"""

import numpy as np
import onnx
from onnx import TensorProto, helper
from onnx.backend.base import Backend, BackendRep, Device, DeviceType, namedtupledict

from ._session import InferenceSession

_BFLOAT16 = TensorProto.BFLOAT16


def _to_bfloat16_bits(array):
    """float32 holding bfloat16 values -> their uint16 bit patterns."""
    a = np.ascontiguousarray(array, dtype=np.float32)
    return (a.view(np.uint32) >> 16).astype(np.uint16)


def _from_bfloat16_bits(array):
    """uint16 bit patterns -> float32, as numpy_helper.to_array reads them."""
    return (np.asarray(array, dtype=np.uint16).astype(np.uint32) << 16).view(
        np.float32)


class OnnxDialectRep(BackendRep):
    """A compiled model; run() takes the inputs as a list (graph input order,
    as ONNX's runner passes them), a dict or a single array."""

    def __init__(self, session, input_names):
        self.session = session
        self._input_names = input_names
        self._bf16_inputs = {i.name for i in session.get_inputs()
                             if i.dtype == _BFLOAT16}
        self._bf16_outputs = [o.dtype == _BFLOAT16 and o.type.startswith("tensor(")
                              for o in session.get_outputs()]
        self._output_names = [o.name for o in session.get_outputs()]

    def run(self, inputs, **kwargs):
        if isinstance(inputs, dict):
            feed = dict(inputs)
        else:
            if isinstance(inputs, np.ndarray):
                inputs = [inputs]
            feed = dict(zip(self._input_names, inputs))
        for name in self._bf16_inputs & feed.keys():
            value = feed[name]
            if isinstance(value, np.ndarray) and value.dtype == np.float32:
                feed[name] = _to_bfloat16_bits(value)
        outputs = self.session.run(None, feed)
        for i, is_bf16 in enumerate(self._bf16_outputs):
            if is_bf16 and isinstance(outputs[i], np.ndarray) and \
                    outputs[i].dtype == np.uint16:
                outputs[i] = _from_bfloat16_bits(outputs[i])
        return namedtupledict("Outputs", self._output_names)(*outputs)


class OnnxDialectBackend(Backend):
    """The backend: prepare() compiles (JIT, this CPU), run_model and
    run_node compile and run once. It claims the CPU only, so that ONNX's
    backend test runner does not run its CUDA variants on machines without
    a GPU (InferenceSession(device="cuda") runs on one)."""

    @classmethod
    def supports_device(cls, device):
        return Device(device).type == DeviceType.CPU

    @classmethod
    def prepare(cls, model, device="CPU", **kwargs):
        if not cls.supports_device(device):
            raise RuntimeError("device %r: the ONNX backend of onnx_dialect "
                               "runs on the CPU (InferenceSession("
                               "device='cuda') for a GPU)" % (device,))
        session = InferenceSession(model, **kwargs)
        input_names = [i.name for i in model.graph.input] \
            if isinstance(model, onnx.ModelProto) \
            else [i.name for i in session.get_inputs()]
        return OnnxDialectRep(session, input_names)

    @classmethod
    def run_model(cls, model, inputs, device="CPU", **kwargs):
        return cls.prepare(model, device, **kwargs).run(inputs)

    @classmethod
    def run_node(cls, node, inputs, device="CPU", outputs_info=None,
                 **kwargs):
        """Runs one node on `inputs` (arrays in node.input order): a model
        of that node alone, its output types from outputs_info ((dtype,
        shape) per output) or from ONNX's shape inference."""
        opset = kwargs.pop("opset_version", None)
        if opset is None:
            opset = onnx.defs.onnx_opset_version()
        names = [n for n in node.input if n]
        if isinstance(inputs, dict):
            feed = dict(inputs)
        else:
            feed = dict(zip(names, inputs))
        graph_inputs = []
        for name in names:
            value = np.asarray(feed[name])
            elem = helper.np_dtype_to_tensor_dtype(value.dtype) \
                if hasattr(helper, "np_dtype_to_tensor_dtype") \
                else onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[value.dtype]
            graph_inputs.append(
                helper.make_tensor_value_info(name, elem, value.shape))
        outputs = [n for n in node.output if n]
        if outputs_info is not None:
            graph_outputs = [
                helper.make_tensor_value_info(
                    name, onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[np.dtype(dtype)],
                    shape)
                for name, (dtype, shape) in zip(outputs, outputs_info)]
        else:
            graph_outputs = [helper.make_empty_tensor_value_info(n)
                             for n in outputs]
        graph = helper.make_graph([node], "run_node", graph_inputs,
                                  graph_outputs)
        domain = node.domain or ""
        imports = [helper.make_opsetid(domain, opset)]
        if domain not in ("", "ai.onnx"):
            imports.append(helper.make_opsetid("", onnx.defs.onnx_opset_version()))
        model = helper.make_model(graph, opset_imports=imports)
        if outputs_info is None:
            inferred = onnx.shape_inference.infer_shapes(model)
            typed = {o.name: o for o in inferred.graph.value_info}
            typed.update({o.name: o for o in inferred.graph.output})
            del model.graph.output[:]
            for name in outputs:
                if name not in typed or not typed[name].type.HasField(
                        "tensor_type") and not typed[name].type.ListFields():
                    raise RuntimeError(
                        "run_node: the type of output '%s' of %s is unknown "
                        "(give outputs_info)" % (name, node.op_type))
                model.graph.output.append(typed[name])
        return cls.prepare(model, device, **kwargs).run(feed)


prepare = OnnxDialectBackend.prepare
run_model = OnnxDialectBackend.run_model
run_node = OnnxDialectBackend.run_node
supports_device = OnnxDialectBackend.supports_device
is_compatible = OnnxDialectBackend.is_compatible
