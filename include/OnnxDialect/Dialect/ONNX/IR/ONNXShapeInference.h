//===- ONNXShapeInference.h - Type/shape inference of onnx ops --*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One inference function per ONNX operator computes the types of an op's
// outputs from its inputs, attributes and constant inputs. The same function
// serves the op verifier (a declared result type that contradicts the
// inferred one is an error) and the onnx-infer-shapes pass (which refines
// result types with what it infers). Functions are registered per operator
// (domain, name) for all of its versions; a function that depends on the
// version asks InferenceContext::getVersion().
//
// Dimensions carry ONNX's symbolic names (dim_param) where inference knows
// them, so that a name given to a graph input flows to the outputs of the ops
// that preserve that dimension.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_IR_ONNXSHAPEINFERENCE_H
#define ONNXDIALECT_IR_ONNXSHAPEINFERENCE_H

#include "OnnxDialect/Dialect/ONNX/IR/ONNXOperator.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXSchema.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include <functional>
#include <optional>
#include <string>

namespace mlir {
class SymbolTableCollection;
namespace onnx {

/// One dimension as inference sees it: a static size, or unknown with an
/// optional symbolic name (ONNX dim_param).
struct Dim {
  int64_t size = ShapedType::kDynamic;
  StringAttr symbol;

  Dim() = default;
  /*implicit*/ Dim(int64_t size) : size(size) {}
  static Dim unknown() { return Dim(); }
  static Dim named(StringAttr symbol) {
    Dim d;
    d.symbol = symbol;
    return d;
  }
  bool isStatic() const { return !ShapedType::isDynamic(size); }
  bool operator==(const Dim &o) const {
    return size == o.size && symbol == o.symbol;
  }
  bool operator!=(const Dim &o) const { return !(*this == o); }
};

/// A shape: one Dim per axis. An unranked value has no Shape
/// (std::optional<Shape> is empty).
using Shape = SmallVector<Dim, 4>;

/// The symbolic dimension names of values, kept by the inference pass:
/// parallel to the dims of a ranked tensor value, null where none.
using DimSymbols = llvm::DenseMap<Value, SmallVector<StringAttr, 4>>;

/// The result of merging two facts about one dimension: the more precise one.
/// Fails when both are static and differ.
FailureOr<Dim> mergeDims(const Dim &a, const Dim &b);

/// The multidirectional (numpy) broadcast of shapes (Broadcasting.md); fails
/// when two static dims differ and neither is 1.
FailureOr<Shape> broadcastShapes(ArrayRef<Shape> shapes);

/// Merges what two types say about one value (declared and inferred):
/// the more precise type, or failure when they contradict each other (other
/// element type, other rank, other static size). A null type knows nothing.
FailureOr<Type> refineType(Type declared, Type inferred);

/// The ONNX slots of one side of `op`: per slot the operand (or result)
/// index, -1 for an omitted optional one, and the schema argument it belongs
/// to. Trailing omitted slots are included; a deprecated schema has none.
void getSlots(Operation *op, const OpSchema &schema, bool inputs,
              SmallVectorImpl<int> &slots,
              SmallVectorImpl<const ArgSchema *> &slotArgs);

/// What an inference function sees of an op, and where it puts the result.
///
/// Inputs and outputs are addressed by ONNX slot, as in the NodeProto: slot i
/// of an op whose schema has inputs (A, B?, C...) is A for 0, B for 1 (absent
/// if omitted), C's values from 2 on.
class InferenceContext {
public:
  /// `symbols` (optional) gives the symbolic dims of values and
  /// `symbolTables` (optional) lets constant inputs loaded from module-level
  /// initializers be read.
  InferenceContext(Operation *op, const DimSymbols *symbols = nullptr,
                   SymbolTableCollection *symbolTables = nullptr);

  Operation *getOp() const { return op; }
  const OpSchema &getSchema() const { return *schema; }
  /// The since_version of the op's schema.
  int getVersion() const;
  MLIRContext *getContext() const;

  //===--- Inputs ---------------------------------------------------------===//

  /// The number of input slots (omitted optional inputs included, trailing
  /// omitted ones not).
  unsigned getNumInputs() const { return inputs.size(); }
  /// The value in slot `i`; null if omitted or beyond the last.
  Value getInput(unsigned i) const;
  bool hasInput(unsigned i) const { return static_cast<bool>(getInput(i)); }
  /// The slot of the schema input named `name`; -1 if the schema has none.
  int getInputSlot(StringRef name) const;
  /// The value of the schema input named `name`; null if absent.
  Value getInput(StringRef name) const;

  Type getInputType(unsigned i) const;
  /// The element type of a tensor input (also of a sparse tensor); null if
  /// absent or not a tensor.
  Type getInputElementType(unsigned i) const;
  /// The shape of a ranked tensor input, with its symbolic dims; empty if the
  /// input is absent, unranked or not a tensor.
  std::optional<Shape> getInputShape(unsigned i) const;
  /// The rank of a ranked tensor input; empty otherwise.
  std::optional<int64_t> getInputRank(unsigned i) const;

  /// The value of an input that is a constant (onnx.Constant, an initializer
  /// loaded with ml_program.global_load_const when the context has symbol
  /// tables, or any op with the ConstantLike trait); null otherwise.
  ElementsAttr getConstantInput(unsigned i) const;
  /// The elements of a constant integer input, as int64.
  std::optional<SmallVector<int64_t>> getConstantInts(unsigned i) const;
  /// The elements of a constant floating point input, as double.
  std::optional<SmallVector<double>> getConstantFloats(unsigned i) const;

  //===--- Attributes ----------------------------------------------------===//

  /// The attribute named `name` (the ONNX name), or null. Defaults are not
  /// applied here.
  Attribute getAttr(StringRef name) const;
  /// Whether an ONNX attribute of that name is set on the op (or refers to a
  /// function attribute, whose value is unknown here).
  bool hasAttr(StringRef name) const {
    return static_cast<bool>(getAttr(name));
  }
  /// Whether the attribute is a reference to a function attribute parameter.
  bool isAttrRef(StringRef name) const;
  std::optional<int64_t> getIntAttr(StringRef name) const;
  std::optional<double> getFloatAttr(StringRef name) const;
  std::optional<SmallVector<int64_t>> getIntsAttr(StringRef name) const;
  std::optional<SmallVector<double>> getFloatsAttr(StringRef name) const;
  std::optional<StringRef> getStringAttr(StringRef name) const;
  /// The default of attribute `name`: the one the op's schema version states,
  /// else (a version that does not have the attribute, or has it without a
  /// default) the one the operator's newest version states. ONNX adds an
  /// attribute with the default that keeps the older versions' behaviour.
  /// Empty if neither states one.
  std::optional<StringRef> getSchemaDefault(StringRef name) const;
  /// The value of attribute `name`, else its schema default
  /// (getSchemaDefault); empty when there is neither.
  std::optional<int64_t> lookupIntAttrOrDefault(StringRef name) const;
  std::optional<double> lookupFloatAttrOrDefault(StringRef name) const;
  std::optional<StringRef> lookupStringAttrOrDefault(StringRef name) const;
  /// As lookupIntAttrOrDefault, for an attribute that has a default: an
  /// attribute with neither a value nor a default gives 0 and is recorded
  /// (getMissingAttr), and inferTypes then fails with an error naming it.
  int64_t getIntAttrOrDefault(StringRef name) const;
  /// As getIntAttrOrDefault; "" when recorded missing.
  StringRef getStringAttrOrDefault(StringRef name) const;
  /// The first attribute that getIntAttrOrDefault or getStringAttrOrDefault
  /// found with neither a value nor a default.
  std::optional<StringRef> getMissingAttr() const {
    if (missingAttr.empty())
      return std::nullopt;
    return StringRef(missingAttr);
  }
  /// The element type that an attribute holding a TensorProto.DataType code
  /// names ("to", "dtype", ...); null if unset or not a known code.
  Type getDataTypeAttr(StringRef name) const;

  /// An integer list that is an input in newer versions and an attribute in
  /// older ones (Squeeze's axes, Pad's pads, ...): the constant input named
  /// `name` if the schema has such an input, else the attribute `name`.
  /// Empty when neither is known (absent, or an input that is not constant);
  /// `present` (optional) says whether an input or attribute is given at all.
  std::optional<SmallVector<int64_t>>
  getIntsInputOrAttr(StringRef name, bool *present = nullptr) const;

  //===--- Outputs --------------------------------------------------------===//

  /// The number of output slots.
  unsigned getNumOutputs() const { return outputs.size(); }
  /// Whether output slot `i` is produced (not omitted).
  bool hasOutput(unsigned i) const;
  /// The MLIR result of slot `i`; null if omitted.
  Value getOutput(unsigned i) const;

  /// The element type the schema gives output `i` from its inputs: the type
  /// bound to its type variable by an input, or a type the schema fixes
  /// (tensor(int64)). Null if the schema does not decide it.
  Type getSchemaElementType(unsigned i) const;

  /// Sets what is known of output `i`: a tensor of `elementType` (null: the
  /// type the schema gives it, see getSchemaElementType) with `shape`
  /// (empty: unranked).
  void setOutput(unsigned i, Type elementType, std::optional<Shape> shape);
  /// Sets the full type of output `i` (sequences, maps, optionals).
  void setOutputType(unsigned i, Type type);
  /// What was set for output `i`, or null.
  Type getInferredType(unsigned i) const;
  /// The symbolic dims set for output `i` (parallel to its shape).
  ArrayRef<StringAttr> getInferredSymbols(unsigned i) const;

  //===--- Errors ---------------------------------------------------------===//

  /// Reports that the op breaks a rule of its operator; an inference function
  /// returns the result (failure). Messages name the input or attribute.
  InFlightDiagnostic emitError() const;
  /// Shorthand: `return ctx.fail() << "...";`
  InFlightDiagnostic fail() const { return emitError(); }

private:
  Operation *op;
  const OpSchema *schema;
  const DimSymbols *symbols;
  SymbolTableCollection *symbolTables;
  /// Per slot: the operand index, or -1 when omitted.
  SmallVector<int, 8> inputs, outputs;
  /// Per slot: the schema argument it belongs to.
  SmallVector<const ArgSchema *, 8> inputArgs, outputArgs;
  SmallVector<Type, 4> inferred;
  SmallVector<SmallVector<StringAttr, 4>, 4> inferredSymbols;
  /// See getMissingAttr.
  mutable std::string missingAttr;
};

/// The discardable attribute of an If whose branches yield different ranks
/// and whose following nodes (copied into both branches by onnx-infer-shapes)
/// hold for one branch only: {else_branch|then_branch = "why"}. That branch
/// yields placeholders, and the lowering makes taking it a failure at run
/// time, as ONNX Runtime fails such a model only when the branch runs.
inline StringRef getBranchErrorsAttrName() { return "onnx.branch_errors"; }

/// An inference function: sets the types of the op's outputs that it can
/// tell (outputs it leaves unset keep their types), or fails with an error
/// when the op breaks a rule of its operator (ranks, attribute values, ...).
using InferFn = std::function<LogicalResult(InferenceContext &)>;

/// The inference functions, by operator.
class InferenceRegistry {
public:
  /// Registers `fn` for every version of each operator of `Ops`, op classes
  /// of any of their versions: `r.add<MatMulOp, MatMulIntegerOp>(fn)`.
  template <typename... Ops> void add(const InferFn &fn) {
    (add(Operator::of<Ops>(), fn), ...);
  }
  void add(Operator op, InferFn fn);
  /// The function of `op`, or null.
  const InferFn *lookup(Operator op) const;
  size_t size() const { return fns.size(); }

  /// The registry with every function of the project.
  static const InferenceRegistry &get();

private:
  llvm::StringMap<InferFn> fns;
};

/// Runs the inference function of `op` (if it has one). On success `ctx`
/// holds the inferred types; ops without a function infer nothing.
LogicalResult inferTypes(InferenceContext &ctx);

/// The verifier's part: infers the types of `op`'s results and fails with an
/// error if a result's type contradicts them.
LogicalResult verifyInferredTypes(Operation *op);

/// Shape helpers for inference functions.
/// Normalizes a possibly negative axis for `rank`; fails (returns empty) when
/// it is out of [-rank, rank).
std::optional<int64_t> normalizeAxis(int64_t axis, int64_t rank);
/// A tensor type of `shape` (symbols dropped) and `elementType`.
RankedTensorType getTensorType(const Shape &shape, Type elementType);
/// A Shape of all-unknown dims of `rank`.
Shape unknownShape(int64_t rank);
/// The largest rank inference gives an output whose rank it reads from a
/// dim (the length of a shape input): far above any model's, and small
/// enough that a declared dim of 10^9 cannot make it allocate a shape of
/// that rank.
constexpr int64_t kMaxRank = 1024;
/// A Shape from static sizes.
Shape staticShape(ArrayRef<int64_t> sizes);
/// "[2, N, ?]": a shape for error messages.
std::string formatShape(const Shape &shape);
/// The product of the dims if all are static.
std::optional<int64_t> getNumElements(const Shape &shape);

// Registration of the families of inference functions
// (lib/Dialect/ONNX/IR/Inference/*.cpp).
void registerElementwiseInference(InferenceRegistry &registry);
void registerMathInference(InferenceRegistry &registry);
void registerNNInference(InferenceRegistry &registry);
void registerTensorInference(InferenceRegistry &registry);
void registerReductionInference(InferenceRegistry &registry);
void registerSequenceInference(InferenceRegistry &registry);
void registerControlFlowInference(InferenceRegistry &registry);
void registerMLInference(InferenceRegistry &registry);
void registerQuantizationInference(InferenceRegistry &registry);
void registerTrainingInference(InferenceRegistry &registry);
void registerTextInference(InferenceRegistry &registry);

} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_IR_ONNXSHAPEINFERENCE_H
