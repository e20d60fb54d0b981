//===- Signature.cpp - Model signatures and element types -----------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The signature is stored in compiled libraries as JSON:
//   {"version":1,"entry":"f","openmp":false,
//    "inputs":[{"name":"x","dtype":1,"dims":[-1,4],"dim_params":["N",""]}],
//    "outputs":[...],
//    "kernels":[["conv_3,relu","Conv+Relu"],...]}   (compiled with profile)
//
//===----------------------------------------------------------------------===//

#include "Compiler.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir::onnx::runtime;

namespace {
/// An element type of the C API. The sub-byte types (int4, uint4, int2,
/// uint2, float4e2m1) take one byte per element there, as in the compiled
/// code's memrefs: the value in the low bits, int4/int2 sign-extended.
struct DTypeFacts {
  int32_t code;
  const char *name;
  size_t size;
};
} // namespace

static const DTypeFacts kDTypes[] = {
    {1, "float32", 4},     {2, "uint8", 1},           {3, "int8", 1},
    {4, "uint16", 2},      {5, "int16", 2},           {6, "int32", 4},
    {7, "int64", 8},       {8, "string", 0},          {9, "bool", 1},
    {10, "float16", 2},    {11, "float64", 8},        {12, "uint32", 4},
    {13, "uint64", 8},     {14, "complex64", 8},      {15, "complex128", 16},
    {16, "bfloat16", 2},   {17, "float8e4m3fn", 1},   {18, "float8e4m3fnuz", 1},
    {19, "float8e5m2", 1}, {20, "float8e5m2fnuz", 1}, {21, "uint4", 1},
    {22, "int4", 1},       {23, "float4e2m1", 1},     {24, "float8e8m0", 1},
    {25, "uint2", 1},      {26, "int2", 1},
};

static const DTypeFacts *findDType(int32_t code) {
  for (const DTypeFacts &f : kDTypes)
    if (f.code == code)
      return &f;
  return nullptr;
}

size_t mlir::onnx::runtime::dtypeSize(int32_t dtype) {
  const DTypeFacts *f = findDType(dtype);
  return f ? f->size : 0;
}

const char *mlir::onnx::runtime::dtypeName(int32_t dtype) {
  const DTypeFacts *f = findDType(dtype);
  return f ? f->name : "undefined";
}

static const char *kindName(int32_t kind) {
  switch (kind) {
  case ONNXD_KIND_SEQUENCE:
    return "seq";
  case ONNXD_KIND_MAP:
    return "map";
  case ONNXD_KIND_OPTIONAL:
    return "optional";
  default:
    return "tensor";
  }
}

std::string mlir::onnx::runtime::describe(const ValueSignature &value) {
  std::string s;
  llvm::raw_string_ostream os(s);
  for (int32_t kind : value.nest)
    os << kindName(kind) << "(";
  os << dtypeName(value.dtype);
  if (!value.rankKnown) {
    os << "[*]" << std::string(value.nest.size(), ')');
    return s;
  }
  os << "[";
  for (size_t i = 0; i < value.dims.size(); ++i) {
    if (i)
      os << ",";
    if (!value.dimParams[i].empty())
      os << value.dimParams[i];
    else if (value.dims[i] < 0)
      os << "?";
    else
      os << value.dims[i];
  }
  os << "]" << std::string(value.nest.size(), ')');
  return s;
}

void Signature::finalize() {
  for (auto *list : {&inputs, &outputs})
    for (ValueSignature &v : *list) {
      v.dimParams.resize(v.dims.size());
      v.type.clear();
      for (int32_t kind : v.nest)
        v.type += std::string(kindName(kind)) + "(";
      v.type += std::string("tensor(") +
                (v.dtype == 1    ? "float"
                 : v.dtype == 11 ? "double"
                                 : dtypeName(v.dtype)) +
                ")" + std::string(v.nest.size(), ')');
      v.dimParamPtrs.clear();
      for (const std::string &p : v.dimParams)
        v.dimParamPtrs.push_back(p.c_str());
    }
}

static llvm::json::Array valuesToJSON(const std::vector<ValueSignature> &vs) {
  llvm::json::Array out;
  for (const ValueSignature &v : vs) {
    llvm::json::Array dims, params, nest;
    for (int32_t k : v.nest)
      nest.push_back(k);
    for (int64_t d : v.dims)
      dims.push_back(d);
    for (const std::string &p : v.dimParams)
      params.push_back(p);
    out.push_back(llvm::json::Object{{"name", v.name},
                                     {"dtype", v.dtype},
                                     {"dims", std::move(dims)},
                                     {"dim_params", std::move(params)},
                                     {"nest", std::move(nest)},
                                     {"rank_known", v.rankKnown}});
  }
  return out;
}

std::string Signature::toJSON() const {
  llvm::json::Object obj{{"version", 1},
                         {"entry", entry},
                         {"openmp", openmp},
                         {"inputs", valuesToJSON(inputs)},
                         {"outputs", valuesToJSON(outputs)}};
  if (profiled) {
    llvm::json::Array list;
    for (const auto &[nodes, ops] : kernels)
      list.push_back(llvm::json::Array{nodes, ops});
    obj["kernels"] = std::move(list);
  }
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::json::Value(std::move(obj));
  return s;
}

static bool valuesFromJSON(const llvm::json::Array *array,
                           std::vector<ValueSignature> &out) {
  if (!array)
    return false;
  for (const llvm::json::Value &value : *array) {
    const llvm::json::Object *obj = value.getAsObject();
    if (!obj)
      return false;
    ValueSignature v;
    auto name = obj->getString("name");
    auto dtype = obj->getInteger("dtype");
    const llvm::json::Array *dims = obj->getArray("dims");
    const llvm::json::Array *params = obj->getArray("dim_params");
    if (!name || !dtype || !dims || !params || dims->size() != params->size())
      return false;
    v.name = name->str();
    v.dtype = static_cast<int32_t>(*dtype);
    v.rankKnown = obj->getBoolean("rank_known").value_or(true);
    if (const llvm::json::Array *nest = obj->getArray("nest"))
      for (const llvm::json::Value &k : *nest) {
        auto i = k.getAsInteger();
        if (!i)
          return false;
        v.nest.push_back(static_cast<int32_t>(*i));
      }
    for (const llvm::json::Value &d : *dims) {
      auto i = d.getAsInteger();
      if (!i)
        return false;
      v.dims.push_back(*i);
    }
    for (const llvm::json::Value &p : *params) {
      auto s = p.getAsString();
      if (!s)
        return false;
      v.dimParams.push_back(s->str());
    }
    out.push_back(std::move(v));
  }
  return true;
}

bool Signature::fromJSON(llvm::StringRef json, std::string &error) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(json);
  if (!parsed) {
    error = llvm::toString(parsed.takeError());
    return false;
  }
  const llvm::json::Object *obj = parsed->getAsObject();
  if (!obj || obj->getInteger("version") != 1 || !obj->getString("entry")) {
    error = "not a version 1 signature";
    return false;
  }
  entry = obj->getString("entry")->str();
  openmp = obj->getBoolean("openmp").value_or(false);
  inputs.clear();
  outputs.clear();
  if (!valuesFromJSON(obj->getArray("inputs"), inputs) ||
      !valuesFromJSON(obj->getArray("outputs"), outputs)) {
    error = "malformed inputs or outputs";
    return false;
  }
  kernels.clear();
  const llvm::json::Array *list = obj->getArray("kernels");
  profiled = list != nullptr;
  if (list)
    for (const llvm::json::Value &k : *list) {
      const llvm::json::Array *pair = k.getAsArray();
      if (!pair || pair->size() != 2 || !(*pair)[0].getAsString() ||
          !(*pair)[1].getAsString()) {
        error = "malformed kernels";
        return false;
      }
      kernels.emplace_back((*pair)[0].getAsString()->str(),
                           (*pair)[1].getAsString()->str());
    }
  finalize();
  return true;
}
