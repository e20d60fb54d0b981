//===- ONNXBuilder.h - Creating onnx ops as ONNX nodes read -----*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Passes that rewrite ONNX graphs (opset conversion, decomposition, folding)
// create ops as an ONNX node is written: the operator, the opset that selects
// its version, input slots (null for an omitted optional input), output slot
// types and attributes by their ONNX names.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_IR_ONNXBUILDER_H
#define ONNXDIALECT_IR_ONNXBUILDER_H

#include "OnnxDialect/Dialect/ONNX/IR/ONNXOperator.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXSchema.h"
#include "mlir/IR/Builders.h"

#include <string>

namespace mlir {
namespace onnx {

/// Creates an op of the schema version `name` from ONNX slots: `inputs` and
/// `outputTypes` hold one entry per slot, null for an omitted optional one.
/// `attrs` are named by ONNX attribute name (mapped to the op's attribute
/// names here); discardable `onnx.*` attributes pass through. Adds one empty
/// region per graph attribute. Fails, with the reason in `why`, when the
/// slots do not fit the schema.
FailureOr<Operation *>
createSchemaOp(OpBuilder &builder, Location loc, OperationName name,
               ArrayRef<Value> inputs, ArrayRef<Type> outputTypes,
               ArrayRef<NamedAttribute> attrs, std::string *why = nullptr);

/// The same for the version of operator (domain, opType) that opset
/// `opsetVersion` of its domain selects.
FailureOr<Operation *>
createSchemaOp(OpBuilder &builder, Location loc, StringRef domain,
               StringRef opType, int64_t opsetVersion, ArrayRef<Value> inputs,
               ArrayRef<Type> outputTypes, ArrayRef<NamedAttribute> attrs,
               std::string *why = nullptr);

/// The same for the version of `op` that opset `opsetVersion` of its domain
/// selects: `createSchemaOp(b, loc, Operator::of<CastOp>(), opset, ...)`.
inline FailureOr<Operation *> createSchemaOp(OpBuilder &builder, Location loc,
                                             Operator op, int64_t opsetVersion,
                                             ArrayRef<Value> inputs,
                                             ArrayRef<Type> outputTypes,
                                             ArrayRef<NamedAttribute> attrs,
                                             std::string *why = nullptr) {
  return createSchemaOp(builder, loc, op.getDomain(), op.getName(),
                        opsetVersion, inputs, outputTypes, attrs, why);
}

/// An ai.onnx Constant (of the version opset `opsetVersion` selects) that
/// holds `value`.
Value createConstant(OpBuilder &builder, Location loc, ElementsAttr value,
                     int64_t opsetVersion);
/// A 1-D int64 constant.
Value createI64Constant(OpBuilder &builder, Location loc,
                        ArrayRef<int64_t> values, int64_t opsetVersion);

/// The newest ai.onnx opset the dialect knows: the greatest since_version
/// of its schemas.
int64_t getNewestOpset(MLIRContext *context);
/// The ai.onnx opset that `op` is bound to: that of the innermost enclosing
/// op with an `onnx.opset_import` (the module), else the newest.
int64_t getOpsetOf(Operation *op);

/// The attribute schema of `schema` named `name` (ONNX name), or null.
const AttrSchema *findAttrSchema(const OpSchema &schema, StringRef name);

} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_IR_ONNXBUILDER_H
