//===- Validate.cpp - The model-level rules of the ONNX IR ----------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// onnx-validate checks, on the IR the importer produces (or hand-written MLIR
// of the same shape), the rules of the ONNX IR specification that no single
// op verifier can see: what the model's ir_version allows, the opset imports
// and the op version each one selects, names, dim_params, model-local
// functions, training bindings and device configurations. Each diagnostic
// ends with its rule ID (docs/ir-rules.md). Attributes are checked for their
// kind before they are read, so malformed IR gets an error, never a crash.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "OnnxDialect/Dialect/ONNX/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>

namespace mlir {
namespace onnx {
#define GEN_PASS_DEF_ONNXVALIDATE
#include "OnnxDialect/Dialect/ONNX/Transforms/Passes.h.inc"
} // namespace onnx
} // namespace mlir

using namespace mlir;
using namespace mlir::onnx;

namespace {

/// The newest version of each known operator set domain (Versioning.md,
/// proto-facts.md: ONNX 1.22).
int64_t newestOpsetVersion(StringRef domain) {
  return llvm::StringSwitch<int64_t>(domain)
      .Case("ai.onnx", 27)
      .Case("ai.onnx.ml", 5)
      .Case("ai.onnx.training", 1)
      .Case("ai.onnx.preview", 1)
      .Case("ai.onnx.preview.training", 1)
      .Default(0);
}

/// The IR version of the ONNX release that introduced ai.onnx opset
/// `version` (Versioning.md, "Released Versions"; 1.22 gave IR 13 opset 27;
/// models before 1.0, IR 1 and 2, use opset 1).
int64_t irVersionOfOnnxOpset(int64_t version) {
  static const std::pair<int64_t, int64_t> table[] = {
      {1, 1},  {8, 3},  {9, 4},   {10, 5},  {11, 6},  {14, 7},
      {18, 8}, {20, 9}, {22, 10}, {23, 11}, {24, 12}, {27, 13}};
  for (auto [opset, ir] : table)
    if (version <= opset)
      return ir;
  return 13;
}

/// The IR version that introduced an element type (proto-facts.md); 1 for
/// those the first IR had.
int64_t irVersionOfElementType(Type type) {
  if (isa<BFloat16Type>(type))
    return 4;
  if (isa<Float8E4M3FNType, Float8E4M3FNUZType, Float8E5M2Type,
          Float8E5M2FNUZType>(type))
    return 9;
  if (auto integer = dyn_cast<IntegerType>(type)) {
    if (integer.getWidth() == 4)
      return 10;
    if (integer.getWidth() == 2)
      return 13;
  }
  if (isa<Float4E2M1FNType>(type))
    return 11;
  if (isa<Float8E8M0FNUType>(type))
    return 12;
  return 1;
}

/// Whether `name` is a C90 identifier (IR.md: names SHOULD be).
bool isC90Identifier(StringRef name) {
  if (name.empty() || !(isalpha(name[0]) || name[0] == '_'))
    return false;
  return llvm::all_of(name, [](char c) { return isalnum(c) || c == '_'; });
}

std::string typeString(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  return s;
}

/// The dims of every tensor shape nested in `type`, outermost first, in the
/// order of the importer's onnx.dim_params; -1 for an unranked tensor.
void collectTensorShapes(Type type, SmallVectorImpl<TensorType> &shapes) {
  if (auto tensor = dyn_cast<TensorType>(type))
    shapes.push_back(tensor);
  else if (auto seq = dyn_cast<SeqType>(type))
    collectTensorShapes(seq.getElementType(), shapes);
  else if (auto opt = dyn_cast<OptType>(type))
    collectTensorShapes(opt.getElementType(), shapes);
  else if (auto map = dyn_cast<MapType>(type))
    collectTensorShapes(map.getValueType(), shapes);
  else if (auto sparse = dyn_cast<SparseTensorType>(type))
    shapes.push_back(sparse.getTensorType());
}

class Validator {
public:
  Validator(ModuleOp module, bool strict) : module(module), strict(strict) {}
  LogicalResult run();

private:
  // Diagnostics: every message ends with its rule ID.
  void error(Location loc, const Twine &message, StringRef rule) {
    emitError(loc) << message << " [" << rule << "]";
    failed = true;
  }
  /// A SHOULD: a warning, an error under strict.
  void should(Location loc, const Twine &message, StringRef rule) {
    if (strict)
      return error(loc, message, rule);
    emitWarning(loc) << message << " [" << rule << "]";
  }
  /// The model's ir_version must be at least `since` for `what`.
  void gate(Location loc, int64_t since, const Twine &what, StringRef rule) {
    if (irVersion && irVersion < since)
      error(loc,
            what + " needs IR version " + Twine(since) + ", the model has " +
                Twine(irVersion),
            rule);
  }
  void malformed(Location loc, const Twine &what) {
    error(loc, what, "ir-repr-attr");
  }

  // Pieces.
  void checkModelAttributes();
  void checkConfigurations();
  void checkType(Location loc, Type type, const Twine &what);
  void checkAttributeTypes(Operation *op, const std::string &what);
  void checkGlobal(ml_program::GlobalOp global);
  void checkFunc(func::FuncOp func);
  void checkFunctionInfo(func::FuncOp func, DictionaryAttr info);
  void checkTraining(func::FuncOp func, DictionaryAttr info);
  void checkOp(Operation *op, DictionaryAttr opsets, const std::string &what,
               bool inFunction, DictionaryAttr functionInfo);
  void checkDeviceConfigurations(Operation *op, const std::string &what);
  /// The dim_value/dim_param of a sharded axis against the tensor's dim.
  void checkShardedDimSize(Location loc, const std::string &where, int64_t axis,
                           ArrayAttr simple, TensorType type);
  void checkDimParams(func::FuncOp func);
  void checkRecursion();
  void checkName(Location loc, StringRef name, const Twine &what);

  // Names.
  using Scope = llvm::StringMap<std::string>;
  void defineName(Location loc, StringRef name, const std::string &what);
  void checkNamesInRegion(Region &region);
  void checkNamesInBlock(Block &block);

  std::string describe(Operation *op);
  std::string valueName(Value value);
  StringRef domainOf(Operation *op);

  ModuleOp module;
  bool strict;
  bool failed = false;
  int64_t irVersion = 0;
  DictionaryAttr opsetImport;
  llvm::StringMap<DictionaryAttr> configurations;
  /// Names of initializers (onnx.name of globals).
  llvm::StringSet<> initializerNames;
  /// Model-local functions by symbol: their onnx.function.
  llvm::StringMap<DictionaryAttr> functionInfos;
  /// dim_param -> (static size, where), across the model.
  llvm::StringMap<std::pair<int64_t, std::string>> dimParams;
  SmallVector<Scope> scopes;
  /// Non-empty node names of the graph being checked, innermost last.
  SmallVector<llvm::StringSet<>> nodeNames;
  unsigned nonC90 = 0;
  std::string firstNonC90;
};

} // namespace

//===----------------------------------------------------------------------===//
// Descriptions
//===----------------------------------------------------------------------===//

std::string Validator::describe(Operation *op) {
  std::string kind;
  if (auto schemaOp = dyn_cast<ONNXSchemaOpInterface>(op)) {
    const OpSchema &schema = schemaOp.getSchema();
    kind = StringRef(schema.domain).empty()
               ? std::string(schema.name)
               : std::string(schema.domain) + "." + schema.name;
  } else if (auto custom = dyn_cast<CustomOp>(op)) {
    kind = (custom.getDomain() + "." + custom.getOpType()).str();
  } else if (auto call = dyn_cast<CallOp>(op)) {
    kind = ("call " + call.getCallee()).str();
  } else {
    kind = op->getName().getStringRef().str();
  }
  auto name = op->getAttrOfType<StringAttr>("onnx.name");
  if (name)
    return "node '" + name.getValue().str() + "' (" + kind + ")";
  if (auto outputs = op->getAttrOfType<ArrayAttr>("onnx.outputs"))
    if (!outputs.empty())
      if (auto first = dyn_cast<StringAttr>(outputs[0]))
        return "node with output '" + first.getValue().str() + "' (" + kind +
               ")";
  return "node (" + kind + ")";
}

std::string mlir::onnx::valueName(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Block *block = arg.getOwner();
    if (auto func = dyn_cast_or_null<func::FuncOp>(block->getParentOp())) {
      if (block->isEntryBlock())
        if (auto name = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                          "onnx.name"))
          return name.getValue().str();
      return "";
    }
    if (!block->empty())
      if (auto names = block->back().getAttrOfType<ArrayAttr>("onnx.inputs"))
        if (arg.getArgNumber() < names.size())
          if (auto s = dyn_cast<StringAttr>(names[arg.getArgNumber()]))
            return s.getValue().str();
    return "";
  }
  auto result = cast<OpResult>(value);
  Operation *op = result.getOwner();
  if (auto load = dyn_cast<ml_program::GlobalLoadConstOp>(op)) {
    auto global = SymbolTable::lookupNearestSymbolFrom<ml_program::GlobalOp>(
        op, load.getGlobalAttr());
    if (global)
      if (auto name = global->getAttrOfType<StringAttr>("onnx.name"))
        return name.getValue().str();
    return load.getGlobal().getLeafReference().str();
  }
  if (auto names = op->getAttrOfType<ArrayAttr>("onnx.outputs"))
    if (result.getResultNumber() < names.size())
      if (auto s = dyn_cast<StringAttr>(names[result.getResultNumber()]))
        return s.getValue().str();
  return "";
}

/// onnx::valueName, and the inputs of a model-local function by its
/// FunctionProto's input list.
std::string Validator::valueName(Value value) {
  std::string name = onnx::valueName(value);
  auto arg = dyn_cast<BlockArgument>(value);
  if (!name.empty() || !arg || !arg.getOwner()->isEntryBlock())
    return name;
  if (auto func = dyn_cast_or_null<func::FuncOp>(arg.getOwner()->getParentOp()))
    if (DictionaryAttr info = functionInfos.lookup(func.getSymName()))
      if (auto inputs = dyn_cast_or_null<ArrayAttr>(info.get("inputs")))
        if (arg.getArgNumber() < inputs.size())
          if (auto s = dyn_cast<StringAttr>(inputs[arg.getArgNumber()]))
            return s.getValue().str();
  return name;
}

/// The operator set domain an op belongs to ("ai.onnx" for the default);
/// empty for ops that are not ONNX nodes.
StringRef Validator::domainOf(Operation *op) {
  if (auto schemaOp = dyn_cast<ONNXSchemaOpInterface>(op)) {
    StringRef domain = schemaOp.getSchema().domain;
    return domain.empty() ? StringRef("ai.onnx") : domain;
  }
  if (auto custom = dyn_cast<CustomOp>(op))
    return custom.getDomain().empty() ? StringRef("ai.onnx")
                                      : custom.getDomain();
  if (auto call = dyn_cast<CallOp>(op)) {
    DictionaryAttr info = functionInfos.lookup(call.getCallee());
    if (!info)
      return {};
    auto domain = dyn_cast_or_null<StringAttr>(info.get("domain"));
    if (!domain)
      return {};
    return domain.getValue().empty() ? StringRef("ai.onnx") : domain.getValue();
  }
  return {};
}

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

void Validator::checkName(Location loc, StringRef name, const Twine &what) {
  if (isC90Identifier(name))
    return;
  if (strict)
    return error(loc,
                 "name '" + name + "' of " + what + " is not a C90 identifier",
                 "ir-names-c90");
  if (nonC90++ == 0)
    firstNonC90 = name.str();
}

void Validator::defineName(Location loc, StringRef name,
                           const std::string &what) {
  if (name.empty())
    return;
  checkName(loc, name, what);
  for (Scope &outer : llvm::drop_end(scopes)) {
    auto it = outer.find(name);
    if (it != outer.end())
      return error(loc,
                   "'" + name + "' (" + what + ") shadows '" + name + "' (" +
                       it->second + ") of an enclosing graph",
                   "ir-names-no-shadow");
  }
  auto [it, inserted] = scopes.back().try_emplace(name, what);
  if (!inserted)
    error(loc,
          "'" + name + "' is defined twice in one graph: " + it->second +
              " and " + what,
          "ir-names-ssa");
}

void Validator::checkNamesInBlock(Block &block) {
  for (Operation &op : block) {
    if (isa<ml_program::GlobalLoadConstOp, func::ReturnOp, YieldOp>(op))
      continue;
    std::string what = describe(&op);
    if (auto name = op.getAttrOfType<StringAttr>("onnx.name");
        name && !name.getValue().empty() && !nodeNames.empty()) {
      checkName(op.getLoc(), name.getValue(), what);
      if (!nodeNames.back().insert(name.getValue()).second)
        error(op.getLoc(),
              "two nodes of one graph are named '" + name.getValue() + "'",
              "ir-names-unique");
    }
    if (Attribute attr = op.getAttr("onnx.outputs")) {
      auto outputs = dyn_cast<ArrayAttr>(attr);
      if (!outputs) {
        malformed(op.getLoc(), what + ": onnx.outputs is not an array");
      } else {
        for (Attribute a : outputs) {
          auto s = dyn_cast<StringAttr>(a);
          if (!s) {
            malformed(op.getLoc(), what + ": onnx.outputs holds a non-string");
            break;
          }
          defineName(op.getLoc(), s.getValue(),
                     (isa<ConstantOp>(op) && op.hasAttr("onnx.initializer")
                          ? "initializer of a subgraph"
                          : "output of " + what));
        }
      }
    }
    // Each graph attribute is a graph of its own that sees the outer names.
    for (Region &region : op.getRegions())
      checkNamesInRegion(region);
  }
}

void Validator::checkNamesInRegion(Region &region) {
  if (region.empty())
    return;
  scopes.emplace_back();
  nodeNames.emplace_back();
  Block &block = region.front();
  if (!block.empty()) {
    Operation &terminator = block.back();
    if (Attribute attr = terminator.getAttr("onnx.inputs")) {
      auto inputs = dyn_cast<ArrayAttr>(attr);
      if (!inputs) {
        malformed(terminator.getLoc(), "onnx.inputs of a subgraph is not an "
                                       "array");
      } else {
        for (Attribute a : inputs) {
          auto s = dyn_cast<StringAttr>(a);
          if (!s) {
            malformed(terminator.getLoc(),
                      "onnx.inputs of a subgraph holds a non-string");
            break;
          }
          if (s.getValue().empty())
            error(terminator.getLoc(), "a subgraph input has no name",
                  "ir-graph-io-names");
          defineName(terminator.getLoc(), s.getValue(), "input of a subgraph");
        }
      }
    }
  }
  for (Block &b : region)
    checkNamesInBlock(b);
  nodeNames.pop_back();
  scopes.pop_back();
}

//===----------------------------------------------------------------------===//
// Types and attributes
//===----------------------------------------------------------------------===//

void Validator::checkType(Location loc, Type type, const Twine &what) {
  if (!irVersion)
    return;
  if (auto tensor = dyn_cast<TensorType>(type)) {
    Type element = tensor.getElementType();
    int64_t since = irVersionOfElementType(element);
    if (since > irVersion)
      gate(loc, since, what + ": data type " + typeString(element),
           "ir-gate-data-type");
    return;
  }
  if (auto seq = dyn_cast<SeqType>(type)) {
    gate(loc, 4, what + ": a sequence type", "ir-gate-type");
    return checkType(loc, seq.getElementType(), what);
  }
  if (auto map = dyn_cast<MapType>(type)) {
    gate(loc, 4, what + ": a map type", "ir-gate-type");
    checkType(loc, RankedTensorType::get({}, map.getKeyType()), what);
    return checkType(loc, map.getValueType(), what);
  }
  if (auto opt = dyn_cast<OptType>(type)) {
    gate(loc, 8, what + ": an optional type", "ir-gate-type");
    return checkType(loc, opt.getElementType(), what);
  }
  if (auto sparse = dyn_cast<SparseTensorType>(type)) {
    gate(loc, 6, what + ": a sparse tensor type", "ir-gate-type");
    return checkType(loc, sparse.getTensorType(), what);
  }
}

/// Types held in attributes (tensors, type_protos) and the metadata a node
/// carries.
void Validator::checkAttributeTypes(Operation *op, const std::string &what) {
  for (NamedAttribute attr : op->getAttrs()) {
    std::string where = what + ", attribute '" + attr.getName().str() + "'";
    auto visit = [&](Attribute a) {
      if (auto typed = dyn_cast<TypedAttr>(a)) {
        if (isa<ElementsAttr>(a))
          checkType(op->getLoc(), typed.getType(), where);
      } else if (auto typeAttr = dyn_cast<TypeAttr>(a)) {
        checkType(op->getLoc(), typeAttr.getValue(), where);
      }
    };
    visit(attr.getValue());
    if (auto array = dyn_cast<ArrayAttr>(attr.getValue()))
      for (Attribute a : array)
        visit(a);
  }
}

void Validator::checkGlobal(ml_program::GlobalOp global) {
  std::string name = global.getSymName().str();
  if (auto onnxName = global->getAttrOfType<StringAttr>("onnx.name"))
    name = onnxName.getValue().str();
  else if (global->hasAttr("onnx.name"))
    malformed(global.getLoc(),
              "initializer '" + name + "': onnx.name is not a string");
  initializerNames.insert(name);
  std::string what = "initializer '" + name + "'";
  checkType(global.getLoc(), global.getType(), what);
  if (global->hasAttr("onnx.metadata_props"))
    gate(global.getLoc(), 10, what + ": metadata_props on a tensor",
         "ir-gate-metadata");
  if (global->hasAttr("onnx.sparse"))
    gate(global.getLoc(), 6, what + ": a sparse initializer", "ir-gate-type");
}

//===----------------------------------------------------------------------===//
// The model
//===----------------------------------------------------------------------===//

void Validator::checkModelAttributes() {
  Location loc = module.getLoc();
  Attribute ir = module->getAttr("onnx.ir_version");
  if (!ir) {
    error(loc, "the module has no onnx.ir_version (ModelProto.ir_version)",
          "ver-ir-version-present");
  } else if (auto irAttr = dyn_cast<IntegerAttr>(ir)) {
    irVersion = irAttr.getInt();
    if (irVersion < 1) {
      error(loc, "onnx.ir_version " + Twine(irVersion) + " is not valid",
            "ver-ir-version-present");
      irVersion = 0;
    }
  } else {
    malformed(loc, "onnx.ir_version is not an integer");
  }

  Attribute opsets = module->getAttr("onnx.opset_import");
  if (opsets && !isa<DictionaryAttr>(opsets)) {
    malformed(loc, "onnx.opset_import is not a dictionary");
    opsets = {};
  }
  opsetImport = dyn_cast_or_null<DictionaryAttr>(opsets);
  if ((!opsetImport || opsetImport.empty()) && irVersion >= 3)
    error(loc,
          "the model imports no operator set (opset_import is required "
          "from IR version 3)",
          "ir-opset-import-required");
  // IR 1 and 2 had no opset_import: they use ai.onnx opset 1.
  if ((!opsetImport || opsetImport.empty()) && irVersion && irVersion < 3)
    opsetImport = DictionaryAttr::get(
        module.getContext(),
        {NamedAttribute(
            StringAttr::get(module.getContext(), "ai.onnx"),
            IntegerAttr::get(IntegerType::get(module.getContext(), 64), 1))});
  if (opsetImport) {
    for (NamedAttribute entry : opsetImport) {
      StringRef domain = entry.getName().getValue();
      auto version = dyn_cast<IntegerAttr>(entry.getValue());
      if (!version) {
        malformed(loc, "onnx.opset_import: the version of '" + domain +
                           "' is not an integer");
        continue;
      }
      int64_t v = version.getInt();
      int64_t newest = newestOpsetVersion(domain);
      if (v < 1 || (newest && v > newest))
        error(loc,
              "opset_import: '" + domain + "' has no version " + Twine(v) +
                  (newest ? " (versions 1 to " + Twine(newest) + " exist)"
                          : Twine("")),
              "ver-opset-version-exists");
      else if (domain == "ai.onnx" && irVersion &&
               irVersionOfOnnxOpset(v) > irVersion)
        // Producers often leave ir_version behind the opset (the importer
        // reads such models well), so this is a warning.
        should(loc,
               "opset_import: ai.onnx opset " + Twine(v) +
                   " needs IR version " + Twine(irVersionOfOnnxOpset(v)) +
                   ", the model has " + Twine(irVersion),
               "ver-opset-ir-version");
    }
  }

  if (Attribute entry = module->getAttr("onnx.entry")) {
    auto ref = dyn_cast<FlatSymbolRefAttr>(entry);
    if (!ref)
      malformed(loc, "onnx.entry is not a symbol reference");
    else if (!SymbolTable::lookupSymbolIn(module, ref.getAttr()))
      malformed(loc, "onnx.entry names '" + ref.getValue() +
                         "', which is not defined");
  }
  if (module->hasAttr("onnx.configuration"))
    checkConfigurations();
}

void Validator::checkConfigurations() {
  Location loc = module.getLoc();
  gate(loc, 11, "device configurations", "ir-gate-device");
  auto configs = dyn_cast<ArrayAttr>(module->getAttr("onnx.configuration"));
  if (!configs)
    return malformed(loc, "onnx.configuration is not an array");
  for (auto [i, a] : llvm::enumerate(configs)) {
    auto config = dyn_cast<DictionaryAttr>(a);
    if (!config) {
      malformed(loc,
                "onnx.configuration #" + Twine(i) + " is not a dictionary");
      continue;
    }
    auto name = dyn_cast_or_null<StringAttr>(config.get("name"));
    std::string what = "device configuration #" + std::to_string(i);
    if (!name || name.getValue().empty()) {
      error(loc, what + " has no name", "ir-dev-config-name");
    } else {
      what = "device configuration '" + name.getValue().str() + "'";
      if (!configurations.try_emplace(name.getValue(), config).second)
        error(loc, what + " is defined twice", "ir-dev-config-name");
    }
    auto num = dyn_cast_or_null<IntegerAttr>(config.get("num_devices"));
    if (!num || num.getInt() < 1) {
      error(loc, what + " needs a positive num_devices",
            "ir-dev-config-num-devices");
      continue;
    }
    if (Attribute d = config.get("device")) {
      auto devices = dyn_cast<ArrayAttr>(d);
      if (!devices)
        malformed(loc, what + ": 'device' is not an array");
      else if (!devices.empty() && int64_t(devices.size()) != num.getInt())
        error(loc,
              what + " names " + Twine(devices.size()) + " devices but has " +
                  "num_devices " + Twine(num.getInt()),
              "ir-dev-config-device-names");
    }
  }
}

//===----------------------------------------------------------------------===//
// Device configurations of nodes
//===----------------------------------------------------------------------===//

void Validator::checkDeviceConfigurations(Operation *op,
                                          const std::string &what) {
  Location loc = op->getLoc();
  gate(loc, 11, what + ": device configurations", "ir-gate-device");
  auto list = dyn_cast<ArrayAttr>(op->getAttr("onnx.device_configurations"));
  if (!list)
    return malformed(loc, what + ": onnx.device_configurations is not an "
                                 "array");
  // The node's inputs and outputs by name, with their types.
  llvm::StringMap<Type> tensors;
  for (Value v : op->getOperands())
    tensors[valueName(v)] = v.getType();
  for (Value v : op->getResults())
    tensors[valueName(v)] = v.getType();
  tensors.erase("");
  for (Attribute a : list) {
    auto config = dyn_cast<DictionaryAttr>(a);
    if (!config) {
      malformed(loc, what + ": a device configuration is not a dictionary");
      continue;
    }
    auto id = dyn_cast_or_null<StringAttr>(config.get("configuration_id"));
    DictionaryAttr target;
    if (!id || id.getValue().empty()) {
      error(loc, what + ": a device configuration has no configuration_id",
            "ir-dev-node-config-id");
    } else if (!(target = configurations.lookup(id.getValue()))) {
      error(loc,
            what + ": configuration_id '" + id.getValue() +
                "' names no device configuration of the model",
            "ir-dev-node-config-id");
    }
    int64_t numDevices = 0;
    if (target)
      if (auto n = dyn_cast_or_null<IntegerAttr>(target.get("num_devices")))
        numDevices = n.getInt();
    Attribute specsAttr = config.get("sharding_spec");
    if (!specsAttr)
      continue;
    auto specs = dyn_cast<ArrayAttr>(specsAttr);
    if (!specs) {
      malformed(loc, what + ": sharding_spec is not an array");
      continue;
    }
    for (Attribute s : specs) {
      auto spec = dyn_cast<DictionaryAttr>(s);
      if (!spec) {
        malformed(loc, what + ": a sharding_spec is not a dictionary");
        continue;
      }
      auto tensorName = dyn_cast_or_null<StringAttr>(spec.get("tensor_name"));
      if (!tensorName || tensorName.getValue().empty()) {
        error(loc, what + ": a sharding_spec has no tensor_name",
              "ir-dev-shard-tensor");
        continue;
      }
      std::string where =
          what + ", sharding of '" + tensorName.getValue().str() + "'";
      auto tensor = tensors.find(tensorName.getValue());
      if (tensor == tensors.end()) {
        error(loc,
              where + ": '" + tensorName.getValue() +
                  "' is not an input or output of the node",
              "ir-dev-shard-tensor");
        continue;
      }
      // Devices: ids of the configuration, or keys of device groups
      // (index_to_device_group_map) whose members are.
      auto checkDevice = [&](int64_t id, const Twine &in) {
        if (numDevices && (id < 0 || id >= numDevices))
          error(loc,
                where + ": device " + Twine(id) + in + " is not one of the " +
                    Twine(numDevices) + " devices of its configuration",
                "ir-dev-shard-devices");
      };
      llvm::SmallDenseSet<int64_t> groupKeys;
      if (auto groups = dyn_cast_or_null<ArrayAttr>(
              spec.get("index_to_device_group_map")))
        for (Attribute g : groups) {
          auto pair = dyn_cast<ArrayAttr>(g);
          auto key = pair && pair.size() == 2 ? dyn_cast<IntegerAttr>(pair[0])
                                              : IntegerAttr();
          auto members =
              key ? dyn_cast<DenseI64ArrayAttr>(pair[1]) : DenseI64ArrayAttr();
          if (!members) {
            malformed(loc, where + ": an index_to_device_group_map entry is "
                                   "not [key, array<i64>]");
            continue;
          }
          groupKeys.insert(key.getInt());
          for (int64_t id : members.asArrayRef())
            checkDevice(id, " (in device group " + Twine(key.getInt()) + ")");
        }
      int64_t deviceCount = -1;
      if (Attribute d = spec.get("device")) {
        auto devices = dyn_cast<DenseI64ArrayAttr>(d);
        if (!devices) {
          malformed(loc, where + ": 'device' is not an array<i64>");
        } else {
          deviceCount = devices.size();
          for (int64_t id : devices.asArrayRef())
            if (!groupKeys.contains(id))
              checkDevice(id, "");
        }
      }
      auto dimsAttr = dyn_cast_or_null<ArrayAttr>(spec.get("sharded_dim"));
      if (!dimsAttr)
        continue;
      int64_t rank = -1;
      SmallVector<TensorType> shapes;
      collectTensorShapes(tensor->second, shapes);
      if (shapes.size() == 1 && shapes[0].hasRank())
        rank = shapes[0].getRank();
      int64_t totalShards = 1;
      for (Attribute d : dimsAttr) {
        auto dim = dyn_cast<DictionaryAttr>(d);
        auto axis = dim ? dyn_cast_or_null<IntegerAttr>(dim.get("axis"))
                        : IntegerAttr();
        if (!axis) {
          error(loc, where + ": a sharded_dim has no axis",
                "ir-dev-shard-axis");
          continue;
        }
        if (rank >= 0 && (axis.getInt() < -rank || axis.getInt() >= rank))
          error(loc,
                where + ": axis " + Twine(axis.getInt()) +
                    " is out of range for rank " + Twine(rank),
                "ir-dev-shard-axis");
        auto simple = dyn_cast_or_null<ArrayAttr>(dim.get("simple_sharding"));
        if (!simple)
          continue;
        checkShardedDimSize(loc, where, axis.getInt(), simple,
                            rank >= 0 ? shapes[0] : TensorType());
        for (Attribute x : simple) {
          auto sd = dyn_cast<DictionaryAttr>(x);
          auto shards = sd ? dyn_cast_or_null<IntegerAttr>(sd.get("num_shards"))
                           : IntegerAttr();
          if (!shards || shards.getInt() < 1) {
            error(loc,
                  where + ": axis " + Twine(axis.getInt()) +
                      " needs a positive num_shards",
                  "ir-dev-shard-num-shards");
            continue;
          }
          // Saturates: any count past 2^62 divides no device list.
          if (llvm::MulOverflow(totalShards, shards.getInt(), totalShards))
            totalShards = int64_t(1) << 62;
        }
      }
      if (deviceCount > 0 && deviceCount % totalShards != 0)
        error(loc,
              where + ": " + Twine(totalShards) + " shards do not divide " +
                  "evenly over its " + Twine(deviceCount) + " devices",
              "ir-dev-shard-devices");
    }
  }
}

void Validator::checkShardedDimSize(Location loc, const std::string &where,
                                    int64_t axis, ArrayAttr simple,
                                    TensorType type) {
  if (!type || !type.hasRank() || axis < -type.getRank() ||
      axis >= type.getRank())
    return;
  if (axis < 0)
    axis += type.getRank();
  if (type.isDynamicDim(axis))
    return; // a symbolic dim: its dim_param is not kept on the value
  // One entry per fused axis (onnx.proto: several describe a tensor whose
  // axes were reshaped into one): the dim is the product of their sizes.
  int64_t size = type.getDimSize(axis), product = 1;
  for (Attribute x : simple) {
    auto sd = dyn_cast<DictionaryAttr>(x);
    if (!sd)
      return;
    if (auto param = dyn_cast_or_null<StringAttr>(sd.get("dim_param"))) {
      if (simple.size() == 1)
        error(loc,
              where + ": axis " + Twine(axis) + " is sharded as dim_param '" +
                  param.getValue() + "' but the tensor's dim is " + Twine(size),
              "ir-dev-shard-dim");
      return;
    }
    auto value = dyn_cast_or_null<IntegerAttr>(sd.get("dim_value"));
    if (!value || value.getInt() < 0 || value.getInt() > size)
      return value ? error(loc,
                           where + ": axis " + Twine(axis) +
                               " is sharded as dim_value " +
                               Twine(value.getInt()) +
                               " but the tensor's dim is " + Twine(size),
                           "ir-dev-shard-dim")
                   : void();
    if (llvm::MulOverflow(product, value.getInt(), product))
      return error(loc,
                   where + ": axis " + Twine(axis) +
                       " is sharded as dim_values whose product overflows "
                       "int64",
                   "ir-dev-shard-dim");
  }
  if (product != size)
    error(loc,
          where + ": axis " + Twine(axis) + " is sharded as dim_value " +
              Twine(product) + " but the tensor's dim is " + Twine(size),
          "ir-dev-shard-dim");
}

//===----------------------------------------------------------------------===//
// Nodes
//===----------------------------------------------------------------------===//

void Validator::checkOp(Operation *op, DictionaryAttr opsets,
                        const std::string &what, bool inFunction,
                        DictionaryAttr functionInfo) {
  Location loc = op->getLoc();
  for (Type t : op->getResultTypes())
    checkType(loc, t, what);
  checkAttributeTypes(op, what);
  if (op->hasAttr("onnx.metadata_props"))
    gate(loc, 10, what + ": metadata_props on a node", "ir-gate-metadata");
  if (op->hasAttr("onnx.device_configurations"))
    checkDeviceConfigurations(op, what);

  // The domain is imported, and the op is the version its opset selects.
  StringRef domain = domainOf(op);
  if (!domain.empty()) {
    Attribute version = opsets ? opsets.get(domain) : Attribute();
    if (!version) {
      error(loc,
            what + ": domain '" + domain + "' is not imported" +
                (inFunction ? " by the function" : " by the model"),
            "ver-opset-import-domain");
    } else if (auto v = dyn_cast<IntegerAttr>(version);
               v && isa<ONNXSchemaOpInterface>(op) &&
               !op->hasAttr("onnx.initializer")) {
      // (Subgraph initializers are the newest onnx.Constant, whatever the
      // opset.)
      const OpSchema &schema = cast<ONNXSchemaOpInterface>(op).getSchema();
      std::optional<OperationName> selected = lookupSchemaOp(
          op->getContext(), schema.domain, schema.name, v.getInt());
      if (!selected)
        error(loc,
              what + ": the operator's first version " +
                  Twine(schema.sinceVersion) + " is newer than opset " +
                  Twine(v.getInt()) + " of '" + domain + "'",
              "ver-op-compatible");
      else if (*selected != op->getName() && !isWidenedFrom(op, *selected))
        error(loc,
              what + ": opset " + Twine(v.getInt()) + " of '" + domain +
                  "' selects " + selected->getStringRef() + ", not " +
                  op->getName().getStringRef(),
              "ver-op-compatible");
    }
  }

  // Calls: overloads are IR 10.
  if (auto call = dyn_cast<CallOp>(op)) {
    DictionaryAttr info = functionInfos.lookup(call.getCallee());
    if (info && info.get("overload"))
      gate(loc, 10, what + ": a call of an overloaded function",
           "ir-gate-functions");
  }

  // Attribute references: inside a function, to one of its attributes.
  if (Attribute refsAttr = op->getAttr(getAttrRefsAttrName())) {
    auto refs = dyn_cast<DictionaryAttr>(refsAttr);
    if (!refs)
      return malformed(loc, what + ": onnx.attr_refs is not a dictionary");
    llvm::StringSet<> params;
    if (functionInfo) {
      for (StringRef key : {"attributes"})
        if (auto list = dyn_cast_or_null<ArrayAttr>(functionInfo.get(key)))
          for (Attribute a : list)
            if (auto s = dyn_cast<StringAttr>(a))
              params.insert(s.getValue());
      if (auto defaults = dyn_cast_or_null<DictionaryAttr>(
              functionInfo.get("attribute_defaults")))
        for (NamedAttribute d : defaults)
          params.insert(d.getName().getValue());
    }
    for (NamedAttribute ref : refs) {
      auto target = dyn_cast<AttrRefAttr>(ref.getValue());
      if (!target) {
        malformed(loc, what + ": onnx.attr_refs holds a non-reference");
        continue;
      }
      if (!inFunction)
        error(loc,
              what + ": attribute '" + ref.getName().getValue() +
                  "' refers to a function attribute outside a function",
              "ir-func-attr-ref");
      else if (!params.contains(target.getName()))
        error(loc,
              what + ": attribute '" + ref.getName().getValue() +
                  "' refers to '" + target.getName() +
                  "', which is no attribute of the function",
              "ir-func-attr-ref");
    }
  }
}

//===----------------------------------------------------------------------===//
// Functions and graphs
//===----------------------------------------------------------------------===//

void Validator::checkFunctionInfo(func::FuncOp func, DictionaryAttr info) {
  Location loc = func.getLoc();
  std::string what = "model-local function '" + func.getSymName().str() + "'";
  gate(loc, 8, what + ": model-local functions", "ir-gate-functions");
  if (info.get("overload"))
    gate(loc, 10, what + ": overload", "ir-gate-functions");
  if (info.get("attribute_defaults"))
    gate(loc, 9, what + ": attributes with default values",
         "ir-gate-functions");
  if (info.get("metadata_props"))
    gate(loc, 10, what + ": metadata_props on a function", "ir-gate-metadata");

  auto strings = [&](StringRef key) {
    SmallVector<StringRef> out;
    Attribute a = info.get(key);
    if (!a)
      return out;
    auto list = dyn_cast<ArrayAttr>(a);
    if (!list) {
      malformed(loc, what + ": onnx.function." + key + " is not an array");
      return out;
    }
    for (Attribute item : list) {
      if (auto s = dyn_cast<StringAttr>(item))
        out.push_back(s.getValue());
      else
        malformed(loc, what + ": onnx.function." + key + " holds a non-string");
    }
    return out;
  };
  SmallVector<StringRef> inputs = strings("inputs"),
                         outputs = strings("outputs"),
                         attributes = strings("attributes");
  if (!isa_and_nonnull<StringAttr>(info.get("name")) ||
      cast<StringAttr>(info.get("name")).getValue().empty())
    malformed(loc, what + ": onnx.function has no name");
  if (Attribute d = info.get("domain"); d && !isa<StringAttr>(d))
    malformed(loc, what + ": onnx.function.domain is not a string");
  if (Attribute o = info.get("opset_import"); o && !isa<DictionaryAttr>(o))
    malformed(loc, what + ": onnx.function.opset_import is not a dictionary");

  // Attribute parameters: given once, as a name or with a default, and
  // distinct from the value names.
  llvm::StringSet<> params;
  for (StringRef a : attributes)
    if (!params.insert(a).second)
      error(loc, what + ": attribute '" + a + "' is listed twice",
            "ir-func-attr-distinct");
  if (Attribute d = info.get("attribute_defaults")) {
    auto defaults = dyn_cast<DictionaryAttr>(d);
    if (!defaults)
      malformed(loc, what + ": attribute_defaults is not a dictionary");
    else
      for (NamedAttribute a : defaults)
        if (!params.insert(a.getName().getValue()).second)
          error(loc,
                what + ": attribute '" + a.getName().getValue() +
                    "' is given both without and with a default value",
                "ir-func-attr-distinct");
  }
  llvm::StringSet<> values;
  for (StringRef v : llvm::concat<StringRef>(inputs, outputs))
    values.insert(v);
  for (const auto &p : params)
    if (values.contains(p.getKey()))
      should(loc,
             what + ": attribute '" + p.getKey() +
                 "' has the name of an input or output",
             "ir-func-attr-names");

  // The function's value names (SSA; inputs are its graph inputs).
  scopes.emplace_back();
  nodeNames.emplace_back();
  for (StringRef in : inputs)
    defineName(loc, in, what + " input");
  for (Block &b : func.getBody())
    checkNamesInBlock(b);
  nodeNames.pop_back();
  scopes.pop_back();
}

void Validator::checkTraining(func::FuncOp func, DictionaryAttr info) {
  Location loc = func.getLoc();
  gate(loc, 7, "training_info", "ir-gate-training");
  auto index = dyn_cast_or_null<IntegerAttr>(info.get("index"));
  auto role = dyn_cast_or_null<StringAttr>(info.get("role"));
  if (!index || !role)
    return malformed(loc, "'" + func.getSymName() +
                              "': onnx.training needs an integer index and "
                              "a string role");
  std::string what = "training_info " + std::to_string(index.getInt()) + ", " +
                     role.getValue().str();
  Attribute bindingAttr = info.get("binding");
  if (!bindingAttr)
    return;
  auto binding = dyn_cast<DictionaryAttr>(bindingAttr);
  if (!binding)
    return malformed(loc, what + ": the binding is not a dictionary");
  llvm::StringSet<> outputs;
  for (unsigned i = 0, e = func.getNumResults(); i < e; ++i)
    if (auto name = func.getResultAttrOfType<StringAttr>(i, "onnx.name"))
      outputs.insert(name.getValue());
  for (NamedAttribute kv : binding) {
    StringRef key = kv.getName().getValue();
    if (!initializerNames.contains(key))
      error(loc,
            what + " binding: '" + key + "' names no initializer of the model",
            "ir-training-binding-key");
    auto value = dyn_cast<StringAttr>(kv.getValue());
    if (!value) {
      malformed(loc,
                what + " binding: the value of '" + key + "' is not a string");
      continue;
    }
    if (!outputs.contains(value.getValue()))
      error(loc,
            what + " binding: '" + value.getValue() + "' (bound to '" + key +
                "') is not an output of the graph",
            "ir-training-binding-value");
  }
}

void Validator::checkDimParams(func::FuncOp func) {
  auto check = [&](Type type, DictionaryAttr attrs, const std::string &what) {
    if (!attrs)
      return;
    Attribute a = attrs.get("onnx.dim_params");
    if (!a)
      return;
    auto list = dyn_cast<ArrayAttr>(a);
    if (!list)
      return malformed(func.getLoc(), what + ": onnx.dim_params is not an "
                                             "array");
    SmallVector<TensorType> shapes;
    collectTensorShapes(type, shapes);
    SmallVector<int64_t> sizes;
    for (TensorType t : shapes)
      if (t.hasRank())
        llvm::append_range(sizes, t.getShape());
    if (sizes.size() != list.size())
      return malformed(func.getLoc(), what + ": onnx.dim_params has " +
                                          Twine(list.size()) + " entries for " +
                                          Twine(sizes.size()) + " dimensions");
    for (auto [param, size] : llvm::zip(list, sizes)) {
      auto name = dyn_cast<StringAttr>(param);
      if (!name) {
        malformed(func.getLoc(), what + ": onnx.dim_params holds a non-string");
        return;
      }
      if (name.getValue().empty())
        continue;
      if (name.getValue() == "*") {
        error(func.getLoc(),
              what + ": '*' as a dim_param (any number of dimensions) is not "
                     "supported; a shape has one entry per dimension",
              "ir-shape-rank");
        continue;
      }
      if (!isC90Identifier(name.getValue()))
        should(func.getLoc(),
               what + ": dim_param '" + name.getValue() +
                   "' is not a C90 identifier",
               "ir-dim-param-c90");
      if (ShapedType::isDynamic(size))
        continue;
      auto [it, inserted] =
          dimParams.try_emplace(name.getValue(), std::make_pair(size, what));
      if (!inserted && it->second.first != size)
        error(func.getLoc(),
              "dim_param '" + name.getValue() + "' is " + Twine(size) + " in " +
                  what + " but " + Twine(it->second.first) + " in " +
                  it->second.second,
              "ir-dim-param-consistent");
    }
  };
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
    auto name = func.getArgAttrOfType<StringAttr>(i, "onnx.name");
    check(func.getArgumentTypes()[i], func.getArgAttrDict(i),
          "input '" + (name ? name.getValue().str() : "#" + std::to_string(i)) +
              "' of '" + func.getSymName().str() + "'");
  }
  for (unsigned i = 0, e = func.getNumResults(); i < e; ++i) {
    auto name = func.getResultAttrOfType<StringAttr>(i, "onnx.name");
    check(func.getResultTypes()[i], func.getResultAttrDict(i),
          "output '" +
              (name ? name.getValue().str() : "#" + std::to_string(i)) +
              "' of '" + func.getSymName().str() + "'");
  }
}

void Validator::checkFunc(func::FuncOp func) {
  Location loc = func.getLoc();
  auto infoAttr = func->getAttr("onnx.function");
  auto info = dyn_cast_or_null<DictionaryAttr>(infoAttr);
  if (infoAttr && !info)
    return malformed(loc, "'" + func.getSymName() +
                              "': onnx.function is not a dictionary");
  auto trainingAttr = func->getAttr("onnx.training");
  auto training = dyn_cast_or_null<DictionaryAttr>(trainingAttr);
  if (trainingAttr && !training)
    return malformed(loc, "'" + func.getSymName() +
                              "': onnx.training is not a dictionary");
  std::string what =
      info ? "model-local function '" + func.getSymName().str() + "'"
           : "graph '" + func.getSymName().str() + "'";

  if (func->hasAttr("onnx.metadata_props"))
    gate(loc, 10, what + ": metadata_props on a graph", "ir-gate-metadata");
  if (func->hasAttr("onnx.quantization_annotation"))
    gate(loc, 5, what + ": quantization_annotation", "ir-gate-quantization");
  auto argName = [&](unsigned i) -> std::string {
    if (auto name = func.getArgAttrOfType<StringAttr>(i, "onnx.name"))
      return name.getValue().str();
    return "#" + std::to_string(i);
  };
  auto resultName = [&](unsigned i) -> std::string {
    if (auto name = func.getResultAttrOfType<StringAttr>(i, "onnx.name"))
      return name.getValue().str();
    return "#" + std::to_string(i);
  };
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
    checkType(loc, func.getArgumentTypes()[i],
              what + ", input '" + argName(i) + "'");
    if (func.getArgAttr(i, "onnx.metadata_props"))
      gate(loc, 10, what + ": metadata_props on an input", "ir-gate-metadata");
  }
  for (unsigned i = 0, e = func.getNumResults(); i < e; ++i) {
    checkType(loc, func.getResultTypes()[i],
              what + ", output '" + resultName(i) + "'");
    if (func.getResultAttr(i, "onnx.metadata_props"))
      gate(loc, 10, what + ": metadata_props on an output", "ir-gate-metadata");
  }

  DictionaryAttr opsets = opsetImport;
  if (info)
    opsets = dyn_cast_or_null<DictionaryAttr>(info.get("opset_import"));
  func.walk([&](Operation *op) {
    if (op == func.getOperation() ||
        isa<func::ReturnOp, YieldOp, ml_program::GlobalLoadConstOp>(op))
      return;
    checkOp(op, opsets, describe(op), info != nullptr, info);
  });

  if (info)
    return checkFunctionInfo(func, info);
  if (training)
    checkTraining(func, training);
  checkDimParams(func);

  // Names: the graph's inputs and initializers, then its nodes.
  scopes.emplace_back();
  nodeNames.emplace_back();
  llvm::StringSet<> defaults;
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
    auto name = func.getArgAttrOfType<StringAttr>(i, "onnx.name");
    if (!name)
      continue;
    if (auto def = func.getArgAttrOfType<FlatSymbolRefAttr>(i, "onnx.default"))
      defaults.insert(def.getValue());
    defineName(loc, name.getValue(), "input of " + what);
  }
  if (!training) {
    for (auto global : module.getOps<ml_program::GlobalOp>()) {
      if (global->hasAttr("onnx.training_algorithm") ||
          defaults.contains(global.getSymName()))
        continue;
      auto name = global->getAttrOfType<StringAttr>("onnx.name");
      defineName(global.getLoc(), name ? name.getValue() : global.getSymName(),
                 "initializer");
    }
  }
  for (Block &b : func.getBody())
    checkNamesInBlock(b);
  nodeNames.pop_back();
  scopes.pop_back();
}

void Validator::checkRecursion() {
  // Calls among model-local functions form no cycle.
  llvm::StringMap<SmallVector<StringRef>> callees;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (!functionInfos.count(func.getSymName()))
      continue;
    SmallVector<StringRef> &out = callees[func.getSymName()];
    func.walk([&](CallOp call) { out.push_back(call.getCallee()); });
  }
  llvm::StringMap<int> state; // 1: on the path, 2: done
  SmallVector<StringRef> path;
  bool reported = false;
  std::function<void(StringRef)> visit = [&](StringRef key) {
    if (reported)
      return;
    int st = state.lookup(key);
    if (st == 2)
      return;
    if (st == 1) {
      std::string cycle;
      for (StringRef p :
           llvm::drop_begin(path, llvm::find(path, key) - path.begin()))
        cycle += "'" + p.str() + "' -> ";
      Operation *func = SymbolTable::lookupSymbolIn(
          module, StringAttr::get(module.getContext(), key));
      error(func ? func->getLoc() : module.getLoc(),
            "model-local function '" + key + "' calls itself: " + cycle + "'" +
                key + "'",
            "ir-func-no-recursion");
      reported = true;
      return;
    }
    state[key] = 1;
    path.push_back(key);
    auto it = callees.find(key);
    if (it != callees.end())
      for (StringRef callee : it->second)
        if (callees.count(callee))
          visit(callee);
    path.pop_back();
    state[key] = 2;
  };
  for (auto func : module.getOps<func::FuncOp>())
    if (callees.count(func.getSymName()))
      visit(func.getSymName());
}

LogicalResult Validator::run() {
  checkModelAttributes();
  for (auto global : module.getOps<ml_program::GlobalOp>())
    checkGlobal(global);

  // Model-local functions: one per (domain, name, overload).
  llvm::StringMap<StringRef> byKey;
  for (auto func : module.getOps<func::FuncOp>()) {
    auto info = func->getAttrOfType<DictionaryAttr>("onnx.function");
    if (!info)
      continue;
    functionInfos[func.getSymName()] = info;
    auto str = [&](StringRef key) {
      auto s = dyn_cast_or_null<StringAttr>(info.get(key));
      return s ? s.getValue() : StringRef();
    };
    StringRef domain = str("domain");
    if (domain == "ai.onnx")
      domain = "";
    std::string key =
        (domain + "::" + str("name") + "::" + str("overload")).str();
    auto [it, inserted] = byKey.try_emplace(key, func.getSymName());
    if (!inserted)
      error(func.getLoc(),
            "model-local functions '" + it->second + "' and '" +
                func.getSymName() + "' have the same domain, name and overload",
            "ir-func-unique");
  }

  for (auto func : module.getOps<func::FuncOp>())
    checkFunc(func);
  checkRecursion();

  if (nonC90)
    emitWarning(module.getLoc())
        << nonC90 << " names are not C90 identifiers, the first is '"
        << firstNonC90 << "' [ir-names-c90]";
  return failure(failed);
}

namespace {
struct ONNXValidatePass
    : public onnx::impl::ONNXValidateBase<ONNXValidatePass> {
  using ONNXValidateBase::ONNXValidateBase;
  void runOnOperation() override {
    Validator validator(getOperation(), strict);
    if (failed(validator.run()))
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
