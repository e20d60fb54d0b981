//===- ImportONNX.cpp - ONNX ModelProto to the onnx dialect ---------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A model becomes a module: the main graph a func.func (named on the module as
// its entry), each initializer an ml_program.global holding its data (a
// dense_resource blob when large), each node the versioned op that the
// model's opset for the node's domain selects, each graph attribute a region
// that uses outer values directly. Malformed input gets an error that names
// the node, value or field.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Target/ONNX/ImportONNX.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXShapeInference.h"
#include "OnnxDialect/Dialect/ONNX/Transforms/Passes.h"
#include "OnnxDialect/Target/ONNX/ParseTextualSyntax.h"
#include "OnnxDialect/Target/ONNX/TensorData.h"

#include "onnx.pb.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Tools/mlir-translate/Translation.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "llvm/Support/SourceMgr.h"
#include <unistd.h>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/text_format.h>

using namespace mlir;
using namespace mlir::onnx;
namespace proto = onnx_dialect::proto;

/// The newest IR version this importer knows (proto-facts.md).
static constexpr int64_t kNewestIRVersion = 13;

static bool hasDimParam(ArrayRef<Attribute> dimParams);
static bool isTypeSet(const proto::TypeProto &type);

namespace {

class Importer {
public:
  Importer(MLIRContext *context, const ImportOptions &options,
           StringRef fileName)
      : context(context), options(options), builder(context),
        fileLoc(FileLineColLoc::get(context, fileName, 0, 0)),
        tensors(context, fileLoc, options.modelDirectory,
                options.inlineTensorLimit, options.maxTensorBytes) {}

  OwningOpRef<ModuleOp> importModel(proto::ModelProto &model);

private:
  // Diagnostics.
  InFlightDiagnostic error(const Twine &message) {
    return emitError(fileLoc, message);
  }
  Location nodeLoc(const proto::NodeProto &node) {
    if (node.name().empty())
      return fileLoc;
    return NameLoc::get(StringAttr::get(context, node.name()), fileLoc);
  }
  std::string describe(const proto::NodeProto &node) {
    std::string s = "node '" + node.name() + "' (";
    if (!node.domain().empty())
      s += node.domain() + ".";
    return s + node.op_type() + ")";
  }
  LogicalResult checkName(StringRef name, const Twine &what);

  // Types.
  FailureOr<Type> importType(const proto::TypeProto &type, const Twine &what,
                             SmallVectorImpl<Attribute> *dimParams = nullptr);
  FailureOr<Type> importElementType(int32_t code, const Twine &what);

  // Graphs.
  LogicalResult importMainGraph(proto::GraphProto &graph);
  using NodeList = google::protobuf::RepeatedPtrField<proto::NodeProto>;
  LogicalResult importNodes(NodeList &nodes, StringRef graphName,
                            unsigned depth);
  LogicalResult importFunctions(proto::ModelProto &model);
  LogicalResult importFunction(proto::FunctionProto &function);
  LogicalResult importCall(proto::NodeProto &node,
                           proto::FunctionProto &function);
  static std::string functionKey(StringRef domain, StringRef name,
                                 StringRef overload) {
    std::string key =
        ((domain == "ai.onnx" ? StringRef() : domain) + "::" + name).str();
    if (!overload.empty())
      key += "::" + overload.str();
    return key;
  }
  LogicalResult importNode(proto::NodeProto &node, unsigned depth);
  // The steps of importNode.
  using NodeGraph = std::pair<StringRef, proto::GraphProto *>;
  LogicalResult importOperands(const proto::NodeProto &node,
                               const std::string &what,
                               SmallVectorImpl<Value> &operands,
                               SmallVectorImpl<bool> &present);
  FailureOr<std::optional<OperationName>>
  resolveOperation(const proto::NodeProto &node, StringRef domain,
                   int64_t opsetVersion, const std::string &what,
                   std::optional<int64_t> &widenedFrom);
  LogicalResult importNodeAttributes(proto::NodeProto &node,
                                     const OpSchema *schema,
                                     const std::string &what,
                                     NamedAttrList &attrs,
                                     SmallVectorImpl<NodeGraph> &graphs);
  LogicalResult groupSlots(const std::string &what, ArrayRef<bool> slots,
                           ArrayRef<ArgSchema> args,
                           SmallVectorImpl<int32_t> &sizes, StringRef kind);
  void addNodeAttributes(const proto::NodeProto &node, NamedAttrList &attrs);
  void addCustomOpAttributes(const proto::NodeProto &node, StringRef domain,
                             ArrayRef<bool> present,
                             ArrayRef<bool> resultPresent,
                             ArrayRef<NodeGraph> graphs, OperationState &state,
                             NamedAttrList &attrs);
  SmallVector<Type> graphArgumentDefaults(Operation *op, const OpSchema *schema,
                                          ArrayRef<int32_t> operandGroups);
  LogicalResult importNodeGraphs(Operation *op, const OpSchema *schema,
                                 ArrayRef<NodeGraph> graphs,
                                 ArrayRef<int32_t> operandGroups,
                                 unsigned depth, const std::string &what);
  LogicalResult importSubgraph(proto::GraphProto &graph, Region &region,
                               ArrayRef<Type> defaultArgTypes, unsigned depth,
                               const Twine &what);
  FailureOr<SmallVector<proto::NodeProto *>> sortNodes(NodeList &nodes,
                                                       StringRef graphName);
  LogicalResult setResultTypesFromGraphs(Operation *op,
                                         const proto::NodeProto &node);
  FailureOr<Type> resultType(const proto::NodeProto &node, unsigned index,
                             const OpSchema *schema, ArrayRef<int32_t> groups,
                             ArrayRef<Value> operands,
                             ArrayRef<int32_t> operandGroups,
                             const NamedAttrList &attrs);

  /// An onnx.Constant holding `value` (subgraph initializers).
  Value createConstant(ElementsAttr value, StringRef name) {
    OperationState state(fileLoc, ConstantOp::getOperationName());
    state.addAttribute("value", value);
    state.addAttribute("onnx.initializer", builder.getUnitAttr());
    state.addAttribute("onnx.outputs", builder.getStrArrayAttr({name}));
    state.addTypes(value.getType());
    return builder.create(state)->getResult(0);
  }

  // Attributes.
  FailureOr<Attribute> importAttribute(proto::AttributeProto &attr,
                                       const Twine &what);

  /// The op's name for ONNX attribute `name` (they differ where the ONNX
  /// name would clash with a generated accessor).
  static StringRef getODSAttrName(const OpSchema &schema, StringRef name) {
    for (const AttrSchema &a : schema.attributes)
      if (name == a.name)
        return a.odsName;
    return name;
  }

  // Values in scope: the innermost graph last.
  Value lookup(StringRef name) {
    for (auto &scope : llvm::reverse(scopes)) {
      auto it = scope.find(name);
      if (it != scope.end())
        return it->second;
    }
    // Training graphs read the model's initializers (state variables).
    if (globalLoadBlock) {
      auto it = globals.find(name);
      if (it != globals.end()) {
        OpBuilder b = OpBuilder::atBlockBegin(globalLoadBlock);
        Value load = ml_program::GlobalLoadConstOp::create(
            b, fileLoc, it->second.getType(),
            FlatSymbolRefAttr::get(it->second.getSymNameAttr()));
        scopes.front()[name] = load;
        return load;
      }
    }
    return nullptr;
  }
  /// The value of the node input `in` (`what` names the node), or an error
  /// when nothing in scope defines it.
  FailureOr<Value> lookupInput(const std::string &in, const std::string &what) {
    if (Value v = lookup(in))
      return v;
    return error(what + ": input '" + in +
                 "' is not a graph input, initializer or output of an "
                 "earlier node");
  }
  LogicalResult define(StringRef name, Value value, const Twine &what) {
    if (failed(checkName(name, what)))
      return failure();
    if (!scopes.back().try_emplace(name, value).second)
      return error("'" + name + "' is defined twice (" + what +
                   "); ONNX values have one definition [ir-names-ssa]");
    return success();
  }

  MLIRContext *context;
  /// A copy: callers pass temporaries (withModelDirectory).
  ImportOptions options;
  OpBuilder builder;
  Location fileLoc;
  TensorImporter tensors;
  int64_t irVersion = 0;
  llvm::StringMap<int64_t> opsets;
  /// Declared types of values (value_info, graph outputs), innermost last.
  SmallVector<llvm::StringMap<const proto::TypeProto *>> declaredTypes;
  SmallVector<llvm::StringMap<Value>> scopes;
  /// The types a graph declares for its values (value_info and typed
  /// outputs), into the innermost scope.
  void declareTypes(const proto::GraphProto &graph) {
    for (const proto::ValueInfoProto &vi : graph.value_info())
      declareValueInfo(vi);
    // An output whose type has no value (`type {}`, as torch.onnx.export
    // writes the outputs of nested If branches) declares nothing: its value
    // keeps the type its node gives it, as in ONNX Runtime.
    for (const proto::ValueInfoProto &vi : graph.output())
      if (vi.has_type() && isTypeSet(vi.type()))
        declaredTypes.back()[vi.name()] = &vi.type();
  }
  /// A value_info entry into the innermost scope. value_info is a hint (ONNX
  /// Runtime ignores what it cannot use): an entry whose type, or a type
  /// nested in it, has no value is left out with a warning.
  void declareValueInfo(const proto::ValueInfoProto &vi) {
    if (!vi.has_type() || !isTypeSet(vi.type())) {
      emitWarning(fileLoc) << "value_info '" << vi.name()
                           << "': the type has no value (tensor, sequence, "
                              "map, ...); ignored";
      return;
    }
    declaredTypes.back()[vi.name()] = &vi.type();
  }

  /// While a graph input or output type is imported: where the denotations
  /// of its dimensions go (parallel to its dim_params).
  SmallVectorImpl<Attribute> *dimDenotations = nullptr;
  /// The type and dimension denotations of a graph input or output.
  void importDenotations(const proto::TypeProto &type, ArrayRef<Attribute> dims,
                         NamedAttrList &attrs) {
    if (!type.denotation().empty())
      attrs.append("onnx.denotation", builder.getStringAttr(type.denotation()));
    if (hasDimParam(dims))
      attrs.append("onnx.dim_denotations", builder.getArrayAttr(dims));
  }

  /// The initializers by name (main graph and training algorithms).
  llvm::StringMap<ml_program::GlobalOp> globals;
  /// Set while a training graph is imported: its entry block, where loads of
  /// the initializers it reads go.
  Block *globalLoadBlock = nullptr;
  LogicalResult importTrainingInfo(proto::ModelProto &model);

  /// Model-local functions by functionKey; their func.func symbols.
  llvm::StringMap<proto::FunctionProto *> functions;
  /// Set while a function body is imported: attribute references are
  /// allowed, and types nobody gives are !onnx.any.
  bool insideFunction = false;
};

} // namespace

LogicalResult Importer::checkName(StringRef name, const Twine &what) {
  // Whether names are C90 identifiers is onnx-validate's to say.
  if (name.empty())
    return error(what + " has an empty name [ir-graph-io-names]");
  return success();
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

/// metadata_props as a dictionary; null when there are none.
static DictionaryAttr importMetadata(
    MLIRContext *context,
    const google::protobuf::RepeatedPtrField<proto::StringStringEntryProto>
        &props) {
  if (props.empty())
    return {};
  NamedAttrList list;
  for (const proto::StringStringEntryProto &p : props)
    list.set(p.key(), StringAttr::get(context, p.value()));
  return list.getDictionary(context);
}

/// A node's device configurations (IR 11) as attributes:
///   [{configuration_id, pipeline_stage, sharding_spec = [{tensor_name,
///     device, index_to_device_group_map = [[key, array<i64>], ...],
///     sharded_dim = [{axis, simple_sharding = [{dim_value | dim_param,
///     num_shards}]}]}]}]
static ArrayAttr
importDeviceConfigurations(Builder &b,
                           const google::protobuf::RepeatedPtrField<
                               proto::NodeDeviceConfigurationProto> &configs) {
  auto ints = [&](const google::protobuf::RepeatedField<int64_t> &v) {
    return b.getDenseI64ArrayAttr(SmallVector<int64_t>(v.begin(), v.end()));
  };
  SmallVector<Attribute> out;
  for (const proto::NodeDeviceConfigurationProto &c : configs) {
    NamedAttrList config;
    config.append("configuration_id", b.getStringAttr(c.configuration_id()));
    if (c.has_pipeline_stage())
      config.append("pipeline_stage", b.getI32IntegerAttr(c.pipeline_stage()));
    SmallVector<Attribute> specs;
    for (const proto::ShardingSpecProto &spec : c.sharding_spec()) {
      NamedAttrList s;
      s.append("tensor_name", b.getStringAttr(spec.tensor_name()));
      s.append("device", ints(spec.device()));
      SmallVector<Attribute> groups;
      for (const proto::IntIntListEntryProto &e :
           spec.index_to_device_group_map())
        groups.push_back(
            b.getArrayAttr({b.getI64IntegerAttr(e.key()), ints(e.value())}));
      s.append("index_to_device_group_map", b.getArrayAttr(groups));
      SmallVector<Attribute> dims;
      for (const proto::ShardedDimProto &d : spec.sharded_dim()) {
        SmallVector<Attribute> simple;
        for (const proto::SimpleShardedDimProto &sd : d.simple_sharding()) {
          NamedAttrList x;
          if (sd.has_dim_value())
            x.append("dim_value", b.getI64IntegerAttr(sd.dim_value()));
          if (sd.has_dim_param())
            x.append("dim_param", b.getStringAttr(sd.dim_param()));
          x.append("num_shards", b.getI64IntegerAttr(sd.num_shards()));
          simple.push_back(x.getDictionary(b.getContext()));
        }
        dims.push_back(b.getDictionaryAttr(
            {b.getNamedAttr("axis", b.getI64IntegerAttr(d.axis())),
             b.getNamedAttr("simple_sharding", b.getArrayAttr(simple))}));
      }
      s.append("sharded_dim", b.getArrayAttr(dims));
      specs.push_back(s.getDictionary(b.getContext()));
    }
    config.append("sharding_spec", b.getArrayAttr(specs));
    out.push_back(config.getDictionary(b.getContext()));
  }
  return b.getArrayAttr(out);
}

/// Whether any entry is non-empty (a symbolic dimension; also used for
/// dimension denotations). onnx.dim_params
/// lists every dimension of every tensor shape in the type, outermost type
/// first, "" where a dimension has no dim_param.
static bool hasDimParam(ArrayRef<Attribute> dimParams) {
  return llvm::any_of(dimParams, [](Attribute a) {
    return !cast<StringAttr>(a).getValue().empty();
  });
}

/// Whether `type` and every type nested in it has a value (a tensor type
/// also an element type).
static bool isTypeSet(const proto::TypeProto &type) {
  switch (type.value_case()) {
  case proto::TypeProto::kTensorType:
    return type.tensor_type().elem_type() != 0;
  case proto::TypeProto::kSparseTensorType:
    return type.sparse_tensor_type().elem_type() != 0;
  case proto::TypeProto::kSequenceType:
    return isTypeSet(type.sequence_type().elem_type());
  case proto::TypeProto::kMapType:
    return isTypeSet(type.map_type().value_type());
  case proto::TypeProto::kOptionalType:
    return isTypeSet(type.optional_type().elem_type());
  case proto::TypeProto::kOpaqueType:
    return true;
  case proto::TypeProto::VALUE_NOT_SET:
    break;
  }
  return false;
}

FailureOr<Type> Importer::importElementType(int32_t code, const Twine &what) {
  Type type = getElementTypeForDataType(context, code);
  if (!type)
    return error(what + ": unknown data type code " + Twine(code));
  // Whether the model's IR version has the type is onnx-validate's to say.
  return type;
}

static bool hasShape(const proto::TypeProto::Tensor &t) {
  return t.has_shape();
}
static bool hasShape(const proto::TypeProto::SparseTensor &t) {
  return t.has_shape();
}

FailureOr<Type> Importer::importType(const proto::TypeProto &type,
                                     const Twine &what,
                                     SmallVectorImpl<Attribute> *dimParams) {
  auto shapedType = [&](const auto &t) -> FailureOr<TensorType> {
    FailureOr<Type> element = importElementType(t.elem_type(), what);
    if (failed(element))
      return failure();
    if (!hasShape(t))
      return TensorType(UnrankedTensorType::get(*element));
    SmallVector<int64_t> dims;
    for (const proto::TensorShapeProto::Dimension &dim : t.shape().dim()) {
      if (dim.has_dim_value()) {
        if (dim.dim_value() < 0)
          return error(what + ": negative dimension " + Twine(dim.dim_value()));
        dims.push_back(dim.dim_value());
      } else {
        dims.push_back(ShapedType::kDynamic);
      }
      if (dimParams && dimDenotations)
        dimDenotations->push_back(StringAttr::get(context, dim.denotation()));
      if (dimParams)
        dimParams->push_back(StringAttr::get(
            context, dim.has_dim_param() ? dim.dim_param() : ""));
    }
    return TensorType(RankedTensorType::get(dims, *element));
  };
  switch (type.value_case()) {
  case proto::TypeProto::kTensorType:
    return shapedType(type.tensor_type());
  case proto::TypeProto::kSequenceType: {
    FailureOr<Type> element =
        importType(type.sequence_type().elem_type(), what, dimParams);
    if (failed(element))
      return failure();
    return Type(
        SeqType::getChecked([&] { return error(what); }, context, *element));
  }
  case proto::TypeProto::kMapType: {
    FailureOr<Type> key = importElementType(type.map_type().key_type(), what);
    FailureOr<Type> value =
        importType(type.map_type().value_type(), what, dimParams);
    if (failed(key) || failed(value))
      return failure();
    Type map =
        MapType::getChecked([&] { return error(what); }, context, *key, *value);
    if (!map)
      return failure();
    return map;
  }
  case proto::TypeProto::kOptionalType: {
    FailureOr<Type> element =
        importType(type.optional_type().elem_type(), what, dimParams);
    if (failed(element))
      return failure();
    Type opt =
        OptType::getChecked([&] { return error(what); }, context, *element);
    if (!opt)
      return failure();
    return opt;
  }
  case proto::TypeProto::kSparseTensorType: {
    FailureOr<TensorType> tensor = shapedType(type.sparse_tensor_type());
    if (failed(tensor))
      return failure();
    return Type(SparseTensorType::get(context, *tensor));
  }
  case proto::TypeProto::kOpaqueType:
    return Type(onnx::OpaqueType::get(context, type.opaque_type().domain(),
                                      type.opaque_type().name()));
  case proto::TypeProto::VALUE_NOT_SET:
    break;
  }
  return error(what + ": the type has no value (tensor, sequence, map, ...)");
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

FailureOr<Attribute> Importer::importAttribute(proto::AttributeProto &attr,
                                               const Twine &what) {
  using AP = proto::AttributeProto;
  AP::AttributeType kind = attr.type();
  // Models older than IR 2 may leave the type out: take the field that is set.
  if (kind == AP::UNDEFINED) {
    if (attr.has_f())
      kind = AP::FLOAT;
    else if (attr.has_i())
      kind = AP::INT;
    else if (attr.has_s())
      kind = AP::STRING;
    else if (attr.has_t())
      kind = AP::TENSOR;
    else if (attr.has_g())
      kind = AP::GRAPH;
    else if (attr.floats_size())
      kind = AP::FLOATS;
    else if (attr.ints_size())
      kind = AP::INTS;
    else if (attr.strings_size())
      kind = AP::STRINGS;
    else
      return error(what + ": attribute '" + attr.name() +
                   "' has no type and no value [ir-attr-value]");
  }
  Builder &b = builder;
  std::string attrWhat = (what + ", attribute '" + attr.name() + "'").str();
  // A list attribute whose items each convert or fail.
  auto importList = [&](auto *items, auto convert) -> FailureOr<Attribute> {
    SmallVector<Attribute> list;
    for (auto &item : *items) {
      FailureOr<Attribute> e = convert(item);
      if (failed(e))
        return failure();
      list.push_back(*e);
    }
    return Attribute(b.getArrayAttr(list));
  };
  switch (kind) {
  case AP::FLOAT:
    return Attribute(b.getF32FloatAttr(attr.f()));
  case AP::INT:
    return Attribute(b.getI64IntegerAttr(attr.i()));
  case AP::STRING:
    return Attribute(b.getStringAttr(attr.s()));
  case AP::TENSOR: {
    FailureOr<ElementsAttr> t = tensors.importTensor(
        *attr.mutable_t(), (what + ", attribute '" + attr.name() + "'").str());
    if (failed(t))
      return failure();
    return Attribute(*t);
  }
  case AP::SPARSE_TENSOR: {
    FailureOr<Attribute> t = tensors.importSparseTensor(
        *attr.mutable_sparse_tensor(),
        (what + ", attribute '" + attr.name() + "'").str());
    return t;
  }
  case AP::TYPE_PROTO: {
    FailureOr<Type> t =
        importType(attr.tp(), what + ", attribute '" + attr.name() + "'");
    if (failed(t))
      return failure();
    return Attribute(TypeAttr::get(*t));
  }
  case AP::FLOATS:
    return Attribute(b.getDenseF32ArrayAttr(
        SmallVector<float>(attr.floats().begin(), attr.floats().end())));
  case AP::INTS:
    return Attribute(b.getDenseI64ArrayAttr(
        SmallVector<int64_t>(attr.ints().begin(), attr.ints().end())));
  case AP::STRINGS: {
    SmallVector<Attribute> strings;
    for (const std::string &s : attr.strings())
      strings.push_back(b.getStringAttr(s));
    return Attribute(b.getArrayAttr(strings));
  }
  case AP::TENSORS:
    return importList(attr.mutable_tensors(),
                      [&](proto::TensorProto &t) -> FailureOr<Attribute> {
                        FailureOr<ElementsAttr> e =
                            tensors.importTensor(t, attrWhat);
                        if (failed(e))
                          return failure();
                        return Attribute(*e);
                      });
  case AP::SPARSE_TENSORS:
    return importList(attr.mutable_sparse_tensors(),
                      [&](proto::SparseTensorProto &t) {
                        return tensors.importSparseTensor(t, attrWhat);
                      });
  case AP::TYPE_PROTOS:
    return importList(attr.mutable_type_protos(),
                      [&](proto::TypeProto &t) -> FailureOr<Attribute> {
                        FailureOr<Type> e = importType(t, attrWhat);
                        if (failed(e))
                          return failure();
                        return Attribute(TypeAttr::get(*e));
                      });
  default:
    break;
  }
  return error(what + ": attribute '" + attr.name() + "' has type " +
               AP::AttributeType_Name(kind) +
               ", which is not a value (graphs are regions)");
}

/// The AttributeProto type that an attribute of the given schema kind has.
static proto::AttributeProto::AttributeType protoKind(AttrKind kind) {
  return static_cast<proto::AttributeProto::AttributeType>(
      getAttributeProtoType(kind));
}

//===----------------------------------------------------------------------===//
// Nodes
//===----------------------------------------------------------------------===//

/// Collects the names a node reads, those of its subgraphs included (outer
/// values that a subgraph uses are inputs of the node for ordering).
static void collectNodeInputs(const proto::NodeProto &node,
                              llvm::StringSet<> &names) {
  for (const std::string &in : node.input())
    if (!in.empty())
      names.insert(in);
  for (const proto::AttributeProto &attr : node.attribute()) {
    auto visit = [&](const proto::GraphProto &g) {
      for (const proto::NodeProto &n : g.node())
        collectNodeInputs(n, names);
    };
    if (attr.has_g())
      visit(attr.g());
    for (const proto::GraphProto &g : attr.graphs())
      visit(g);
  }
}

FailureOr<SmallVector<proto::NodeProto *>>
Importer::sortNodes(NodeList &nodes, StringRef graphName) {
  // The graph's own outputs define names; everything else is outer scope.
  llvm::StringMap<unsigned> producer;
  for (auto [i, node] : llvm::enumerate(nodes))
    for (const std::string &out : node.output())
      if (!out.empty() && !producer.try_emplace(out, i).second)
        return error("'" + out + "' is an output of two nodes ('" +
                     nodes.Get(producer[out]).name() + "' and '" + node.name() +
                     "'); ONNX values have one definition [ir-names-ssa]");
  unsigned n = nodes.size();
  SmallVector<SmallVector<unsigned>> users(n);
  SmallVector<unsigned> pending(n, 0);
  bool sorted = true;
  for (unsigned i = 0; i < n; ++i) {
    llvm::StringSet<> inputs;
    collectNodeInputs(nodes.Get(i), inputs);
    for (const auto &in : inputs) {
      auto it = producer.find(in.getKey());
      if (it == producer.end() || it->second == i)
        continue;
      users[it->second].push_back(i);
      ++pending[i];
      sorted &= it->second < i;
    }
  }
  SmallVector<proto::NodeProto *> order;
  if (sorted) {
    for (proto::NodeProto &node : nodes)
      order.push_back(&node);
    return order;
  }
  SmallVector<unsigned> ready;
  for (unsigned i = n; i-- > 0;)
    if (!pending[i])
      ready.push_back(i);
  while (!ready.empty()) {
    unsigned i = ready.pop_back_val();
    order.push_back(nodes.Mutable(i));
    for (unsigned u : llvm::reverse(users[i]))
      if (--pending[u] == 0)
        ready.push_back(u);
  }
  if (order.size() != n) {
    for (unsigned i = 0; i < n; ++i)
      if (pending[i])
        return error("graph '" + graphName + "' has a cycle through " +
                     describe(nodes.Get(i)) + " [ir-graph-acyclic]");
  }
  emitRemark(fileLoc) << "graph '" << graphName
                      << "': nodes are not in topological order; imported "
                         "in a sorted order [ir-graph-topo-order]";
  return order;
}

/// An ONNX type string of the spec ("tensor(float)", "seq(tensor(int64))")
/// as a type with unknown shape, or null when it names no single type.
/// The shape-free version of a type: what binding a type variable carries.
static Type withoutShape(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return UnrankedTensorType::get(tensor.getElementType());
  return type;
}

FailureOr<Type> Importer::resultType(const proto::NodeProto &node,
                                     unsigned index, const OpSchema *schema,
                                     ArrayRef<int32_t> groups,
                                     ArrayRef<Value> operands,
                                     ArrayRef<int32_t> operandGroups,
                                     const NamedAttrList &attrs) {
  const std::string &name = node.output(index);
  for (auto &scope : llvm::reverse(declaredTypes)) {
    auto it = scope.find(name);
    if (it != scope.end())
      return importType(*it->second, "value '" + name + "'");
  }
  auto fail = [&]() -> FailureOr<Type> {
    // Inside a polymorphic function, the call decides.
    if (insideFunction)
      return Type(AnyType::get(context));
    // The operator's inference function decides once the op exists.
    if (schema && InferenceRegistry::get().lookup(Operator(*schema)))
      return Type();
    return error("cannot tell the type of '" + name + "', output " +
                 Twine(index) + " of " + describe(node) +
                 ": give it a value_info");
  };
  if (!schema)
    return fail();
  // The output's schema entry.
  const ArgSchema *arg = nullptr;
  unsigned slot = 0;
  for (auto [i, size] : llvm::enumerate(groups)) {
    const ArgSchema &a = schema->outputs[i];
    unsigned width = a.kind == ArgKind::Variadic ? size : 1;
    if (index < slot + width) {
      arg = &a;
      break;
    }
    slot += width;
  }
  if (!arg)
    return fail();
  // A type variable that an input binds (each value of a heterogeneous
  // variadic output binds its own: SequenceMap's outputs).
  if (arg->typeVar >= 0 && !arg->heterogeneous) {
    unsigned next = 0;
    for (auto [i, size] : llvm::enumerate(operandGroups)) {
      const ArgSchema &in = schema->inputs[i];
      if (in.typeVar == arg->typeVar && size > 0 && !in.heterogeneous)
        return withoutShape(operands[next].getType());
      next += size;
    }
  }
  // Containers built from or taken out of their operand.
  Type in0 = operands.empty() ? Type() : operands.front().getType();
  if (isOperator<SequenceAtOp, ConcatFromSequenceOp>(*schema))
    if (auto seq = dyn_cast_or_null<SeqType>(in0))
      return withoutShape(seq.getElementType());
  if (isOperator<SequenceConstructOp, SplitToSequenceOp>(*schema) && in0)
    return Type(SeqType::get(context, withoutShape(in0)));
  if (isOperator<SequenceEmptyOp>(*schema)) {
    Type element = Float32Type::get(context);
    if (auto dtype = dyn_cast_or_null<IntegerAttr>(attrs.get("dtype")))
      element = getElementTypeForDataType(context, dtype.getInt());
    if (!element)
      return fail();
    return Type(SeqType::get(context, UnrankedTensorType::get(element)));
  }
  if (isOperator<OptionalOp>(*schema)) {
    if (auto type = dyn_cast_or_null<TypeAttr>(
            attrs.get(getODSAttrName(*schema, "type"))))
      return Type(OptType::get(context, type.getValue()));
    if (in0)
      return Type(OptType::get(context, withoutShape(in0)));
  }
  if (isOperator<OptionalGetElementOp>(*schema) && in0) {
    if (auto opt = dyn_cast<OptType>(in0))
      return withoutShape(opt.getElementType());
    return withoutShape(in0);
  }
  // An element type chosen by an attribute, or by its default.
  for (StringRef attrName :
       {"to", "dtype", "output_dtype", "output_datatype", "stash_type"}) {
    if (auto code = dyn_cast_or_null<IntegerAttr>(attrs.get(attrName))) {
      if (Type element = getElementTypeForDataType(context, code.getInt()))
        return Type(UnrankedTensorType::get(element));
      continue;
    }
    for (const AttrSchema &a : schema->attributes) {
      int64_t code;
      if (a.name == attrName && a.defaultValue &&
          !StringRef(a.defaultValue).getAsInteger(10, code))
        if (Type element = getElementTypeForDataType(context, code))
          return Type(UnrankedTensorType::get(element));
    }
  }
  // The type of a tensor attribute (Constant, ConstantOfShape).
  for (NamedAttribute attr : attrs)
    if (auto value = dyn_cast<ElementsAttr>(attr.getValue()))
      if (!attr.getName().strref().starts_with("onnx."))
        return Type(UnrankedTensorType::get(value.getElementType()));
  // Constant's scalar and list forms.
  static const std::pair<StringRef, StringRef> constants[] = {
      {"value_float", "float"},   {"value_floats", "float"},
      {"value_int", "int64"},     {"value_ints", "int64"},
      {"value_string", "string"}, {"value_strings", "string"}};
  for (auto [attrName, element] : constants)
    if (attrs.get(attrName))
      return Type(
          UnrankedTensorType::get(getElementTypeForName(context, element)));
  // ConstantOfShape without a value gives float zeros.
  if (isOperator<ConstantOfShapeOp>(*schema))
    return Type(UnrankedTensorType::get(Float32Type::get(context)));
  // Without their attribute, EyeLike gives the input's element type and
  // DequantizeLinear the scale's.
  if (isOperator<EyeLikeOp>(*schema) && in0)
    return withoutShape(in0);
  if (isOperator<DequantizeLinearOp>(*schema) && operands.size() > 1)
    return withoutShape(operands[1].getType());
  // If, Loop, Scan, SequenceMap: from their graphs, once imported.
  if (llvm::any_of(schema->attributes,
                   [&](const AttrSchema &a) { return schema->isGraph(a); }))
    return Type();
  // A type the schema fixes.
  StringRef typeStr = arg->typeStr;
  if (arg->typeVar >= 0) {
    typeStr = schema->typeVars[arg->typeVar].allowed;
    if (typeStr.contains("),"))
      return fail();
  }
  if (Type t = parseSchemaTypeString(context, typeStr))
    return t;
  return fail();
}

/// The operands of `node` (omitted optional inputs left out), and which of
/// its input slots are present.
LogicalResult Importer::importOperands(const proto::NodeProto &node,
                                       const std::string &what,
                                       SmallVectorImpl<Value> &operands,
                                       SmallVectorImpl<bool> &present) {
  for (const std::string &in : node.input()) {
    present.push_back(!in.empty());
    if (in.empty())
      continue;
    FailureOr<Value> v = lookupInput(in, what);
    if (failed(v))
      return failure();
    operands.push_back(*v);
  }
  return success();
}

/// The op of `node` at version `opsetVersion` of its domain: none for an
/// unknown domain (an onnx.custom), an error for an operator that the domain
/// lacks at that opset. Constant before 9 allows only float values, but
/// exporters of its time (PyTorch's among them) wrote int64 shape constants
/// with it, and ONNX Runtime runs such models. The node is read as
/// Constant-9, which differs from Constant-1 only in the types it allows, and
/// `widenedFrom` keeps the version its opset selects (for the validator).
FailureOr<std::optional<OperationName>>
Importer::resolveOperation(const proto::NodeProto &node, StringRef domain,
                           int64_t opsetVersion, const std::string &what,
                           std::optional<int64_t> &widenedFrom) {
  std::optional<OperationName> opName =
      lookupSchemaOp(context, domain, node.op_type(), opsetVersion);
  bool knownDomain = domain.empty() || domain == "ai.onnx.ml" ||
                     domain == "ai.onnx.preview" ||
                     domain == "ai.onnx.preview.training";
  if (!opName && knownDomain) {
    if (lookupSchemaOp(context, domain, node.op_type(), INT64_MAX))
      return error(what +
                   ": the operator's first version is newer than opset " +
                   Twine(opsetVersion) + " of '" +
                   (domain.empty() ? StringRef("ai.onnx") : domain) +
                   "' that the model imports [ver-op-compatible]");
    return error(what + ": no operator '" + node.op_type() + "' in domain '" +
                 (domain.empty() ? StringRef("ai.onnx") : domain) +
                 "' [ver-op-compatible]");
  }
  if (!domain.empty() ||
      node.op_type() != Operator::of<ConstantOp>().getName() ||
      opsetVersion >= 9)
    return opName;
  for (const proto::AttributeProto &attr : node.attribute())
    if (attr.name() == "value" && attr.has_t() &&
        !llvm::is_contained({proto::TensorProto::FLOAT,
                             proto::TensorProto::FLOAT16,
                             proto::TensorProto::DOUBLE},
                            attr.t().data_type())) {
      widenedFrom = opName ? opName->getInterface<ONNXSchemaOpInterface>()
                                 ->getSchema()
                                 .sinceVersion
                           : 1;
      opName = OperationName(ConstantV9Op::getOperationName(), context);
      emitWarning(nodeLoc(node))
          << what << ": Constant-" << *widenedFrom
          << " holds a value of a type only Constant-9 allows (data_type "
          << attr.t().data_type() << "); read as Constant-9, as ONNX Runtime "
          << "does";
    }
  return opName;
}

/// The attributes of `node` (checked against `schema` when it has one) into
/// `attrs`, its graph attributes into `graphs`; references to attributes of
/// the enclosing function go into one dictionary attribute.
LogicalResult
Importer::importNodeAttributes(proto::NodeProto &node, const OpSchema *schema,
                               const std::string &what, NamedAttrList &attrs,
                               SmallVectorImpl<NodeGraph> &graphs) {
  NamedAttrList refs;
  for (proto::AttributeProto &attr : *node.mutable_attribute()) {
    const AttrSchema *attrSchema = nullptr;
    if (schema) {
      auto it = llvm::find_if(schema->attributes, [&](const AttrSchema &a) {
        return attr.name() == a.name;
      });
      if (it == schema->attributes.end())
        return error(what + ": unknown attribute '" + attr.name() +
                     "' for version " + Twine(schema->sinceVersion) +
                     " of the operator [ir-node-signature]");
      attrSchema = &*it;
    }
    if (!attr.ref_attr_name().empty()) {
      refs.append(attr.name(), AttrRefAttr::get(context, attr.ref_attr_name()));
      continue;
    }
    if (attrSchema && attr.type() != proto::AttributeProto::UNDEFINED &&
        attr.type() != protoKind(attrSchema->kind))
      return error(what + ": attribute '" + attr.name() + "' has type " +
                   proto::AttributeProto::AttributeType_Name(attr.type()) +
                   ", the operator expects " +
                   proto::AttributeProto::AttributeType_Name(
                       protoKind(attrSchema->kind)) +
                   " [ir-node-signature]");
    // A graph by its type; by its field only when it has no type (a stray
    // `g` beside a typed attribute's value is not one).
    bool isGraph =
        attr.type() == proto::AttributeProto::GRAPH ||
        (attr.type() == proto::AttributeProto::UNDEFINED && attr.has_g());
    if (isGraph && attrSchema && !schema->isGraph(*attrSchema))
      return error(what + ": attribute '" + attr.name() +
                   "' holds a graph, the operator expects " +
                   proto::AttributeProto::AttributeType_Name(
                       protoKind(attrSchema->kind)) +
                   " [ir-node-signature]");
    if (isGraph) {
      graphs.push_back(
          {attrSchema ? StringRef(attrSchema->odsName) : StringRef(attr.name()),
           attr.mutable_g()});
      continue;
    }
    FailureOr<Attribute> value = importAttribute(attr, what);
    if (failed(value))
      return failure();
    attrs.append(attrSchema ? StringRef(attrSchema->odsName)
                            : StringRef(attr.name()),
                 *value);
  }
  // onnx-validate checks that references are inside a function.
  if (!refs.empty())
    attrs.append(getAttrRefsAttrName(), refs.getDictionary(context));
  return success();
}

/// The sizes of the schema's input or output groups (`kind`) that the
/// present `slots` fill.
LogicalResult Importer::groupSlots(const std::string &what,
                                   ArrayRef<bool> slots,
                                   ArrayRef<ArgSchema> args,
                                   SmallVectorImpl<int32_t> &sizes,
                                   StringRef kind) {
  SlotMismatch why;
  FailureOr<SmallVector<int32_t>> fitted =
      assignSlotsToGroups(slots, args, why);
  if (succeeded(fitted)) {
    sizes.assign(fitted->begin(), fitted->end());
    return success();
  }
  switch (why.kind) {
  case SlotMismatch::MissingRequired:
    return error(what + ": " + kind + " '" + why.arg->name +
                 "' is required [ir-node-signature]");
  case SlotMismatch::OmittedInVariadic:
    return error(what + ": variadic " + kind + " '" + why.arg->name +
                 "' has an empty name [ir-node-signature]");
  case SlotMismatch::TooMany:
    break;
  }
  return error(what + ": " + Twine(why.given) + " " + kind +
               "s, the operator takes at most " + Twine(why.taken) +
               " [ir-node-signature]");
}

/// The attributes every imported op carries: the node's name, outputs, doc
/// string, metadata and device configurations.
void Importer::addNodeAttributes(const proto::NodeProto &node,
                                 NamedAttrList &attrs) {
  if (!node.name().empty())
    attrs.append("onnx.name", builder.getStringAttr(node.name()));
  if (!node.doc_string().empty())
    attrs.append("onnx.doc_string", builder.getStringAttr(node.doc_string()));
  if (DictionaryAttr meta = importMetadata(context, node.metadata_props()))
    attrs.append("onnx.metadata_props", meta);
  if (node.device_configurations_size())
    attrs.append(
        "onnx.device_configurations",
        importDeviceConfigurations(builder, node.device_configurations()));
}

/// An onnx.custom for a node of an unknown domain: its domain, op type,
/// omitted slots and graph names as attributes, a region per graph.
void Importer::addCustomOpAttributes(const proto::NodeProto &node,
                                     StringRef domain, ArrayRef<bool> present,
                                     ArrayRef<bool> resultPresent,
                                     ArrayRef<NodeGraph> graphs,
                                     OperationState &state,
                                     NamedAttrList &attrs) {
  SmallVector<int64_t> absentIn, absentOut;
  for (auto [i, p] : llvm::enumerate(present))
    if (!p)
      absentIn.push_back(i);
  for (auto [i, p] : llvm::enumerate(resultPresent))
    if (!p)
      absentOut.push_back(i);
  attrs.append("domain", builder.getStringAttr(domain));
  attrs.append("op_type", builder.getStringAttr(node.op_type()));
  if (!absentIn.empty())
    attrs.append("absent_inputs", builder.getDenseI64ArrayAttr(absentIn));
  if (!absentOut.empty())
    attrs.append("absent_outputs", builder.getDenseI64ArrayAttr(absentOut));
  if (!graphs.empty()) {
    SmallVector<Attribute> names;
    for (const NodeGraph &g : graphs) {
      names.push_back(builder.getStringAttr(g.first));
      state.addRegion();
    }
    attrs.append("graph_names", builder.getArrayAttr(names));
  }
}

/// The types a graph of `op` gives its arguments when the model leaves them
/// out: Loop's body takes (iteration, condition, loop-carried...), Scan's
/// (state..., one slice of each scan input...).
SmallVector<Type>
Importer::graphArgumentDefaults(Operation *op, const OpSchema *schema,
                                ArrayRef<int32_t> operandGroups) {
  SmallVector<Type> defaults;
  if (schema && isOperator<LoopOp>(*schema)) {
    defaults.push_back(RankedTensorType::get({}, builder.getI64Type()));
    defaults.push_back(RankedTensorType::get({}, builder.getI1Type()));
    for (Value v : ValueRange(op->getOperands())
                       .drop_front(operandGroups.size()
                                       ? operandGroups[0] + operandGroups[1]
                                       : 0))
      defaults.push_back(v.getType());
  }
  if (schema && isOperator<ScanOp>(*schema)) {
    ValueRange inputs = op->getOperands();
    if (schema->sinceVersion == 8)
      inputs = inputs.drop_front(operandGroups[0]);
    int64_t scanInputs = 0;
    if (auto n = op->getAttrOfType<IntegerAttr>("num_scan_inputs"))
      scanInputs = n.getInt();
    int64_t states = int64_t(inputs.size()) - scanInputs;
    for (auto [k, v] : llvm::enumerate(inputs)) {
      auto tensor = dyn_cast<TensorType>(v.getType());
      if (int64_t(k) < states || !tensor)
        defaults.push_back(v.getType());
      else
        defaults.push_back(UnrankedTensorType::get(tensor.getElementType()));
    }
  }
  return defaults;
}

/// The graph attributes of `node` as the regions of `op` named after them.
LogicalResult Importer::importNodeGraphs(Operation *op, const OpSchema *schema,
                                         ArrayRef<NodeGraph> graphs,
                                         ArrayRef<int32_t> operandGroups,
                                         unsigned depth,
                                         const std::string &what) {
  for (auto &[name, graph] : graphs) {
    unsigned regionIndex = 0;
    if (schema) {
      for (const AttrSchema &a : schema->attributes) {
        if (!schema->isGraph(a))
          continue;
        if (name == a.odsName)
          break;
        ++regionIndex;
      }
    } else {
      regionIndex = std::distance(
          graphs.begin(),
          llvm::find_if(graphs, [&](auto &g) { return g.first == name; }));
    }
    if (regionIndex >= op->getNumRegions())
      return error(what + ": graph attribute '" + name.str() +
                   "' has no region in the operator [ir-node-signature]");
    SmallVector<Type> defaults =
        graphArgumentDefaults(op, schema, operandGroups);
    OpBuilder::InsertionGuard guard(builder);
    if (failed(importSubgraph(*graph, op->getRegion(regionIndex), defaults,
                              depth + 1,
                              what + ", graph '" + name.str() + "'")))
      return failure();
  }
  return success();
}

LogicalResult Importer::importNode(proto::NodeProto &node, unsigned depth) {
  std::string what = describe(node);
  Location loc = nodeLoc(node);
  StringRef domain = node.domain();
  if (domain == "ai.onnx")
    domain = "";
  auto opset = opsets.find(domain.empty() ? "ai.onnx" : domain);
  if (opset == opsets.end())
    return error(what + ": domain '" + domain +
                 "' is not in the model's opset_import "
                 "[ver-opset-import-domain]");

  auto function =
      functions.find(functionKey(domain, node.op_type(), node.overload()));
  if (function != functions.end())
    return importCall(node, *function->second);

  // Operands, with the omitted ones.
  SmallVector<Value> operands;
  SmallVector<bool> present;
  if (failed(importOperands(node, what, operands, present)))
    return failure();
  std::optional<int64_t> widenedFrom;
  FailureOr<std::optional<OperationName>> resolved =
      resolveOperation(node, domain, opset->second, what, widenedFrom);
  if (failed(resolved))
    return failure();
  std::optional<OperationName> opName = *resolved;
  const OpSchema *schema = nullptr;
  if (opName)
    schema = &opName->getInterface<ONNXSchemaOpInterface>()->getSchema();

  NamedAttrList attrs;
  SmallVector<NodeGraph> graphs;
  if (failed(importNodeAttributes(node, schema, what, attrs, graphs)))
    return failure();

  // Group the inputs and outputs as the schema does.
  SmallVector<int32_t> operandGroups, resultGroups;
  SmallVector<bool> resultPresent;
  for (const std::string &out : node.output())
    resultPresent.push_back(!out.empty());
  if (schema && !schema->deprecated &&
      (failed(
           groupSlots(what, present, schema->inputs, operandGroups, "input")) ||
       failed(groupSlots(what, resultPresent, schema->outputs, resultGroups,
                         "output"))))
    return failure();

  SmallVector<Type> resultTypes;
  for (auto [i, out] : llvm::enumerate(node.output())) {
    if (out.empty())
      continue;
    FailureOr<Type> type = resultType(node, i, schema, resultGroups, operands,
                                      operandGroups, attrs);
    if (failed(type))
      return failure();
    // Null: the type comes from the op's graphs (set below).
    resultTypes.push_back(*type ? *type : builder.getNoneType());
  }

  // Names survive a round trip as attributes.
  addNodeAttributes(node, attrs);
  SmallVector<Attribute> outNames;
  for (const std::string &out : node.output())
    outNames.push_back(builder.getStringAttr(out));

  OperationState state(
      loc,
      opName ? *opName : OperationName(CustomOp::getOperationName(), context));
  state.addOperands(operands);
  state.addTypes(resultTypes);
  if (opName) {
    if (opName->hasTrait<OpTrait::AttrSizedOperandSegments>())
      attrs.append("operandSegmentSizes",
                   builder.getDenseI32ArrayAttr(operandGroups));
    if (opName->hasTrait<OpTrait::AttrSizedResultSegments>())
      attrs.append("resultSegmentSizes",
                   builder.getDenseI32ArrayAttr(resultGroups));
    // One region per graph attribute of the schema, in its order.
    for (const AttrSchema &a : schema->attributes)
      if (schema->isGraph(a))
        state.addRegion();
  } else {
    addCustomOpAttributes(node, domain, present, resultPresent, graphs, state,
                          attrs);
  }
  attrs.append("onnx.outputs", builder.getArrayAttr(outNames));
  if (widenedFrom)
    attrs.append("onnx.widened_from", builder.getI64IntegerAttr(*widenedFrom));
  state.addAttributes(attrs);
  Operation *op = builder.create(state);

  if (failed(
          importNodeGraphs(op, schema, graphs, operandGroups, depth, what)) ||
      failed(setResultTypesFromGraphs(op, node)))
    return failure();

  unsigned r = 0;
  for (const std::string &out : node.output()) {
    if (out.empty())
      continue;
    if (failed(define(out, op->getResult(r++), "output of " + what)))
      return failure();
  }
  return success();
}

/// The results of If, Loop, Scan and SequenceMap whose types no value_info
/// gives follow from what their graphs yield.
LogicalResult Importer::setResultTypesFromGraphs(Operation *op,
                                                 const proto::NodeProto &node) {
  // Types no value_info or schema rule gives: from the op's inference.
  if (isa<ONNXSchemaOpInterface>(op) &&
      llvm::any_of(op->getResultTypes(),
                   [](Type t) { return isa<NoneType>(t); })) {
    InferenceContext ctx(op);
    if (succeeded(inferTypes(ctx)))
      for (unsigned i = 0, e = ctx.getNumOutputs(); i < e; ++i)
        if (Value result = ctx.getOutput(i))
          if (isa<NoneType>(result.getType()) && ctx.getInferredType(i))
            result.setType(ctx.getInferredType(i));
  }
  for (auto [i, result] : llvm::enumerate(op->getResults())) {
    if (!isa<NoneType>(result.getType()))
      continue;
    auto fail = [&]() {
      return error("cannot tell the type of output " + Twine(i) + " of " +
                   describe(node) + ": give it a value_info");
    };
    Region *region = op->getNumRegions() ? &op->getRegion(0) : nullptr;
    const OpSchema &opSchema = cast<ONNXSchemaOpInterface>(op).getSchema();
    bool isIf = isOperator<IfOp>(opSchema);
    // If yields its outputs directly from either branch.
    if (isIf)
      region = &op->getRegion(op->getNumRegions() - 1);
    if (!region || region->empty())
      return fail();
    auto yield = cast<YieldOp>(region->front().getTerminator());
    Type type;
    if (isIf) {
      if (i < yield.getValues().size())
        type = withoutShape(yield.getValues()[i].getType());
    } else if (isOperator<LoopOp>(opSchema)) {
      // Yields (condition, carried..., scan outputs...); carried results
      // keep their type, scan outputs stack the iterations.
      unsigned carried = region->getNumArguments() - 2;
      if (i + 1 < yield.getValues().size()) {
        Type t = yield.getValues()[i + 1].getType();
        if (i < carried)
          type = withoutShape(t);
        else if (auto tensor = dyn_cast<TensorType>(t))
          type = UnrankedTensorType::get(tensor.getElementType());
      }
    } else if (isOperator<ScanOp, SequenceMapOp>(opSchema)) {
      if (i < yield.getValues().size()) {
        Type t = yield.getValues()[i].getType();
        if (isOperator<SequenceMapOp>(opSchema))
          t = SeqType::get(context, withoutShape(t));
        type = withoutShape(t);
      }
    }
    if (!type)
      return fail();
    result.setType(type);
  }
  return success();
}

LogicalResult Importer::importNodes(NodeList &nodes, StringRef graphName,
                                    unsigned depth) {
  FailureOr<SmallVector<proto::NodeProto *>> order =
      sortNodes(nodes, graphName);
  if (failed(order))
    return failure();
  for (proto::NodeProto *node : *order)
    if (failed(importNode(*node, depth)))
      return failure();
  return success();
}

LogicalResult Importer::importSubgraph(proto::GraphProto &graph, Region &region,
                                       ArrayRef<Type> defaultArgTypes,
                                       unsigned depth, const Twine &what) {
  if (depth > options.maxGraphDepth)
    return error(what + ": subgraphs nest deeper than " +
                 Twine(options.maxGraphDepth) + " levels");
  Block *block = builder.createBlock(&region);
  scopes.emplace_back();
  declaredTypes.emplace_back();
  llvm::scope_exit popScopes([&] {
    scopes.pop_back();
    declaredTypes.pop_back();
  });
  declareTypes(graph);
  for (auto [i, input] : llvm::enumerate(graph.input())) {
    Type type;
    if (input.has_type()) {
      FailureOr<Type> t =
          importType(input.type(), what + ", input '" + input.name() + "'");
      if (failed(t))
        return failure();
      type = *t;
    } else if (i < defaultArgTypes.size()) {
      type = defaultArgTypes[i];
    } else {
      return error(what + ": input '" + input.name() +
                   "' has no type [ir-graph-io-typed]");
    }
    if (failed(define(input.name(), block->addArgument(type, fileLoc),
                      (what + " input").str())))
      return failure();
  }
  for (proto::TensorProto &init : *graph.mutable_initializer()) {
    // IR 4 on: a subgraph's initializers are not its inputs (IR.md).
    if (llvm::any_of(graph.input(), [&](const proto::ValueInfoProto &input) {
          return input.name() == init.name();
        }))
      return error(what + ": '" + init.name() +
                   "' is both an input and an initializer of the subgraph "
                   "[ir-subgraph-init-input]");
    FailureOr<ElementsAttr> value = tensors.importTensor(
        init, (what + ", initializer '" + init.name() + "'").str());
    if (failed(value))
      return failure();
    if (failed(define(init.name(), createConstant(*value, init.name()),
                      (what + " initializer").str())))
      return failure();
  }
  if (failed(importNodes(*graph.mutable_node(), graph.name(), depth)))
    return failure();
  SmallVector<Value> results;
  for (const proto::ValueInfoProto &out : graph.output()) {
    Value v = lookup(out.name());
    if (!v)
      return error(what + ": output '" + out.name() + "' is not defined");
    results.push_back(v);
  }
  auto yield = YieldOp::create(builder, fileLoc, results);
  // The graph's own name and its input names, for export.
  if (!graph.name().empty())
    yield->setAttr("onnx.name", builder.getStringAttr(graph.name()));
  SmallVector<Attribute> inputNames;
  for (const proto::ValueInfoProto &input : graph.input())
    inputNames.push_back(builder.getStringAttr(input.name()));
  if (!inputNames.empty())
    yield->setAttr("onnx.inputs", builder.getArrayAttr(inputNames));
  return success();
}

//===----------------------------------------------------------------------===//
// Model-local functions
//===----------------------------------------------------------------------===//

LogicalResult Importer::importFunctions(proto::ModelProto &model) {
  for (proto::FunctionProto &f : *model.mutable_functions()) {
    std::string key = functionKey(f.domain(), f.name(), f.overload());
    if (f.name().empty())
      return error("a model-local function has no name");
    if (!functions.try_emplace(key, &f).second)
      return error("model-local function '" + key +
                   "' is defined twice (domain, name and overload must be "
                   "unique) [ir-func-unique]");
  }
  // Recursion among functions is onnx-validate's to find.
  for (proto::FunctionProto &f : *model.mutable_functions())
    if (failed(importFunction(f)))
      return failure();
  return success();
}

LogicalResult Importer::importFunction(proto::FunctionProto &function) {
  std::string key =
      functionKey(function.domain(), function.name(), function.overload());
  std::string what = "model-local function '" + key + "'";
  Builder &b = builder;

  // The function's own scope and opsets.
  auto savedScopes = std::move(scopes);
  auto savedTypes = std::move(declaredTypes);
  auto savedOpsets = opsets;
  scopes.clear();
  declaredTypes.clear();
  scopes.emplace_back();
  declaredTypes.emplace_back();
  llvm::scope_exit restore([&] {
    scopes = std::move(savedScopes);
    declaredTypes = std::move(savedTypes);
    opsets = std::move(savedOpsets);
    insideFunction = false;
  });
  insideFunction = true;
  NamedAttrList funcOpsets;
  for (const proto::OperatorSetIdProto &opset : function.opset_import()) {
    std::string domain =
        opset.domain().empty() ? std::string("ai.onnx") : opset.domain();
    opsets[domain] = opset.version();
    funcOpsets.append(domain, b.getI64IntegerAttr(opset.version()));
  }
  for (const proto::ValueInfoProto &vi : function.value_info())
    declareValueInfo(vi);

  // Inputs are typed by value_info where it gives them, else polymorphic.
  SmallVector<Type> argTypes;
  for (const std::string &input : function.input()) {
    Type type = AnyType::get(context);
    auto it = declaredTypes.back().find(input);
    if (it != declaredTypes.back().end()) {
      FailureOr<Type> t =
          importType(*it->second, what + ", input '" + input + "'");
      if (failed(t))
        return failure();
      type = *t;
    }
    argTypes.push_back(type);
  }
  auto func = func::FuncOp::create(builder, fileLoc, key,
                                   b.getFunctionType(argTypes, {}));
  func.setPrivate();
  Block *body = func.addEntryBlock();
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(body);
  for (auto [input, arg] : llvm::zip(function.input(), body->getArguments()))
    if (failed(define(input, arg, what + " input")))
      return failure();
  if (failed(importNodes(*function.mutable_node(), key, 0)))
    return failure();
  SmallVector<Value> results;
  for (const std::string &out : function.output()) {
    Value v = lookup(out);
    if (!v)
      return error(what + ": output '" + out + "' is not defined");
    results.push_back(v);
  }
  func::ReturnOp::create(builder, fileLoc, results);
  func.setFunctionType(
      b.getFunctionType(argTypes, ValueRange(results).getTypes()));

  // Everything else about the function, for specialisation and export.
  auto strings =
      [&](const google::protobuf::RepeatedPtrField<std::string> &list) {
        SmallVector<Attribute> out;
        for (const std::string &item : list)
          out.push_back(b.getStringAttr(item));
        return b.getArrayAttr(out);
      };
  NamedAttrList info;
  info.append("domain", b.getStringAttr(function.domain()));
  info.append("name", b.getStringAttr(function.name()));
  if (!function.overload().empty())
    info.append("overload", b.getStringAttr(function.overload()));
  info.append("inputs", strings(function.input()));
  info.append("outputs", strings(function.output()));
  info.append("attributes", strings(function.attribute()));
  NamedAttrList defaults;
  for (proto::AttributeProto &attr : *function.mutable_attribute_proto()) {
    FailureOr<Attribute> value = importAttribute(attr, what);
    if (failed(value))
      return failure();
    defaults.append(attr.name(), *value);
  }
  if (!defaults.empty())
    info.append("attribute_defaults", defaults.getDictionary(context));
  info.append("opset_import", funcOpsets.getDictionary(context));
  if (!function.doc_string().empty())
    info.append("doc_string", b.getStringAttr(function.doc_string()));
  if (DictionaryAttr meta = importMetadata(context, function.metadata_props()))
    info.append("metadata_props", meta);
  func->setAttr("onnx.function", info.getDictionary(context));
  return success();
}

LogicalResult Importer::importCall(proto::NodeProto &node,
                                   proto::FunctionProto &function) {
  std::string what = describe(node);
  SmallVector<Value> operands;
  for (const std::string &in : node.input()) {
    if (in.empty())
      return error(what +
                   ": a call of a model-local function cannot omit inputs");
    FailureOr<Value> v = lookupInput(in, what);
    if (failed(v))
      return failure();
    operands.push_back(*v);
  }
  if (node.input_size() != function.input_size() ||
      node.output_size() > function.output_size())
    return error(what + ": calls function '" + function.name() + "' of " +
                 Twine(function.input_size()) + " inputs and " +
                 Twine(function.output_size()) + " outputs with " +
                 Twine(node.input_size()) + " and " +
                 Twine(node.output_size()));
  NamedAttrList attrs, refs;
  for (proto::AttributeProto &attr : *node.mutable_attribute()) {
    if (!attr.ref_attr_name().empty()) {
      refs.append(attr.name(), AttrRefAttr::get(context, attr.ref_attr_name()));
      continue;
    }
    FailureOr<Attribute> value = importAttribute(attr, what);
    if (failed(value))
      return failure();
    attrs.append(attr.name(), *value);
  }
  // onnx-validate checks that references are inside a function.
  if (!refs.empty())
    attrs.append(getAttrRefsAttrName(), refs.getDictionary(context));
  SmallVector<Type> resultTypes;
  SmallVector<Attribute> outNames;
  for (const std::string &out : node.output()) {
    Type type = AnyType::get(context);
    for (auto &scope : llvm::reverse(declaredTypes)) {
      auto it = scope.find(out);
      if (it == scope.end())
        continue;
      FailureOr<Type> t = importType(*it->second, "value '" + out + "'");
      if (failed(t))
        return failure();
      type = *t;
      break;
    }
    resultTypes.push_back(type);
    outNames.push_back(builder.getStringAttr(out));
  }
  if (!node.name().empty())
    attrs.append("onnx.name", builder.getStringAttr(node.name()));
  attrs.append("onnx.outputs", builder.getArrayAttr(outNames));
  OperationState state(nodeLoc(node), CallOp::getOperationName());
  state.addOperands(operands);
  state.addTypes(resultTypes);
  state.addAttribute(
      "callee", FlatSymbolRefAttr::get(
                    context, functionKey(function.domain(), function.name(),
                                         function.overload())));
  state.addAttributes(attrs);
  Operation *call = builder.create(state);
  for (auto [out, result] : llvm::zip(node.output(), call->getResults()))
    if (!out.empty() && failed(define(out, result, "output of " + what)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// The model
//===----------------------------------------------------------------------===//

LogicalResult Importer::importMainGraph(proto::GraphProto &graph) {
  scopes.emplace_back();
  declaredTypes.emplace_back();
  declareTypes(graph);

  auto module = cast<ModuleOp>(builder.getInsertionBlock()->getParentOp());
  SymbolTable symbols(module);

  // Initializers are module-level constants; an initializer that is also a
  // graph input is that input's default.
  SmallVector<ml_program::GlobalOp> globalsInOrder;
  auto addGlobal = [&](StringRef name, Type type,
                       Attribute value) -> LogicalResult {
    if (failed(checkName(name, "initializer")))
      return failure();
    if (globals.count(name))
      return error("initializer '" + name + "' is defined twice");
    auto global = ml_program::GlobalOp::create(
        builder, fileLoc, name, type, /*is_mutable=*/false, value,
        builder.getStringAttr("private"));
    symbols.insert(global);
    global->setAttr("onnx.name", builder.getStringAttr(name));
    globals[name] = global;
    globalsInOrder.push_back(global);
    return success();
  };
  for (proto::TensorProto &init : *graph.mutable_initializer()) {
    FailureOr<ElementsAttr> value =
        tensors.importTensor(init, "initializer '" + init.name() + "'");
    if (failed(value) ||
        failed(addGlobal(init.name(), value->getType(), *value)))
      return failure();
    if (!init.doc_string().empty())
      globals[init.name()]->setAttr("onnx.doc_string",
                                    builder.getStringAttr(init.doc_string()));
    if (DictionaryAttr meta = importMetadata(context, init.metadata_props()))
      globals[init.name()]->setAttr("onnx.metadata_props", meta);
  }
  for (proto::SparseTensorProto &init : *graph.mutable_sparse_initializer()) {
    std::string name = init.values().name();
    FailureOr<Attribute> value =
        tensors.importSparseTensor(init, "sparse initializer '" + name + "'");
    if (failed(value) ||
        failed(addGlobal(name, cast<ElementsAttr>(*value).getType(), *value)))
      return failure();
    globals[name]->setAttr("onnx.sparse", builder.getUnitAttr());
  }

  // The signature.
  SmallVector<Type> argTypes;
  SmallVector<DictionaryAttr> argAttrs;
  for (const proto::ValueInfoProto &input : graph.input()) {
    std::string what = "graph input '" + input.name() + "'";
    NamedAttrList attrs;
    attrs.append("onnx.name", builder.getStringAttr(input.name()));
    SmallVector<Attribute> dimParams, denotations;
    dimDenotations = &denotations;
    llvm::scope_exit resetDenotations([&] { dimDenotations = nullptr; });
    Type type;
    auto global = globals.find(input.name());
    if (input.has_type()) {
      FailureOr<Type> t = importType(input.type(), what, &dimParams);
      if (failed(t))
        return failure();
      type = *t;
    } else if (global != globals.end()) {
      type = global->second.getType();
    } else {
      return error(what + " has no type [ir-graph-io-typed]");
    }
    if (hasDimParam(dimParams))
      attrs.append("onnx.dim_params", builder.getArrayAttr(dimParams));
    importDenotations(input.type(), denotations, attrs);
    if (global != globals.end())
      attrs.append("onnx.default",
                   FlatSymbolRefAttr::get(global->second.getSymNameAttr()));
    if (!input.doc_string().empty())
      attrs.append("onnx.doc_string",
                   builder.getStringAttr(input.doc_string()));
    if (DictionaryAttr meta = importMetadata(context, input.metadata_props()))
      attrs.append("onnx.metadata_props", meta);
    argTypes.push_back(type);
    argAttrs.push_back(attrs.getDictionary(context));
  }

  // IR.md: every graph has a name; be liberal and make one up.
  if (graph.name().empty()) {
    if (options.strict)
      return error("the main graph has no name [ir-graph-name]");
    emitWarning(fileLoc) << "the main graph has no name; calling it "
                            "'main_graph' [ir-graph-name]";
  }
  std::string name = graph.name().empty() ? "main_graph" : graph.name();
  auto func = func::FuncOp::create(builder, fileLoc, name,
                                   builder.getFunctionType(argTypes, {}));
  symbols.insert(func);
  func.setAllArgAttrs(argAttrs);
  if (!graph.doc_string().empty())
    func->setAttr("onnx.doc_string", builder.getStringAttr(graph.doc_string()));
  if (DictionaryAttr meta = importMetadata(context, graph.metadata_props()))
    func->setAttr("onnx.metadata_props", meta);
  // Quantization annotations: tensor name -> {key -> tensor name}.
  if (graph.quantization_annotation_size()) {
    NamedAttrList annotations;
    for (const proto::TensorAnnotation &a : graph.quantization_annotation()) {
      NamedAttrList params;
      for (const proto::StringStringEntryProto &p :
           a.quant_parameter_tensor_names())
        params.set(p.key(), builder.getStringAttr(p.value()));
      if (annotations.get(a.tensor_name()))
        return error("quantization_annotation names tensor '" +
                     a.tensor_name() + "' twice");
      annotations.append(a.tensor_name(), params.getDictionary(context));
    }
    func->setAttr("onnx.quantization_annotation",
                  annotations.getDictionary(context));
  }
  Block *body = func.addEntryBlock();
  builder.setInsertionPointToStart(body);

  for (auto [input, arg] : llvm::zip(graph.input(), body->getArguments()))
    if (failed(define(input.name(), arg, "graph input")))
      return failure();
  for (ml_program::GlobalOp global : globalsInOrder) {
    StringRef initName = global.getSymName();
    if (lookup(initName))
      continue;
    auto load = ml_program::GlobalLoadConstOp::create(
        builder, fileLoc, global.getType(),
        FlatSymbolRefAttr::get(global.getSymNameAttr()));
    if (failed(define(initName, load, "initializer")))
      return failure();
  }
  if (failed(importNodes(*graph.mutable_node(), graph.name(), 0)))
    return failure();

  SmallVector<Value> results;
  SmallVector<DictionaryAttr> resultAttrs;
  for (const proto::ValueInfoProto &out : graph.output()) {
    Value v = lookup(out.name());
    if (!v)
      return error("graph output '" + out.name() +
                   "' is not a graph input, initializer or node output");
    results.push_back(v);
    NamedAttrList attrs;
    attrs.append("onnx.name", builder.getStringAttr(out.name()));
    if (out.has_type()) {
      SmallVector<Attribute> dimParams, denotations;
      dimDenotations = &denotations;
      FailureOr<Type> t = importType(
          out.type(), "graph output '" + out.name() + "'", &dimParams);
      dimDenotations = nullptr;
      if (failed(t))
        return failure();
      if (hasDimParam(dimParams))
        attrs.append("onnx.dim_params", builder.getArrayAttr(dimParams));
      importDenotations(out.type(), denotations, attrs);
    }
    if (!out.doc_string().empty())
      attrs.append("onnx.doc_string", builder.getStringAttr(out.doc_string()));
    if (DictionaryAttr meta = importMetadata(context, out.metadata_props()))
      attrs.append("onnx.metadata_props", meta);
    resultAttrs.push_back(attrs.getDictionary(context));
  }
  func::ReturnOp::create(builder, fileLoc, results);
  func.setFunctionType(
      builder.getFunctionType(argTypes, ValueRange(results).getTypes()));
  func.setAllResultAttrs(resultAttrs);
  module->setAttr("onnx.entry", FlatSymbolRefAttr::get(func.getSymNameAttr()));
  return success();
}

/// Training information (IR 7): each initialization and algorithm graph is a
/// private function that reads the initializers (state variables) it names;
/// its binding (state variable -> output) is kept with it.
LogicalResult Importer::importTrainingInfo(proto::ModelProto &model) {
  auto module = cast<ModuleOp>(builder.getInsertionBlock()->getParentOp());
  SymbolTable symbols(module);
  for (auto [index, info] : llvm::enumerate(*model.mutable_training_info())) {
    std::string prefix = "training_info " + std::to_string(index);
    // The algorithm's own initializers are state variables too.
    for (proto::TensorProto &init :
         *info.mutable_algorithm()->mutable_initializer()) {
      FailureOr<ElementsAttr> value = tensors.importTensor(
          init, prefix + ", algorithm initializer '" + init.name() + "'");
      if (failed(value))
        return failure();
      if (globals.count(init.name()))
        return error(prefix + ": algorithm initializer '" + init.name() +
                     "' is also an initializer of the main graph");
      auto global = ml_program::GlobalOp::create(
          builder, fileLoc, init.name(), value->getType(),
          /*is_mutable=*/false, *value, builder.getStringAttr("private"));
      symbols.insert(global);
      global->setAttr("onnx.name", builder.getStringAttr(init.name()));
      global->setAttr("onnx.training_algorithm",
                      builder.getI64IntegerAttr(index));
      globals[init.name()] = global;
    }
    auto importRole =
        [&](proto::GraphProto &graph, StringRef role,
            const google::protobuf::RepeatedPtrField<
                proto::StringStringEntryProto> &binding) -> LogicalResult {
      std::string what = prefix + ", " + role.str();
      // The binding (a dictionary, so its keys are distinct; onnx-validate
      // checks that they are initializers and the values outputs).
      NamedAttrList bound;
      for (const proto::StringStringEntryProto &kv : binding) {
        if (bound.get(kv.key()))
          return error(what + " binding: '" + kv.key() +
                       "' is bound twice [ir-training-binding-unique]");
        bound.append(kv.key(), builder.getStringAttr(kv.value()));
      }
      auto saved = std::move(scopes);
      auto savedTypes = std::move(declaredTypes);
      llvm::scope_exit restore([&] {
        scopes = std::move(saved);
        declaredTypes = std::move(savedTypes);
        globalLoadBlock = nullptr;
      });
      scopes.clear();
      declaredTypes.clear();
      scopes.emplace_back();
      declaredTypes.emplace_back();
      declareTypes(graph);
      SmallVector<Type> argTypes;
      SmallVector<DictionaryAttr> argAttrs;
      for (const proto::ValueInfoProto &input : graph.input()) {
        FailureOr<Type> t =
            importType(input.type(), what + ", input '" + input.name() + "'");
        if (failed(t))
          return failure();
        argTypes.push_back(*t);
        argAttrs.push_back(builder.getDictionaryAttr(builder.getNamedAttr(
            "onnx.name", builder.getStringAttr(input.name()))));
      }
      OpBuilder::InsertionGuard guard(builder);
      auto func = func::FuncOp::create(
          builder, fileLoc,
          ("training_info." + Twine(index) + "." + role).str(),
          builder.getFunctionType(argTypes, {}));
      symbols.insert(func);
      func.setPrivate();
      func.setAllArgAttrs(argAttrs);
      Block *body = func.addEntryBlock();
      globalLoadBlock = body;
      builder.setInsertionPointToEnd(body);
      for (auto [input, arg] : llvm::zip(graph.input(), body->getArguments()))
        if (failed(define(input.name(), arg, what + " input")))
          return failure();
      for (proto::TensorProto &init : *graph.mutable_initializer()) {
        if (role == "algorithm")
          break; // imported above, as state variables
        FailureOr<ElementsAttr> value = tensors.importTensor(
            init, what + ", initializer '" + init.name() + "'");
        if (failed(value) ||
            failed(define(init.name(), createConstant(*value, init.name()),
                          what + " initializer")))
          return failure();
      }
      if (failed(importNodes(*graph.mutable_node(), graph.name(), 0)))
        return failure();
      SmallVector<Value> results;
      SmallVector<DictionaryAttr> resultAttrs;
      for (const proto::ValueInfoProto &out : graph.output()) {
        Value v = lookup(out.name());
        if (!v)
          return error(what + ": output '" + out.name() + "' is not defined");
        results.push_back(v);
        resultAttrs.push_back(builder.getDictionaryAttr(builder.getNamedAttr(
            "onnx.name", builder.getStringAttr(out.name()))));
      }
      func::ReturnOp::create(builder, fileLoc, results);
      func.setFunctionType(
          builder.getFunctionType(argTypes, ValueRange(results).getTypes()));
      func.setAllResultAttrs(resultAttrs);
      NamedAttrList training;
      training.append("index", builder.getI64IntegerAttr(index));
      training.append("role", builder.getStringAttr(role));
      training.append("graph_name", builder.getStringAttr(graph.name()));
      training.append("binding", bound.getDictionary(context));
      func->setAttr("onnx.training", training.getDictionary(context));
      return success();
    };
    if (info.has_initialization()) {
      if (failed(importRole(*info.mutable_initialization(), "initialization",
                            info.initialization_binding())))
        return failure();
    } else if (info.initialization_binding_size()) {
      return error(prefix + ": initialization_binding without an "
                            "initialization graph [ir-training-binding-value]");
    }
    if (info.has_algorithm() &&
        failed(importRole(*info.mutable_algorithm(), "algorithm",
                          info.update_binding())))
      return failure();
  }
  return success();
}

OwningOpRef<ModuleOp> Importer::importModel(proto::ModelProto &model) {
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  if (!model.has_ir_version()) {
    error("ModelProto.ir_version is missing [ver-ir-version-present]");
    return nullptr;
  }
  irVersion = model.ir_version();
  if (irVersion < 1) {
    error("ModelProto.ir_version " + Twine(irVersion) +
          " is not valid [ver-ir-version-present]");
    return nullptr;
  }
  if (irVersion > kNewestIRVersion)
    emitWarning(fileLoc) << "IR version " << irVersion
                         << " is newer than the newest this importer knows ("
                         << kNewestIRVersion << "); importing as that";
  if (!model.has_graph()) {
    error("ModelProto.graph is missing [ver-required-fields]");
    return nullptr;
  }
  if (model.opset_import_size() == 0 && irVersion >= 3) {
    error("ModelProto.opset_import is missing (required from IR version 3) "
          "[ir-opset-import-required]");
    return nullptr;
  }
  NamedAttrList opsetAttrs;
  for (const proto::OperatorSetIdProto &opset : model.opset_import()) {
    std::string domain =
        opset.domain().empty() ? std::string("ai.onnx") : opset.domain();
    if (!opsets.try_emplace(domain, opset.version()).second) {
      error("opset_import names domain '" + domain +
            "' twice [ver-opset-domain-unique]");
      return nullptr;
    }
    opsetAttrs.append(domain, builder.getI64IntegerAttr(opset.version()));
  }
  if (model.opset_import_size() == 0) // IR 1 and 2: ai.onnx opset 1.
    opsets["ai.onnx"] = 1;

  Builder &b = builder;
  NamedAttrList attrs;
  attrs.append("onnx.ir_version", b.getI64IntegerAttr(irVersion));
  attrs.append("onnx.opset_import", opsetAttrs.getDictionary(context));
  if (model.has_producer_name())
    attrs.append("onnx.producer_name", b.getStringAttr(model.producer_name()));
  if (model.has_producer_version())
    attrs.append("onnx.producer_version",
                 b.getStringAttr(model.producer_version()));
  if (model.has_domain())
    attrs.append("onnx.domain", b.getStringAttr(model.domain()));
  if (model.has_model_version())
    attrs.append("onnx.model_version",
                 b.getI64IntegerAttr(model.model_version()));
  if (model.has_doc_string())
    attrs.append("onnx.doc_string", b.getStringAttr(model.doc_string()));
  if (model.metadata_props_size()) {
    NamedAttrList props;
    for (const proto::StringStringEntryProto &p : model.metadata_props())
      props.set(p.key(), b.getStringAttr(p.value()));
    attrs.append("onnx.metadata_props", props.getDictionary(context));
  }
  if (model.configuration_size()) {
    SmallVector<Attribute> configs;
    for (const proto::DeviceConfigurationProto &c : model.configuration()) {
      SmallVector<Attribute> devices;
      for (const std::string &d : c.device())
        devices.push_back(b.getStringAttr(d));
      configs.push_back(b.getDictionaryAttr(
          {b.getNamedAttr("name", b.getStringAttr(c.name())),
           b.getNamedAttr("num_devices", b.getI32IntegerAttr(c.num_devices())),
           b.getNamedAttr("device", b.getArrayAttr(devices))}));
    }
    attrs.append("onnx.configuration", b.getArrayAttr(configs));
  }
  for (NamedAttribute a : attrs)
    (*module)->setAttr(a.getName(), a.getValue());

  builder.setInsertionPointToEnd(module->getBody());
  if (failed(importFunctions(model)))
    return nullptr;
  builder.setInsertionPointToEnd(module->getBody());
  if (failed(importMainGraph(*model.mutable_graph())))
    return nullptr;
  builder.setInsertionPointToEnd(module->getBody());
  if (failed(importTrainingInfo(model)))
    return nullptr;
  // The model-level rules that the IR can show are the pass's to check. It
  // runs before the op verifiers: a type that the model's IR version does not
  // have is the better message than the op constraint that it also breaks.
  if (options.validate) {
    PassManager pm(context);
    pm.enableVerifier(false);
    ONNXValidateOptions validateOptions;
    validateOptions.strict = options.strict;
    pm.addPass(createONNXValidate(validateOptions));
    if (failed(pm.run(*module)))
      return nullptr;
  }
  if (failed(verify(*module)))
    return nullptr;
  return module;
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

/// How deep protobuf messages may nest, in binary and in text (a graph
/// nested in a node's attribute is three levels). The parsers recurse once a
/// level, so this bounds their stack.
static constexpr int kMaxMessageDepth = 512;

/// Parses a binary ModelProto; an error at `loc` if it is not one.
static LogicalResult
parseBinaryModel(google::protobuf::io::ZeroCopyInputStream &stream,
                 proto::ModelProto &model, Location loc) {
  google::protobuf::io::CodedInputStream coded(&stream);
  coded.SetTotalBytesLimit(INT_MAX);
  coded.SetRecursionLimit(kMaxMessageDepth);
  if (!model.ParseFromCodedStream(&coded) || !coded.ConsumedEntireMessage())
    return emitError(loc, "not a valid ONNX model: the binary ModelProto is "
                          "truncated or malformed");
  return success();
}

static ImportOptions withModelDirectory(const ImportOptions &options,
                                        StringRef fileName) {
  ImportOptions resolved = options;
  if (resolved.modelDirectory.empty()) {
    StringRef dir = llvm::sys::path::parent_path(fileName);
    resolved.modelDirectory = dir.empty() ? "." : dir.str();
  }
  return resolved;
}

OwningOpRef<ModuleOp>
mlir::onnx::importONNXModelFromFile(StringRef path, MLIRContext *context,
                                    const ImportOptions &options) {
  context->loadDialect<ONNXDialect, func::FuncDialect,
                       ml_program::MLProgramDialect>();
  Location loc = FileLineColLoc::get(context, path, 0, 0);
  int fd = -1;
  if (std::error_code ec = llvm::sys::fs::openFileForRead(path, fd)) {
    emitError(loc, "cannot open: " + ec.message());
    return nullptr;
  }
  // A device or pipe may never end (/dev/zero): models are regular files.
  llvm::sys::fs::file_status status;
  if (std::error_code ec = llvm::sys::fs::status(fd, status)) {
    ::close(fd);
    emitError(loc, "cannot read: " + ec.message());
    return nullptr;
  }
  if (status.type() != llvm::sys::fs::file_type::regular_file) {
    ::close(fd);
    emitError(loc, "not a regular file: ONNX models are read from files");
    return nullptr;
  }
  // Text models (small) go through the buffer path; binary ones stream from
  // the file, so no copy of the whole file is ever held beside the tensors.
  char head[64];
  ssize_t n = ::read(fd, head, sizeof(head));
  StringRef start = n > 0 ? StringRef(head, n).ltrim() : StringRef();
  bool text =
      options.format == ImportOptions::Format::Text ||
      options.format == ImportOptions::Format::Syntax ||
      (options.format == ImportOptions::Format::Auto && !start.empty() &&
       (isalpha(start[0]) || start[0] == '#' || start[0] == '<'));
  if (n <= 0 || text) {
    ::close(fd);
    auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!buffer) {
      emitError(loc, "cannot read: " + buffer.getError().message());
      return nullptr;
    }
    return importONNXModel((*buffer)->getMemBufferRef(), context, options);
  }
  ::lseek(fd, 0, SEEK_SET);
  proto::ModelProto model;
  LogicalResult parsed = [&] {
    google::protobuf::io::FileInputStream stream(fd, 1 << 20);
    return parseBinaryModel(stream, model, loc);
  }();
  ::close(fd);
  if (failed(parsed))
    return nullptr;
  Importer importer(context, withModelDirectory(options, path), path);
  return importer.importModel(model);
}

OwningOpRef<ModuleOp>
mlir::onnx::importONNXModel(llvm::MemoryBufferRef buffer, MLIRContext *context,
                            const ImportOptions &options) {
  context->loadDialect<ONNXDialect, func::FuncDialect,
                       ml_program::MLProgramDialect>();
  StringRef data = buffer.getBuffer();
  StringRef fileName = buffer.getBufferIdentifier();
  Location loc = FileLineColLoc::get(context, fileName, 0, 0);
  if (data.empty()) {
    emitError(loc, "empty input: not an ONNX model");
    return nullptr;
  }
  ImportOptions resolved = withModelDirectory(options, fileName);

  ImportOptions::Format format = options.format;
  if (format == ImportOptions::Format::Auto) {
    // Text format starts with a field name or a comment; binary with a tag.
    StringRef head = data.ltrim();
    format =
        !head.empty() && (isalpha(head[0]) || head[0] == '#' || head[0] == '<')
            ? ImportOptions::Format::Text
            : ImportOptions::Format::Binary;
  }
  if (options.format == ImportOptions::Format::Auto &&
      format == ImportOptions::Format::Text && looksLikeONNXTextualSyntax(data))
    format = ImportOptions::Format::Syntax;
  proto::ModelProto model;
  if (format == ImportOptions::Format::Binary) {
    google::protobuf::io::ArrayInputStream stream(data.data(), data.size());
    if (data.size() > size_t(INT_MAX) ||
        failed(parseBinaryModel(stream, model, loc)))
      return nullptr;
  } else if (format == ImportOptions::Format::Syntax) {
    std::string message;
    if (!parseONNXTextualSyntax(data, model, message)) {
      emitError(loc,
                "not a valid ONNX model in the textual syntax: " + message);
      return nullptr;
    }
  } else {
    struct Collector : google::protobuf::io::ErrorCollector {
      std::string message;
      void AddError(int line, int column, const std::string &m) override {
        if (message.empty())
          message = "line " + std::to_string(line + 1) + ", column " +
                    std::to_string(column + 1) + ": " + m;
      }
    } collector;
    google::protobuf::TextFormat::Parser parser;
    parser.RecordErrorsTo(&collector);
    parser.SetRecursionLimit(kMaxMessageDepth);
    if (!parser.ParseFromString(std::string(data), &model)) {
      emitError(loc, "not a valid ONNX model in protobuf text format: " +
                         collector.message);
      return nullptr;
    }
  }
  Importer importer(context, resolved, fileName);
  return importer.importModel(model);
}

namespace {
/// The importer's command-line options, shared by --import and onnx-translate's
/// direct bytecode path.
struct ImportCommandLine {
  llvm::cl::opt<std::string> modelDir{
      "onnx-model-dir",
      llvm::cl::desc("Directory of external data (default: the model's)"),
      llvm::cl::init("")};
  llvm::cl::opt<ImportOptions::Format> format{
      "onnx-format", llvm::cl::desc("The input's encoding"),
      llvm::cl::init(ImportOptions::Format::Auto),
      llvm::cl::values(clEnumValN(ImportOptions::Format::Auto, "auto",
                                  "tell from the content (default)"),
                       clEnumValN(ImportOptions::Format::Binary, "binary",
                                  "binary ModelProto"),
                       clEnumValN(ImportOptions::Format::Text, "text",
                                  "protobuf text format"),
                       clEnumValN(ImportOptions::Format::Syntax, "syntax",
                                  "the ONNX textual syntax"))};
  llvm::cl::opt<bool> strict{
      "onnx-strict",
      llvm::cl::desc("Names that are not C90 identifiers are errors (and "
                     "every other SHOULD of the IR rules)"),
      llvm::cl::init(false)};
  llvm::cl::opt<bool> noValidate{
      "onnx-no-validate",
      llvm::cl::desc("Do not run onnx-validate on the imported module"),
      llvm::cl::init(false)};
  llvm::cl::opt<unsigned> maxDepth{
      "onnx-max-graph-depth",
      llvm::cl::desc("Refuse subgraphs nested deeper than this"),
      llvm::cl::init(64)};
  llvm::cl::opt<uint64_t> maxTensorBytes{
      "onnx-max-tensor-bytes",
      llvm::cl::desc("Refuse sparse tensors whose dense form has more bytes "
                     "than this (default 16 GiB)"),
      llvm::cl::init(uint64_t(16) << 30)};
  llvm::cl::opt<int64_t> inlineLimit{
      "onnx-inline-tensor-limit",
      llvm::cl::desc("Tensors above this many bytes become dense_resource"),
      llvm::cl::init(64)};
};
} // namespace

static ImportCommandLine &importCommandLine() {
  static ImportCommandLine options;
  return options;
}

ImportOptions mlir::onnx::getImportOptionsFromCommandLine() {
  ImportCommandLine &cl = importCommandLine();
  ImportOptions options;
  options.format = cl.format;
  options.modelDirectory = cl.modelDir;
  options.strict = cl.strict;
  options.validate = !cl.noValidate;
  options.inlineTensorLimit = cl.inlineLimit;
  options.maxGraphDepth = cl.maxDepth;
  options.maxTensorBytes = cl.maxTensorBytes;
  return options;
}

void mlir::onnx::registerImportONNXTranslation() {
  importCommandLine();
  static TranslateToMLIRRegistration registration(
      "import", "import an ONNX model (binary or text ModelProto)",
      [](llvm::SourceMgr &sourceMgr, MLIRContext *context) {
        const llvm::MemoryBuffer *buffer =
            sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
        return OwningOpRef<Operation *>(
            importONNXModel(buffer->getMemBufferRef(), context,
                            getImportOptionsFromCommandLine())
                .release());
      },
      [](DialectRegistry &registry) {
        registry.insert<ONNXDialect, func::FuncDialect,
                        ml_program::MLProgramDialect>();
      });
}
