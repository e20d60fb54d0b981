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

#include "Runtime.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

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
  for (int32_t kind : value.nest)
    s += std::string(kindName(kind)) + "(";
  s += dtypeName(value.dtype);
  if (!value.rankKnown)
    return s + "[*]" + std::string(value.nest.size(), ')');
  s += "[";
  for (size_t i = 0; i < value.dims.size(); ++i) {
    if (i)
      s += ",";
    if (!value.dimParams[i].empty())
      s += value.dimParams[i];
    else if (value.dims[i] < 0)
      s += "?";
    else
      s += std::to_string(value.dims[i]);
  }
  return s + "]" + std::string(value.nest.size(), ')');
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

//===----------------------------------------------------------------------===//
// JSON (the embedded signature; the runtime links no LLVM, so no llvm::json)
//===----------------------------------------------------------------------===//

void mlir::onnx::runtime::appendJSONString(std::string &out,
                                           const std::string &s) {
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\t':
      out += "\\t";
      break;
    case '\r':
      out += "\\r";
      break;
    default:
      if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof(buf), "\\u%04x", c);
        out += buf;
      } else {
        out += char(c);
      }
    }
  }
  out += '"';
}

namespace {
/// A parsed JSON value (numbers: integers only, all the signature holds).
struct JSONValue {
  enum Kind { Null, Bool, Integer, String, Array, Object } kind = Null;
  bool boolean = false;
  int64_t integer = 0;
  std::string string;
  std::vector<JSONValue> items;
  std::vector<std::pair<std::string, JSONValue>> members;

  const JSONValue *get(const char *key, Kind k) const {
    for (const auto &[name, value] : members)
      if (name == key)
        return value.kind == k ? &value : nullptr;
    return nullptr;
  }
};

/// A recursive-descent parser of JSON text, bounded in depth.
class JSONParser {
public:
  explicit JSONParser(const std::string &text)
      : start(text.data()), p(text.data()), end(text.data() + text.size()) {}

  bool parse(JSONValue &out, std::string &error) {
    if (!value(out, 0) || (skip(), p != end)) {
      error = "malformed JSON at byte " + std::to_string(offset());
      return false;
    }
    return true;
  }

private:
  size_t offset() const { return size_t(p - start); }
  void skip() {
    while (p != end && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r'))
      advance(1);
  }
  void advance(size_t n) { p += n; }
  bool literal(const char *word) {
    size_t n = std::strlen(word);
    if (size_t(end - p) < n || std::strncmp(p, word, n) != 0)
      return false;
    advance(n);
    return true;
  }
  bool hex4(unsigned &code) {
    if (end - p < 4)
      return false;
    code = 0;
    for (int i = 0; i < 4; ++i) {
      char c = p[i];
      code <<= 4;
      if (c >= '0' && c <= '9')
        code |= unsigned(c - '0');
      else if (c >= 'a' && c <= 'f')
        code |= unsigned(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F')
        code |= unsigned(c - 'A' + 10);
      else
        return false;
    }
    advance(4);
    return true;
  }
  static void appendUTF8(std::string &out, unsigned code) {
    if (code < 0x80) {
      out += char(code);
    } else if (code < 0x800) {
      out += char(0xc0 | (code >> 6));
      out += char(0x80 | (code & 0x3f));
    } else if (code < 0x10000) {
      out += char(0xe0 | (code >> 12));
      out += char(0x80 | ((code >> 6) & 0x3f));
      out += char(0x80 | (code & 0x3f));
    } else {
      out += char(0xf0 | (code >> 18));
      out += char(0x80 | ((code >> 12) & 0x3f));
      out += char(0x80 | ((code >> 6) & 0x3f));
      out += char(0x80 | (code & 0x3f));
    }
  }
  bool string(std::string &out) {
    if (p == end || *p != '"')
      return false;
    advance(1);
    while (p != end && *p != '"') {
      char c = *p;
      if (static_cast<unsigned char>(c) < 0x20)
        return false;
      if (c != '\\') {
        out += c;
        advance(1);
        continue;
      }
      advance(1);
      if (p == end)
        return false;
      char e = *p;
      advance(1);
      switch (e) {
      case '"':
      case '\\':
      case '/':
        out += e;
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        unsigned code;
        if (!hex4(code))
          return false;
        if (code >= 0xd800 && code < 0xdc00) {
          unsigned low;
          if (!literal("\\u") || !hex4(low) || low < 0xdc00 || low >= 0xe000)
            return false;
          code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
        }
        appendUTF8(out, code);
        break;
      }
      default:
        return false;
      }
    }
    if (p == end)
      return false;
    advance(1);
    return true;
  }
  bool value(JSONValue &out, int depth) {
    if (depth > 32)
      return false;
    skip();
    if (p == end)
      return false;
    switch (*p) {
    case '{': {
      out.kind = JSONValue::Object;
      advance(1);
      skip();
      if (p != end && *p == '}') {
        advance(1);
        return true;
      }
      while (true) {
        skip();
        std::string key;
        if (!string(key))
          return false;
        skip();
        if (p == end || *p != ':')
          return false;
        advance(1);
        JSONValue member;
        if (!value(member, depth + 1))
          return false;
        out.members.emplace_back(std::move(key), std::move(member));
        skip();
        if (p != end && *p == ',') {
          advance(1);
          continue;
        }
        if (p != end && *p == '}') {
          advance(1);
          return true;
        }
        return false;
      }
    }
    case '[': {
      out.kind = JSONValue::Array;
      advance(1);
      skip();
      if (p != end && *p == ']') {
        advance(1);
        return true;
      }
      while (true) {
        JSONValue item;
        if (!value(item, depth + 1))
          return false;
        out.items.push_back(std::move(item));
        skip();
        if (p != end && *p == ',') {
          advance(1);
          continue;
        }
        if (p != end && *p == ']') {
          advance(1);
          return true;
        }
        return false;
      }
    }
    case '"':
      out.kind = JSONValue::String;
      return string(out.string);
    case 't':
      out.kind = JSONValue::Bool;
      out.boolean = true;
      return literal("true");
    case 'f':
      out.kind = JSONValue::Bool;
      return literal("false");
    case 'n':
      return literal("null");
    default: {
      out.kind = JSONValue::Integer;
      const char *start = p;
      if (*p == '-')
        advance(1);
      const char *digits = p;
      while (p != end && *p >= '0' && *p <= '9')
        advance(1);
      if (p == digits || p - digits > 18)
        return false;
      out.integer = std::strtoll(std::string(start, p).c_str(), nullptr, 10);
      return true;
    }
    }
  }

  const char *start, *p, *end;
};
} // namespace

static void valuesToJSON(std::string &out,
                         const std::vector<ValueSignature> &vs) {
  out += '[';
  for (size_t i = 0; i < vs.size(); ++i) {
    const ValueSignature &v = vs[i];
    out += i ? ",{\"name\":" : "{\"name\":";
    appendJSONString(out, v.name);
    out += ",\"dtype\":" + std::to_string(v.dtype) + ",\"dims\":[";
    for (size_t d = 0; d < v.dims.size(); ++d)
      out += (d ? "," : "") + std::to_string(v.dims[d]);
    out += "],\"dim_params\":[";
    for (size_t d = 0; d < v.dimParams.size(); ++d) {
      if (d)
        out += ',';
      appendJSONString(out, v.dimParams[d]);
    }
    out += "],\"nest\":[";
    for (size_t k = 0; k < v.nest.size(); ++k)
      out += (k ? "," : "") + std::to_string(v.nest[k]);
    out += "],\"rank_known\":";
    out += v.rankKnown ? "true}" : "false}";
  }
  out += ']';
}

std::string Signature::toJSON() const {
  std::string out = "{\"version\":1,\"entry\":";
  appendJSONString(out, entry);
  out += ",\"openmp\":";
  out += openmp ? "true" : "false";
  if (onGPU()) {
    out += ",\"device\":";
    appendJSONString(out, device);
  }
  if (!deviceConfig.empty()) {
    out += ",\"device_config\":";
    appendJSONString(out, deviceConfig);
    out += ",\"rank\":" + std::to_string(rank);
    out += ",\"comm_bytes\":" + std::to_string(commBytes);
  }
  out += ",\"inputs\":";
  valuesToJSON(out, inputs);
  out += ",\"outputs\":";
  valuesToJSON(out, outputs);
  if (!outputParams.empty()) {
    out += ",\"output_params\":[";
    for (size_t i = 0; i < outputParams.size(); ++i)
      out += (i ? "," : "") + std::to_string(outputParams[i]);
    out += ']';
  }
  if (profiled) {
    out += ",\"kernels\":[";
    for (size_t i = 0; i < kernels.size(); ++i) {
      out += i ? ",[" : "[";
      appendJSONString(out, kernels[i].first);
      out += ',';
      appendJSONString(out, kernels[i].second);
      out += ']';
    }
    out += ']';
  }
  out += '}';
  return out;
}

static bool valuesFromJSON(const JSONValue *array,
                           std::vector<ValueSignature> &out) {
  if (!array)
    return false;
  for (const JSONValue &value : array->items) {
    if (value.kind != JSONValue::Object)
      return false;
    ValueSignature v;
    const JSONValue *name = value.get("name", JSONValue::String);
    const JSONValue *dtype = value.get("dtype", JSONValue::Integer);
    const JSONValue *dims = value.get("dims", JSONValue::Array);
    const JSONValue *params = value.get("dim_params", JSONValue::Array);
    if (!name || !dtype || !dims || !params ||
        dims->items.size() != params->items.size())
      return false;
    v.name = name->string;
    v.dtype = static_cast<int32_t>(dtype->integer);
    const JSONValue *rankKnown = value.get("rank_known", JSONValue::Bool);
    v.rankKnown = rankKnown ? rankKnown->boolean : true;
    if (const JSONValue *nest = value.get("nest", JSONValue::Array))
      for (const JSONValue &k : nest->items) {
        if (k.kind != JSONValue::Integer)
          return false;
        v.nest.push_back(static_cast<int32_t>(k.integer));
      }
    for (const JSONValue &d : dims->items) {
      if (d.kind != JSONValue::Integer)
        return false;
      v.dims.push_back(d.integer);
    }
    for (const JSONValue &p : params->items) {
      if (p.kind != JSONValue::String)
        return false;
      v.dimParams.push_back(p.string);
    }
    out.push_back(std::move(v));
  }
  return true;
}

bool Signature::fromJSON(const std::string &json, std::string &error) {
  JSONValue root;
  if (!JSONParser(json).parse(root, error))
    return false;
  const JSONValue *version = root.get("version", JSONValue::Integer);
  const JSONValue *entryName = root.get("entry", JSONValue::String);
  if (root.kind != JSONValue::Object || !version || version->integer != 1 ||
      !entryName) {
    error = "not a version 1 signature";
    return false;
  }
  entry = entryName->string;
  const JSONValue *usesOpenMP = root.get("openmp", JSONValue::Bool);
  openmp = usesOpenMP && usesOpenMP->boolean;
  const JSONValue *where = root.get("device", JSONValue::String);
  device = where ? where->string : "cpu";
  if (device != "cpu" && device != "cuda") {
    error = "unknown device '" + device + "'";
    return false;
  }
  deviceConfig.clear();
  if (const JSONValue *c = root.get("device_config", JSONValue::String)) {
    deviceConfig = c->string;
    const JSONValue *r = root.get("rank", JSONValue::Integer);
    const JSONValue *b = root.get("comm_bytes", JSONValue::Integer);
    rank = r ? r->integer : -1;
    commBytes = b ? b->integer : 0;
  }
  inputs.clear();
  outputs.clear();
  if (!valuesFromJSON(root.get("inputs", JSONValue::Array), inputs) ||
      !valuesFromJSON(root.get("outputs", JSONValue::Array), outputs)) {
    error = "malformed inputs or outputs";
    return false;
  }
  outputParams.clear();
  if (const JSONValue *params = root.get("output_params", JSONValue::Array)) {
    std::vector<bool> seen(outputs.size(), false);
    for (const JSONValue &p : params->items) {
      bool ok = p.kind == JSONValue::Integer && p.integer >= 0 &&
                static_cast<size_t>(p.integer) < outputs.size() &&
                !seen[p.integer];
      if (ok) {
        const ValueSignature &v = outputs[p.integer];
        ok = !v.isHandle() && std::all_of(v.dims.begin(), v.dims.end(),
                                          [](int64_t d) { return d >= 0; });
      }
      if (!ok) {
        error = "malformed output_params";
        return false;
      }
      seen[p.integer] = true;
      outputParams.push_back(p.integer);
    }
  }
  kernels.clear();
  const JSONValue *list = root.get("kernels", JSONValue::Array);
  profiled = list != nullptr;
  if (list)
    for (const JSONValue &k : list->items) {
      if (k.kind != JSONValue::Array || k.items.size() != 2 ||
          k.items[0].kind != JSONValue::String ||
          k.items[1].kind != JSONValue::String) {
        error = "malformed kernels";
        return false;
      }
      kernels.emplace_back(k.items[0].string, k.items[1].string);
    }
  finalize();
  return true;
}
