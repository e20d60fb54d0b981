//===- TensorFiles.cpp - Tensors in .npy and TensorProto files ------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Runtime/TensorFiles.h"

#include "Runtime.h"
#include "Shapes.h"

#include "onnx-data.pb.h"
#include "onnx.pb.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstring>
#include <fstream>
#include <limits>
#include <optional>

using namespace mlir::onnx::runtime;

int64_t HostTensor::numElements() const { return elementCount(shape); }

/// Whether the dims of `shape` are non-negative and their product fits in
/// int64_t with room for the widest element (16 bytes); else sets `error`.
static bool checkShape(const std::vector<int64_t> &shape,
                       const std::string &path, std::string &error) {
  uint64_t count = 1;
  for (int64_t d : shape) {
    if (d < 0) {
      error = path + ": negative dimension " + std::to_string(d);
      return false;
    }
    std::optional<uint64_t> next = llvm::checkedMulUnsigned(count, uint64_t(d));
    if (!next || *next > uint64_t(std::numeric_limits<int64_t>::max() / 16)) {
      error = path + ": the element count of the shape overflows";
      return false;
    }
    count = *next;
  }
  return true;
}

onnxd_tensor HostTensor::view() const {
  onnxd_tensor t;
  t.name = name.c_str();
  t.dtype = dtype;
  t.rank = static_cast<int32_t>(shape.size());
  t.shape = shape.data();
  t.data = const_cast<char *>(data.data());
  if (dtype == ONNXD_STRING) {
    stringPtrs.clear();
    for (const std::string &s : strings)
      stringPtrs.push_back(s.c_str());
    t.data = stringPtrs.data();
  }
  return t;
}

HostTensor HostTensor::fromTensor(const onnxd_tensor &t) {
  HostTensor h;
  h.name = t.name ? t.name : "";
  h.dtype = t.dtype;
  h.shape.assign(t.shape, t.shape + t.rank);
  if (t.dtype == ONNXD_STRING) {
    for (int64_t i = 0, e = h.numElements(); i < e; ++i)
      h.strings.push_back(static_cast<const char *const *>(t.data)[i]);
    return h;
  }
  size_t bytes = h.numElements() * dtypeSize(t.dtype);
  const char *p = static_cast<const char *>(t.data);
  h.data.assign(p, p + bytes);
  return h;
}

onnxd_value HostValue::view() const {
  onnxd_value v{};
  v.name = name.c_str();
  v.kind = kind;
  v.tensor = tensor.view();
  elementViews.clear();
  for (const HostValue &e : elements)
    elementViews.push_back(e.view());
  v.num_elements = elementViews.size();
  v.elements = elementViews.data();
  return v;
}

HostValue HostValue::fromValue(const onnxd_value &v) {
  HostValue h;
  h.name = v.name ? v.name : "";
  h.kind = v.kind;
  if (v.kind == ONNXD_KIND_TENSOR || v.kind == ONNXD_KIND_MAP)
    h.tensor = HostTensor::fromTensor(v.tensor);
  h.tensor.name = h.name;
  for (size_t i = 0; i < v.num_elements; ++i)
    h.elements.push_back(fromValue(v.elements[i]));
  return h;
}

//===----------------------------------------------------------------------===//
// .npy
//===----------------------------------------------------------------------===//

namespace {
struct NpyType {
  const char *descr; // without the byte-order character
  int32_t dtype;
};
} // namespace

static const NpyType kNpyTypes[] = {
    {"f4", ONNXD_FLOAT},     {"f8", ONNXD_DOUBLE},      {"f2", ONNXD_FLOAT16},
    {"i1", ONNXD_INT8},      {"u1", ONNXD_UINT8},       {"i2", ONNXD_INT16},
    {"u2", ONNXD_UINT16},    {"i4", ONNXD_INT32},       {"u4", ONNXD_UINT32},
    {"i8", ONNXD_INT64},     {"u8", ONNXD_UINT64},      {"b1", ONNXD_BOOL},
    {"c8", ONNXD_COMPLEX64}, {"c16", ONNXD_COMPLEX128},
};

/// What .npy files hold for the types numpy has no dtype for: their bits as
/// unsigned integers of the same width (int4/int2 as int8, sign-extended).
/// ml_dtypes arrays saved with np.save carry a void descr ('V1', 'V2'): read
/// as uint8/uint16 too. onnx-run gives such a tensor the input's type.
static const NpyType kNpyBitTypes[] = {
    {"u2", ONNXD_BFLOAT16},       {"u1", ONNXD_FLOAT8E4M3FN},
    {"u1", ONNXD_FLOAT8E4M3FNUZ}, {"u1", ONNXD_FLOAT8E5M2},
    {"u1", ONNXD_FLOAT8E5M2FNUZ}, {"u1", ONNXD_FLOAT8E8M0},
    {"u1", ONNXD_UINT4},          {"i1", ONNXD_INT4},
    {"u1", ONNXD_FLOAT4E2M1},     {"u1", ONNXD_UINT2},
    {"i1", ONNXD_INT2},
};

/// The contents of the regular file `path` (a device or a pipe may never
/// end: /dev/zero); null with `error` set otherwise.
static std::unique_ptr<llvm::MemoryBuffer>
openInputFile(const std::string &path, std::string &error) {
  llvm::sys::fs::file_status status;
  if (std::error_code ec = llvm::sys::fs::status(path, status)) {
    error = path + ": " + ec.message();
    return nullptr;
  }
  if (status.type() != llvm::sys::fs::file_type::regular_file) {
    error = path + ": not a regular file: tensors are read from files";
    return nullptr;
  }
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) {
    error = path + ": " + buffer.getError().message();
    return nullptr;
  }
  return std::move(*buffer);
}

/// The value of `key` in the header dict: the text after "'key':".
static llvm::StringRef headerValue(llvm::StringRef header,
                                   llvm::StringRef key) {
  size_t pos = header.find(("'" + key + "'").str());
  if (pos == llvm::StringRef::npos)
    return {};
  llvm::StringRef rest = header.drop_front(pos + key.size() + 2).ltrim();
  if (!rest.consume_front(":"))
    return {};
  return rest.ltrim();
}

bool mlir::onnx::runtime::readNpy(const std::string &path, HostTensor &out,
                                  std::string &error) {
  std::unique_ptr<llvm::MemoryBuffer> buffer = openInputFile(path, error);
  if (!buffer)
    return false;
  return readNpyBytes(buffer->getBufferStart(), buffer->getBufferSize(), path,
                      out, error);
}

bool mlir::onnx::runtime::readNpyBytes(const char *data, size_t size,
                                       const std::string &path, HostTensor &out,
                                       std::string &error) {
  llvm::StringRef bytes(data, size);
  if (bytes.size() < 10 || !bytes.starts_with("\x93NUMPY")) {
    error = path + ": not a .npy file";
    return false;
  }
  unsigned major = static_cast<unsigned char>(bytes[6]);
  size_t headerLen, start;
  auto byte = [&](size_t i) -> size_t {
    return static_cast<unsigned char>(bytes[i]);
  };
  if (major == 1) {
    headerLen = byte(8) | byte(9) << 8;
    start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) {
      error = path + ": truncated .npy header";
      return false;
    }
    headerLen = byte(8) | byte(9) << 8 | byte(10) << 16 | byte(11) << 24;
    start = 12;
  } else {
    error = path + ": unknown .npy version " + std::to_string(major);
    return false;
  }
  if (start + headerLen > bytes.size()) {
    error = path + ": truncated .npy header";
    return false;
  }
  llvm::StringRef header = bytes.substr(start, headerLen);
  llvm::StringRef descr = headerValue(header, "descr");
  if (!descr.consume_front("'")) {
    error = path + ": no 'descr' in the .npy header";
    return false;
  }
  descr = descr.take_until([](char c) { return c == '\''; });
  char order = descr.empty() ? 0 : descr[0];
  llvm::StringRef code = descr.drop_front();
  out.dtype = 0;
  for (const NpyType &t : kNpyTypes)
    if (code == t.descr)
      out.dtype = t.dtype;
  if (code == "V1")
    out.dtype = ONNXD_UINT8;
  else if (code == "V2")
    out.dtype = ONNXD_UINT16;
  if (!out.dtype || (order == '>' && dtypeSize(out.dtype) > 1) ||
      (order != '<' && order != '|' && order != '=' && order != '>')) {
    error = path + ": unsupported .npy dtype '" + descr.str() +
            "' (little-endian numeric types and bool only)";
    return false;
  }
  if (headerValue(header, "fortran_order").starts_with("True")) {
    error = path + ": Fortran-order .npy arrays are not supported";
    return false;
  }
  llvm::StringRef shape = headerValue(header, "shape");
  if (!shape.consume_front("(")) {
    error = path + ": no 'shape' in the .npy header";
    return false;
  }
  shape = shape.take_until([](char c) { return c == ')'; });
  out.shape.clear();
  llvm::SmallVector<llvm::StringRef> parts;
  shape.split(parts, ',');
  for (llvm::StringRef p : parts) {
    p = p.trim();
    if (p.empty())
      continue;
    int64_t d;
    if (p.getAsInteger(10, d) || d < 0) {
      error = path + ": bad .npy shape";
      return false;
    }
    out.shape.push_back(d);
  }
  if (!checkShape(out.shape, path, error))
    return false;
  size_t dataSize = out.numElements() * dtypeSize(out.dtype);
  llvm::StringRef payload = bytes.drop_front(start + headerLen);
  if (payload.size() < dataSize) {
    error = path + ": the data is shorter than the shape says";
    return false;
  }
  out.data.assign(payload.begin(), payload.begin() + dataSize);
  return true;
}

const char *mlir::onnx::runtime::npyDescr(int32_t dtype) {
  for (const NpyType &n : kNpyTypes)
    if (n.dtype == dtype)
      return n.descr;
  for (const NpyType &n : kNpyBitTypes)
    if (n.dtype == dtype)
      return n.descr;
  return nullptr;
}

bool mlir::onnx::runtime::writeNpy(const std::string &path, const HostTensor &t,
                                   std::string &error) {
  const char *descr = npyDescr(t.dtype);
  if (!descr) {
    error = path + ": no .npy dtype for " + dtypeName(t.dtype);
    return false;
  }
  std::string shape = "(";
  for (int64_t d : t.shape)
    shape += std::to_string(d) + ", ";
  if (t.shape.size() > 1)
    shape.resize(shape.size() - 2);
  else if (t.shape.size() == 1)
    shape.resize(shape.size() - 1);
  shape += ")";
  char order = dtypeSize(t.dtype) == 1 ? '|' : '<';
  if (llvm::StringRef(descr) == "u2")
    order = '<';
  std::string header = std::string("{'descr': '") + order + descr +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::ofstream os(path, std::ios::binary);
  if (!os) {
    error = path + ": cannot write";
    return false;
  }
  os.write("\x93NUMPY\x01\x00", 8);
  char len[2] = {static_cast<char>(header.size() & 0xff),
                 static_cast<char>(header.size() >> 8)};
  os.write(len, 2);
  os << header;
  os.write(t.data.data(), t.data.size());
  if (!os) {
    error = path + ": write failed";
    return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// TensorProto
//===----------------------------------------------------------------------===//

template <typename T, typename Field>
static void copyField(const Field &field, std::vector<char> &data) {
  data.resize(field.size() * sizeof(T));
  for (int i = 0; i < field.size(); ++i) {
    T v = static_cast<T>(field.Get(i));
    std::memcpy(data.data() + i * sizeof(T), &v, sizeof(T));
  }
}

static bool readTensorMessage(const onnx_dialect::proto::TensorProto &proto,
                              const std::string &path, HostTensor &out,
                              std::string &error);

/// Bits per element of the packed sub-byte types; 0 for the others.
static unsigned packedBits(int32_t dtype) {
  switch (dtype) {
  case ONNXD_UINT4:
  case ONNXD_INT4:
  case ONNXD_FLOAT4E2M1:
    return 4;
  case ONNXD_UINT2:
  case ONNXD_INT2:
    return 2;
  default:
    return 0;
  }
}

/// Unpacks `n` elements of `bits` bits (element 0 in the low bits of byte
/// 0) into one byte each, sign-extending int4/int2.
static void unpack(const std::vector<uint8_t> &packed, int64_t n, unsigned bits,
                   bool isSigned, std::vector<char> &out) {
  out.resize(n);
  unsigned perByte = 8 / bits;
  uint8_t mask = (1u << bits) - 1, sign = 1u << (bits - 1);
  for (int64_t i = 0; i < n; ++i) {
    uint8_t v = (packed[i / perByte] >> (bits * (i % perByte))) & mask;
    if (isSigned && (v & sign))
      v |= ~mask;
    out[i] = static_cast<char>(v);
  }
}

bool mlir::onnx::runtime::readTensorProto(const std::string &path,
                                          HostTensor &out, std::string &error) {
  HostValue value;
  if (!readValueProto(path, ONNXD_KIND_TENSOR, value, error))
    return false;
  out = std::move(value.tensor);
  return true;
}

static bool readTensorMessage(const onnx_dialect::proto::TensorProto &proto,
                              const std::string &path, HostTensor &out,
                              std::string &error) {
  out.name = proto.name();
  out.dtype = proto.data_type();
  out.shape.assign(proto.dims().begin(), proto.dims().end());
  if (!checkShape(out.shape, path, error))
    return false;
  if (out.dtype == ONNXD_STRING) {
    out.strings.assign(proto.string_data().begin(), proto.string_data().end());
    if (int64_t(out.strings.size()) != out.numElements()) {
      error = path + ": " + std::to_string(out.strings.size()) +
              " strings for " + std::to_string(out.numElements()) + " elements";
      return false;
    }
    return true;
  }
  size_t elemSize = dtypeSize(out.dtype);
  if (!elemSize || (proto.has_data_location() && proto.data_location() != 0)) {
    error = path + ": tensors of type " + dtypeName(out.dtype) +
            (elemSize ? " with external data" : "") + " are not supported";
    return false;
  }
  size_t size = out.numElements() * elemSize;
  if (unsigned bits = packedBits(out.dtype)) {
    std::vector<uint8_t> packed;
    if (proto.has_raw_data()) {
      const std::string &raw = proto.raw_data();
      packed.assign(raw.begin(), raw.end());
    } else {
      for (int32_t v : proto.int32_data())
        packed.push_back(static_cast<uint8_t>(v));
    }
    int64_t n = out.numElements();
    int64_t need = (n * bits + 7) / 8;
    if (static_cast<int64_t>(packed.size()) != need) {
      error = path + ": " + std::to_string(packed.size()) +
              " bytes of packed data for " + std::to_string(n) +
              " elements of " + dtypeName(out.dtype) + " (expected " +
              std::to_string(need) + ")";
      return false;
    }
    unpack(packed, n, bits, out.dtype == ONNXD_INT4 || out.dtype == ONNXD_INT2,
           out.data);
    return true;
  }
  if (proto.has_raw_data()) {
    const std::string &raw = proto.raw_data();
    out.data.assign(raw.begin(), raw.end());
  } else {
    switch (out.dtype) {
    case ONNXD_FLOAT:
    case ONNXD_COMPLEX64:
      copyField<float>(proto.float_data(), out.data);
      break;
    case ONNXD_DOUBLE:
    case ONNXD_COMPLEX128:
      copyField<double>(proto.double_data(), out.data);
      break;
    case ONNXD_INT64:
      copyField<int64_t>(proto.int64_data(), out.data);
      break;
    case ONNXD_UINT32:
      copyField<uint32_t>(proto.uint64_data(), out.data);
      break;
    case ONNXD_UINT64:
      copyField<uint64_t>(proto.uint64_data(), out.data);
      break;
    case ONNXD_INT32:
      copyField<int32_t>(proto.int32_data(), out.data);
      break;
    case ONNXD_INT16:
      copyField<int16_t>(proto.int32_data(), out.data);
      break;
    case ONNXD_UINT16:
    case ONNXD_FLOAT16:
    case ONNXD_BFLOAT16:
      copyField<uint16_t>(proto.int32_data(), out.data);
      break;
    case ONNXD_INT8:
      copyField<int8_t>(proto.int32_data(), out.data);
      break;
    case ONNXD_UINT8:
    case ONNXD_BOOL:
    case ONNXD_FLOAT8E4M3FN:
    case ONNXD_FLOAT8E4M3FNUZ:
    case ONNXD_FLOAT8E5M2:
    case ONNXD_FLOAT8E5M2FNUZ:
    case ONNXD_FLOAT8E8M0:
      copyField<uint8_t>(proto.int32_data(), out.data);
      break;
    default:
      error = path + ": cannot read " + dtypeName(out.dtype) + " data";
      return false;
    }
  }
  if (out.data.size() != size) {
    error = path + ": " + std::to_string(out.data.size()) +
            " bytes of data for " + std::to_string(out.numElements()) +
            " elements of " + dtypeName(out.dtype);
    return false;
  }
  return true;
}

static bool readSequenceMessage(const onnx_dialect::proto::SequenceProto &p,
                                const std::string &path, HostValue &out,
                                std::string &error);
static bool readOptionalMessage(const onnx_dialect::proto::OptionalProto &p,
                                const std::string &path, HostValue &out,
                                std::string &error);

// elem_type codes of SequenceProto and OptionalProto.
enum {
  kProtoTensor = 1,
  kProtoSequence = 3,
  kProtoMap = 4,
  kProtoOptional = 5
};

static bool readSequenceMessage(const onnx_dialect::proto::SequenceProto &p,
                                const std::string &path, HostValue &out,
                                std::string &error) {
  out.name = p.name();
  out.kind = ONNXD_KIND_SEQUENCE;
  switch (p.elem_type()) {
  case kProtoTensor:
    for (const auto &t : p.tensor_values()) {
      out.elements.emplace_back();
      if (!readTensorMessage(t, path, out.elements.back().tensor, error))
        return false;
    }
    return true;
  case kProtoSequence:
    for (const auto &s : p.sequence_values()) {
      out.elements.emplace_back();
      if (!readSequenceMessage(s, path, out.elements.back(), error))
        return false;
    }
    return true;
  case kProtoOptional:
    for (const auto &o : p.optional_values()) {
      out.elements.emplace_back();
      if (!readOptionalMessage(o, path, out.elements.back(), error))
        return false;
    }
    return true;
  case 0: // an empty sequence need not say
    if (p.tensor_values_size() + p.sequence_values_size() +
            p.optional_values_size() + p.map_values_size() ==
        0)
      return true;
    [[fallthrough]];
  default:
    error = path + ": sequences of elem_type " + std::to_string(p.elem_type()) +
            " are not supported";
    return false;
  }
}

static bool readOptionalMessage(const onnx_dialect::proto::OptionalProto &p,
                                const std::string &path, HostValue &out,
                                std::string &error) {
  out.name = p.name();
  out.kind = ONNXD_KIND_OPTIONAL;
  if (p.has_tensor_value()) {
    out.elements.emplace_back();
    return readTensorMessage(p.tensor_value(), path, out.elements.back().tensor,
                             error);
  }
  if (p.has_sequence_value()) {
    out.elements.emplace_back();
    return readSequenceMessage(p.sequence_value(), path, out.elements.back(),
                               error);
  }
  if (p.has_optional_value()) {
    out.elements.emplace_back();
    return readOptionalMessage(p.optional_value(), path, out.elements.back(),
                               error);
  }
  if (p.has_map_value() || p.has_sparse_tensor_value()) {
    error = path + ": optionals of maps or sparse tensors are not supported";
    return false;
  }
  return true; // no value
}

bool mlir::onnx::runtime::readValueProto(const std::string &path, int32_t kind,
                                         HostValue &out, std::string &error) {
  std::unique_ptr<llvm::MemoryBuffer> buffer = openInputFile(path, error);
  if (!buffer)
    return false;
  return readValueProtoBytes(buffer->getBufferStart(), buffer->getBufferSize(),
                             path, kind, out, error);
}

bool mlir::onnx::runtime::readValueProtoBytes(const char *data, size_t size,
                                              const std::string &path,
                                              int32_t kind, HostValue &out,
                                              std::string &error) {
  if (size > size_t(std::numeric_limits<int>::max())) {
    error = path + ": larger than protobuf's 2 GiB message limit";
    return false;
  }
  int length = static_cast<int>(size);
  if (kind == ONNXD_KIND_TENSOR) {
    onnx_dialect::proto::TensorProto proto;
    if (!proto.ParseFromArray(data, length)) {
      error = path + ": not a TensorProto";
      return false;
    }
    out.kind = ONNXD_KIND_TENSOR;
    if (!readTensorMessage(proto, path, out.tensor, error))
      return false;
    out.name = out.tensor.name;
    return true;
  }
  if (kind == ONNXD_KIND_SEQUENCE) {
    onnx_dialect::proto::SequenceProto proto;
    if (!proto.ParseFromArray(data, length)) {
      error = path + ": not a SequenceProto";
      return false;
    }
    return readSequenceMessage(proto, path, out, error);
  }
  if (kind == ONNXD_KIND_OPTIONAL) {
    onnx_dialect::proto::OptionalProto proto;
    if (!proto.ParseFromArray(data, length)) {
      error = path + ": not an OptionalProto";
      return false;
    }
    return readOptionalMessage(proto, path, out, error);
  }
  error = path + ": maps are not supported";
  return false;
}

bool mlir::onnx::runtime::readTensorFile(const std::string &path,
                                         HostTensor &out, std::string &error) {
  if (llvm::StringRef(path).ends_with(".npy"))
    return readNpy(path, out, error);
  return readTensorProto(path, out, error);
}
