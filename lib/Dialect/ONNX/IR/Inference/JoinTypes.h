//===- JoinTypes.h - The common type of values of two types -----*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Sequences and control flow merge the types of values that may flow into one
// place (the elements of a sequence, the two branches of an If, the initial
// and the updated value of a loop-carried variable): the result keeps what
// both types say.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_LIB_DIALECT_ONNX_INFERENCE_JOINTYPES_H
#define ONNXDIALECT_LIB_DIALECT_ONNX_INFERENCE_JOINTYPES_H

#include "OnnxDialect/Dialect/ONNX/IR/ONNXDialect.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXOperator.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXSchema.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"

namespace mlir {
namespace onnx {

/// The most precise type that describes every value of type `a` and every
/// value of type `b`: tensors of one element type keep the dims on which they
/// agree (unknown elsewhere; unranked when the ranks differ); sequences and
/// optionals join their element types. Null when the two are not values of
/// one ONNX type (other element types, a tensor and a sequence) or either is
/// null.
inline Type joinTypes(Type a, Type b) {
  if (!a || !b)
    return nullptr;
  if (a == b)
    return a;
  if (auto ta = dyn_cast<TensorType>(a)) {
    auto tb = dyn_cast<TensorType>(b);
    if (!tb || ta.getElementType() != tb.getElementType())
      return nullptr;
    if (!ta.hasRank() || !tb.hasRank() || ta.getRank() != tb.getRank())
      return UnrankedTensorType::get(ta.getElementType());
    SmallVector<int64_t> dims;
    for (auto [x, y] : llvm::zip(ta.getShape(), tb.getShape()))
      dims.push_back(x == y ? x : ShapedType::kDynamic);
    return RankedTensorType::get(dims, ta.getElementType());
  }
  if (auto sa = dyn_cast<SeqType>(a)) {
    auto sb = dyn_cast<SeqType>(b);
    if (!sb)
      return nullptr;
    Type element = joinTypes(sa.getElementType(), sb.getElementType());
    return element ? SeqType::get(a.getContext(), element) : Type();
  }
  if (auto oa = dyn_cast<OptType>(a)) {
    auto ob = dyn_cast<OptType>(b);
    if (!ob)
      return nullptr;
    Type element = joinTypes(oa.getElementType(), ob.getElementType());
    return element ? OptType::get(a.getContext(), element) : Type();
  }
  return nullptr;
}

/// Whether `value` is a sequence known to be empty (made by SequenceEmpty):
/// what its type says of its elements holds vacuously.
inline bool isEmptySequence(Value value) {
  Operation *def = value ? value.getDefiningOp() : nullptr;
  auto iface = dyn_cast_or_null<ONNXSchemaOpInterface>(def);
  if (!iface)
    return false;
  const OpSchema &schema = iface.getSchema();
  return isOperator<SequenceEmptyOp>(schema);
}

/// The type of a value that is `initial` before a loop (or scan) runs and
/// `updated` after each iteration.
inline Type joinLoopCarried(Value initial, Type updated) {
  Type type = initial ? initial.getType() : Type();
  // An empty sequence holds no element that the updated type must describe.
  if (isEmptySequence(initial) && isa_and_nonnull<SeqType>(updated))
    return updated;
  // Loop accepts an optional initial value for a non-optional variable.
  if (auto opt = dyn_cast_or_null<OptType>(type))
    if (updated && !isa<OptType>(updated))
      type = opt.getElementType();
  return joinTypes(type, updated);
}

/// The region of the graph attribute `name` (ONNX's name) of a generated op;
/// null if the op has none.
inline Region *getGraphRegion(Operation *op, const OpSchema &schema,
                              StringRef name) {
  unsigned index = 0;
  for (const AttrSchema &attr : schema.attributes) {
    if (!schema.isGraph(attr))
      continue;
    if (name == attr.name)
      return index < op->getNumRegions() ? &op->getRegion(index) : nullptr;
    ++index;
  }
  return nullptr;
}

/// The types of the values a graph region yields; empty if the region has no
/// terminated block.
inline std::optional<SmallVector<Type>> getYieldTypes(Region *region) {
  if (!region || region->empty())
    return std::nullopt;
  Block &block = region->front();
  if (block.empty() || !block.mightHaveTerminator())
    return std::nullopt;
  return SmallVector<Type>(block.getTerminator()->getOperandTypes());
}

} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_LIB_DIALECT_ONNX_INFERENCE_JOINTYPES_H
