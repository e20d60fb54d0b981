//===- TensorData.cpp - ONNX data types and TensorProto contents ----------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Target/ONNX/TensorData.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXDialect.h"

#include "onnx.pb.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA1.h"

#include "llvm/Support/Process.h"

#include <memory>
#include <mutex>
#include <sys/mman.h>

using namespace mlir;
using namespace mlir::onnx;
namespace proto = onnx_dialect::proto;

//===----------------------------------------------------------------------===//
// Tensor contents
//===----------------------------------------------------------------------===//

namespace {
/// Where the bytes of a tensor come from, kept alive as long as the blob.
struct Bytes {
  ArrayRef<char> data;
  std::shared_ptr<void> owner;
};
} // namespace

/// Unpacks 4- or 2-bit elements (low bits first) into APInts.
static SmallVector<APInt> unpackSubByte(ArrayRef<char> bytes, int64_t count,
                                        unsigned bits, bool isSigned) {
  SmallVector<APInt> values;
  values.reserve(count);
  unsigned perByte = 8 / bits;
  for (int64_t i = 0; i < count; ++i) {
    uint8_t byte = bytes[i / perByte];
    uint64_t v = (byte >> ((i % perByte) * bits)) & ((1u << bits) - 1);
    values.push_back(APInt(bits, v, isSigned));
  }
  return values;
}

static FailureOr<ElementsAttr> denseFromBytes(ShapedType type, unsigned bits,
                                              Bytes bytes, int64_t inlineLimit,
                                              StringRef blobName) {
  Type element = type.getElementType();
  int64_t count = type.getNumElements();
  if (element.isInteger(1)) {
    SmallVector<bool> values;
    for (int64_t i = 0; i < count; ++i)
      values.push_back(bytes.data[i] != 0);
    return ElementsAttr(DenseElementsAttr::get(type, values));
  }
  if (bits < 8) {
    SmallVector<APInt> ints =
        unpackSubByte(bytes.data, count, bits, element.isSignlessInteger());
    if (auto f = dyn_cast<FloatType>(element)) {
      SmallVector<APFloat> floats;
      for (const APInt &i : ints)
        floats.push_back(APFloat(f.getFloatSemantics(), i));
      return ElementsAttr(DenseElementsAttr::get(type, floats));
    }
    return ElementsAttr(DenseElementsAttr::get(type, ints));
  }
  if (static_cast<int64_t>(bytes.data.size()) <= inlineLimit) {
    bool splat = false;
    if (!DenseElementsAttr::isValidRawBuffer(type, bytes.data, splat))
      return failure();
    return ElementsAttr(DenseElementsAttr::getFromRawBuffer(type, bytes.data));
  }
  size_t align = std::min<size_t>(bits / 8, alignof(std::max_align_t));
  AsmResourceBlob blob;
  // Bytes we own (moved out of the proto or mapped) are kept; others copied.
  if (bytes.owner &&
      reinterpret_cast<uintptr_t>(bytes.data.data()) % align == 0) {
    blob = AsmResourceBlob(
        bytes.data, align,
        [owner = std::move(bytes.owner)](void *, size_t, size_t) {},
        /*dataIsMutable=*/false);
  } else {
    blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(bytes.data, align);
  }
  return ElementsAttr(
      DenseResourceElementsAttr::get(type, blobName, std::move(blob)));
}

/// Validates an external data location: relative, no '..', and the file it
/// names (symlinks resolved) inside the model directory.
static FailureOr<std::string> resolveExternal(StringRef modelDir,
                                              StringRef location,
                                              const std::string &what,
                                              Location loc) {
  auto fail = [&](const Twine &why) {
    return emitError(loc, what + ": external data location '" + location +
                              "' " + why + " [ir-ext-location]");
  };
  if (location.empty())
    return fail("is empty");
  if (location.starts_with("/") || llvm::sys::path::is_absolute(location))
    return fail("is absolute; it must be relative to the model's directory");
  for (StringRef part : llvm::make_range(
           llvm::sys::path::begin(location, llvm::sys::path::Style::posix),
           llvm::sys::path::end(location)))
    if (part == "..")
      return fail("leaves the model's directory ('..')");
  SmallString<256> path(modelDir);
  llvm::sys::path::append(path, location);
  SmallString<256> real, realDir;
  if (llvm::sys::fs::real_path(path, real))
    return fail("does not name an existing file");
  if (llvm::sys::fs::real_path(modelDir, realDir))
    return fail("cannot be resolved: the model directory does not exist");
  StringRef r = real;
  if (!r.consume_front(realDir) || !r.starts_with("/"))
    return fail("resolves (through a symbolic link) outside the model's "
                "directory");
  return std::string(real);
}

//===----------------------------------------------------------------------===//
// Mapped external data
//===----------------------------------------------------------------------===//

namespace {
/// The memory-mapped external data of live blobs.
struct MappedRanges {
  std::mutex mutex;
  std::vector<std::pair<const char *, const char *>> ranges;
};
} // namespace

static MappedRanges &mappedRanges() {
  static MappedRanges ranges;
  return ranges;
}

void mlir::onnx::releaseExternalDataPages(const void *data, size_t size) {
  const char *begin = static_cast<const char *>(data), *end = begin + size;
  MappedRanges &mapped = mappedRanges();
  std::lock_guard<std::mutex> lock(mapped.mutex);
  for (auto [lo, hi] : mapped.ranges) {
    if (begin < lo || end > hi)
      continue;
    // Whole pages only: the mapping is private and read-only, so dropped
    // pages come back from the file on the next access.
    uintptr_t page = llvm::sys::Process::getPageSizeEstimate();
    uintptr_t first = llvm::alignTo(uintptr_t(begin), page);
    uintptr_t last = uintptr_t(end) & ~(page - 1);
    if (first < last)
      ::madvise(reinterpret_cast<void *>(first), last - first, MADV_DONTNEED);
    return;
  }
}

static FailureOr<Bytes> readExternal(proto::TensorProto &tensor,
                                     StringRef modelDir, uint64_t expected,
                                     const std::string &what, Location loc) {
  std::string location, checksum;
  uint64_t offset = 0, length = expected;
  bool hasLength = false;
  for (const proto::StringStringEntryProto &kv : tensor.external_data()) {
    auto number = [&](uint64_t &out) -> LogicalResult {
      if (StringRef(kv.value()).getAsInteger(10, out))
        return emitError(loc, what + ": external data '" + kv.key() +
                                  "' is not a non-negative integer: '" +
                                  kv.value() + "'");
      return success();
    };
    if (kv.key() == "location")
      location = kv.value();
    else if (kv.key() == "offset" && failed(number(offset)))
      return failure();
    else if (kv.key() == "length") {
      if (failed(number(length)))
        return failure();
      hasLength = true;
    } else if (kv.key() == "checksum")
      checksum = kv.value();
  }
  if (location.empty())
    return emitError(
        loc, what + ": external data has no 'location' [ir-ext-location]");
  FailureOr<std::string> path = resolveExternal(modelDir, location, what, loc);
  if (failed(path))
    return failure();
  uint64_t size = 0;
  if (llvm::sys::fs::file_size(*path, size))
    return emitError(loc, what + ": cannot read external data file '" +
                              location + "'");
  if (hasLength && length != expected)
    return emitError(loc, what + ": external data length " + Twine(length) +
                              " does not match the " + Twine(expected) +
                              " bytes its type and shape need");
  if (offset > size || size - offset < expected)
    return emitError(loc, what + ": external data [" + Twine(offset) + ", " +
                              Twine(offset + expected) +
                              ") is beyond the end "
                              "of '" +
                              location + "' (" + Twine(size) + " bytes)");
  if (!checksum.empty()) {
    auto file = llvm::MemoryBuffer::getFile(*path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
    if (!file)
      return emitError(loc, what + ": cannot read '" + location + "'");
    auto digest =
        llvm::SHA1::hash(llvm::arrayRefFromStringRef((*file)->getBuffer()));
    if (llvm::toHex(digest, /*LowerCase=*/true) != StringRef(checksum).lower())
      return emitError(loc, what + ": checksum of '" + location +
                                "' does not match the model's");
  }
  if (expected == 0)
    return Bytes{{}, nullptr};
  auto buffer = llvm::MemoryBuffer::getFileSlice(*path, expected, offset);
  if (!buffer)
    return emitError(loc,
                     what + ": cannot map external data of '" + location + "'");
  const char *start = (*buffer)->getBufferStart();
  const char *end = (*buffer)->getBufferEnd();
  bool mapped =
      (*buffer)->getBufferKind() == llvm::MemoryBuffer::MemoryBuffer_MMap;
  if (mapped) {
    std::lock_guard<std::mutex> lock(mappedRanges().mutex);
    mappedRanges().ranges.push_back({start, end});
  }
  // The mapping lives as long as the blob; then it leaves the registry.
  std::shared_ptr<llvm::MemoryBuffer> owner(
      buffer->release(), [mapped, start](llvm::MemoryBuffer *b) {
        if (mapped) {
          MappedRanges &r = mappedRanges();
          std::lock_guard<std::mutex> lock(r.mutex);
          llvm::erase_if(r.ranges, [&](auto &p) { return p.first == start; });
        }
        delete b;
      });
  ArrayRef<char> data(start, end - start);
  return Bytes{data, owner};
}

FailureOr<ElementsAttr> TensorImporter::importTensor(proto::TensorProto &tensor,
                                                     const std::string &what,
                                                     bool dense) {
  const DataTypeInfo *info = getDataTypeInfo(tensor.data_type());
  if (!info)
    return emitError(loc, what + ": unknown data type code " +
                              Twine(tensor.data_type()));
  Type element = getElementTypeForDataType(context, info->code);
  int64_t count = 1;
  SmallVector<int64_t> dims;
  for (int64_t d : tensor.dims()) {
    if (d < 0)
      return emitError(loc, what + ": negative dimension " + Twine(d));
    if (d && count > std::numeric_limits<int64_t>::max() / d / 16)
      return emitError(loc, what + ": the element count of its dimensions "
                                   "overflows");
    count *= d;
    dims.push_back(d);
  }
  if (tensor.has_segment())
    return emitError(loc, what + ": segmented tensors are not supported");
  auto type = RankedTensorType::get(dims, element);

  if (info->code == 8) { // STRING
    if (tensor.string_data_size() != count)
      return emitError(loc, what + ": has " + Twine(tensor.string_data_size()) +
                                " strings, its shape needs " + Twine(count));
    SmallVector<StringRef> strings(tensor.string_data().begin(),
                                   tensor.string_data().end());
    return ElementsAttr(DenseElementsAttr::get(type, strings));
  }
  uint64_t byteSize = (uint64_t(count) * info->bits + 7) / 8;
  std::string name = tensor.name().empty() ? "tensor" : tensor.name();

  Bytes bytes;
  SmallVector<char> converted;
  if (tensor.data_location() == proto::TensorProto::EXTERNAL) {
    if (tensor.has_raw_data() || tensor.float_data_size() ||
        tensor.int32_data_size() || tensor.int64_data_size() ||
        tensor.double_data_size() || tensor.uint64_data_size())
      return emitError(loc, what + ": external data and a value field at "
                                   "once [ir-ext-no-value-fields]");
    FailureOr<Bytes> ext =
        readExternal(tensor, modelDirectory, byteSize, what, loc);
    if (failed(ext))
      return failure();
    bytes = *ext;
  } else if (tensor.has_raw_data()) {
    if (tensor.raw_data().size() != byteSize)
      return emitError(
          loc, what + ": raw_data has " + Twine(tensor.raw_data().size()) +
                   " bytes, its type and shape need " + Twine(byteSize));
    // Take the bytes out of the proto rather than copy them.
    std::shared_ptr<std::string> owner(tensor.release_raw_data());
    bytes = Bytes{ArrayRef<char>(owner->data(), owner->size()), owner};
  } else {
    // The typed fields (proto-facts.md, 4.2).
    auto put = [&](auto value) {
      const char *p = reinterpret_cast<const char *>(&value);
      converted.append(p, p + sizeof(value));
    };
    int64_t have = 0, need = count;
    switch (info->code) {
    case 1:
    case 14:
      need = info->code == 14 ? 2 * count : count;
      have = tensor.float_data_size();
      if (have == need)
        for (float f : tensor.float_data())
          put(f);
      break;
    case 11:
    case 15:
      need = info->code == 15 ? 2 * count : count;
      have = tensor.double_data_size();
      if (have == need)
        for (double d : tensor.double_data())
          put(d);
      break;
    case 7:
      have = tensor.int64_data_size();
      if (have == need)
        for (int64_t v : tensor.int64_data())
          put(v);
      break;
    case 12:
    case 13:
      have = tensor.uint64_data_size();
      if (have == need)
        for (uint64_t v : tensor.uint64_data()) {
          if (info->code == 12)
            put(uint32_t(v));
          else
            put(v);
        }
      break;
    default: {
      // int32_data: one element per entry, or packed bytes of 2/4 elements.
      have = tensor.int32_data_size();
      need = info->bits < 8 ? int64_t(byteSize) : count;
      if (have == need)
        for (int32_t v : tensor.int32_data()) {
          if (info->bits == 32)
            put(v);
          else if (info->bits == 16)
            put(uint16_t(v));
          else
            put(uint8_t(v));
        }
      break;
    }
    }
    if (have != need)
      return emitError(loc, what + ": has " + Twine(have) +
                                " data entries, its type and shape need " +
                                Twine(need));
    bytes = Bytes{converted, nullptr};
  }
  FailureOr<ElementsAttr> attr = denseFromBytes(
      type, info->bits, bytes,
      dense ? std::numeric_limits<int64_t>::max() : inlineLimit, name);
  if (failed(attr))
    return emitError(loc, what + ": cannot represent its data");
  return attr;
}

FailureOr<Attribute>
TensorImporter::importSparseTensor(proto::SparseTensorProto &sparse,
                                   const std::string &what) {
  // The dense shape: lowerings materialize it, so its size is bounded.
  SmallVector<int64_t> dims(sparse.dims().begin(), sparse.dims().end());
  uint64_t count = 1;
  for (int64_t d : dims) {
    if (d < 0)
      return emitError(loc, what + ": negative dimension " + Twine(d));
    std::optional<uint64_t> next = llvm::checkedMulUnsigned(count, uint64_t(d));
    if (!next || *next > uint64_t(std::numeric_limits<int64_t>::max()))
      return emitError(loc, what + ": the element count of its dimensions "
                                   "overflows");
    count = *next;
  }
  // Sparse elements attributes hold dense indices and values, never
  // resource blobs.
  FailureOr<ElementsAttr> values =
      importTensor(*sparse.mutable_values(), what + " (values)", true);
  FailureOr<ElementsAttr> indices =
      importTensor(*sparse.mutable_indices(), what + " (indices)", true);
  if (failed(values) || failed(indices))
    return failure();
  const DataTypeInfo *info = getDataTypeInfo(sparse.values().data_type());
  // Strings count as pointers.
  uint64_t bits = info && info->bits ? info->bits : 64;
  if (count > (maxTensorBytes * 8) / bits)
    return emitError(loc, what + ": its dense shape holds " + Twine(count) +
                              " elements, more than the limit of " +
                              Twine(maxTensorBytes) + " bytes");
  int64_t rank = dims.size(), nnz = values->getNumElements();
  auto indexType = indices->getShapedType();
  if (!indexType.getElementType().isInteger(64))
    return emitError(loc, what + ": indices must be int64");
  SmallVector<int64_t> coords;
  auto raw = cast<DenseElementsAttr>(*indices).getValues<int64_t>();
  if (indexType.getRank() == 1 && indexType.getDimSize(0) == nnz) {
    // Linearized indices into the dense shape.
    for (int64_t linear : raw) {
      if (linear < 0 || uint64_t(linear) >= count)
        return emitError(loc, what + ": linear index " + Twine(linear) +
                                  " is outside the dense shape");
      SmallVector<int64_t> c(rank);
      for (int64_t d = rank - 1; d >= 0; --d) {
        c[d] = linear % dims[d];
        linear /= dims[d];
      }
      coords.append(c);
    }
  } else if (indexType.getRank() == 2 && indexType.getDimSize(0) == nnz &&
             indexType.getDimSize(1) == rank) {
    coords.assign(raw.begin(), raw.end());
  } else {
    return emitError(loc, what + ": indices must have shape [" + Twine(nnz) +
                              "] or [" + Twine(nnz) + ", " + Twine(rank) + "]");
  }
  for (int64_t i = 0; i < nnz; ++i)
    for (int64_t d = 0; d < rank; ++d)
      if (coords[i * rank + d] < 0 || coords[i * rank + d] >= dims[d])
        return emitError(loc, what + ": index " + Twine(i) +
                                  " is outside the dense shape");
  auto type = RankedTensorType::get(dims, values->getElementType());
  auto indexAttr = DenseIntElementsAttr::get(
      RankedTensorType::get({nnz, rank}, IntegerType::get(context, 64)),
      coords);
  auto valueAttr = dyn_cast<DenseElementsAttr>(*values);
  if (!valueAttr)
    return emitError(loc, what + ": its values must be numbers or strings");
  return Attribute(SparseElementsAttr::get(type, indexAttr, valueAttr));
}

//===----------------------------------------------------------------------===//
// Export
//===----------------------------------------------------------------------===//

/// Packs 4- or 2-bit values (low bits first) into bytes.
static std::string packSubByte(ArrayRef<uint64_t> values, unsigned bits) {
  unsigned perByte = 8 / bits;
  std::string out((values.size() + perByte - 1) / perByte, '\0');
  for (auto [i, v] : llvm::enumerate(values))
    out[i / perByte] |=
        char((v & ((1u << bits) - 1)) << ((i % perByte) * bits));
  return out;
}

LogicalResult mlir::onnx::exportTensor(ElementsAttr value,
                                       proto::TensorProto &tensor) {
  ShapedType type = value.getShapedType();
  Type element = type.getElementType();
  int32_t code = getDataTypeForElementType(element);
  const DataTypeInfo *info = getDataTypeInfo(code);
  if (!info || !type.hasStaticShape())
    return failure();
  tensor.set_data_type(code);
  for (int64_t d : type.getShape())
    tensor.add_dims(d);
  int64_t count = type.getNumElements();

  if (isa<StringType>(element)) {
    auto strings = dyn_cast<DenseStringElementsAttr>(value);
    if (!strings)
      return failure();
    for (StringRef s : strings.getValues<StringRef>())
      tensor.add_string_data(s.str());
    return success();
  }
  std::string *raw = tensor.mutable_raw_data();
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return failure();
    // The blob is named after the tensor (the importer's choice).
    if (!tensor.has_name())
      tensor.set_name(resource.getRawHandle().getKey().str());
    ArrayRef<char> data = blob->getData();
    raw->assign(data.begin(), data.end());
    return success();
  }
  auto dense = dyn_cast<DenseElementsAttr>(value);
  if (!dense)
    return failure();
  if (element.isInteger(1)) {
    raw->reserve(count);
    for (bool b : dense.getValues<bool>())
      raw->push_back(b ? 1 : 0);
    return success();
  }
  if (info->bits < 8) {
    SmallVector<uint64_t> bits;
    if (isa<FloatType>(element)) {
      for (const APFloat &f : dense.getValues<APFloat>())
        bits.push_back(f.bitcastToAPInt().getZExtValue());
    } else {
      for (const APInt &i : dense.getValues<APInt>())
        bits.push_back(i.getZExtValue());
    }
    *raw = packSubByte(bits, info->bits);
    return success();
  }
  ArrayRef<char> data = dense.getRawData();
  if (dense.isSplat()) {
    raw->reserve(data.size() * count);
    for (int64_t i = 0; i < count; ++i)
      raw->append(data.begin(), data.end());
  } else {
    raw->assign(data.begin(), data.end());
  }
  return success();
}

LogicalResult mlir::onnx::exportSparseTensor(Attribute value,
                                             proto::SparseTensorProto &sparse) {
  auto attr = dyn_cast<SparseElementsAttr>(value);
  if (!attr)
    return failure();
  for (int64_t d : attr.getType().getShape())
    sparse.add_dims(d);
  if (failed(exportTensor(attr.getValues(), *sparse.mutable_values())) ||
      failed(exportTensor(attr.getIndices(), *sparse.mutable_indices())))
    return failure();
  return success();
}

int mlir::onnx::getAttributeProtoType(AttrKind kind) {
  using AP = proto::AttributeProto;
  static const AP::AttributeType types[] = {
      AP::FLOAT,          AP::INT,           AP::STRING,     AP::TENSOR,
      AP::GRAPH,          AP::SPARSE_TENSOR, AP::TYPE_PROTO, AP::FLOATS,
      AP::INTS,           AP::STRINGS,       AP::TENSORS,    AP::GRAPHS,
      AP::SPARSE_TENSORS, AP::TYPE_PROTOS};
  return types[static_cast<int>(kind)];
}
