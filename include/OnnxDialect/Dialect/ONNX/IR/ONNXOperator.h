//===- ONNXOperator.h - ONNX operators named by op classes ------*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The passes that work on every schema version of an operator (inference,
// folding, decomposition, opset conversion) dispatch on the operator: the
// (domain, name) pair that all its versions share. C++ code names an operator
// by the generated op class of one of its versions, `Operator::of<AddOp>()`,
// never by a string, so that a misspelled or renamed operator is a compile
// error. The schema is read through the class's static getSchema().
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_IR_ONNXOPERATOR_H
#define ONNXDIALECT_IR_ONNXOPERATOR_H

#include "OnnxDialect/Dialect/ONNX/IR/ONNXSchema.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <utility>

namespace mlir {
namespace onnx {

/// One ONNX operator: every schema version of (domain, name).
class Operator {
public:
  /// The operator that `schema` is a version of.
  explicit Operator(const OpSchema &schema)
      : domain(schema.domain), name(schema.name) {}

  /// The operator of the op class `OpT` (any of its versions' classes).
  template <typename OpT> static Operator of() {
    return Operator(OpT::getSchema());
  }

  /// "" for ai.onnx.
  llvm::StringRef getDomain() const { return domain; }
  llvm::StringRef getName() const { return name; }

  bool operator==(const Operator &other) const {
    return name == other.name && domain == other.domain;
  }
  bool operator!=(const Operator &other) const { return !(*this == other); }

private:
  llvm::StringRef domain;
  llvm::StringRef name;
};

/// Whether `schema` is a version of one of the operators of `Ops`.
template <typename... Ops> bool isOperator(const OpSchema &schema) {
  Operator op(schema);
  return ((op == Operator::of<Ops>()) || ...);
}

/// Whether `schema` is the schema of one of the op classes `Ops`: that
/// version exactly (`isSchemaOf<GemmV7Op>(schema)`).
template <typename... Ops> bool isSchemaOf(const OpSchema &schema) {
  return ((&schema == &Ops::getSchema()) || ...);
}

/// The version of `op` that opset `opsetVersion` of its domain selects.
inline std::optional<OperationName>
lookupSchemaOp(MLIRContext *context, Operator op, int64_t opsetVersion) {
  return lookupSchemaOp(context, op.getDomain(), op.getName(), opsetVersion);
}

/// llvm::StringSwitch over operators: the value of the first case whose op
/// classes name the operator of `schema`.
///
///   BinaryKind k = OperatorSwitch<BinaryKind>(schema)
///                      .Case<AddOp>(BinaryKind::Add)
///                      .Case<SubOp>(BinaryKind::Sub)
///                      .Default(BinaryKind::None);
template <typename T> class OperatorSwitch {
public:
  explicit OperatorSwitch(const OpSchema &schema) : op(schema) {}

  template <typename... Ops> OperatorSwitch &Case(T value) {
    if (!result && ((op == Operator::of<Ops>()) || ...))
      result.emplace(std::move(value));
    return *this;
  }

  T Default(T value) { return result ? std::move(*result) : std::move(value); }
  operator std::optional<T>() { return std::move(result); }

private:
  Operator op;
  std::optional<T> result;
};

} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_IR_ONNXOPERATOR_H
