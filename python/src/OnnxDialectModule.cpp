//===- OnnxDialectModule.cpp - The native part of onnx_dialect ------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The extension module `onnx_dialect._onnx_dialect` (pybind11), a thin layer
// over the project's two C APIs:
//  - the runtime (include/OnnxDialect/Runtime/OnnxRuntime.h): compile, load
//    and run models, numpy arrays in and out;
//  - the MLIR C API of the dialect (include/OnnxDialect-c) with upstream's
//    mlir-c core: import, pass pipelines and export on MLIR text/bytecode.
// The Python-facing API (InferenceSession, backend) is in onnx_dialect/*.py.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect-c/Dialects.h"
#include "OnnxDialect-c/Translation.h"
#include "OnnxDialect/Runtime/OnnxRuntime.h"
#include "OnnxDialect/Runtime/TensorFiles.h"

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace py = pybind11;

namespace {

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

/// The Python exception classes, by onnxd_status (created at import).
PyObject *errorClasses[6] = {};

/// A failed call of either C API: raised as the class of its status.
struct StatusError {
  onnxd_status status;
  std::string message;
};

[[noreturn]] void raise(onnxd_status status, std::string message) {
  throw StatusError{status, std::move(message)};
}

void check(onnxd_status status) {
  if (status != ONNXD_OK)
    raise(status, onnxd_last_error());
}

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

/// The numpy type that holds one element of an ONNX type in the runtime's
/// layout (the bit pattern for the types numpy lacks: bfloat16 as uint16).
using mlir::onnx::runtime::npyDescr;

/// The ONNX element type of a numpy dtype (ONNXD_STRING for str/bytes/object
/// arrays, ONNXD_UNDEFINED when there is none). ml_dtypes' types are known
/// by name.
int32_t onnxType(const py::dtype &dt) {
  char kind = dt.kind();
  size_t size = dt.itemsize();
  switch (kind) {
  case 'f':
    return size == 4   ? ONNXD_FLOAT
           : size == 8 ? ONNXD_DOUBLE
           : size == 2 ? ONNXD_FLOAT16
                       : ONNXD_UNDEFINED;
  case 'i':
    return size == 1   ? ONNXD_INT8
           : size == 2 ? ONNXD_INT16
           : size == 4 ? ONNXD_INT32
           : size == 8 ? ONNXD_INT64
                       : ONNXD_UNDEFINED;
  case 'u':
    return size == 1   ? ONNXD_UINT8
           : size == 2 ? ONNXD_UINT16
           : size == 4 ? ONNXD_UINT32
           : size == 8 ? ONNXD_UINT64
                       : ONNXD_UNDEFINED;
  case 'b':
    return ONNXD_BOOL;
  case 'c':
    return size == 8    ? ONNXD_COMPLEX64
           : size == 16 ? ONNXD_COMPLEX128
                        : ONNXD_UNDEFINED;
  case 'U':
  case 'S':
  case 'O':
    return ONNXD_STRING;
  default:
    break;
  }
  std::string name = py::str(dt.attr("name"));
  static const std::pair<const char *, int32_t> extra[] = {
      {"bfloat16", ONNXD_BFLOAT16},
      {"float8_e4m3fn", ONNXD_FLOAT8E4M3FN},
      {"float8_e4m3fnuz", ONNXD_FLOAT8E4M3FNUZ},
      {"float8_e5m2", ONNXD_FLOAT8E5M2},
      {"float8_e5m2fnuz", ONNXD_FLOAT8E5M2FNUZ},
      {"float8_e8m0fnu", ONNXD_FLOAT8E8M0},
      {"float4_e2m1fn", ONNXD_FLOAT4E2M1},
      {"int4", ONNXD_INT4},
      {"uint4", ONNXD_UINT4},
      {"int2", ONNXD_INT2},
      {"uint2", ONNXD_UINT2}};
  for (auto &[n, code] : extra)
    if (name == n)
      return code;
  return ONNXD_UNDEFINED;
}

/// The element type to pass for an array of numpy type `given` where the
/// model expects `expected`: `expected` when the array is its storage type
/// (a uint16 array for a bfloat16 input); else `given` (which onnxType
/// already made `expected` for an ml_dtypes array of it; otherwise the
/// runtime's check names the mismatch).
int32_t bindType(int32_t given, int32_t expected, const py::dtype &dt) {
  if (given == expected || given == ONNXD_STRING)
    return given;
  const char *storage = npyDescr(expected);
  if (storage && expected != ONNXD_UINT8 && expected != ONNXD_INT8 &&
      expected != ONNXD_UINT16 && dt.equal(py::dtype(storage)))
    return expected;
  return given;
}

//===----------------------------------------------------------------------===//
// The value structure of a signature: "optional(seq(tensor(float)))"
//===----------------------------------------------------------------------===//

std::vector<int32_t> nestOf(const std::string &type) {
  std::vector<int32_t> nest;
  size_t pos = 0;
  while (true) {
    if (type.compare(pos, 4, "seq(") == 0) {
      nest.push_back(ONNXD_KIND_SEQUENCE);
      pos += 4;
    } else if (type.compare(pos, 9, "optional(") == 0) {
      nest.push_back(ONNXD_KIND_OPTIONAL);
      pos += 9;
    } else if (type.compare(pos, 4, "map(") == 0) {
      nest.push_back(ONNXD_KIND_MAP);
      break;
    } else {
      break;
    }
  }
  return nest;
}

struct ValueInfo {
  std::string name;
  int32_t dtype;
  int32_t rank;
  std::vector<int64_t> dims;
  std::vector<std::string> dimParams;
  int32_t kind;
  std::string type;
  std::vector<int32_t> nest;
  /// A tensor of a numeric type: runs through onnxd_run, zero-copy.
  bool plain() const { return nest.empty() && dtype != ONNXD_STRING; }
};

ValueInfo describeValue(const onnxd_value_info &info) {
  ValueInfo v;
  v.name = info.name;
  v.dtype = info.dtype;
  v.rank = info.rank;
  for (int32_t d = 0; d < info.rank; ++d) {
    v.dims.push_back(info.dims[d]);
    v.dimParams.push_back(info.dim_params ? info.dim_params[d] : "");
  }
  v.kind = info.kind;
  v.type = info.type ? info.type : "";
  v.nest = nestOf(v.type);
  return v;
}

//===----------------------------------------------------------------------===//
// Models
//===----------------------------------------------------------------------===//

/// A tensor kept in device memory across runs (onnxd_device_buffer_create;
/// OrtValue.ortvalue_from_numpy(a, "cuda") in Python): a run given it as an
/// input reads it on the device.
struct DeviceTensor {
  void *data = nullptr;
  std::vector<int64_t> shape;
  int32_t dtype = ONNXD_UNDEFINED;
  py::dtype npType;
  size_t bytes = 0;

  DeviceTensor(const py::array &source, const std::string &device) {
    py::array array =
        py::array::ensure(source, py::array::c_style | py::array::forcecast);
    if (!array)
      raise(ONNXD_INVALID_ARGUMENT, "a device tensor needs a numpy array");
    npType = array.dtype();
    dtype = onnxType(npType);
    if (dtype == ONNXD_UNDEFINED || dtype == ONNXD_STRING)
      raise(ONNXD_INVALID_ARGUMENT,
            "a device tensor of numpy type " + std::string(py::str(npType)) +
                ": only numbers and booleans go to the device");
    shape.assign(array.shape(), array.shape() + array.ndim());
    bytes = size_t(array.nbytes());
    const void *host = array.data();
    onnxd_status s;
    {
      py::gil_scoped_release release;
      s = onnxd_device_buffer_create(device.c_str(), host, bytes, &data);
    }
    check(s);
  }
  DeviceTensor(const DeviceTensor &) = delete;
  DeviceTensor &operator=(const DeviceTensor &) = delete;
  ~DeviceTensor() { onnxd_device_buffer_free(data); }

  /// A host copy (the buffer is managed memory: the host reads it).
  py::array numpy() const {
    py::array out(npType, shape);
    if (bytes)
      std::memcpy(out.mutable_data(), data, bytes);
    return out;
  }
};

/// What keeps the inputs of one run alive: converted arrays, shapes, UTF-8
/// strings and the pointers to them, nested values.
struct Arena {
  std::deque<py::array> arrays;
  std::deque<std::vector<int64_t>> shapes;
  std::deque<std::string> strings;
  std::deque<std::vector<const char *>> stringPtrs;
  std::deque<std::vector<onnxd_value>> values;
};

class Model {
public:
  explicit Model(onnxd_model *m) : model(m) {
    size_t n = onnxd_model_num_inputs(model);
    for (size_t i = 0; i < n; ++i) {
      onnxd_value_info info;
      check(onnxd_model_input(model, i, &info));
      inputs.push_back(describeValue(info));
    }
    n = onnxd_model_num_outputs(model);
    for (size_t i = 0; i < n; ++i) {
      onnxd_value_info info;
      check(onnxd_model_output(model, i, &info));
      outputs.push_back(describeValue(info));
    }
    allPlain = true;
    for (const ValueInfo &v : inputs)
      allPlain &= v.plain();
    for (const ValueInfo &v : outputs)
      allPlain &= v.plain();
  }
  ~Model() { onnxd_model_free(model); }
  Model(const Model &) = delete;
  Model &operator=(const Model &) = delete;

  static std::unique_ptr<Model> compile(const std::string &path,
                                        const onnxd_options &options) {
    onnxd_model *m = nullptr;
    onnxd_status s;
    {
      py::gil_scoped_release release;
      s = onnxd_compile(path.c_str(), &options, &m);
    }
    check(s);
    return std::make_unique<Model>(m);
  }

  static std::unique_ptr<Model> load(const std::string &path) {
    onnxd_model *m = nullptr;
    check(onnxd_load(path.c_str(), &m));
    return std::make_unique<Model>(m);
  }

  /// Runs with `feed` (a dict name -> value); returns every output in
  /// signature order.
  py::list run(const py::dict &feed);

  void setNumThreads(int n) { check(onnxd_model_set_num_threads(model, n)); }

  std::string device() const { return onnxd_model_device(model); }

  size_t writeProfile(const std::string &path) {
    size_t n = 0;
    check(onnxd_model_write_profile(model, path.c_str(), &n));
    return n;
  }

  std::vector<ValueInfo> inputs, outputs;

private:
  const ValueInfo &inputNamed(const std::string &name) const {
    for (const ValueInfo &v : inputs)
      if (v.name == name)
        return v;
    std::string names;
    for (const ValueInfo &v : inputs)
      names += (names.empty() ? "'" : ", '") + v.name + "'";
    raise(ONNXD_INVALID_ARGUMENT, "input '" + name +
                                      "': the model has no such input (its "
                                      "inputs: " +
                                      names + ")");
  }

  void bindTensor(const py::handle &object, const ValueInfo &info,
                  const std::string &what, onnxd_tensor &t, Arena &arena);
  void bindValue(const py::handle &object, const ValueInfo &info, size_t depth,
                 const std::string &what, onnxd_value &v, Arena &arena);

  onnxd_model *model;
  bool allPlain = false;
};

/// A numpy array over an output tensor of onnxd_run: numpy owns it (the
/// capsule frees it with onnxd_tensor_free), nothing is copied.
py::object wrapOutput(onnxd_tensor *t) {
  std::unique_ptr<onnxd_tensor, void (*)(onnxd_tensor *)> owned(
      t, onnxd_tensor_free);
  const char *format = npyDescr(t->dtype);
  if (!format)
    raise(ONNXD_UNSUPPORTED,
          std::string("output '") + t->name + "': element type " +
              onnxd_dtype_name(t->dtype) + " has no numpy equivalent");
  std::vector<py::ssize_t> shape(t->shape, t->shape + t->rank);
  py::capsule base(owned.get(), [](void *p) {
    onnxd_tensor_free(static_cast<onnxd_tensor *>(p));
  });
  owned.release();
  return py::array(py::dtype(format), shape, t->data, base);
}

/// A numpy array copied from a tensor of onnxd_run_values (strings become a
/// numpy array of `str` objects).
py::object copyTensor(const onnxd_tensor &t) {
  std::vector<py::ssize_t> shape(t.shape, t.shape + t.rank);
  size_t n = 1;
  for (py::ssize_t s : shape)
    n *= size_t(s);
  if (t.dtype == ONNXD_STRING) {
    py::array result(py::dtype("O"), shape);
    auto **dst = static_cast<PyObject **>(result.mutable_data());
    auto *const *src = static_cast<const char *const *>(t.data);
    for (size_t i = 0; i < n; ++i) {
      PyObject *s =
          PyUnicode_DecodeUTF8(src[i], std::strlen(src[i]), "surrogateescape");
      if (!s)
        throw py::error_already_set();
      Py_XDECREF(dst[i]);
      dst[i] = s;
    }
    return std::move(result);
  }
  const char *format = npyDescr(t.dtype);
  if (!format)
    raise(ONNXD_UNSUPPORTED, std::string("element type ") +
                                 onnxd_dtype_name(t.dtype) +
                                 " has no numpy equivalent");
  py::array result(py::dtype(format), shape);
  if (n)
    std::memcpy(result.mutable_data(), t.data, n * onnxd_dtype_size(t.dtype));
  return std::move(result);
}

py::object toPython(const onnxd_value &v) {
  switch (v.kind) {
  case ONNXD_KIND_TENSOR:
    return copyTensor(v.tensor);
  case ONNXD_KIND_SEQUENCE: {
    py::list list;
    for (size_t i = 0; i < v.num_elements; ++i)
      list.append(toPython(v.elements[i]));
    return std::move(list);
  }
  case ONNXD_KIND_OPTIONAL:
    if (v.num_elements == 0)
      return py::none();
    return toPython(v.elements[0]);
  default:
    raise(ONNXD_UNSUPPORTED, "a map output is not supported yet");
  }
}

void Model::bindTensor(const py::handle &object, const ValueInfo &info,
                       const std::string &what, onnxd_tensor &t, Arena &arena) {
  if (py::isinstance<DeviceTensor>(object)) {
    // Its device memory itself (the run checks its type and shape).
    const DeviceTensor &d = object.cast<const DeviceTensor &>();
    t.dtype = bindType(d.dtype, info.dtype, d.npType);
    t.rank = int32_t(d.shape.size());
    arena.shapes.push_back(d.shape);
    t.shape = arena.shapes.back().data();
    t.data = d.data;
    return;
  }
  py::array array;
  if (py::isinstance<py::array>(object)) {
    array = py::reinterpret_borrow<py::array>(object);
  } else {
    // Python scalars and lists: numpy's conversion, in the model's type
    // where it has a numpy one.
    const char *format = npyDescr(info.dtype);
    py::module_ np = py::module_::import("numpy");
    array = format && info.dtype != ONNXD_BFLOAT16 &&
                    info.dtype < ONNXD_FLOAT8E4M3FN
                ? np.attr("asarray")(object, py::dtype(format))
                : np.attr("asarray")(object);
  }
  py::dtype dt = array.dtype();
  int32_t given = onnxType(dt);
  if (given == ONNXD_UNDEFINED)
    raise(ONNXD_INVALID_ARGUMENT, what + ": numpy type " +
                                      std::string(py::str(dt)) +
                                      " has no ONNX element type");
  t.dtype = bindType(given, info.dtype, dt);
  t.rank = int32_t(array.ndim());
  arena.shapes.emplace_back(array.shape(), array.shape() + array.ndim());
  t.shape = arena.shapes.back().data();
  size_t n = size_t(array.size());
  if (t.dtype == ONNXD_STRING) {
    // UTF-8 copies of every element, row-major.
    py::object flat = array.attr("ravel")();
    std::vector<const char *> &ptrs = arena.stringPtrs.emplace_back();
    ptrs.reserve(n);
    size_t first = arena.strings.size();
    for (py::handle item : flat) {
      if (py::isinstance<py::bytes>(item))
        arena.strings.push_back(
            std::string(py::reinterpret_borrow<py::bytes>(item)));
      else if (py::isinstance<py::str>(item))
        arena.strings.push_back(
            std::string(py::reinterpret_borrow<py::str>(item)));
      else
        raise(ONNXD_INVALID_ARGUMENT,
              what + ": a string tensor holds a " +
                  std::string(py::str(item.get_type().attr("__name__"))) +
                  " (expected str or bytes)");
    }
    for (size_t i = first; i < arena.strings.size(); ++i)
      ptrs.push_back(arena.strings[i].c_str());
    t.data = const_cast<char **>(ptrs.data());
    return;
  }
  // Borrowed where the layout allows (C-contiguous, aligned), else one copy.
  if (!(array.flags() & py::array::c_style) ||
      !(array.flags() & py::detail::npy_api::NPY_ARRAY_ALIGNED_))
    array = py::array::ensure(array, py::array::c_style | py::array::forcecast);
  arena.arrays.push_back(array);
  t.data = const_cast<void *>(arena.arrays.back().data());
}

void Model::bindValue(const py::handle &object, const ValueInfo &info,
                      size_t depth, const std::string &what, onnxd_value &v,
                      Arena &arena) {
  v = onnxd_value{};
  int32_t kind =
      depth < info.nest.size() ? info.nest[depth] : int32_t(ONNXD_KIND_TENSOR);
  v.kind = kind;
  switch (kind) {
  case ONNXD_KIND_TENSOR:
    bindTensor(object, info, what, v.tensor, arena);
    return;
  case ONNXD_KIND_OPTIONAL: {
    if (object.is_none())
      return;
    std::vector<onnxd_value> &elems = arena.values.emplace_back(1);
    bindValue(object, info, depth + 1, what + " (its value)", elems[0], arena);
    v.num_elements = 1;
    v.elements = elems.data();
    return;
  }
  case ONNXD_KIND_SEQUENCE: {
    if (!py::isinstance<py::list>(object) && !py::isinstance<py::tuple>(object))
      raise(ONNXD_INVALID_ARGUMENT,
            what + ": a " +
                std::string(py::str(object.get_type().attr("__name__"))) +
                ", expected a list (" + info.type + ")");
    py::sequence seq = py::reinterpret_borrow<py::sequence>(object);
    std::vector<onnxd_value> &elems = arena.values.emplace_back(seq.size());
    for (size_t i = 0; i < elems.size(); ++i)
      bindValue(seq[i], info, depth + 1, what + " element " + std::to_string(i),
                elems[i], arena);
    v.num_elements = elems.size();
    v.elements = elems.data();
    return;
  }
  default:
    raise(ONNXD_UNSUPPORTED, what + ": maps are not supported yet");
  }
}

py::list Model::run(const py::dict &feed) {
  Arena arena;
  py::list result;
  if (allPlain) {
    std::vector<onnxd_tensor> in(feed.size());
    size_t i = 0;
    for (auto [key, object] : feed) {
      std::string name = py::str(key);
      const ValueInfo &info = inputNamed(name);
      in[i].name = info.name.c_str();
      bindTensor(object, info, "input '" + name + "'", in[i], arena);
      ++i;
    }
    std::vector<onnxd_tensor *> out(outputs.size(), nullptr);
    onnxd_status s;
    {
      py::gil_scoped_release release;
      s = onnxd_run(model, in.data(), in.size(), out.data(), out.size());
    }
    check(s);
    for (onnxd_tensor *t : out)
      result.append(wrapOutput(t));
    return result;
  }
  std::vector<onnxd_value> in(feed.size());
  size_t i = 0;
  for (auto [key, object] : feed) {
    std::string name = py::str(key);
    const ValueInfo &info = inputNamed(name);
    bindValue(object, info, 0, "input '" + name + "'", in[i], arena);
    in[i].name = info.name.c_str();
    ++i;
  }
  std::vector<onnxd_value *> out(outputs.size(), nullptr);
  onnxd_status s;
  {
    py::gil_scoped_release release;
    s = onnxd_run_values(model, in.data(), in.size(), out.data(), out.size());
  }
  check(s);
  std::vector<std::unique_ptr<onnxd_value, void (*)(onnxd_value *)>> owned;
  for (onnxd_value *v : out)
    owned.emplace_back(v, onnxd_value_free);
  for (onnxd_value *v : out)
    result.append(toPython(*v));
  return result;
}

onnxd_options makeOptions(int optLevel, int threads, const std::string &format,
                          const std::string &targetCpu,
                          const std::string &targetFeatures, bool codegen,
                          bool profile, const std::string &device,
                          const std::string &gpuChip,
                          const std::string &deviceConfig, int microBatches,
                          bool memoryPlan, int winograd, bool blockedLayout,
                          bool gpuTF32) {
  onnxd_options o;
  onnxd_options_init(&o);
  o.opt_level = optLevel;
  o.num_threads = threads;
  o.format = format.c_str();
  o.target_cpu = targetCpu.c_str();
  o.target_features = targetFeatures.c_str();
  o.codegen = codegen ? 1 : 0;
  o.profile = profile ? 1 : 0;
  o.device = device.c_str();
  o.gpu_chip = gpuChip.c_str();
  o.device_config = deviceConfig.c_str();
  o.micro_batches = microBatches;
  o.memory_plan = memoryPlan ? 1 : 0;
  o.winograd = winograd;
  o.blocked_layout = blockedLayout ? 1 : 0;
  o.gpu_tf32 = gpuTF32 ? 1 : 0;
  return o;
}

//===----------------------------------------------------------------------===//
// The MLIR level (through the MLIR C API)
//===----------------------------------------------------------------------===//

/// An MlirStringCallback appending to a std::string.
void appendTo(MlirStringRef s, void *out) {
  static_cast<std::string *>(out)->append(s.data, s.length);
}

/// A context with the project's dialects and passes, whose diagnostics are
/// collected into `errors`.
class Context {
public:
  Context() : context(mlirContextCreate()) {
    MlirDialectRegistry registry = mlirDialectRegistryCreate();
    onnxRegisterAllDialects(registry);
    mlirContextAppendDialectRegistry(context, registry);
    mlirDialectRegistryDestroy(registry);
    mlirContextEnableMultithreading(context, false);
    onnxRegisterAllPasses();
    handler =
        mlirContextAttachDiagnosticHandler(context, collect, this, nullptr);
  }
  ~Context() {
    mlirContextDetachDiagnosticHandler(context, handler);
    mlirContextDestroy(context);
  }
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;

  [[noreturn]] void fail(const std::string &what) {
    raise(ONNXD_COMPILE_ERROR, errors.empty() ? what : what + ": " + errors);
  }

  MlirContext context;
  std::string errors;

private:
  static MlirLogicalResult collect(MlirDiagnostic diagnostic, void *self) {
    auto *c = static_cast<Context *>(self);
    if (mlirDiagnosticGetSeverity(diagnostic) != MlirDiagnosticError)
      return mlirLogicalResultSuccess();
    if (!c->errors.empty())
      c->errors += "\n";
    mlirDiagnosticPrint(diagnostic, appendTo, &c->errors);
    return mlirLogicalResultSuccess();
  }
  MlirDiagnosticHandlerID handler;
};

/// Owns a module of the C API.
struct Module {
  MlirModule module;
  explicit Module(MlirModule m) : module(m) {}
  ~Module() {
    if (!mlirModuleIsNull(module))
      mlirModuleDestroy(module);
  }
};

/// MLIR text (str) or bytecode (bytes) as a module.
MlirModule parse(Context &c, const py::object &mlir) {
  std::string text = py::isinstance<py::bytes>(mlir)
                         ? std::string(py::reinterpret_borrow<py::bytes>(mlir))
                         : std::string(py::str(mlir));
  MlirModule m = mlirModuleCreateParse(
      c.context, mlirStringRefCreate(text.data(), text.size()));
  if (mlirModuleIsNull(m))
    c.fail("cannot parse the MLIR module");
  return m;
}

py::object print(MlirModule module, bool bytecode) {
  std::string out;
  MlirOperation op = mlirModuleGetOperation(module);
  if (bytecode) {
    mlirOperationWriteBytecode(op, appendTo, &out);
    return py::bytes(out);
  }
  mlirOperationPrint(op, appendTo, &out);
  return py::str(out);
}

py::object importModel(const py::bytes &data, const std::string &directory,
                       bool bytecode) {
  Context c;
  std::string bytes = data;
  Module m(onnxImportModel(
      c.context, mlirStringRefCreate(bytes.data(), bytes.size()),
      mlirStringRefCreate(directory.data(), directory.size())));
  if (mlirModuleIsNull(m.module))
    c.fail("cannot import the model");
  return print(m.module, bytecode);
}

py::object importModelFile(const std::string &path, bool bytecode) {
  Context c;
  Module m(onnxImportModelFile(c.context,
                               mlirStringRefCreate(path.data(), path.size())));
  if (mlirModuleIsNull(m.module))
    c.fail(path + ": cannot import the model");
  return print(m.module, bytecode);
}

py::object runPasses(const py::object &mlir, const std::string &pipeline,
                     bool bytecode) {
  Context c;
  Module m(parse(c, mlir));
  std::string anchored = pipeline.rfind("builtin.module(", 0) == 0
                             ? pipeline
                             : "builtin.module(" + pipeline + ")";
  MlirPassManager pm = mlirPassManagerCreate(c.context);
  std::string parseError;
  MlirLogicalResult parsed = mlirParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreate(anchored.data(), anchored.size()), appendTo,
      &parseError);
  if (mlirLogicalResultIsFailure(parsed)) {
    mlirPassManagerDestroy(pm);
    raise(ONNXD_INVALID_ARGUMENT,
          "pass pipeline '" + pipeline + "': " + parseError);
  }
  MlirLogicalResult ran =
      mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(m.module));
  mlirPassManagerDestroy(pm);
  if (mlirLogicalResultIsFailure(ran))
    c.fail("pass pipeline '" + pipeline + "' failed");
  return print(m.module, bytecode);
}

py::bytes exportModel(const py::object &mlir, bool text) {
  Context c;
  Module m(parse(c, mlir));
  std::string out;
  if (mlirLogicalResultIsFailure(
          onnxExportModel(m.module, text, appendTo, &out)))
    c.fail("cannot export the module as an ONNX model");
  return py::bytes(out);
}

} // namespace

PYBIND11_MODULE(_onnx_dialect, m) {
  m.doc() = "The native part of onnx_dialect (use the onnx_dialect package)";

  PyObject *base = PyErr_NewExceptionWithDoc(
      "onnx_dialect.Error",
      "An error of OnnxDialect; its message names the input, node or rule.",
      PyExc_RuntimeError, nullptr);
  auto sub = [&](const char *name, PyObject *other, const char *doc) {
    PyObject *bases =
        other ? PyTuple_Pack(2, base, other) : PyTuple_Pack(1, base);
    PyObject *cls = PyErr_NewExceptionWithDoc(name, doc, bases, nullptr);
    Py_DECREF(bases);
    return cls;
  };
  errorClasses[0] = base;
  errorClasses[ONNXD_INVALID_ARGUMENT] =
      sub("onnx_dialect.InvalidArgument", PyExc_ValueError,
          "A bad argument: an unknown or missing input, a wrong element "
          "type, rank or dimension, an option out of range.");
  errorClasses[ONNXD_COMPILE_ERROR] =
      sub("onnx_dialect.CompileError", nullptr,
          "The model could not be read, imported, lowered or compiled.");
  errorClasses[ONNXD_IO_ERROR] = sub("onnx_dialect.FileError", PyExc_OSError,
                                     "A file could not be read or written.");
  errorClasses[ONNXD_RUNTIME_ERROR] =
      sub("onnx_dialect.RunError", nullptr,
          "A check inside the compiled code failed during a run.");
  errorClasses[ONNXD_UNSUPPORTED] =
      sub("onnx_dialect.Unsupported", nullptr,
          "The model uses something OnnxDialect does not support yet.");
  m.attr("Error") = py::handle(errorClasses[0]);
  m.attr("InvalidArgument") = py::handle(errorClasses[1]);
  m.attr("CompileError") = py::handle(errorClasses[2]);
  m.attr("FileError") = py::handle(errorClasses[3]);
  m.attr("RunError") = py::handle(errorClasses[4]);
  m.attr("Unsupported") = py::handle(errorClasses[5]);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p)
        std::rethrow_exception(p);
    } catch (const StatusError &e) {
      int s = e.status >= 1 && e.status <= 5 ? int(e.status) : 0;
      PyErr_SetString(errorClasses[s], e.message.c_str());
    }
  });

  py::class_<ValueInfo>(m, "ValueInfo")
      .def_readonly("name", &ValueInfo::name)
      .def_readonly("dtype", &ValueInfo::dtype)
      .def_readonly("rank", &ValueInfo::rank)
      .def_readonly("dims", &ValueInfo::dims)
      .def_readonly("dim_params", &ValueInfo::dimParams)
      .def_readonly("kind", &ValueInfo::kind)
      .def_readonly("type", &ValueInfo::type);

  py::class_<DeviceTensor>(m, "DeviceTensor")
      .def(py::init<const py::array &, const std::string &>(), py::arg("array"),
           py::arg("device"))
      .def("numpy", &DeviceTensor::numpy)
      .def_property_readonly("shape",
                             [](const DeviceTensor &d) { return d.shape; })
      .def_property_readonly("dtype",
                             [](const DeviceTensor &d) { return d.npType; });

  py::class_<Model>(m, "Model")
      .def_readonly("inputs", &Model::inputs)
      .def_readonly("outputs", &Model::outputs)
      .def("run", &Model::run, py::arg("feed"),
           "Runs with a dict name -> value; returns all outputs in order.")
      .def("set_num_threads", &Model::setNumThreads)
      .def_property_readonly("device", &Model::device)
      .def("write_profile", &Model::writeProfile, py::arg("path"));

  m.def(
      "compile",
      [](const std::string &path, int optLevel, int threads,
         const std::string &format, const std::string &targetCpu,
         const std::string &targetFeatures, bool codegen, bool profile,
         const std::string &device, const std::string &gpuChip,
         const std::string &deviceConfig, int microBatches, bool memoryPlan,
         int winograd, bool blockedLayout, bool gpuTF32) {
        return Model::compile(
            path, makeOptions(optLevel, threads, format, targetCpu,
                              targetFeatures, codegen, profile, device, gpuChip,
                              deviceConfig, microBatches, memoryPlan, winograd,
                              blockedLayout, gpuTF32));
      },
      py::arg("path"), py::arg("opt_level") = 3, py::arg("threads") = 1,
      py::arg("format") = "", py::arg("target_cpu") = "",
      py::arg("target_features") = "", py::arg("codegen") = true,
      py::arg("profile") = false, py::arg("device") = "",
      py::arg("gpu_chip") = "", py::arg("device_config") = "",
      py::arg("micro_batches") = 1, py::arg("memory_plan") = true,
      py::arg("winograd") = 4, py::arg("blocked_layout") = true,
      py::arg("gpu_tf32") = false);
  m.def(
      "emit",
      [](const std::string &path, const std::string &out, int kind,
         int optLevel, int threads, const std::string &format,
         const std::string &targetCpu, const std::string &targetFeatures,
         bool codegen, bool profile, const std::string &device,
         const std::string &gpuChip, const std::string &deviceConfig,
         int microBatches, bool memoryPlan, int winograd, bool blockedLayout,
         bool gpuTF32) {
        onnxd_options o = makeOptions(
            optLevel, threads, format, targetCpu, targetFeatures, codegen,
            profile, device, gpuChip, deviceConfig, microBatches, memoryPlan,
            winograd, blockedLayout, gpuTF32);
        onnxd_status s;
        {
          py::gil_scoped_release release;
          s = onnxd_emit(path.c_str(), &o, onnxd_emit_kind(kind), out.c_str());
        }
        check(s);
      },
      py::arg("path"), py::arg("output"), py::arg("kind"),
      py::arg("opt_level") = 3, py::arg("threads") = 1, py::arg("format") = "",
      py::arg("target_cpu") = "", py::arg("target_features") = "",
      py::arg("codegen") = true, py::arg("profile") = false,
      py::arg("device") = "", py::arg("gpu_chip") = "",
      py::arg("device_config") = "", py::arg("micro_batches") = 1,
      py::arg("memory_plan") = true, py::arg("winograd") = 4,
      py::arg("blocked_layout") = true, py::arg("gpu_tf32") = false);
  m.def("load", &Model::load, py::arg("path"));
  m.def(
      "mpi_init",
      [] {
        int rank = 0, size = 0;
        check(onnxd_mpi_init(&rank, &size));
        return py::make_tuple(rank, size);
      },
      "Joins the MPI job (Open MPI, once): (rank, size) of this process.");
  m.def(
      "mpi_set_comm",
      [](uintptr_t comm) {
        check(onnxd_mpi_set_comm(reinterpret_cast<void *>(comm)));
      },
      py::arg("comm"),
      "The MPI communicator models run on: an MPI_Comm handle as an integer "
      "(mpi4py: MPI._handleof(comm)); 0 restores MPI_COMM_WORLD.");
  m.def(
      "device_check",
      [](const std::string &device) {
        check(onnxd_device_check(device.c_str()));
      },
      py::arg("device"),
      "Raises the error that says why models for `device` cannot run here.");
  m.def("dtype_name", &onnxd_dtype_name);
  m.def("import_model", &importModel, py::arg("data"),
        py::arg("directory") = "", py::arg("bytecode") = false);
  m.def("import_model_file", &importModelFile, py::arg("path"),
        py::arg("bytecode") = false);
  m.def("run_passes", &runPasses, py::arg("mlir"), py::arg("pipeline"),
        py::arg("bytecode") = false);
  m.def("export_model", &exportModel, py::arg("mlir"), py::arg("text") = false);
}
