//===- TensorData.h - ONNX data types and TensorProto contents --*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The mapping between ONNX data type codes and MLIR element types, and the
// conversion of TensorProto / SparseTensorProto contents (raw_data, the typed
// fields, packed sub-byte types, strings, external data) to attributes.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_TARGET_ONNX_TENSORDATA_H
#define ONNXDIALECT_TARGET_ONNX_TENSORDATA_H

#include "OnnxDialect/Dialect/ONNX/IR/ONNXDataTypes.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXSchema.h"
#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace onnx_dialect {
namespace proto {
class TensorProto;
class SparseTensorProto;
} // namespace proto
} // namespace onnx_dialect

namespace mlir {
namespace onnx {

/// The AttributeProto.AttributeType value of an attribute of schema kind
/// `kind` (AttrKind follows the schema; the proto numbers differ).
int getAttributeProtoType(AttrKind kind);

/// Writes the contents of `value` into `tensor` (data_type, dims and
/// raw_data, or string_data for strings). Sets nothing else.
LogicalResult exportTensor(ElementsAttr value,
                           onnx_dialect::proto::TensorProto &tensor);
/// Writes a sparse elements attribute as a SparseTensorProto.
LogicalResult
exportSparseTensor(Attribute value,
                   onnx_dialect::proto::SparseTensorProto &sparse);

/// Lets the kernel drop the pages of [data, data + size) if they are
/// memory-mapped external tensor data (they are read back from the file when
/// touched again); does nothing for any other memory. Writers that stream
/// large models out call it after each chunk, so that the peak resident size
/// stays well under the data size.
void releaseExternalDataPages(const void *data, size_t size);

class TensorImporter {
public:
  /// Errors are reported at `loc` (the model file).
  TensorImporter(MLIRContext *context, Location loc, std::string modelDirectory,
                 int64_t inlineLimit, uint64_t maxTensorBytes)
      : context(context), loc(loc), modelDirectory(std::move(modelDirectory)),
        inlineLimit(inlineLimit), maxTensorBytes(maxTensorBytes) {}

  /// The value of `tensor` as a dense, dense_resource or string elements
  /// attribute. Large raw data is moved out of the proto, not copied;
  /// external data is memory-mapped. `what` names the tensor in errors.
  /// With `dense`, always a dense attribute (no resource blob).
  FailureOr<ElementsAttr> importTensor(onnx_dialect::proto::TensorProto &tensor,
                                       const std::string &what,
                                       bool dense = false);
  /// A sparse tensor as a builtin sparse elements attribute. Its dense
  /// shape must not be larger than the tensor size limit (lowerings
  /// materialize it).
  FailureOr<Attribute>
  importSparseTensor(onnx_dialect::proto::SparseTensorProto &tensor,
                     const std::string &what);

private:
  MLIRContext *context;
  Location loc;
  std::string modelDirectory;
  int64_t inlineLimit;
  uint64_t maxTensorBytes;
};

} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_TARGET_ONNX_TENSORDATA_H
