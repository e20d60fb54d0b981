//===- RuntimeValues.h - Values the runtime holds ---------------*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Sequences, optionals and strings are values the runtime library owns
// (lib/Runtime/Values.cpp, docs/runtime.md): the lowered code holds handles
// to them and calls the runtime to build and read them. This header is what
// the Sequence, Text and ML lowerings share for that: runtime function
// declarations and calls, global strings, and boxing/unboxing tensors.
// RuntimeValues.cpp defines it.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_LIB_CONVERSION_ONNXTOLINALG_RUNTIMEVALUES_H
#define ONNXDIALECT_LIB_CONVERSION_ONNXTOLINALG_RUNTIMEVALUES_H

#include "Utils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <string>

namespace mlir {
namespace onnx {

/// The type of a runtime handle (!llvm.ptr).
Type ptrType(MLIRContext *ctx);

/// The private declaration of runtime function `name` (created once).
func::FuncOp getRuntimeFunc(OpBuilder &b, Operation *from, StringRef name,
                            TypeRange args, TypeRange results);

/// A call of runtime function `name` (declared on first use); its result,
/// or null when `results` is empty.
Value callRuntime(OpBuilder &b, Location loc, Operation *from, StringRef name,
                  ValueRange args, TypeRange results);

/// A pointer to a NUL-terminated global string holding `text`.
Value globalString(OpBuilder &b, Location loc, Operation *from, StringRef text);

/// ONNX's TensorProto.DataType of an onnx-level element type (bool: 9).
int32_t dtypeCode(Type onnxElement);

/// The suffix of the runtime's box/unbox functions for a lowered element
/// type, or "" when the runtime cannot hold it.
std::string elementSuffix(Type element);

/// Copies `tensor` (lowered; `onnxType` its onnx-level type) into a new
/// runtime value and returns its handle.
FailureOr<Value> boxTensor(OpBuilder &b, Location loc, Operation *node,
                           Value tensor, Type onnxType);

/// An i64 arith.constant.
Value i64Const(OpBuilder &b, Location loc, int64_t v);

/// Copies the tensor runtime value `handle` into a new tensor of `type`
/// (lowered, ranked), checking at run time that there is a value and that
/// its rank, element type and static dims match.
FailureOr<Value> unboxTensor(OpBuilder &b, Location loc, Operation *node,
                             Value handle, Type resultType, Type onnxType);

/// Replaces `op` (one result) by the tensor runtime value `handle` unboxed
/// into `resultType`, the lowered type of that result; fails as unboxTensor.
LogicalResult replaceWithUnboxed(ConversionPatternRewriter &rewriter,
                                 Location loc, Operation *op, Value handle,
                                 Type resultType);

/// A scalar integer tensor (any int type) as i64.
Value readScalarI64(OpBuilder &b, Location loc, Value tensor);

/// `pos` (i64) made non-negative (+ length when negative) and checked to lie
/// in [0, length + extra).
Value normalizePosition(OpBuilder &b, Location loc, Operation *node, Value pos,
                        Value length, int64_t extra);

/// The null handle (an optional with no value).
Value nullHandle(OpBuilder &b, Location loc);

/// A rank-0 tensor holding `scalar`.
Value scalarTensor(OpBuilder &b, Location loc, Value scalar);

/// A constant string tensor of `shape`: pointers (as i64) to global
/// NUL-terminated copies of `values`.
Value stringConstant(OpBuilder &b, Location loc, Operation *node,
                     ArrayRef<StringRef> values, ArrayRef<int64_t> shape);

/// A boxed constant: the elements of `attr` (numbers or strings).
FailureOr<Value> boxConstant(OpBuilder &b, Location loc, Operation *node,
                             ElementsAttr attr);

} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_LIB_CONVERSION_ONNXTOLINALG_RUNTIMEVALUES_H
