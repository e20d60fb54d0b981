//===- ONNXSchema.h - The ONNX view of a generated op -----------*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Each generated operator op carries a static OpSchema: the operator's inputs,
// outputs, attributes and type variables as the ONNX specification states
// them. One printer, one parser and one verifier serve all 639 ops from it,
// and the importer finds the op for a node through lookupSchemaOp.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_IR_ONNXSCHEMA_H
#define ONNXDIALECT_IR_ONNXSCHEMA_H

#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <optional>

namespace mlir {
namespace onnx {

/// How many values an input or output takes: exactly one, zero or one
/// (ONNX's empty name), or any number (only the last one may be variadic).
enum class ArgKind : uint8_t { Single, Optional, Variadic };

/// The ONNX attribute types (AttributeProto.AttributeType).
enum class AttrKind : uint8_t {
  Float,
  Int,
  String,
  Tensor,
  Graph,
  SparseTensor,
  TypeProto,
  Floats,
  Ints,
  Strings,
  Tensors,
  Graphs,
  SparseTensors,
  TypeProtos
};

struct ArgSchema {
  const char *name;
  ArgKind kind;
  /// Index into OpSchema::typeVars, or -1 when the type is written inline.
  int8_t typeVar;
  /// For a variadic: the fewest values it takes.
  uint16_t minArity;
  /// For a variadic: whether its values may have different types.
  bool heterogeneous;
  /// The type as the specification writes it: "T" or "tensor(int64)".
  const char *typeStr;
};

struct AttrSchema {
  /// The ONNX attribute name.
  const char *name;
  /// The name of the op's attribute (or region, for graphs); it differs from
  /// the ONNX name only where that would clash with a generated accessor.
  const char *odsName;
  AttrKind kind;
  bool required;
  /// The default as the specification writes it, or null.
  const char *defaultValue;
};

struct TypeVarSchema {
  const char *name;
  /// The allowed types as the specification writes them.
  const char *allowed;
};

struct OpSchema {
  /// "" for ai.onnx.
  const char *domain;
  const char *name;
  int sinceVersion;
  bool deprecated;
  /// Whether this is the newest version of the operator (the unsuffixed op).
  bool newest;
  llvm::ArrayRef<ArgSchema> inputs;
  llvm::ArrayRef<ArgSchema> outputs;
  llvm::ArrayRef<AttrSchema> attributes;
  llvm::ArrayRef<TypeVarSchema> typeVars;

  bool isGraph(const AttrSchema &attr) const {
    return attr.kind == AttrKind::Graph || attr.kind == AttrKind::Graphs;
  }
};

/// The discardable attribute that holds an op's references to attribute
/// parameters of the enclosing function (ONNX's ref_attr_name).
inline llvm::StringRef getAttrRefsAttrName() { return "onnx.attr_refs"; }

/// Why a list of input (or output) slots does not fit a schema's groups.
struct SlotMismatch {
  enum Kind {
    /// `arg` is Single but its slot is missing or omitted.
    MissingRequired,
    /// A slot of the variadic `arg` is omitted.
    OmittedInVariadic,
    /// More slots than the groups take: `given` slots, `taken` fit.
    TooMany
  } kind;
  const ArgSchema *arg = nullptr;
  size_t given = 0, taken = 0;
};

/// Assigns ONNX input (or output) slots, `present[i]` false for an omitted
/// one, to the groups of `args`: the number of values each group takes.
/// On failure `why` says what does not fit.
FailureOr<SmallVector<int32_t>> assignSlotsToGroups(ArrayRef<bool> present,
                                                    ArrayRef<ArgSchema> args,
                                                    SlotMismatch &why);

/// The number of values in each input (or output) group of `op`.
llvm::SmallVector<int32_t> getGroupSizes(Operation *op, const OpSchema &schema,
                                         bool inputs);

LogicalResult verifySchemaOp(Operation *op);
ParseResult parseSchemaOp(OpAsmParser &parser, OperationState &result,
                          const OpSchema &schema);
void printSchemaOp(OpAsmPrinter &printer, Operation *op,
                   const OpSchema &schema);

/// Whether two ONNX value types are the same type when shapes are ignored:
/// what binding one type variable means (tensor(float) is any f32 tensor).
bool isSameTypeModuloShape(Type a, Type b);

/// The op that a node of (domain, opType) binds to at opset `opsetVersion` of
/// its domain: the schema version with the greatest since_version not above
/// it (Versioning.md). Empty if the operator has no such version.
std::optional<OperationName> lookupSchemaOp(MLIRContext *context,
                                            llvm::StringRef domain,
                                            llvm::StringRef opType,
                                            int64_t opsetVersion);

/// Whether `op` stands for a node of the version `selected`, which the
/// importer read as a newer version of the same operator: its
/// onnx.widened_from names `selected`'s since_version (a Constant-1 of int64,
/// which only Constant-9 allows and ONNX Runtime accepts).
bool isWidenedFrom(Operation *op, OperationName selected);

} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_IR_ONNXSCHEMA_H
