//===- ShapeInference.cpp - Type and shape inference of onnx ops ----------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The InferenceContext that inference functions see, the registry of those
// functions, the merge of declared and inferred types, and the verifier hook.
// The functions themselves live in Inference/, one file per op family.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXDataTypes.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXShapeInference.h"

#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::onnx;

//===----------------------------------------------------------------------===//
// Dims, shapes and types
//===----------------------------------------------------------------------===//

FailureOr<Dim> mlir::onnx::mergeDims(const Dim &a, const Dim &b) {
  if (a.isStatic() && b.isStatic()) {
    if (a.size != b.size)
      return failure();
    return a;
  }
  if (a.isStatic())
    return a;
  if (b.isStatic())
    return b;
  return a.symbol ? a : b;
}

FailureOr<Shape> mlir::onnx::broadcastShapes(ArrayRef<Shape> shapes) {
  size_t rank = 0;
  for (const Shape &s : shapes)
    rank = std::max(rank, s.size());
  Shape result(rank, Dim(1));
  for (const Shape &s : shapes) {
    size_t offset = rank - s.size();
    for (auto [i, d] : llvm::enumerate(s)) {
      Dim &r = result[offset + i];
      if (d.isStatic() && d.size == 1)
        continue;
      if (r.isStatic() && r.size == 1) {
        r = d;
        continue;
      }
      if (r.isStatic() && d.isStatic()) {
        if (r.size != d.size)
          return failure();
        continue;
      }
      if (d.isStatic()) {
        // An unknown dim broadcast against a static one other than 1 is
        // either 1 or equal to it: the result is the static size.
        r = d;
        continue;
      }
      if (r.isStatic())
        continue;
      // Two unknown dims: the same name is the same size; otherwise one of
      // them may be 1, so nothing is known.
      if (r.symbol != d.symbol || !r.symbol)
        r = Dim::unknown();
    }
  }
  return result;
}

FailureOr<Type> mlir::onnx::refineType(Type declared, Type inferred) {
  if (!inferred)
    return declared;
  if (!declared || isa<AnyType, NoneType>(declared))
    return inferred;
  if (isa<AnyType>(inferred) || declared == inferred)
    return declared;
  if (auto dt = dyn_cast<TensorType>(declared)) {
    auto it = dyn_cast<TensorType>(inferred);
    if (!it || dt.getElementType() != it.getElementType())
      return failure();
    if (!it.hasRank())
      return declared;
    if (!dt.hasRank())
      return inferred;
    if (dt.getRank() != it.getRank())
      return failure();
    SmallVector<int64_t> dims;
    for (auto [a, b] : llvm::zip(dt.getShape(), it.getShape())) {
      FailureOr<Dim> d = mergeDims(Dim(a), Dim(b));
      if (failed(d))
        return failure();
      dims.push_back(d->size);
    }
    return Type(RankedTensorType::get(
        dims, dt.getElementType(), cast<RankedTensorType>(dt).getEncoding()));
  }
  if (auto ds = dyn_cast<SeqType>(declared)) {
    auto is = dyn_cast<SeqType>(inferred);
    if (!is)
      return failure();
    FailureOr<Type> e = refineType(ds.getElementType(), is.getElementType());
    if (failed(e))
      return failure();
    return Type(SeqType::get(declared.getContext(), *e));
  }
  if (auto dopt = dyn_cast<OptType>(declared)) {
    auto iopt = dyn_cast<OptType>(inferred);
    if (!iopt)
      return failure();
    FailureOr<Type> e =
        refineType(dopt.getElementType(), iopt.getElementType());
    if (failed(e))
      return failure();
    return Type(OptType::get(declared.getContext(), *e));
  }
  if (auto dm = dyn_cast<MapType>(declared)) {
    auto im = dyn_cast<MapType>(inferred);
    if (!im || dm.getKeyType() != im.getKeyType())
      return failure();
    FailureOr<Type> v = refineType(dm.getValueType(), im.getValueType());
    if (failed(v))
      return failure();
    return Type(MapType::get(declared.getContext(), dm.getKeyType(), *v));
  }
  if (isSameTypeModuloShape(declared, inferred))
    return declared;
  return failure();
}

std::optional<int64_t> mlir::onnx::normalizeAxis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    return std::nullopt;
  return axis < 0 ? axis + rank : axis;
}

RankedTensorType mlir::onnx::getTensorType(const Shape &shape,
                                           Type elementType) {
  SmallVector<int64_t> dims;
  for (const Dim &d : shape)
    dims.push_back(d.size);
  return RankedTensorType::get(dims, elementType);
}

Shape mlir::onnx::unknownShape(int64_t rank) {
  return Shape(rank, Dim::unknown());
}

Shape mlir::onnx::staticShape(ArrayRef<int64_t> sizes) {
  Shape s;
  for (int64_t size : sizes)
    s.push_back(Dim(size < 0 ? ShapedType::kDynamic : size));
  return s;
}

/// "[2, N, ?]": a shape for error messages.
std::string mlir::onnx::formatShape(const Shape &shape) {
  std::string s = "[";
  for (auto [i, dim] : llvm::enumerate(shape)) {
    if (i)
      s += ", ";
    if (dim.isStatic())
      s += std::to_string(dim.size);
    else if (dim.symbol)
      s += dim.symbol.getValue().str();
    else
      s += "?";
  }
  return s + "]";
}

std::optional<int64_t> mlir::onnx::getNumElements(const Shape &shape) {
  int64_t n = 1;
  for (const Dim &d : shape) {
    if (!d.isStatic())
      return std::nullopt;
    if (llvm::MulOverflow(n, d.size, n))
      return std::nullopt;
  }
  return n;
}

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

/// The raw little-endian bytes of a resource-backed elements attribute.
static std::optional<ArrayRef<char>> getResourceBytes(ElementsAttr attr) {
  auto resource = dyn_cast<DenseResourceElementsAttr>(attr);
  if (!resource)
    return std::nullopt;
  AsmResourceBlob *blob = resource.getRawHandle().getBlob();
  if (!blob)
    return std::nullopt;
  return blob->getData();
}

static std::optional<SmallVector<int64_t>> readInts(ElementsAttr attr) {
  auto intType = dyn_cast<IntegerType>(attr.getElementType());
  if (!intType || intType.getWidth() > 64)
    return std::nullopt;
  bool isUnsigned = intType.isUnsigned() || intType.getWidth() == 1;
  SmallVector<int64_t> values;
  if (auto dense = dyn_cast<DenseIntElementsAttr>(attr)) {
    for (const APInt &v : dense.getValues<APInt>())
      values.push_back(isUnsigned ? static_cast<int64_t>(v.getZExtValue())
                                  : v.getSExtValue());
    return values;
  }
  std::optional<ArrayRef<char>> bytes = getResourceBytes(attr);
  unsigned width = intType.getWidth();
  if (!bytes || width % 8 != 0)
    return std::nullopt;
  size_t size = width / 8, n = attr.getNumElements();
  if (bytes->size() != n * size)
    return std::nullopt;
  for (size_t i = 0; i < n; ++i) {
    uint64_t raw = 0;
    std::memcpy(&raw, bytes->data() + i * size, size);
    APInt v(width, raw);
    values.push_back(isUnsigned ? static_cast<int64_t>(v.getZExtValue())
                                : v.getSExtValue());
  }
  return values;
}

static std::optional<SmallVector<double>> readFloats(ElementsAttr attr) {
  auto floatType = dyn_cast<FloatType>(attr.getElementType());
  if (!floatType) {
    // Integers read as floats (a Resize scale given as int is malformed,
    // but a Range of ints is read through this too).
    std::optional<SmallVector<int64_t>> ints = readInts(attr);
    if (!ints)
      return std::nullopt;
    return SmallVector<double>(ints->begin(), ints->end());
  }
  SmallVector<double> values;
  if (auto dense = dyn_cast<DenseFPElementsAttr>(attr)) {
    for (const APFloat &v : dense.getValues<APFloat>())
      values.push_back(v.convertToDouble());
    return values;
  }
  std::optional<ArrayRef<char>> bytes = getResourceBytes(attr);
  if (!bytes)
    return std::nullopt;
  size_t n = attr.getNumElements();
  if (floatType.isF32() && bytes->size() == n * 4) {
    for (size_t i = 0; i < n; ++i) {
      float f;
      std::memcpy(&f, bytes->data() + i * 4, 4);
      values.push_back(f);
    }
    return values;
  }
  if (floatType.isF64() && bytes->size() == n * 8) {
    for (size_t i = 0; i < n; ++i) {
      double d;
      std::memcpy(&d, bytes->data() + i * 8, 8);
      values.push_back(d);
    }
    return values;
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// InferenceContext
//===----------------------------------------------------------------------===//

static const OpSchema *getSchemaOf(Operation *op) {
  auto iface = dyn_cast<ONNXSchemaOpInterface>(op);
  return iface ? &iface.getSchema() : nullptr;
}

void mlir::onnx::getSlots(Operation *op, const OpSchema &schema, bool inputs,
                          SmallVectorImpl<int> &slots,
                          SmallVectorImpl<const ArgSchema *> &slotArgs) {
  if (schema.deprecated)
    return;
  ArrayRef<ArgSchema> args = inputs ? schema.inputs : schema.outputs;
  SmallVector<int32_t> sizes = getGroupSizes(op, schema, inputs);
  int total = inputs ? op->getNumOperands() : op->getNumResults();
  int next = 0;
  for (auto [arg, size] : llvm::zip(args, sizes)) {
    if (arg.kind == ArgKind::Optional && size == 0) {
      slots.push_back(-1);
      slotArgs.push_back(&arg);
      continue;
    }
    for (int32_t i = 0; i < size && next < total; ++i) {
      slots.push_back(next++);
      slotArgs.push_back(&arg);
    }
  }
}

InferenceContext::InferenceContext(Operation *op, const DimSymbols *symbols,
                                   SymbolTableCollection *symbolTables)
    : op(op), schema(getSchemaOf(op)), symbols(symbols),
      symbolTables(symbolTables) {
  assert(schema && "inference needs an op with an ONNX schema");
  getSlots(op, *schema, /*inputs=*/true, inputs, inputArgs);
  getSlots(op, *schema, /*inputs=*/false, outputs, outputArgs);
  while (!inputs.empty() && inputs.back() < 0) {
    inputs.pop_back();
    inputArgs.pop_back();
  }
  inferred.resize(outputs.size());
  inferredSymbols.resize(outputs.size());
}

int InferenceContext::getVersion() const { return schema->sinceVersion; }

MLIRContext *InferenceContext::getContext() const { return op->getContext(); }

Value InferenceContext::getInput(unsigned i) const {
  if (i >= inputs.size() || inputs[i] < 0)
    return {};
  return op->getOperand(inputs[i]);
}

int InferenceContext::getInputSlot(StringRef name) const {
  if (schema->deprecated)
    return -1;
  // Count slots over the schema's groups, trailing omitted ones included.
  SmallVector<int32_t> sizes = getGroupSizes(op, *schema, /*inputs=*/true);
  int slot = 0;
  for (auto [arg, size] : llvm::zip(schema->inputs, sizes)) {
    if (name == arg.name)
      return slot;
    slot += (arg.kind == ArgKind::Optional && size == 0) ? 1 : size;
  }
  return -1;
}

Value InferenceContext::getInput(StringRef name) const {
  int slot = getInputSlot(name);
  return slot < 0 ? Value() : getInput(slot);
}

Type InferenceContext::getInputType(unsigned i) const {
  Value v = getInput(i);
  return v ? v.getType() : Type();
}

Type InferenceContext::getInputElementType(unsigned i) const {
  Type t = getInputType(i);
  if (auto tensor = dyn_cast_or_null<TensorType>(t))
    return tensor.getElementType();
  if (auto sparse = dyn_cast_or_null<SparseTensorType>(t))
    return sparse.getTensorType().getElementType();
  return {};
}

std::optional<Shape> InferenceContext::getInputShape(unsigned i) const {
  Value v = getInput(i);
  if (!v)
    return std::nullopt;
  Type t = v.getType();
  if (auto sparse = dyn_cast<SparseTensorType>(t))
    t = sparse.getTensorType();
  auto ranked = dyn_cast<RankedTensorType>(t);
  if (!ranked)
    return std::nullopt;
  Shape shape = staticShape(ranked.getShape());
  if (symbols) {
    auto it = symbols->find(v);
    if (it != symbols->end() && it->second.size() == shape.size())
      for (auto [d, s] : llvm::zip(shape, it->second))
        if (!d.isStatic())
          d.symbol = s;
  }
  return shape;
}

std::optional<int64_t> InferenceContext::getInputRank(unsigned i) const {
  std::optional<Shape> shape = getInputShape(i);
  if (!shape)
    return std::nullopt;
  return static_cast<int64_t>(shape->size());
}

/// The value of a scalar or list attribute of an ONNX Constant op, as an
/// elements attribute.
static ElementsAttr getConstantOpValue(Operation *def) {
  if (auto value = dyn_cast_or_null<ElementsAttr>(def->getAttr("value")))
    return value;
  Builder b(def->getContext());
  if (auto i = dyn_cast_or_null<IntegerAttr>(def->getAttr("value_int")))
    return DenseElementsAttr::get(RankedTensorType::get({}, b.getI64Type()),
                                  i.getValue());
  if (auto f = dyn_cast_or_null<FloatAttr>(def->getAttr("value_float")))
    return DenseElementsAttr::get(RankedTensorType::get({}, b.getF32Type()),
                                  f.getValue());
  if (auto is = dyn_cast_or_null<DenseI64ArrayAttr>(def->getAttr("value_ints")))
    return DenseElementsAttr::get(
        RankedTensorType::get({static_cast<int64_t>(is.size())},
                              b.getI64Type()),
        is.asArrayRef());
  if (auto fs =
          dyn_cast_or_null<DenseF32ArrayAttr>(def->getAttr("value_floats")))
    return DenseElementsAttr::get(
        RankedTensorType::get({static_cast<int64_t>(fs.size())},
                              b.getF32Type()),
        fs.asArrayRef());
  return {};
}

ElementsAttr InferenceContext::getConstantInput(unsigned i) const {
  Value v = getInput(i);
  if (!v)
    return {};
  Operation *def = v.getDefiningOp();
  if (!def)
    return {};
  if (const OpSchema *s = getSchemaOf(def)) {
    if (isOperator<ConstantOp>(*s))
      return getConstantOpValue(def);
    return {};
  }
  if (auto load = dyn_cast<ml_program::GlobalLoadConstOp>(def)) {
    if (!symbolTables)
      return {};
    auto global = symbolTables->lookupNearestSymbolFrom<ml_program::GlobalOp>(
        def, load.getGlobalAttr());
    if (!global)
      return {};
    return dyn_cast_or_null<ElementsAttr>(global.getValueAttr());
  }
  Attribute attr;
  if (matchPattern(v, m_Constant(&attr)))
    return dyn_cast<ElementsAttr>(attr);
  return {};
}

std::optional<SmallVector<int64_t>>
InferenceContext::getConstantInts(unsigned i) const {
  ElementsAttr attr = getConstantInput(i);
  if (!attr)
    return std::nullopt;
  return readInts(attr);
}

std::optional<SmallVector<double>>
InferenceContext::getConstantFloats(unsigned i) const {
  ElementsAttr attr = getConstantInput(i);
  if (!attr)
    return std::nullopt;
  return readFloats(attr);
}

Attribute InferenceContext::getAttr(StringRef name) const {
  for (const AttrSchema &attr : schema->attributes)
    if (name == attr.name) {
      if (schema->isGraph(attr))
        return {};
      std::optional<Attribute> value = op->getInherentAttr(attr.odsName);
      return value ? *value : Attribute();
    }
  return {};
}

/// The default that `schema` states for its attribute `name`, or empty.
static std::optional<StringRef> schemaDefault(const OpSchema &schema,
                                              StringRef name) {
  for (const AttrSchema &attr : schema.attributes)
    if (name == attr.name && attr.defaultValue)
      return StringRef(attr.defaultValue);
  return std::nullopt;
}

std::optional<StringRef>
InferenceContext::getSchemaDefault(StringRef name) const {
  if (std::optional<StringRef> text = schemaDefault(*schema, name))
    return text;
  if (schema->newest)
    return std::nullopt;
  std::optional<OperationName> newest =
      lookupSchemaOp(getContext(), schema->domain, schema->name, INT64_MAX);
  if (!newest)
    return std::nullopt;
  auto *iface = newest->getInterface<ONNXSchemaOpInterface>();
  return iface ? schemaDefault(iface->getSchema(), name) : std::nullopt;
}

std::optional<int64_t>
InferenceContext::lookupIntAttrOrDefault(StringRef name) const {
  if (std::optional<int64_t> v = getIntAttr(name))
    return v;
  std::optional<StringRef> text = getSchemaDefault(name);
  int64_t v;
  if (!text || text->getAsInteger(10, v))
    return std::nullopt;
  return v;
}

std::optional<double>
InferenceContext::lookupFloatAttrOrDefault(StringRef name) const {
  if (std::optional<double> v = getFloatAttr(name))
    return v;
  std::optional<StringRef> text = getSchemaDefault(name);
  if (!text)
    return std::nullopt;
  // The specification writes some as "(-3.402823e+38)".
  StringRef number = text->trim("()");
  double v;
  if (number.getAsDouble(v))
    return std::nullopt;
  return v;
}

std::optional<StringRef>
InferenceContext::lookupStringAttrOrDefault(StringRef name) const {
  if (std::optional<StringRef> v = getStringAttr(name))
    return v;
  return getSchemaDefault(name);
}

/// `v`, else `T()` with `name` recorded as missing (the first one only).
template <typename T>
static T orRecordMissing(std::optional<T> v, StringRef name,
                         std::string &missing) {
  if (v)
    return *v;
  if (missing.empty())
    missing = name.str();
  return T();
}

int64_t InferenceContext::getIntAttrOrDefault(StringRef name) const {
  return orRecordMissing(lookupIntAttrOrDefault(name), name, missingAttr);
}

StringRef InferenceContext::getStringAttrOrDefault(StringRef name) const {
  return orRecordMissing(lookupStringAttrOrDefault(name), name, missingAttr);
}

bool InferenceContext::isAttrRef(StringRef name) const {
  auto refs = dyn_cast_or_null<DictionaryAttr>(
      op->getDiscardableAttr(getAttrRefsAttrName()));
  return refs && refs.get(name);
}

std::optional<int64_t> InferenceContext::getIntAttr(StringRef name) const {
  if (auto attr = dyn_cast_or_null<IntegerAttr>(getAttr(name)))
    return attr.getValue().getSExtValue();
  return std::nullopt;
}

std::optional<double> InferenceContext::getFloatAttr(StringRef name) const {
  if (auto attr = dyn_cast_or_null<FloatAttr>(getAttr(name)))
    return attr.getValueAsDouble();
  return std::nullopt;
}

std::optional<SmallVector<int64_t>>
InferenceContext::getIntsAttr(StringRef name) const {
  if (auto attr = dyn_cast_or_null<DenseI64ArrayAttr>(getAttr(name)))
    return SmallVector<int64_t>(attr.asArrayRef());
  return std::nullopt;
}

std::optional<SmallVector<double>>
InferenceContext::getFloatsAttr(StringRef name) const {
  if (auto attr = dyn_cast_or_null<DenseF32ArrayAttr>(getAttr(name)))
    return SmallVector<double>(attr.asArrayRef().begin(),
                               attr.asArrayRef().end());
  return std::nullopt;
}

std::optional<StringRef> InferenceContext::getStringAttr(StringRef name) const {
  if (auto attr = dyn_cast_or_null<StringAttr>(getAttr(name)))
    return attr.getValue();
  return std::nullopt;
}

Type InferenceContext::getDataTypeAttr(StringRef name) const {
  std::optional<int64_t> code = getIntAttr(name);
  if (!code || *code < INT32_MIN || *code > INT32_MAX)
    return {};
  return getElementTypeForDataType(getContext(), static_cast<int32_t>(*code));
}

std::optional<SmallVector<int64_t>>
InferenceContext::getIntsInputOrAttr(StringRef name, bool *present) const {
  if (int slot = getInputSlot(name); slot >= 0) {
    if (present)
      *present = hasInput(slot);
    return getConstantInts(slot);
  }
  if (present)
    *present = hasAttr(name);
  return getIntsAttr(name);
}

bool InferenceContext::hasOutput(unsigned i) const {
  return i < outputs.size() && outputs[i] >= 0;
}

Value InferenceContext::getOutput(unsigned i) const {
  return hasOutput(i) ? op->getResult(outputs[i]) : Value();
}

/// The shape-free type bound to the type variable of output `i`.
static Type getBoundType(const OpSchema &schema, ArrayRef<int> inputs,
                         ArrayRef<const ArgSchema *> inputArgs,
                         const ArgSchema &out, Operation *op) {
  if (out.typeVar >= 0) {
    for (auto [slot, arg] : llvm::zip(inputs, inputArgs)) {
      if (slot < 0 || arg->typeVar != out.typeVar || arg->heterogeneous)
        continue;
      Type t = op->getOperand(slot).getType();
      if (isa<AnyType>(t))
        return {};
      if (auto ranked = dyn_cast<RankedTensorType>(t))
        return UnrankedTensorType::get(ranked.getElementType());
      return t;
    }
    StringRef allowed = schema.typeVars[out.typeVar].allowed;
    if (allowed.contains("),"))
      return {};
    return parseSchemaTypeString(op->getContext(), allowed);
  }
  return parseSchemaTypeString(op->getContext(), out.typeStr);
}

Type InferenceContext::getSchemaElementType(unsigned i) const {
  if (i >= outputArgs.size())
    return {};
  Type t = getBoundType(*schema, inputs, inputArgs, *outputArgs[i], op);
  if (auto tensor = dyn_cast_or_null<TensorType>(t))
    return tensor.getElementType();
  return {};
}

void InferenceContext::setOutput(unsigned i, Type elementType,
                                 std::optional<Shape> shape) {
  if (!hasOutput(i))
    return;
  if (!elementType)
    elementType = getSchemaElementType(i);
  if (!elementType)
    if (auto tensor = dyn_cast<TensorType>(getOutput(i).getType()))
      elementType = tensor.getElementType();
  if (!elementType)
    return;
  if (!shape) {
    inferred[i] = UnrankedTensorType::get(elementType);
    inferredSymbols[i].clear();
    return;
  }
  inferred[i] = getTensorType(*shape, elementType);
  inferredSymbols[i].clear();
  if (llvm::any_of(*shape, [](const Dim &d) { return d.symbol; }))
    for (const Dim &d : *shape)
      inferredSymbols[i].push_back(d.isStatic() ? StringAttr() : d.symbol);
}

void InferenceContext::setOutputType(unsigned i, Type type) {
  if (!hasOutput(i))
    return;
  inferred[i] = type;
  inferredSymbols[i].clear();
}

Type InferenceContext::getInferredType(unsigned i) const {
  return i < inferred.size() ? inferred[i] : Type();
}

ArrayRef<StringAttr> InferenceContext::getInferredSymbols(unsigned i) const {
  if (i >= inferredSymbols.size())
    return {};
  return inferredSymbols[i];
}

InFlightDiagnostic InferenceContext::emitError() const {
  return op->emitOpError();
}

//===----------------------------------------------------------------------===//
// Registry
//===----------------------------------------------------------------------===//

static std::string registryKey(Operator op) {
  return (op.getDomain() + "::" + op.getName()).str();
}

void InferenceRegistry::add(Operator op, InferFn fn) {
  fns[registryKey(op)] = std::move(fn);
}

const InferFn *InferenceRegistry::lookup(Operator op) const {
  auto it = fns.find(registryKey(op));
  return it == fns.end() ? nullptr : &it->second;
}

const InferenceRegistry &InferenceRegistry::get() {
  static const InferenceRegistry registry = [] {
    InferenceRegistry r;
    registerElementwiseInference(r);
    registerMathInference(r);
    registerNNInference(r);
    registerTensorInference(r);
    registerReductionInference(r);
    registerSequenceInference(r);
    registerControlFlowInference(r);
    registerMLInference(r);
    registerQuantizationInference(r);
    registerTrainingInference(r);
    registerTextInference(r);
    return r;
  }();
  return registry;
}

LogicalResult mlir::onnx::inferTypes(InferenceContext &ctx) {
  const OpSchema &schema = ctx.getSchema();
  if (schema.deprecated)
    return success();
  // An attribute that refers to a function parameter has no value yet: the
  // op is inferred once the function is specialized.
  if (ctx.getOp()->getDiscardableAttr(getAttrRefsAttrName()))
    return success();
  const InferFn *fn = InferenceRegistry::get().lookup(Operator(schema));
  if (!fn)
    return success();
  if (failed((*fn)(ctx)))
    return failure();
  // An attribute the function read that has no value and no default: a
  // required attribute the verifier would have reported, or a function that
  // reads an attribute its operator does not have.
  if (std::optional<StringRef> name = ctx.getMissingAttr())
    return ctx.fail() << "attribute '" << *name
                      << "' has no value and no default";
  return success();
}

LogicalResult mlir::onnx::verifyInferredTypes(Operation *op) {
  InferenceContext ctx(op);
  if (failed(inferTypes(ctx)))
    return failure();
  for (unsigned i = 0, e = ctx.getNumOutputs(); i < e; ++i) {
    Type inferred = ctx.getInferredType(i);
    if (!inferred)
      continue;
    Type declared = ctx.getOutput(i).getType();
    if (failed(refineType(declared, inferred)))
      return op->emitOpError()
             << "output " << i << " has type " << declared
             << ", but its inputs and attributes give it type " << inferred;
  }
  return success();
}
