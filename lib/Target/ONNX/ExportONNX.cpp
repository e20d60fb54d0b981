//===- ExportONNX.cpp - The onnx dialect to ONNX ModelProto ---------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The inverse of the importer: the module's onnx.* attributes become the
// model's fields, the entry function the main graph, ml_program globals its
// initializers, each onnx op a node of its schema's (domain, op_type) with
// the op's attributes under their ONNX names, each region a graph attribute.
// Names kept by the importer (onnx.name, onnx.outputs, ...) are reused;
// values without one get fresh names.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Target/ONNX/ExportONNX.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXShapeInference.h"
#include "OnnxDialect/Target/ONNX/TensorData.h"

#include "onnx.pb.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Tools/mlir-translate/Translation.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <google/protobuf/text_format.h>

using namespace mlir;
using namespace mlir::onnx;
namespace proto = onnx_dialect::proto;

/// Writes a dictionary of strings as metadata_props.
template <typename Proto>
static void exportMetadata(Attribute attr, Proto &out) {
  auto dict = dyn_cast_or_null<DictionaryAttr>(attr);
  if (!dict)
    return;
  for (NamedAttribute p : dict) {
    proto::StringStringEntryProto *e = out.add_metadata_props();
    e->set_key(p.getName().str());
    if (auto v = dyn_cast<StringAttr>(p.getValue()))
      e->set_value(v.str());
  }
}

/// The elements of an array attribute; none if `a` is not one.
static ArrayRef<Attribute> elementsOf(Attribute a) {
  auto array = dyn_cast_or_null<ArrayAttr>(a);
  return array ? array.getValue() : ArrayRef<Attribute>();
}

/// The inverse of the importer's importDeviceConfigurations; entries of the
/// wrong kind are left out.
static void exportDeviceConfigurations(
    ArrayAttr configs,
    google::protobuf::RepeatedPtrField<proto::NodeDeviceConfigurationProto>
        &out) {
  for (Attribute a : configs) {
    auto c = dyn_cast<DictionaryAttr>(a);
    if (!c)
      continue;
    proto::NodeDeviceConfigurationProto *config = out.Add();
    if (auto id = dyn_cast_or_null<StringAttr>(c.get("configuration_id")))
      config->set_configuration_id(id.str());
    if (auto stage = dyn_cast_or_null<IntegerAttr>(c.get("pipeline_stage")))
      config->set_pipeline_stage(stage.getInt());
    for (Attribute sa : elementsOf(c.get("sharding_spec"))) {
      auto s = dyn_cast<DictionaryAttr>(sa);
      if (!s)
        continue;
      proto::ShardingSpecProto *spec = config->add_sharding_spec();
      if (auto name = dyn_cast_or_null<StringAttr>(s.get("tensor_name")))
        spec->set_tensor_name(name.str());
      if (auto dev = dyn_cast_or_null<DenseI64ArrayAttr>(s.get("device")))
        for (int64_t d : dev.asArrayRef())
          spec->add_device(d);
      for (Attribute ga : elementsOf(s.get("index_to_device_group_map"))) {
        ArrayRef<Attribute> pair = elementsOf(ga);
        auto key = pair.size() == 2 ? dyn_cast<IntegerAttr>(pair[0]) : nullptr;
        auto values =
            pair.size() == 2 ? dyn_cast<DenseI64ArrayAttr>(pair[1]) : nullptr;
        if (!key || !values)
          continue;
        proto::IntIntListEntryProto *e = spec->add_index_to_device_group_map();
        e->set_key(key.getInt());
        for (int64_t v : values.asArrayRef())
          e->add_value(v);
      }
      for (Attribute da : elementsOf(s.get("sharded_dim"))) {
        auto d = dyn_cast<DictionaryAttr>(da);
        if (!d)
          continue;
        proto::ShardedDimProto *dim = spec->add_sharded_dim();
        if (auto axis = dyn_cast_or_null<IntegerAttr>(d.get("axis")))
          dim->set_axis(axis.getInt());
        for (Attribute xa : elementsOf(d.get("simple_sharding"))) {
          auto x = dyn_cast<DictionaryAttr>(xa);
          if (!x)
            continue;
          proto::SimpleShardedDimProto *sd = dim->add_simple_sharding();
          if (auto v = dyn_cast_or_null<IntegerAttr>(x.get("dim_value")))
            sd->set_dim_value(v.getInt());
          if (auto p = dyn_cast_or_null<StringAttr>(x.get("dim_param")))
            sd->set_dim_param(p.str());
          if (auto n = dyn_cast_or_null<IntegerAttr>(x.get("num_shards")))
            sd->set_num_shards(n.getInt());
        }
      }
    }
  }
}

namespace {

class Exporter {
public:
  Exporter(ModuleOp module, const ExportOptions &options)
      : module(module), options(options) {}

  LogicalResult exportModel(proto::ModelProto &model);

private:
  InFlightDiagnostic error(Operation *op, const Twine &message) {
    return op->emitError(message);
  }

  LogicalResult exportType(Type type, proto::TypeProto &out, Operation *where,
                           ArrayAttr dimParams = {}) {
    unsigned next = 0;
    return exportType(type, out, where, dimParams, next);
  }
  /// `next` walks onnx.dim_params: every dimension of every tensor shape of
  /// the type, outermost first.
  LogicalResult exportType(Type type, proto::TypeProto &out, Operation *where,
                           ArrayAttr dimParams, unsigned &next);
  LogicalResult exportTensorValue(ElementsAttr value, proto::TensorProto &out,
                                  Operation *where);
  LogicalResult exportBlock(Block &block, proto::GraphProto &graph);
  LogicalResult exportNode(Operation *op, proto::GraphProto &graph);
  LogicalResult exportAttribute(Attribute value, AttrKind kind,
                                proto::AttributeProto &out, Operation *where);
  LogicalResult exportRegion(Region &region, StringRef name,
                             proto::AttributeProto &out);
  LogicalResult exportFunction(func::FuncOp func, DictionaryAttr info,
                               proto::ModelProto &model);
  LogicalResult exportCall(CallOp call, proto::GraphProto &graph);
  LogicalResult exportTrainingInfo(proto::ModelProto &model);
  /// Attributes that are not the op's own (onnx.custom, onnx.call), and the
  /// references in onnx.attr_refs.
  LogicalResult exportOtherAttributes(Operation *op, proto::NodeProto &node);

  /// The ONNX name of a value; a fresh one if it has none yet.
  std::string nameOf(Value value) {
    auto it = names.find(value);
    if (it != names.end())
      return it->second;
    std::string name;
    do {
      name = "_v" + std::to_string(nextName++);
    } while (usedNames.contains(name));
    setName(value, name);
    return name;
  }
  void setName(Value value, StringRef name) {
    names[value] = name.str();
    usedNames.insert(name);
  }

  /// Set while a graph input or output type is written: the denotations of
  /// its dimensions (parallel to its dim_params).
  ArrayAttr dimDenotations;
  /// Writes the type of a graph input or output, with its dim_params and
  /// denotations from the argument or result attributes `attrs`.
  LogicalResult exportSignatureType(Type type, DictionaryAttr attrs,
                                    proto::TypeProto &out, Operation *where) {
    dimDenotations =
        attrs ? dyn_cast_or_null<ArrayAttr>(attrs.get("onnx.dim_denotations"))
              : ArrayAttr();
    ArrayAttr params =
        attrs ? dyn_cast_or_null<ArrayAttr>(attrs.get("onnx.dim_params"))
              : ArrayAttr();
    LogicalResult result = exportType(type, out, where, params);
    dimDenotations = {};
    if (attrs)
      if (auto d = dyn_cast_or_null<StringAttr>(attrs.get("onnx.denotation")))
        out.set_denotation(d.str());
    return result;
  }

  ModuleOp module;
  const ExportOptions &options;
  llvm::DenseMap<Value, std::string> names;
  llvm::StringSet<> usedNames;
  unsigned nextName = 0;
  llvm::StringMap<int64_t> opsets;
  std::unique_ptr<llvm::raw_fd_ostream> externalData;
  uint64_t externalOffset = 0;
};

} // namespace

//===----------------------------------------------------------------------===//
// Types and tensors
//===----------------------------------------------------------------------===//

LogicalResult Exporter::exportType(Type type, proto::TypeProto &out,
                                   Operation *where, ArrayAttr dimParams,
                                   unsigned &next) {
  auto shape = [&](TensorType tensor, proto::TensorShapeProto &s) {
    for (int64_t d : tensor.getShape()) {
      proto::TensorShapeProto::Dimension *dim = s.add_dim();
      StringRef param;
      unsigned i = next++;
      if (dimParams && i < dimParams.size())
        if (auto str = dyn_cast<StringAttr>(dimParams[i]))
          param = str.getValue();
      if (dimDenotations && i < dimDenotations.size())
        if (auto str = dyn_cast<StringAttr>(dimDenotations[i]))
          if (!str.getValue().empty())
            dim->set_denotation(str.str());
      if (!param.empty())
        dim->set_dim_param(param.str());
      else if (!ShapedType::isDynamic(d))
        dim->set_dim_value(d);
    }
  };
  auto element = [&](Type t) -> FailureOr<int32_t> {
    int32_t code = getDataTypeForElementType(t);
    if (!code)
      return error(where, "no ONNX data type for element type ") << t;
    return code;
  };
  if (auto tensor = dyn_cast<TensorType>(type)) {
    FailureOr<int32_t> code = element(tensor.getElementType());
    if (failed(code))
      return failure();
    proto::TypeProto::Tensor *t = out.mutable_tensor_type();
    t->set_elem_type(*code);
    if (tensor.hasRank())
      shape(tensor, *t->mutable_shape());
    return success();
  }
  if (auto seq = dyn_cast<SeqType>(type))
    return exportType(seq.getElementType(),
                      *out.mutable_sequence_type()->mutable_elem_type(), where,
                      dimParams, next);
  if (auto opt = dyn_cast<OptType>(type))
    return exportType(opt.getElementType(),
                      *out.mutable_optional_type()->mutable_elem_type(), where,
                      dimParams, next);
  if (auto map = dyn_cast<MapType>(type)) {
    FailureOr<int32_t> key = element(map.getKeyType());
    if (failed(key))
      return failure();
    out.mutable_map_type()->set_key_type(*key);
    return exportType(map.getValueType(),
                      *out.mutable_map_type()->mutable_value_type(), where,
                      dimParams, next);
  }
  if (auto sparse = dyn_cast<SparseTensorType>(type)) {
    TensorType tensor = sparse.getTensorType();
    FailureOr<int32_t> code = element(tensor.getElementType());
    if (failed(code))
      return failure();
    proto::TypeProto::SparseTensor *t = out.mutable_sparse_tensor_type();
    t->set_elem_type(*code);
    if (tensor.hasRank())
      shape(tensor, *t->mutable_shape());
    return success();
  }
  if (auto opaque = dyn_cast<onnx::OpaqueType>(type)) {
    out.mutable_opaque_type()->set_domain(opaque.getDomain().str());
    out.mutable_opaque_type()->set_name(opaque.getName().str());
    return success();
  }
  return error(where, "no ONNX type for ") << type;
}

LogicalResult Exporter::exportTensorValue(ElementsAttr value,
                                          proto::TensorProto &out,
                                          Operation *where) {
  if (failed(exportTensor(value, out)))
    return error(where, "cannot write tensor of type ")
           << value.getType() << " as an ONNX TensorProto";
  if (!externalData || !out.has_raw_data() ||
      int64_t(out.raw_data().size()) < options.externalDataThreshold)
    return success();
  // Move the bytes to the external file, at a 4 KiB-aligned offset so that
  // readers can map them.
  uint64_t aligned = llvm::alignTo(externalOffset, 4096);
  externalData->write_zeros(aligned - externalOffset);
  externalData->write(out.raw_data().data(), out.raw_data().size());
  auto add = [&](StringRef key, std::string value) {
    proto::StringStringEntryProto *e = out.add_external_data();
    e->set_key(key.str());
    e->set_value(std::move(value));
  };
  add("location", llvm::sys::path::filename(options.externalDataFile).str());
  add("offset", std::to_string(aligned));
  add("length", std::to_string(out.raw_data().size()));
  externalOffset = aligned + out.raw_data().size();
  out.clear_raw_data();
  out.set_data_location(proto::TensorProto::EXTERNAL);
  return success();
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

/// The attribute kind of a value (for ops without a schema: onnx.custom).
static std::optional<AttrKind> kindOf(Attribute value) {
  if (isa<FloatAttr>(value))
    return AttrKind::Float;
  if (isa<IntegerAttr>(value))
    return AttrKind::Int;
  if (isa<StringAttr>(value))
    return AttrKind::String;
  if (isa<SparseElementsAttr>(value))
    return AttrKind::SparseTensor;
  if (isa<ElementsAttr>(value))
    return AttrKind::Tensor;
  if (isa<TypeAttr>(value))
    return AttrKind::TypeProto;
  if (isa<DenseF32ArrayAttr>(value))
    return AttrKind::Floats;
  if (isa<DenseI64ArrayAttr>(value))
    return AttrKind::Ints;
  if (auto array = dyn_cast<ArrayAttr>(value)) {
    if (array.empty() || isa<StringAttr>(array[0]))
      return AttrKind::Strings;
    if (isa<SparseElementsAttr>(array[0]))
      return AttrKind::SparseTensors;
    if (isa<ElementsAttr>(array[0]))
      return AttrKind::Tensors;
    if (isa<TypeAttr>(array[0]))
      return AttrKind::TypeProtos;
  }
  return std::nullopt;
}

LogicalResult Exporter::exportAttribute(Attribute value, AttrKind kind,
                                        proto::AttributeProto &out,
                                        Operation *where) {
  using AP = proto::AttributeProto;
  auto bad = [&]() {
    return error(where, "attribute '" + out.name() + "' holds ")
           << value << ", which is not an ONNX attribute value of its kind";
  };
  switch (kind) {
  case AttrKind::Float:
    if (auto f = dyn_cast<FloatAttr>(value)) {
      out.set_type(AP::FLOAT);
      out.set_f(f.getValueAsDouble());
      return success();
    }
    return bad();
  case AttrKind::Int:
    if (auto i = dyn_cast<IntegerAttr>(value)) {
      out.set_type(AP::INT);
      out.set_i(i.getInt());
      return success();
    }
    return bad();
  case AttrKind::String:
    if (auto s = dyn_cast<StringAttr>(value)) {
      out.set_type(AP::STRING);
      out.set_s(s.getValue().str());
      return success();
    }
    return bad();
  case AttrKind::Tensor:
    if (auto t = dyn_cast<ElementsAttr>(value)) {
      out.set_type(AP::TENSOR);
      return exportTensorValue(t, *out.mutable_t(), where);
    }
    return bad();
  case AttrKind::SparseTensor:
    out.set_type(AP::SPARSE_TENSOR);
    if (failed(exportSparseTensor(value, *out.mutable_sparse_tensor())))
      return bad();
    return success();
  case AttrKind::TypeProto:
    if (auto t = dyn_cast<TypeAttr>(value)) {
      out.set_type(AP::TYPE_PROTO);
      return exportType(t.getValue(), *out.mutable_tp(), where);
    }
    return bad();
  case AttrKind::Floats:
    if (auto a = dyn_cast<DenseF32ArrayAttr>(value)) {
      out.set_type(AP::FLOATS);
      for (float f : a.asArrayRef())
        out.add_floats(f);
      return success();
    }
    return bad();
  case AttrKind::Ints:
    if (auto a = dyn_cast<DenseI64ArrayAttr>(value)) {
      out.set_type(AP::INTS);
      for (int64_t i : a.asArrayRef())
        out.add_ints(i);
      return success();
    }
    return bad();
  case AttrKind::Strings:
  case AttrKind::Tensors:
  case AttrKind::SparseTensors:
  case AttrKind::TypeProtos: {
    auto array = dyn_cast<ArrayAttr>(value);
    if (!array)
      return bad();
    out.set_type(kind == AttrKind::Strings         ? AP::STRINGS
                 : kind == AttrKind::Tensors       ? AP::TENSORS
                 : kind == AttrKind::SparseTensors ? AP::SPARSE_TENSORS
                                                   : AP::TYPE_PROTOS);
    for (Attribute item : array) {
      if (kind == AttrKind::Strings) {
        auto s = dyn_cast<StringAttr>(item);
        if (!s)
          return bad();
        out.add_strings(s.getValue().str());
      } else if (kind == AttrKind::Tensors) {
        auto t = dyn_cast<ElementsAttr>(item);
        if (!t || failed(exportTensorValue(t, *out.add_tensors(), where)))
          return bad();
      } else if (kind == AttrKind::SparseTensors) {
        if (failed(exportSparseTensor(item, *out.add_sparse_tensors())))
          return bad();
      } else {
        auto t = dyn_cast<TypeAttr>(item);
        if (!t ||
            failed(exportType(t.getValue(), *out.add_type_protos(), where)))
          return bad();
      }
    }
    return success();
  }
  case AttrKind::Graph:
  case AttrKind::Graphs:
    break;
  }
  return bad();
}

//===----------------------------------------------------------------------===//
// Graphs and nodes
//===----------------------------------------------------------------------===//

LogicalResult Exporter::exportRegion(Region &region, StringRef name,
                                     proto::AttributeProto &out) {
  out.set_name(name.str());
  out.set_type(proto::AttributeProto::GRAPH);
  proto::GraphProto &graph = *out.mutable_g();
  Block &block = region.front();
  auto yield = dyn_cast<YieldOp>(block.getTerminator());
  if (!yield)
    return error(block.getTerminator(), "a graph must end in onnx.yield");
  graph.set_name(name.str());
  if (auto graphName = yield->getAttrOfType<StringAttr>("onnx.name"))
    graph.set_name(graphName.str());
  auto inputNames = yield->getAttrOfType<ArrayAttr>("onnx.inputs");
  for (auto [i, arg] : llvm::enumerate(block.getArguments())) {
    std::string argName;
    if (inputNames && i < inputNames.size())
      argName = cast<StringAttr>(inputNames[i]).str();
    if (argName.empty())
      argName = nameOf(arg);
    else
      setName(arg, argName);
    proto::ValueInfoProto *input = graph.add_input();
    input->set_name(argName);
    if (failed(exportType(arg.getType(), *input->mutable_type(), yield)))
      return failure();
  }
  if (failed(exportBlock(block, graph)))
    return failure();
  for (Value v : yield.getValues()) {
    proto::ValueInfoProto *output = graph.add_output();
    output->set_name(nameOf(v));
    if (failed(exportType(v.getType(), *output->mutable_type(), yield)))
      return failure();
  }
  return success();
}

LogicalResult Exporter::exportNode(Operation *op, proto::GraphProto &graph) {
  // Subgraph initializers.
  if (op->hasAttr("onnx.initializer")) {
    auto value = op->getAttrOfType<ElementsAttr>("value");
    auto outputs = op->getAttrOfType<ArrayAttr>("onnx.outputs");
    if (!value || !outputs || outputs.size() != 1)
      return error(op, "a subgraph initializer needs a value and a name");
    proto::TensorProto *init = graph.add_initializer();
    init->set_name(cast<StringAttr>(outputs[0]).str());
    setName(op->getResult(0), init->name());
    return exportTensorValue(value, *init, op);
  }

  if (auto call = dyn_cast<CallOp>(op))
    return exportCall(call, graph);

  proto::NodeProto *node = graph.add_node();
  if (auto name = op->getAttrOfType<StringAttr>("onnx.name"))
    node->set_name(name.str());
  if (auto doc = op->getAttrOfType<StringAttr>("onnx.doc_string"))
    node->set_doc_string(doc.str());
  exportMetadata(op->getAttr("onnx.metadata_props"), *node);
  if (auto configs = op->getAttrOfType<ArrayAttr>("onnx.device_configurations"))
    exportDeviceConfigurations(configs, *node->mutable_device_configurations());

  // Input and output slots, with the omitted ones.
  SmallVector<std::string> inputs;
  SmallVector<Value> results;
  auto custom = dyn_cast<CustomOp>(op);
  auto schemaOp = dyn_cast<ONNXSchemaOpInterface>(op);
  if (!custom && !schemaOp)
    return error(op, "op '")
           << op->getName() << "' has no ONNX counterpart to export";
  const OpSchema *schema = schemaOp ? &schemaOp.getSchema() : nullptr;
  if (custom) {
    node->set_domain(custom.getDomain().str());
    node->set_op_type(custom.getOpType().str());
    ArrayRef<int64_t> absentIn =
        custom.getAbsentInputs().value_or(ArrayRef<int64_t>());
    ArrayRef<int64_t> absentOut =
        custom.getAbsentOutputs().value_or(ArrayRef<int64_t>());
    size_t next = 0;
    for (size_t slot = 0, e = custom.getInputs().size() + absentIn.size();
         slot < e; ++slot)
      inputs.push_back(llvm::is_contained(absentIn, int64_t(slot))
                           ? std::string()
                           : nameOf(custom.getInputs()[next++]));
    next = 0;
    for (size_t slot = 0, e = op->getNumResults() + absentOut.size(); slot < e;
         ++slot) {
      if (llvm::is_contained(absentOut, int64_t(slot)))
        results.push_back(nullptr);
      else
        results.push_back(op->getResult(next++));
    }
  } else {
    node->set_domain(schema->domain);
    node->set_op_type(schema->name);
    // The model's opset must select this very version of the operator.
    StringRef dom = *schema->domain ? StringRef(schema->domain) : "ai.onnx";
    auto opset = opsets.find(dom);
    if (opset == opsets.end())
      return error(op, "the model imports no opset of domain '" + dom + "'");
    std::optional<OperationName> bound = lookupSchemaOp(
        op->getContext(), schema->domain, schema->name, opset->second);
    if (!bound || (*bound != op->getName() && !isWidenedFrom(op, *bound)))
      return error(op, Twine(schema->name) + "-" + Twine(schema->sinceVersion) +
                           " is not the version "
                           "that opset " +
                           Twine(opset->second) + " of '" + dom + "' selects" +
                           (bound ? " (" + bound->getStringRef().str() + ")"
                                  : std::string()) +
                           "; convert the ops or change onnx.opset_import");
    auto slots = [&](bool in, ValueRange values,
                     SmallVectorImpl<std::string> *names,
                     SmallVectorImpl<Value> *vals) {
      SmallVector<int32_t> sizes = getGroupSizes(op, *schema, in);
      ArrayRef<ArgSchema> args = in ? schema->inputs : schema->outputs;
      size_t next = 0;
      for (auto [arg, size] : llvm::zip(args, sizes)) {
        if (arg.kind == ArgKind::Optional && size == 0) {
          if (names)
            names->push_back("");
          if (vals)
            vals->push_back(nullptr);
          continue;
        }
        for (int32_t k = 0; k < size && next < values.size(); ++k) {
          Value v = values[next++];
          if (names)
            names->push_back(nameOf(v));
          if (vals)
            vals->push_back(v);
        }
      }
    };
    if (schema->deprecated)
      return error(op, "deprecated operator versions cannot be exported");
    if (op->hasAttr(getBranchErrorsAttrName()))
      return error(op, "a branch of this If was replaced by a failure at run "
                       "time (onnx.branch_errors, set by onnx-infer-shapes); "
                       "export the model before that pass");
    slots(true, op->getOperands(), &inputs, nullptr);
    slots(false, op->getResults(), nullptr, &results);
  }
  while (!inputs.empty() && inputs.back().empty())
    inputs.pop_back();
  for (const std::string &in : inputs)
    node->add_input(in);

  // Output names: as imported, else fresh. Trailing omitted outputs are
  // left out unless the node listed them.
  auto outNames = op->getAttrOfType<ArrayAttr>("onnx.outputs");
  size_t slotCount = results.size();
  while (slotCount && !results[slotCount - 1])
    --slotCount;
  if (outNames) {
    slotCount = std::max<size_t>(
        slotCount, std::min<size_t>(outNames.size(), results.size()));
    for (auto [i, v] : llvm::enumerate(results))
      if (v && i < outNames.size() &&
          !cast<StringAttr>(outNames[i]).getValue().empty())
        setName(v, cast<StringAttr>(outNames[i]).getValue());
  }
  for (size_t i = 0; i < slotCount; ++i)
    node->add_output(results[i] ? nameOf(results[i]) : std::string());

  // Attributes.
  DictionaryAttr refs =
      op->getAttrOfType<DictionaryAttr>(getAttrRefsAttrName());
  if (schema) {
    unsigned regionIndex = 0;
    for (const AttrSchema &attr : schema->attributes) {
      if (schema->isGraph(attr)) {
        Region &region = op->getRegion(regionIndex++);
        if (region.empty())
          continue;
        if (failed(exportRegion(region, attr.name, *node->add_attribute())))
          return failure();
        continue;
      }
      if (refs)
        if (auto ref = dyn_cast_or_null<AttrRefAttr>(refs.get(attr.name))) {
          proto::AttributeProto *a = node->add_attribute();
          a->set_name(attr.name);
          a->set_type(static_cast<proto::AttributeProto::AttributeType>(
              getAttributeProtoType(attr.kind)));
          a->set_ref_attr_name(ref.getName().str());
          continue;
        }
      std::optional<Attribute> value = op->getInherentAttr(attr.odsName);
      if (!value || !*value)
        continue;
      proto::AttributeProto *a = node->add_attribute();
      a->set_name(attr.name);
      if (failed(exportAttribute(*value, attr.kind, *a, op)))
        return failure();
    }
  } else {
    if (failed(exportOtherAttributes(op, *node)))
      return failure();
    ArrayAttr graphNames = custom.getGraphNames().value_or(ArrayAttr());
    for (auto [i, region] : llvm::enumerate(op->getRegions()))
      if (failed(exportRegion(region,
                              cast<StringAttr>(graphNames[i]).getValue(),
                              *node->add_attribute())))
        return failure();
  }

  // value_info for what the importer could not infer back: shapes and
  // non-tensor types.
  for (Value v : results) {
    if (!v)
      continue;
    auto tensor = dyn_cast<TensorType>(v.getType());
    if ((tensor && !tensor.hasRank()) || isa<AnyType>(v.getType()))
      continue;
    proto::ValueInfoProto *vi = graph.add_value_info();
    vi->set_name(nameOf(v));
    if (failed(exportType(v.getType(), *vi->mutable_type(), op)))
      return failure();
  }
  return success();
}

LogicalResult Exporter::exportOtherAttributes(Operation *op,
                                              proto::NodeProto &node) {
  for (NamedAttribute attr : op->getDiscardableAttrs()) {
    if (attr.getName().strref().starts_with("onnx."))
      continue;
    std::optional<AttrKind> kind = kindOf(attr.getValue());
    if (!kind)
      return error(op, "attribute '")
             << attr.getName() << "' has no ONNX attribute kind";
    proto::AttributeProto *a = node.add_attribute();
    a->set_name(attr.getName().str());
    if (failed(exportAttribute(attr.getValue(), *kind, *a, op)))
      return failure();
  }
  if (auto refs = op->getAttrOfType<DictionaryAttr>(getAttrRefsAttrName()))
    for (NamedAttribute ref : refs) {
      auto r = dyn_cast<AttrRefAttr>(ref.getValue());
      if (!r)
        return error(op, "'onnx.attr_refs' must hold #onnx.ref values");
      proto::AttributeProto *a = node.add_attribute();
      a->set_name(ref.getName().str());
      a->set_ref_attr_name(r.getName().str());
    }
  return success();
}

LogicalResult Exporter::exportCall(CallOp call, proto::GraphProto &graph) {
  auto callee = module.lookupSymbol<func::FuncOp>(call.getCalleeAttr());
  DictionaryAttr info =
      callee ? callee->getAttrOfType<DictionaryAttr>("onnx.function")
             : DictionaryAttr();
  if (!info)
    return error(call, "calls '" + call.getCallee() +
                           "', which is not a model-local function");
  proto::NodeProto *node = graph.add_node();
  node->set_domain(cast<StringAttr>(info.get("domain")).str());
  node->set_op_type(cast<StringAttr>(info.get("name")).str());
  if (auto overload = dyn_cast_or_null<StringAttr>(info.get("overload")))
    node->set_overload(overload.str());
  if (auto name = call->getAttrOfType<StringAttr>("onnx.name"))
    node->set_name(name.str());
  for (Value v : call.getArgs())
    node->add_input(nameOf(v));
  auto outNames = call->getAttrOfType<ArrayAttr>("onnx.outputs");
  for (auto [i, v] : llvm::enumerate(call->getResults())) {
    if (outNames && i < outNames.size())
      setName(v, cast<StringAttr>(outNames[i]).getValue());
    node->add_output(nameOf(v));
  }
  return exportOtherAttributes(call, *node);
}

LogicalResult Exporter::exportFunction(func::FuncOp func, DictionaryAttr info,
                                       proto::ModelProto &model) {
  proto::FunctionProto &function = *model.add_functions();
  auto str = [&](StringRef key) {
    auto s = dyn_cast_or_null<StringAttr>(info.get(key));
    return s ? s.str() : std::string();
  };
  function.set_domain(str("domain"));
  function.set_name(str("name"));
  if (!str("overload").empty())
    function.set_overload(str("overload"));
  if (!str("doc_string").empty())
    function.set_doc_string(str("doc_string"));
  exportMetadata(info.get("metadata_props"), function);
  auto strings = [&](StringRef key) {
    SmallVector<std::string> out;
    if (auto a = dyn_cast_or_null<ArrayAttr>(info.get(key)))
      for (Attribute item : a)
        out.push_back(cast<StringAttr>(item).str());
    return out;
  };
  for (const std::string &a : strings("attributes"))
    function.add_attribute(a);
  if (auto defaults =
          dyn_cast_or_null<DictionaryAttr>(info.get("attribute_defaults")))
    for (NamedAttribute d : defaults) {
      std::optional<AttrKind> kind = kindOf(d.getValue());
      proto::AttributeProto *a = function.add_attribute_proto();
      a->set_name(d.getName().str());
      if (!kind || failed(exportAttribute(d.getValue(), *kind, *a, func)))
        return error(func, "cannot write the default of attribute '" +
                               d.getName().strref() + "'");
    }

  // The body binds by the function's own opsets.
  llvm::StringMap<int64_t> saved = opsets;
  llvm::scope_exit restore([&] { opsets = std::move(saved); });
  opsets.clear();
  if (auto fopsets = dyn_cast_or_null<DictionaryAttr>(info.get("opset_import")))
    for (NamedAttribute opset : fopsets) {
      auto version = dyn_cast<IntegerAttr>(opset.getValue());
      if (!version)
        return error(func, "function opset versions must be integers");
      opsets[opset.getName()] = version.getInt();
      proto::OperatorSetIdProto *o = function.add_opset_import();
      o->set_domain(opset.getName() == "ai.onnx" ? "" : opset.getName().str());
      o->set_version(version.getInt());
    }

  Block &body = func.getBody().front();
  SmallVector<std::string> inputs = strings("inputs");
  for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
    std::string name =
        i < inputs.size() ? inputs[i] : "input_" + std::to_string(i);
    setName(arg, name);
    function.add_input(name);
  }
  proto::GraphProto graph;
  if (failed(exportBlock(body, graph)))
    return failure();
  for (proto::NodeProto &node : *graph.mutable_node())
    function.add_node()->Swap(&node);
  if (graph.initializer_size())
    return error(func, "a function cannot have initializers");
  // Types inside functions are kept where IR 10 allows value_info there.
  if (model.ir_version() >= 10)
    for (proto::ValueInfoProto &vi : *graph.mutable_value_info())
      function.add_value_info()->Swap(&vi);
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  for (Value v : ret.getOperands())
    function.add_output(nameOf(v));
  return success();
}

LogicalResult Exporter::exportBlock(Block &block, proto::GraphProto &graph) {
  for (Operation &op : block.without_terminator()) {
    if (auto load = dyn_cast<ml_program::GlobalLoadConstOp>(op)) {
      auto global = SymbolTable::lookupNearestSymbolFrom<ml_program::GlobalOp>(
          &op, load.getGlobalAttr());
      if (!global)
        return error(&op, "loads an undefined global");
      auto name = global->getAttrOfType<StringAttr>("onnx.name");
      setName(load.getResult(), name ? name.getValue() : global.getSymName());
      continue;
    }
    if (failed(exportNode(&op, graph)))
      return failure();
  }
  return success();
}

LogicalResult Exporter::exportTrainingInfo(proto::ModelProto &model) {
  for (auto func : module.getOps<func::FuncOp>()) {
    auto info = func->getAttrOfType<DictionaryAttr>("onnx.training");
    if (!info)
      continue;
    auto index = dyn_cast_or_null<IntegerAttr>(info.get("index"));
    auto role = dyn_cast_or_null<StringAttr>(info.get("role"));
    if (!index || !role || index.getInt() < 0 || index.getInt() > 4096 ||
        (role.getValue() != "initialization" && role.getValue() != "algorithm"))
      return error(func, "onnx.training needs an index and a role "
                         "(initialization or algorithm)");
    while (model.training_info_size() <= index.getInt())
      model.add_training_info();
    proto::TrainingInfoProto &training =
        *model.mutable_training_info(index.getInt());
    bool algorithm = role.getValue() == "algorithm";
    proto::GraphProto &graph = algorithm ? *training.mutable_algorithm()
                                         : *training.mutable_initialization();
    if (auto name = dyn_cast_or_null<StringAttr>(info.get("graph_name")))
      graph.set_name(name.str());
    Block &body = func.getBody().front();
    for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
      auto name = func.getArgAttrOfType<StringAttr>(i, "onnx.name");
      std::string argName = name ? name.str() : nameOf(arg);
      setName(arg, argName);
      proto::ValueInfoProto *input = graph.add_input();
      input->set_name(argName);
      if (failed(exportType(arg.getType(), *input->mutable_type(), func)))
        return failure();
    }
    if (algorithm)
      for (auto global : module.getOps<ml_program::GlobalOp>()) {
        auto owner =
            global->getAttrOfType<IntegerAttr>("onnx.training_algorithm");
        if (!owner || owner.getInt() != index.getInt())
          continue;
        auto value = dyn_cast_or_null<ElementsAttr>(global.getValueAttr());
        if (!value)
          return error(global, "an initializer needs a tensor value");
        proto::TensorProto *init = graph.add_initializer();
        auto name = global->getAttrOfType<StringAttr>("onnx.name");
        init->set_name(name ? name.str() : global.getSymName().str());
        if (failed(exportTensorValue(value, *init, global)))
          return failure();
      }
    if (failed(exportBlock(body, graph)))
      return failure();
    auto ret = cast<func::ReturnOp>(body.getTerminator());
    for (Value v : ret.getOperands()) {
      proto::ValueInfoProto *output = graph.add_output();
      output->set_name(nameOf(v));
      if (failed(exportType(v.getType(), *output->mutable_type(), func)))
        return failure();
    }
    if (auto binding = dyn_cast_or_null<DictionaryAttr>(info.get("binding")))
      for (NamedAttribute kv : binding) {
        proto::StringStringEntryProto *e =
            algorithm ? training.add_update_binding()
                      : training.add_initialization_binding();
        e->set_key(kv.getName().str());
        if (auto v = dyn_cast<StringAttr>(kv.getValue()))
          e->set_value(v.str());
      }
  }
  return success();
}

LogicalResult Exporter::exportModel(proto::ModelProto &model) {
  auto intAttr = [&](StringRef name) {
    return module->getAttrOfType<IntegerAttr>(name);
  };
  auto strAttr = [&](StringRef name) {
    return module->getAttrOfType<StringAttr>(name);
  };
  model.set_ir_version(
      intAttr("onnx.ir_version") ? intAttr("onnx.ir_version").getInt() : 10);
  if (auto opsetAttr =
          module->getAttrOfType<DictionaryAttr>("onnx.opset_import")) {
    for (NamedAttribute opset : opsetAttr) {
      auto version = dyn_cast<IntegerAttr>(opset.getValue());
      if (!version)
        return error(module, "onnx.opset_import of '" +
                                 opset.getName().strref() +
                                 "' must be an integer");
      opsets[opset.getName()] = version.getInt();
      proto::OperatorSetIdProto *o = model.add_opset_import();
      StringRef domain = opset.getName();
      o->set_domain(domain == "ai.onnx" ? "" : domain.str());
      o->set_version(version.getInt());
    }
  } else {
    return error(module, "the module has no 'onnx.opset_import'");
  }
  if (auto s = strAttr("onnx.producer_name"))
    model.set_producer_name(s.str());
  if (auto s = strAttr("onnx.producer_version"))
    model.set_producer_version(s.str());
  if (auto s = strAttr("onnx.domain"))
    model.set_domain(s.str());
  if (auto i = intAttr("onnx.model_version"))
    model.set_model_version(i.getInt());
  if (auto s = strAttr("onnx.doc_string"))
    model.set_doc_string(s.str());
  if (auto configs = module->getAttrOfType<ArrayAttr>("onnx.configuration"))
    for (Attribute a : configs) {
      auto c = dyn_cast<DictionaryAttr>(a);
      if (!c)
        return error(module, "onnx.configuration holds dictionaries");
      proto::DeviceConfigurationProto *config = model.add_configuration();
      if (auto name = dyn_cast_or_null<StringAttr>(c.get("name")))
        config->set_name(name.str());
      if (auto n = dyn_cast_or_null<IntegerAttr>(c.get("num_devices")))
        config->set_num_devices(n.getInt());
      for (Attribute d : elementsOf(c.get("device")))
        if (auto device = dyn_cast<StringAttr>(d))
          config->add_device(device.str());
    }
  if (auto props = module->getAttrOfType<DictionaryAttr>("onnx.metadata_props"))
    for (NamedAttribute p : props) {
      proto::StringStringEntryProto *e = model.add_metadata_props();
      e->set_key(p.getName().str());
      e->set_value(cast<StringAttr>(p.getValue()).str());
    }

  for (auto func : module.getOps<func::FuncOp>())
    if (auto info = func->getAttrOfType<DictionaryAttr>("onnx.function"))
      if (failed(exportFunction(func, info, model)))
        return failure();

  auto entry = module->getAttrOfType<FlatSymbolRefAttr>("onnx.entry");
  auto func = entry ? module.lookupSymbol<func::FuncOp>(entry) : func::FuncOp();
  if (!func)
    return error(module, "the module has no 'onnx.entry' function to export");
  if (func.isExternal())
    return error(func, "the entry function has no body");
  proto::GraphProto &graph = *model.mutable_graph();
  graph.set_name(func.getSymName().str());
  if (auto doc = func->getAttrOfType<StringAttr>("onnx.doc_string"))
    graph.set_doc_string(doc.str());
  exportMetadata(func->getAttr("onnx.metadata_props"), graph);
  if (auto annotations =
          func->getAttrOfType<DictionaryAttr>("onnx.quantization_annotation"))
    for (NamedAttribute a : annotations) {
      proto::TensorAnnotation *t = graph.add_quantization_annotation();
      t->set_tensor_name(a.getName().str());
      if (auto params = dyn_cast<DictionaryAttr>(a.getValue()))
        for (NamedAttribute p : params) {
          proto::StringStringEntryProto *e =
              t->add_quant_parameter_tensor_names();
          e->set_key(p.getName().str());
          if (auto v = dyn_cast<StringAttr>(p.getValue()))
            e->set_value(v.str());
        }
    }

  if (!options.externalDataFile.empty()) {
    std::error_code ec;
    externalData =
        std::make_unique<llvm::raw_fd_ostream>(options.externalDataFile, ec);
    if (ec)
      return error(module, "cannot write '" + options.externalDataFile +
                               "': " + ec.message());
  }

  // Initializers, in order.
  for (auto global : module.getOps<ml_program::GlobalOp>()) {
    auto name = global->getAttrOfType<StringAttr>("onnx.name");
    std::string initName = name ? name.str() : global.getSymName().str();
    if (global->hasAttr("onnx.training_algorithm"))
      continue; // an initializer of a training algorithm graph
    auto value = dyn_cast_or_null<ElementsAttr>(global.getValueAttr());
    if (!value)
      return error(global, "an initializer needs a tensor value");
    if (global->hasAttr("onnx.sparse")) {
      proto::SparseTensorProto *sparse = graph.add_sparse_initializer();
      if (failed(exportSparseTensor(value, *sparse)))
        return error(global, "cannot write the sparse initializer");
      sparse->mutable_values()->set_name(initName);
      continue;
    }
    proto::TensorProto *init = graph.add_initializer();
    init->set_name(initName);
    if (auto doc = global->getAttrOfType<StringAttr>("onnx.doc_string"))
      init->set_doc_string(doc.str());
    exportMetadata(global->getAttr("onnx.metadata_props"), *init);
    if (failed(exportTensorValue(value, *init, global)))
      return failure();
  }

  // Inputs and outputs.
  Block &body = func.getBody().front();
  for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
    auto name = func.getArgAttrOfType<StringAttr>(i, "onnx.name");
    std::string argName = name ? name.str() : "input_" + std::to_string(i);
    setName(arg, argName);
    proto::ValueInfoProto *input = graph.add_input();
    input->set_name(argName);
    if (auto doc = func.getArgAttrOfType<StringAttr>(i, "onnx.doc_string"))
      input->set_doc_string(doc.str());
    exportMetadata(func.getArgAttr(i, "onnx.metadata_props"), *input);
    if (failed(exportSignatureType(arg.getType(), func.getArgAttrDict(i),
                                   *input->mutable_type(), func)))
      return failure();
  }
  if (failed(exportBlock(body, graph)))
    return failure();
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
    auto name = func.getResultAttrOfType<StringAttr>(i, "onnx.name");
    proto::ValueInfoProto *output = graph.add_output();
    std::string valueName = nameOf(v);
    if (name && name.getValue() != valueName)
      return error(ret, "output " + Twine(i) + " is named '" + name.getValue() +
                            "' but returns value '" + valueName + "'");
    output->set_name(valueName);
    if (auto doc = func.getResultAttrOfType<StringAttr>(i, "onnx.doc_string"))
      output->set_doc_string(doc.str());
    exportMetadata(func.getResultAttr(i, "onnx.metadata_props"), *output);
    if (failed(exportSignatureType(v.getType(), func.getResultAttrDict(i),
                                   *output->mutable_type(), func)))
      return failure();
  }
  if (failed(exportTrainingInfo(model)))
    return failure();

  // A graph output's type is given by the output itself.
  llvm::StringSet<> outputNames;
  for (const proto::ValueInfoProto &out : graph.output())
    outputNames.insert(out.name());
  auto *infos = graph.mutable_value_info();
  infos->erase(std::remove_if(infos->begin(), infos->end(),
                              [&](const proto::ValueInfoProto &vi) {
                                return outputNames.contains(vi.name());
                              }),
               infos->end());
  return success();
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

LogicalResult mlir::onnx::exportONNXModel(ModuleOp module,
                                          llvm::raw_ostream &os,
                                          const ExportOptions &options) {
  proto::ModelProto model;
  Exporter exporter(module, options);
  if (failed(exporter.exportModel(model)))
    return failure();
  std::string bytes;
  if (options.textFormat) {
    if (!google::protobuf::TextFormat::PrintToString(model, &bytes))
      return module.emitError("cannot print the model in text format");
  } else if (!model.SerializeToString(&bytes)) {
    return module.emitError("cannot serialize the model (over 2 GiB? use "
                            "external data)");
  }
  os << bytes;
  return success();
}

void mlir::onnx::registerExportONNXTranslation() {
  static llvm::cl::opt<bool> text("onnx-text",
                                  llvm::cl::desc("Write protobuf text format"),
                                  llvm::cl::init(false));
  static llvm::cl::opt<std::string> external(
      "onnx-external-data",
      llvm::cl::desc("Write large tensors to this file (beside the model)"),
      llvm::cl::init(""));
  static llvm::cl::opt<int64_t> threshold(
      "onnx-external-threshold",
      llvm::cl::desc("Tensors of at least this many bytes go to the "
                     "external data file"),
      llvm::cl::init(1024));
  static TranslateFromMLIRRegistration registration(
      "export", "export the onnx dialect as an ONNX model",
      [](Operation *op, llvm::raw_ostream &os) -> LogicalResult {
        auto module = dyn_cast<ModuleOp>(op);
        if (!module)
          return op->emitError("expected a module");
        ExportOptions options;
        options.textFormat = text;
        options.externalDataFile = external;
        options.externalDataThreshold = threshold;
        return exportONNXModel(module, os, options);
      },
      [](DialectRegistry &registry) {
        registry.insert<ONNXDialect, func::FuncDialect,
                        ml_program::MLProgramDialect>();
      });
}
