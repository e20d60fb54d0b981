//===- ParseTextualSyntax.cpp - ONNX textual syntax to ModelProto ---------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A recursive-descent parser for the textual model syntax of Syntax.md. Where
// the grammar leaves a choice open (which proto fields are set, how omitted
// names and literals are read), it makes the choice ONNX's own parser makes,
// so that a text means the same model to both.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Target/ONNX/ParseTextualSyntax.h"

#include "onnx.pb.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <limits>
#include <string>
#include <utility>

using namespace onnx_dialect::proto;
using llvm::StringRef;
using llvm::Twine;

namespace {

template <typename T> using Repeated = google::protobuf::RepeatedPtrField<T>;
using AttrType = AttributeProto::AttributeType;

/// Graphs within attributes and types within types recurse in the parser;
/// bounding them keeps hostile input from exhausting the stack.
constexpr unsigned kMaxNestingDepth = 64;

/// APFloat's decimal conversion needs stack in proportion to the digits (tens
/// of thousands of them overflow it), while 767 significant digits already
/// decide the rounding of any double.
constexpr size_t kMaxNumberLength = 1000;

/// TensorProto.DataType code of an element type name; 0 if it is none.
int lookupElementType(StringRef name) {
  return llvm::StringSwitch<int>(name)
      .Case("float", 1)
      .Case("uint8", 2)
      .Case("int8", 3)
      .Case("uint16", 4)
      .Case("int16", 5)
      .Case("int32", 6)
      .Case("int64", 7)
      .Case("string", 8)
      .Case("bool", 9)
      .Case("float16", 10)
      .Case("double", 11)
      .Case("uint32", 12)
      .Case("uint64", 13)
      .Case("complex64", 14)
      .Case("complex128", 15)
      .Case("bfloat16", 16)
      .Case("float8e4m3fn", 17)
      .Case("float8e4m3fnuz", 18)
      .Case("float8e5m2", 19)
      .Case("float8e5m2fnuz", 20)
      .Case("uint4", 21)
      .Case("int4", 22)
      .Case("float4e2m1", 23)
      .Case("float8e8m0", 24)
      .Case("uint2", 25)
      .Case("int2", 26)
      .Default(0);
}

bool isTypeConstructor(StringRef name) {
  return name == "seq" || name == "map" || name == "optional" ||
         name == "sparse_tensor";
}

/// The attribute type names of `name: type = value` annotations; the same
/// spelling is used in messages about mismatched values.
AttrType lookupAttrType(StringRef name) {
  return llvm::StringSwitch<AttrType>(name)
      .Case("float", AttributeProto::FLOAT)
      .Case("int", AttributeProto::INT)
      .Case("string", AttributeProto::STRING)
      .Case("tensor", AttributeProto::TENSOR)
      .Case("graph", AttributeProto::GRAPH)
      .Case("sparse_tensor", AttributeProto::SPARSE_TENSOR)
      .Case("type_proto", AttributeProto::TYPE_PROTO)
      .Case("floats", AttributeProto::FLOATS)
      .Case("ints", AttributeProto::INTS)
      .Case("strings", AttributeProto::STRINGS)
      .Case("tensors", AttributeProto::TENSORS)
      .Case("graphs", AttributeProto::GRAPHS)
      .Case("sparse_tensors", AttributeProto::SPARSE_TENSORS)
      .Case("type_protos", AttributeProto::TYPE_PROTOS)
      .Default(AttributeProto::UNDEFINED);
}

StringRef attrTypeName(AttrType type) {
  switch (type) {
  case AttributeProto::FLOAT:
    return "float";
  case AttributeProto::INT:
    return "int";
  case AttributeProto::STRING:
    return "string";
  case AttributeProto::TENSOR:
    return "tensor";
  case AttributeProto::GRAPH:
    return "graph";
  case AttributeProto::SPARSE_TENSOR:
    return "sparse_tensor";
  case AttributeProto::TYPE_PROTO:
    return "type_proto";
  case AttributeProto::FLOATS:
    return "floats";
  case AttributeProto::INTS:
    return "ints";
  case AttributeProto::STRINGS:
    return "strings";
  case AttributeProto::TENSORS:
    return "tensors";
  case AttributeProto::GRAPHS:
    return "graphs";
  case AttributeProto::SPARSE_TENSORS:
    return "sparse_tensors";
  case AttributeProto::TYPE_PROTOS:
    return "type_protos";
  default:
    return "undefined";
  }
}

/// The element kind of a list attribute type; UNDEFINED for singletons.
AttrType elementOfList(AttrType type) {
  switch (type) {
  case AttributeProto::FLOATS:
    return AttributeProto::FLOAT;
  case AttributeProto::INTS:
    return AttributeProto::INT;
  case AttributeProto::STRINGS:
    return AttributeProto::STRING;
  case AttributeProto::TENSORS:
    return AttributeProto::TENSOR;
  case AttributeProto::GRAPHS:
    return AttributeProto::GRAPH;
  case AttributeProto::SPARSE_TENSORS:
    return AttributeProto::SPARSE_TENSOR;
  case AttributeProto::TYPE_PROTOS:
    return AttributeProto::TYPE_PROTO;
  default:
    return AttributeProto::UNDEFINED;
  }
}

AttrType listOfElement(AttrType type) {
  switch (type) {
  case AttributeProto::FLOAT:
    return AttributeProto::FLOATS;
  case AttributeProto::INT:
    return AttributeProto::INTS;
  case AttributeProto::STRING:
    return AttributeProto::STRINGS;
  case AttributeProto::TENSOR:
    return AttributeProto::TENSORS;
  case AttributeProto::GRAPH:
    return AttributeProto::GRAPHS;
  case AttributeProto::SPARSE_TENSOR:
    return AttributeProto::SPARSE_TENSORS;
  case AttributeProto::TYPE_PROTO:
    return AttributeProto::TYPE_PROTOS;
  default:
    return AttributeProto::UNDEFINED;
  }
}

/// The literals accepted for an element type kept one literal per int32_data
/// entry. Floating-point and packed 4-/2-bit types take their bit patterns
/// (a packed byte holds two or four elements), as ONNX's parser and printer
/// have it, so either signedness of the pattern is accepted.
std::pair<int64_t, int64_t> int32DataRange(int code) {
  switch (code) {
  case 2: // uint8
    return {0, 255};
  case 3: // int8
    return {-128, 127};
  case 4: // uint16
    return {0, 65535};
  case 5: // int16
    return {-32768, 32767};
  case 6: // int32
    return {std::numeric_limits<int32_t>::min(),
            std::numeric_limits<int32_t>::max()};
  case 9: // bool
    return {0, 1};
  case 10: // float16
  case 16: // bfloat16
    return {-32768, 65535};
  default: // float8 patterns and packed 4-/2-bit bytes
    return {-128, 255};
  }
}

/// A name or token as shown in messages: quoted, escaped so that the message
/// stays on one line, and shortened so that it stays readable.
std::string quote(StringRef text) {
  constexpr size_t kMaxShown = 40;
  std::string out = "'";
  llvm::raw_string_ostream os(out);
  llvm::printEscapedString(text.take_front(kMaxShown), os);
  os << (text.size() > kMaxShown ? "...'" : "'");
  return out;
}

bool isIdentifierStart(char c) { return llvm::isAlpha(c) || c == '_'; }
bool isIdentifierChar(char c) { return llvm::isAlnum(c) || c == '_'; }

const char *skipTrivia(const char *p, const char *end) {
  while (p < end) {
    if (llvm::isSpace(*p)) {
      ++p;
    } else if (*p == '#') {
      while (p < end && *p != '\n')
        ++p;
    } else {
      break;
    }
  }
  return p;
}

const char *skipIdentifier(const char *p, const char *end) {
  if (p < end && isIdentifierStart(*p))
    while (++p < end && isIdentifierChar(*p))
      ;
  return p;
}

/// A number as written: digits with an optional fraction and exponent, or
/// inf/infinity/nan in any case, each with an optional '-'.
struct Number {
  const char *loc = nullptr;
  StringRef text;
  bool isFloat = false;
};

/// Every parse method returns true on failure (the LLVM parser convention);
/// the first failure's message, with its position, is kept in `error`.
class Parser {
public:
  explicit Parser(StringRef text)
      : start(text.begin()), cur(text.begin()), end(text.end()) {}

  bool parseModel(ModelProto &model);

  std::string error;

private:
  //===--- Characters and tokens ------------------------------------------===//

  void skipTrivia() { cur = ::skipTrivia(cur, end); }
  bool atEnd() {
    skipTrivia();
    return cur >= end;
  }
  /// The next significant character; '\0' at the end of the input.
  char peek() {
    skipTrivia();
    return cur < end ? *cur : '\0';
  }
  bool consumeIf(char c) {
    if (peek() != c || cur >= end)
      return false;
    ++cur;
    return true;
  }
  bool expect(char c, const Twine &purpose) {
    if (consumeIf(c))
      return false;
    return emitError(cur, "expected '" + Twine(c) + "' " + purpose +
                              ", found " + describeNext());
  }
  /// '=>' is one token: ONNX's parser allows no space inside it.
  bool expectArrow(const Twine &purpose) {
    skipTrivia();
    if (end - cur >= 2 && cur[0] == '=' && cur[1] == '>') {
      cur += 2;
      return false;
    }
    return emitError(cur,
                     "expected '=>' " + purpose + ", found " + describeNext());
  }

  StringRef peekIdentifier() {
    skipTrivia();
    return StringRef(cur, skipIdentifier(cur, end) - cur);
  }
  StringRef lexIdentifier() {
    StringRef id = peekIdentifier();
    cur += id.size();
    return id;
  }
  /// The significant character after the identifier at the cursor.
  char peekAfterIdentifier() {
    const char *p =
        ::skipTrivia(skipIdentifier(::skipTrivia(cur, end), end), end);
    return p < end ? *p : '\0';
  }

  bool parseIdentifier(std::string &out, const Twine &what);
  bool parseString(std::string &out, const Twine &what);
  bool parseQuotableId(std::string &out, const Twine &what);
  bool lexNumber(Number &number, const Twine &what);
  bool toInt64(const Number &number, int64_t &value);
  bool toUInt64(const Number &number, uint64_t &value);
  bool toFloat(const Number &number, float &value);
  bool toDouble(const Number &number, double &value);
  bool parseInt64(int64_t &value, const Twine &what) {
    Number number;
    return lexNumber(number, what) || toInt64(number, value);
  }

  std::string describeNext();
  std::string position(const char *loc) const;
  bool emitError(const char *loc, const Twine &message);

  /// Entered by every graph and every type nested in a type.
  bool enterNesting(const char *loc);

  //===--- Grammar --------------------------------------------------------===//

  bool parseModelHeader(ModelProto &model);
  bool parseOpsetImports(Repeated<OperatorSetIdProto> &imports);
  bool parseStringPairs(Repeated<StringStringEntryProto> &pairs,
                        const Twine &what);

  bool isTypeStart() {
    StringRef id = peekIdentifier();
    return lookupElementType(id) != 0 || isTypeConstructor(id);
  }
  bool parseType(TypeProto &type);
  template <typename TensorLike> bool parseShapeSuffix(TensorLike &tensor);
  bool parseDims(TensorShapeProto &shape);
  bool parseValueInfo(ValueInfoProto &info);
  bool checkNotMisspeltType();
  bool parseTensorValue(TensorProto &tensor, const TypeProto &type,
                        const char *typeLoc);
  bool parseTensorElement(TensorProto &tensor, int code);

  bool parseGraph(GraphProto &graph);
  bool parseNodeList(Repeated<NodeProto> &nodes, const Twine &owner);
  bool parseNode(NodeProto &node);
  bool parseIdList(Repeated<std::string> &ids);
  bool parseAttrList(Repeated<AttributeProto> &attrs);
  bool parseAttrAfterName(AttributeProto &attr, const std::string &name);
  bool parseAttrListValue(AttributeProto &attr, AttrType declared,
                          const char *loc);
  bool parseSingleAttrValue(AttributeProto &attr, bool inList);
  bool checkAttrType(AttributeProto &value, AttrType expected, const char *loc,
                     const std::string &name);

  bool parseFunction(FunctionProto &function);
  bool parseFunctionSignature(Repeated<std::string> &names,
                              FunctionProto &function, const Twine &which);

  const char *start;
  const char *cur;
  const char *end;
  unsigned depth = 0;
};

} // namespace

//===----------------------------------------------------------------------===//
// Tokens and errors
//===----------------------------------------------------------------------===//

std::string Parser::position(const char *loc) const {
  unsigned line = 1, column = 1;
  for (const char *p = start; p < loc && p < end; ++p) {
    if (*p == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

bool Parser::emitError(const char *loc, const Twine &message) {
  if (error.empty())
    error = position(loc) + ": " + message.str();
  return true;
}

std::string Parser::describeNext() {
  skipTrivia();
  if (cur >= end)
    return "end of input";
  const char *p = cur;
  if (isIdentifierStart(*p))
    p = skipIdentifier(p, end);
  else if (llvm::isDigit(*p))
    while (p < end && (isIdentifierChar(*p) || *p == '.'))
      ++p;
  if (p == cur)
    ++p;
  if (p - cur == 1 && !llvm::isPrint(*cur))
    return "byte 0x" + llvm::utohexstr(static_cast<unsigned char>(*cur));
  return quote(StringRef(cur, p - cur));
}

bool Parser::enterNesting(const char *loc) {
  if (depth >= kMaxNestingDepth)
    return emitError(loc, "graphs and types nest deeper than " +
                              Twine(kMaxNestingDepth) + " levels");
  ++depth;
  return false;
}

bool Parser::parseIdentifier(std::string &out, const Twine &what) {
  StringRef id = lexIdentifier();
  if (id.empty())
    return emitError(cur, "expected " + what + ", found " + describeNext());
  out = id.str();
  return false;
}

bool Parser::parseString(std::string &out, const Twine &what) {
  if (peek() != '"')
    return emitError(cur, "expected " + what + " (a quoted string), found " +
                              describeNext());
  const char *open = cur++;
  out.clear();
  while (cur < end && *cur != '"') {
    // As in ONNX's parser, a backslash takes the next character literally;
    // there are no other escapes.
    if (*cur == '\\' && ++cur == end)
      break;
    out.push_back(*cur++);
  }
  if (cur >= end)
    return emitError(open, "unterminated string literal");
  ++cur;
  // Every string field of the model must hold UTF-8, and the syntax has no
  // escape that could produce other bytes, so such bytes are a bad input.
  const auto *utf8 = reinterpret_cast<const llvm::UTF8 *>(out.data());
  if (!llvm::isLegalUTF8String(&utf8, utf8 + out.size()))
    return emitError(open, "string literal is not valid UTF-8");
  return false;
}

bool Parser::parseQuotableId(std::string &out, const Twine &what) {
  if (peek() == '"')
    return parseString(out, what);
  return parseIdentifier(out, what);
}

bool Parser::lexNumber(Number &number, const Twine &what) {
  skipTrivia();
  const char *p = cur;
  number.loc = cur;
  if (p < end && *p == '-')
    ++p;
  if (p < end && llvm::isAlpha(*p)) {
    const char *wordEnd = p;
    while (wordEnd < end && isIdentifierChar(*wordEnd))
      ++wordEnd;
    StringRef word(p, wordEnd - p);
    if (!word.equals_insensitive("inf") &&
        !word.equals_insensitive("infinity") && !word.equals_insensitive("nan"))
      return emitError(cur, "expected " + what + ", found " + describeNext());
    number.text = StringRef(cur, wordEnd - cur);
    number.isFloat = true;
    cur = wordEnd;
    return false;
  }
  if (p >= end || !llvm::isDigit(*p))
    return emitError(cur, "expected " + what + ", found " + describeNext());
  bool isFloat = false;
  while (p < end && llvm::isDigit(*p))
    ++p;
  if (p < end && *p == '.') {
    isFloat = true;
    while (++p < end && llvm::isDigit(*p))
      ;
  }
  if (p < end && (*p == 'e' || *p == 'E')) {
    isFloat = true;
    if (++p < end && (*p == '+' || *p == '-'))
      ++p;
    if (p >= end || !llvm::isDigit(*p))
      return emitError(number.loc,
                       "malformed number " +
                           quote(StringRef(number.loc, p - number.loc)) +
                           ": the exponent has no digits");
    while (p < end && llvm::isDigit(*p))
      ++p;
  }
  // Reject "12ab" and "1.2.3" here rather than as a puzzling error at the
  // next token.
  if (p < end && (isIdentifierChar(*p) || *p == '.')) {
    const char *bad = p;
    while (bad < end && (isIdentifierChar(*bad) || *bad == '.'))
      ++bad;
    return emitError(number.loc,
                     "malformed number " +
                         quote(StringRef(number.loc, bad - number.loc)));
  }
  if (size_t(p - cur) > kMaxNumberLength)
    return emitError(number.loc, "number literal longer than " +
                                     Twine(kMaxNumberLength) + " characters");
  number.text = StringRef(cur, p - cur);
  number.isFloat = isFloat;
  cur = p;
  return false;
}

bool Parser::toInt64(const Number &number, int64_t &value) {
  if (number.isFloat)
    return emitError(number.loc,
                     "expected an integer, found " + quote(number.text));
  if (number.text.getAsInteger(10, value))
    return emitError(number.loc, "integer " + quote(number.text) +
                                     " does not fit in 64 bits");
  return false;
}

bool Parser::toUInt64(const Number &number, uint64_t &value) {
  if (number.isFloat)
    return emitError(number.loc,
                     "expected an integer, found " + quote(number.text));
  if (number.text.starts_with("-"))
    return emitError(number.loc, "expected an unsigned integer, found " +
                                     quote(number.text));
  if (number.text.getAsInteger(10, value))
    return emitError(number.loc, "integer " + quote(number.text) +
                                     " does not fit in 64 bits");
  return false;
}

/// Converts with APFloat rather than strtod: correctly rounded and
/// independent of the process's locale.
static bool convertNumber(const Number &number, llvm::APFloat &value) {
  StringRef text = number.text;
  bool negative = text.consume_front("-");
  if (text.equals_insensitive("inf") || text.equals_insensitive("infinity")) {
    value = llvm::APFloat::getInf(value.getSemantics(), negative);
    return true;
  }
  if (text.equals_insensitive("nan")) {
    value = llvm::APFloat::getNaN(value.getSemantics(), negative);
    return true;
  }
  auto status =
      value.convertFromString(number.text, llvm::APFloat::rmNearestTiesToEven);
  if (!status) {
    llvm::consumeError(status.takeError());
    return false;
  }
  return !(*status & llvm::APFloat::opOverflow);
}

bool Parser::toFloat(const Number &number, float &value) {
  llvm::APFloat converted(llvm::APFloat::IEEEsingle());
  if (!convertNumber(number, converted))
    return emitError(number.loc,
                     quote(number.text) + " is out of range for float");
  value = converted.convertToFloat();
  return false;
}

bool Parser::toDouble(const Number &number, double &value) {
  llvm::APFloat converted(llvm::APFloat::IEEEdouble());
  if (!convertNumber(number, converted))
    return emitError(number.loc,
                     quote(number.text) + " is out of range for double");
  value = converted.convertToDouble();
  return false;
}

//===----------------------------------------------------------------------===//
// Model and function headers
//===----------------------------------------------------------------------===//

bool Parser::parseModel(ModelProto &model) {
  model.Clear();
  if (atEnd())
    return emitError(cur, "empty input: expected a model (an optional "
                          "'<...>' header, then a graph)");
  if (consumeIf('<') && parseModelHeader(model))
    return true;
  if (parseGraph(*model.mutable_graph()))
    return true;
  while (!atEnd()) {
    char c = peek();
    if (c != '<' && c != '"' && !isIdentifierStart(c))
      return emitError(cur, "expected a function definition or the end of "
                            "input after the graph, found " +
                                describeNext());
    if (parseFunction(*model.add_functions()))
      return true;
  }
  return false;
}

bool Parser::parseModelHeader(ModelProto &model) {
  if (consumeIf('>'))
    return false;
  do {
    skipTrivia();
    const char *keyLoc = cur;
    std::string key, text;
    int64_t value = 0;
    if (parseIdentifier(key, "a model property name") ||
        expect(':', "after " + quote(key)))
      return true;
    if (key == "ir_version") {
      if (parseInt64(value, "an integer IR version"))
        return true;
      model.set_ir_version(value);
    } else if (key == "model_version") {
      if (parseInt64(value, "an integer model version"))
        return true;
      model.set_model_version(value);
    } else if (key == "opset_import") {
      if (parseOpsetImports(*model.mutable_opset_import()))
        return true;
    } else if (key == "metadata_props") {
      if (parseStringPairs(*model.mutable_metadata_props(), "metadata_props"))
        return true;
    } else if (key == "producer_name" || key == "producer_version" ||
               key == "domain" || key == "doc_string") {
      if (parseString(text, "the value of " + quote(key)))
        return true;
      if (key == "producer_name")
        model.set_producer_name(text);
      else if (key == "producer_version")
        model.set_producer_version(text);
      else if (key == "domain")
        model.set_domain(text);
      else
        model.set_doc_string(text);
    } else {
      return emitError(keyLoc, "unknown model property " + quote(key) +
                                   " (expected ir_version, opset_import, "
                                   "producer_name, producer_version, domain, "
                                   "model_version, doc_string or "
                                   "metadata_props)");
    }
  } while (consumeIf(','));
  return expect('>', "to close the model header");
}

bool Parser::parseOpsetImports(Repeated<OperatorSetIdProto> &imports) {
  if (expect('[', "to open the opset_import list"))
    return true;
  if (consumeIf(']'))
    return false;
  do {
    OperatorSetIdProto *opset = imports.Add();
    int64_t version = 0;
    if (parseString(*opset->mutable_domain(), "an opset domain") ||
        expect(':', "between an opset's domain and version") ||
        parseInt64(version, "an integer opset version"))
      return true;
    opset->set_version(version);
  } while (consumeIf(','));
  return expect(']', "to close the opset_import list");
}

bool Parser::parseStringPairs(Repeated<StringStringEntryProto> &pairs,
                              const Twine &what) {
  if (expect('[', "to open " + what))
    return true;
  if (consumeIf(']'))
    return false;
  do {
    StringStringEntryProto *pair = pairs.Add();
    if (parseString(*pair->mutable_key(), "a key") ||
        expect(':', "between a key and its value") ||
        parseString(*pair->mutable_value(), "a value"))
      return true;
  } while (consumeIf(','));
  return expect(']', "to close " + what);
}

bool Parser::parseFunction(FunctionProto &function) {
  if (consumeIf('<') && !consumeIf('>')) {
    do {
      skipTrivia();
      const char *keyLoc = cur;
      std::string key, text;
      if (parseIdentifier(key, "a function property name") ||
          expect(':', "after " + quote(key)))
        return true;
      if (key == "opset_import") {
        if (parseOpsetImports(*function.mutable_opset_import()))
          return true;
      } else if (key == "metadata_props") {
        if (parseStringPairs(*function.mutable_metadata_props(),
                             "metadata_props"))
          return true;
      } else if (key == "domain" || key == "doc_string" || key == "overload") {
        if (parseString(text, "the value of " + quote(key)))
          return true;
        if (key == "domain")
          function.set_domain(text);
        else if (key == "doc_string")
          function.set_doc_string(text);
        else
          function.set_overload(text);
      } else {
        return emitError(keyLoc, "unknown function property " + quote(key) +
                                     " (expected domain, opset_import, "
                                     "doc_string, overload or "
                                     "metadata_props)");
      }
    } while (consumeIf(','));
    if (expect('>', "to close the function header"))
      return true;
  }
  if (parseQuotableId(*function.mutable_name(), "a function name"))
    return true;
  std::string name = quote(function.name());

  // Attribute parameters: a bare name has no default, `name = value` (or
  // `name: type = value`) has one.
  if (consumeIf('<')) {
    do {
      std::string param;
      if (parseQuotableId(param, "an attribute parameter name"))
        return true;
      char next = peek();
      if (next == ':' || next == '=') {
        if (parseAttrAfterName(*function.add_attribute_proto(), param))
          return true;
      } else {
        function.add_attribute(param);
      }
    } while (consumeIf(','));
    if (expect('>', "to close the attribute parameters of function " + name))
      return true;
  }

  if (parseFunctionSignature(*function.mutable_input(), function, "inputs") ||
      expectArrow("between the inputs and outputs of function " + name) ||
      parseFunctionSignature(*function.mutable_output(), function, "outputs"))
    return true;
  if (consumeIf('<') && !consumeIf('>')) {
    do {
      if (parseValueInfo(*function.add_value_info()))
        return true;
    } while (consumeIf(','));
    if (expect('>', "to close the value infos of function " + name))
      return true;
  }
  return parseNodeList(*function.mutable_node(), "function " + name);
}

bool Parser::parseFunctionSignature(Repeated<std::string> &names,
                                    FunctionProto &function,
                                    const Twine &which) {
  if (expect('(', "to open the function's " + which))
    return true;
  if (consumeIf(')'))
    return false;
  do {
    // A typed parameter also records its type among the value infos, the
    // only place a FunctionProto has for it.
    if (isTypeStart()) {
      ValueInfoProto *info = function.add_value_info();
      if (parseType(*info->mutable_type()) ||
          parseQuotableId(*info->mutable_name(), "a parameter name"))
        return true;
      *names.Add() = info->name();
    } else if (checkNotMisspeltType() ||
               parseQuotableId(*names.Add(), "a parameter name")) {
      return true;
    }
  } while (consumeIf(','));
  return expect(')', "to close the function's " + which);
}

//===----------------------------------------------------------------------===//
// Types and tensors
//===----------------------------------------------------------------------===//

bool Parser::parseType(TypeProto &type) {
  skipTrivia();
  const char *loc = cur;
  StringRef name = lexIdentifier();
  if (name.empty())
    return emitError(loc, "expected a type, found " + describeNext());
  if (int code = lookupElementType(name)) {
    TypeProto::Tensor *tensor = type.mutable_tensor_type();
    tensor->set_elem_type(code);
    return parseShapeSuffix(*tensor);
  }
  if (!isTypeConstructor(name))
    return emitError(loc, "unknown type " + quote(name));

  if (enterNesting(loc))
    return true;
  llvm::scope_exit leave([&] { --depth; });
  if (expect('(', "after '" + name + "'"))
    return true;
  if (name == "seq") {
    if (parseType(*type.mutable_sequence_type()->mutable_elem_type()))
      return true;
  } else if (name == "optional") {
    if (parseType(*type.mutable_optional_type()->mutable_elem_type()))
      return true;
  } else {
    skipTrivia();
    const char *elemLoc = cur;
    StringRef elemName = lexIdentifier();
    int code = lookupElementType(elemName);
    if (!code)
      return emitError(
          elemLoc, (name == "map" ? "expected an element type as the "
                                    "map's key type, found "
                                  : "expected the element type of a "
                                    "sparse tensor, found ") +
                       (elemName.empty() ? describeNext() : quote(elemName)));
    if (name == "map") {
      TypeProto::Map *map = type.mutable_map_type();
      map->set_key_type(code);
      if (expect(',', "between the map's key and value types") ||
          parseType(*map->mutable_value_type()))
        return true;
    } else {
      TypeProto::SparseTensor *sparse = type.mutable_sparse_tensor_type();
      sparse->set_elem_type(code);
      if (parseShapeSuffix(*sparse))
        return true;
    }
  }
  return expect(')', "to close the '" + name + "' type");
}

template <typename TensorLike>
bool Parser::parseShapeSuffix(TensorLike &tensor) {
  // A bare element type is a scalar (a shape of rank 0); '[]' leaves the
  // rank unknown (no shape at all).
  if (!consumeIf('[')) {
    tensor.mutable_shape();
    return false;
  }
  if (consumeIf(']'))
    return false;
  return parseDims(*tensor.mutable_shape()) ||
         expect(']', "to close the tensor shape");
}

bool Parser::parseDims(TensorShapeProto &shape) {
  do {
    if (consumeIf('?')) {
      shape.add_dim();
      continue;
    }
    char c = peek();
    if (c == '"' || isIdentifierStart(c)) {
      if (parseQuotableId(*shape.add_dim()->mutable_dim_param(), "a dimension"))
        return true;
      continue;
    }
    int64_t value = 0;
    if (parseInt64(value, "a dimension ('?', a name or a number)"))
      return true;
    shape.add_dim()->set_dim_value(value);
  } while (consumeIf(','));
  return false;
}

bool Parser::parseValueInfo(ValueInfoProto &info) {
  if (isTypeStart()) {
    if (parseType(*info.mutable_type()))
      return true;
  } else if (checkNotMisspeltType()) {
    return true;
  }
  return parseQuotableId(*info.mutable_name(), "a value name");
}

bool Parser::checkNotMisspeltType() {
  // A misspelt type would otherwise be read as the value's name and fail
  // confusingly at the shape or name that follows it.
  StringRef id = peekIdentifier();
  char after = peekAfterIdentifier();
  if (!id.empty() && (after == '[' || after == '(' || after == '"' ||
                      isIdentifierStart(after)))
    return emitError(cur, "unknown type " + quote(id));
  return false;
}

bool Parser::parseTensorValue(TensorProto &tensor, const TypeProto &type,
                              const char *typeLoc) {
  if (!type.has_tensor_type())
    return emitError(typeLoc, "a tensor value needs a tensor type");
  const TypeProto::Tensor &tensorType = type.tensor_type();
  if (!tensorType.has_shape())
    return emitError(typeLoc, "a tensor value needs a shape ('[]' leaves the "
                              "rank unknown)");
  int code = tensorType.elem_type();
  tensor.set_data_type(code);
  for (const TensorShapeProto::Dimension &dim : tensorType.shape().dim()) {
    if (!dim.has_dim_value())
      return emitError(typeLoc,
                       "a tensor value needs numeric dimensions, not " +
                           (dim.has_dim_param() ? quote(dim.dim_param())
                                                : std::string("'?'")));
    tensor.add_dims(dim.dim_value());
  }
  if (peek() == '[') {
    tensor.set_data_location(TensorProto::EXTERNAL);
    return parseStringPairs(*tensor.mutable_external_data(),
                            "the external data list");
  }
  if (expect('{', "with the tensor's values (or '[' with its external data)"))
    return true;
  if (consumeIf('}'))
    return false;
  do {
    if (parseTensorElement(tensor, code))
      return true;
  } while (consumeIf(','));
  return expect('}', "to close the tensor's values");
}

bool Parser::parseTensorElement(TensorProto &tensor, int code) {
  Number number;
  switch (code) {
  case 8: // string
    return parseString(*tensor.add_string_data(), "a string element");
  case 1:  // float
  case 14: // complex64, as (real, imaginary) pairs
  {
    float value = 0;
    if (lexNumber(number, "a number") || toFloat(number, value))
      return true;
    tensor.add_float_data(value);
    return false;
  }
  case 11: // double
  case 15: // complex128, as (real, imaginary) pairs
  {
    double value = 0;
    if (lexNumber(number, "a number") || toDouble(number, value))
      return true;
    tensor.add_double_data(value);
    return false;
  }
  case 7: {
    int64_t value = 0;
    if (lexNumber(number, "an integer") || toInt64(number, value))
      return true;
    tensor.add_int64_data(value);
    return false;
  }
  case 12: // uint32
  case 13: // uint64
  {
    uint64_t value = 0;
    if (lexNumber(number, "an integer") || toUInt64(number, value))
      return true;
    if (code == 12 && value > std::numeric_limits<uint32_t>::max())
      return emitError(number.loc,
                       quote(number.text) + " is out of range for uint32");
    tensor.add_uint64_data(value);
    return false;
  }
  default: {
    int64_t value = 0;
    if (lexNumber(number, "an integer") || toInt64(number, value))
      return true;
    auto [low, high] = int32DataRange(code);
    if (value < low || value > high)
      return emitError(number.loc, quote(number.text) +
                                       " is out of range for the element "
                                       "type (" +
                                       Twine(low) + " to " + Twine(high) + ")");
    tensor.add_int32_data(static_cast<int32_t>(value));
    return false;
  }
  }
}

//===----------------------------------------------------------------------===//
// Graphs and nodes
//===----------------------------------------------------------------------===//

bool Parser::parseGraph(GraphProto &graph) {
  skipTrivia();
  if (enterNesting(cur))
    return true;
  llvm::scope_exit leave([&] { --depth; });
  if (parseQuotableId(*graph.mutable_name(), "a graph name"))
    return true;
  std::string name = quote(graph.name());

  // ONNX's parser lets a graph without inputs leave out the parentheses.
  if (consumeIf('(') && !consumeIf(')')) {
    do {
      skipTrivia();
      const char *loc = cur;
      ValueInfoProto *input = graph.add_input();
      if (parseValueInfo(*input))
        return true;
      // An input with a value is also an initializer: its default.
      if (consumeIf('=')) {
        TensorProto *initializer = graph.add_initializer();
        initializer->set_name(input->name());
        if (parseTensorValue(*initializer, input->type(), loc))
          return true;
      }
    } while (consumeIf(','));
    if (expect(')', "to close the inputs of graph " + name))
      return true;
  }
  if (expectArrow("between the inputs and outputs of graph " + name) ||
      expect('(', "to open the outputs of graph " + name))
    return true;
  if (!consumeIf(')')) {
    do {
      if (parseValueInfo(*graph.add_output()))
        return true;
    } while (consumeIf(','));
    if (expect(')', "to close the outputs of graph " + name))
      return true;
  }
  // Value infos of intermediate values, and initializers that are not inputs.
  if (consumeIf('<') && !consumeIf('>')) {
    do {
      skipTrivia();
      const char *loc = cur;
      ValueInfoProto info;
      if (parseValueInfo(info))
        return true;
      if (consumeIf('=')) {
        TensorProto *initializer = graph.add_initializer();
        initializer->set_name(info.name());
        if (parseTensorValue(*initializer, info.type(), loc))
          return true;
      } else {
        graph.add_value_info()->Swap(&info);
      }
    } while (consumeIf(','));
    if (expect('>', "to close the value infos of graph " + name))
      return true;
  }
  return parseNodeList(*graph.mutable_node(), "graph " + name);
}

bool Parser::parseNodeList(Repeated<NodeProto> &nodes, const Twine &owner) {
  skipTrivia();
  const char *open = cur;
  if (expect('{', "to open the nodes of " + owner))
    return true;
  while (!consumeIf('}')) {
    if (atEnd())
      return emitError(cur, "unexpected end of input: the nodes of " + owner +
                                " opened at " + position(open) +
                                " are not closed with '}'");
    if (parseNode(*nodes.Add()))
      return true;
  }
  return false;
}

bool Parser::parseNode(NodeProto &node) {
  if (consumeIf('[')) {
    if (peek() != ']' &&
        parseQuotableId(*node.mutable_name(), "a node name in '[...]'"))
      return true;
    node.mutable_name();
    if (expect(']', "to close the node name"))
      return true;
  }
  if (parseIdList(*node.mutable_output()) ||
      expect('=', "after the node's outputs"))
    return true;

  // The operator is `domain.parts.OpType`: all but the last part name the
  // domain.
  std::string domain, opType;
  if (parseIdentifier(opType, "an operator name"))
    return true;
  while (consumeIf('.')) {
    if (!domain.empty())
      domain += '.';
    domain += opType;
    if (parseIdentifier(opType, "an operator name after '.'"))
      return true;
  }
  node.set_domain(domain);
  node.set_op_type(opType);
  if (consumeIf(':') &&
      parseIdentifier(*node.mutable_overload(), "an overload name after ':'"))
    return true;

  bool attrsFirst = peek() == '<';
  if (attrsFirst && parseAttrList(*node.mutable_attribute()))
    return true;
  if (expect('(', "to open the inputs of " + quote(opType)) ||
      parseIdList(*node.mutable_input()) ||
      expect(')', "to close the inputs of " + quote(opType)))
    return true;
  if (peek() == '<') {
    if (attrsFirst)
      return emitError(cur, "attributes of " + quote(opType) +
                                " are given both before and after its "
                                "inputs");
    return parseAttrList(*node.mutable_attribute());
  }
  return false;
}

bool Parser::parseIdList(Repeated<std::string> &ids) {
  // An element may be empty: "" or nothing before a comma stands for an
  // omitted optional input or output. As in ONNX's parser, a trailing comma
  // after a name adds nothing, so "(,x)" is two names and "(x,)" one.
  auto parseElement = [&](bool &found) {
    if (peek() == '"') {
      found = true;
      return parseString(*ids.Add(), "a value name");
    }
    StringRef id = lexIdentifier();
    found = !id.empty() || peek() == ',';
    if (found)
      *ids.Add() = id.str();
    return false;
  };
  bool found = false;
  if (parseElement(found))
    return true;
  while (found && consumeIf(','))
    if (parseElement(found))
      return true;
  return false;
}

bool Parser::parseAttrList(Repeated<AttributeProto> &attrs) {
  if (expect('<', "to open the attribute list"))
    return true;
  do {
    std::string name;
    if (parseIdentifier(name, "an attribute name") ||
        parseAttrAfterName(*attrs.Add(), name))
      return true;
  } while (consumeIf(','));
  return expect('>', "to close the attribute list");
}

bool Parser::parseAttrAfterName(AttributeProto &attr, const std::string &name) {
  attr.set_name(name);
  AttrType declared = AttributeProto::UNDEFINED;
  if (consumeIf(':')) {
    skipTrivia();
    const char *typeLoc = cur;
    std::string typeName;
    if (parseIdentifier(typeName, "an attribute type"))
      return true;
    declared = lookupAttrType(typeName);
    if (declared == AttributeProto::UNDEFINED)
      return emitError(typeLoc, "unknown attribute type " + quote(typeName));
    attr.set_type(declared);
  }
  if (expect('=', "after attribute " + quote(name)))
    return true;
  skipTrivia();
  const char *valueLoc = cur;
  if (consumeIf('['))
    return parseAttrListValue(attr, declared, valueLoc);
  if (declared != AttributeProto::UNDEFINED &&
      elementOfList(declared) != AttributeProto::UNDEFINED && peek() != '@')
    return emitError(
        valueLoc, "attribute " + quote(name) + " is declared as '" +
                      attrTypeName(declared) + "' but its value is not a list");
  return parseSingleAttrValue(attr, /*inList=*/false) ||
         checkAttrType(attr, declared, valueLoc, name);
}

bool Parser::parseAttrListValue(AttributeProto &attr, AttrType declared,
                                const char *loc) {
  std::string name = quote(attr.name());
  AttrType elementType = elementOfList(declared);
  if (declared != AttributeProto::UNDEFINED &&
      elementType == AttributeProto::UNDEFINED)
    return emitError(loc, "attribute " + name + " is declared as '" +
                              attrTypeName(declared) +
                              "' but its value is a list");
  if (consumeIf(']')) {
    // Nothing else tells which kind of list it is.
    if (declared == AttributeProto::UNDEFINED)
      return emitError(loc, "the empty list value of attribute " + name +
                                " needs a type annotation such as ': ints'");
    return false;
  }
  AttrType kind = AttributeProto::UNDEFINED;
  do {
    skipTrivia();
    const char *elementLoc = cur;
    AttributeProto element;
    if (parseSingleAttrValue(element, /*inList=*/true) ||
        checkAttrType(element, elementType, elementLoc, attr.name()))
      return true;
    AttrType type = element.type();
    // Without an annotation, [1, 2.5] is a list of floats.
    if (kind == AttributeProto::INT && type == AttributeProto::FLOAT) {
      for (int64_t value : attr.ints())
        attr.add_floats(static_cast<float>(value));
      attr.clear_ints();
      kind = AttributeProto::FLOAT;
    } else if (kind == AttributeProto::FLOAT && type == AttributeProto::INT) {
      element.set_f(static_cast<float>(element.i()));
      type = AttributeProto::FLOAT;
    } else if (kind != AttributeProto::UNDEFINED && kind != type) {
      return emitError(elementLoc, "the list value of attribute " + name +
                                       " mixes '" + attrTypeName(kind) +
                                       "' and '" + attrTypeName(type) +
                                       "' elements");
    }
    kind = type;
    switch (type) {
    case AttributeProto::INT:
      attr.add_ints(element.i());
      break;
    case AttributeProto::FLOAT:
      attr.add_floats(element.f());
      break;
    case AttributeProto::STRING:
      attr.add_strings(std::move(*element.mutable_s()));
      break;
    case AttributeProto::TENSOR:
      attr.add_tensors()->Swap(element.mutable_t());
      break;
    case AttributeProto::GRAPH:
      attr.add_graphs()->Swap(element.mutable_g());
      break;
    case AttributeProto::TYPE_PROTO:
      attr.add_type_protos()->Swap(element.mutable_tp());
      break;
    default:
      return emitError(elementLoc,
                       "unexpected list element in attribute " + name);
    }
  } while (consumeIf(','));
  if (expect(']', "to close the list value of attribute " + name))
    return true;
  attr.set_type(listOfElement(kind));
  return false;
}

bool Parser::parseSingleAttrValue(AttributeProto &attr, bool inList) {
  skipTrivia();
  const char *loc = cur;
  char c = peek();
  if (c == '@') {
    if (inList)
      return emitError(loc, "an attribute reference ('@') cannot be a list "
                            "element");
    ++cur;
    return parseQuotableId(*attr.mutable_ref_attr_name(),
                           "the name of the referenced attribute after '@'");
  }
  if (c == '"') {
    attr.set_type(AttributeProto::STRING);
    return parseString(*attr.mutable_s(), "a string");
  }
  bool isNumber = c == '-' || llvm::isDigit(c);
  if (isIdentifierStart(c)) {
    StringRef word = peekIdentifier();
    isNumber = word.equals_insensitive("inf") ||
               word.equals_insensitive("infinity") ||
               word.equals_insensitive("nan");
    if (!isNumber && isTypeStart()) {
      TypeProto type;
      if (parseType(type))
        return true;
      // A type followed by a name, '=' or values is a tensor literal;
      // alone, it is a type attribute.
      char next = peek();
      if (next != '{' && next != '=' && next != '"' &&
          !isIdentifierStart(next)) {
        attr.set_type(AttributeProto::TYPE_PROTO);
        attr.mutable_tp()->Swap(&type);
        return false;
      }
      attr.set_type(AttributeProto::TENSOR);
      TensorProto &tensor = *attr.mutable_t();
      tensor.mutable_name();
      if ((next == '"' || isIdentifierStart(next)) &&
          parseQuotableId(*tensor.mutable_name(), "a tensor name"))
        return true;
      consumeIf('=');
      return parseTensorValue(tensor, type, loc);
    }
    if (!isNumber) {
      char after = peekAfterIdentifier();
      if (after == '[')
        return emitError(loc, "unknown type " + quote(word));
      // Only a graph may start with a name, and no graph ends there.
      if (after == ',' || after == '>' || after == ']' || after == '\0')
        return emitError(loc, "expected an attribute value, found the name " +
                                  quote(word) + " (strings need quotes)");
      attr.set_type(AttributeProto::GRAPH);
      return parseGraph(*attr.mutable_g());
    }
  }
  if (!isNumber)
    return emitError(loc, "expected an attribute value (a number, string, "
                          "tensor, type, graph or '@' reference), found " +
                              describeNext());
  Number number;
  if (lexNumber(number, "a number"))
    return true;
  if (number.isFloat) {
    float value = 0;
    if (toFloat(number, value))
      return true;
    attr.set_type(AttributeProto::FLOAT);
    attr.set_f(value);
    return false;
  }
  int64_t value = 0;
  if (toInt64(number, value))
    return true;
  attr.set_type(AttributeProto::INT);
  attr.set_i(value);
  return false;
}

bool Parser::checkAttrType(AttributeProto &value, AttrType expected,
                           const char *loc, const std::string &name) {
  if (expected == AttributeProto::UNDEFINED || value.has_ref_attr_name() ||
      value.type() == expected)
    return false;
  // The one implicit conversion: an integer written for a float.
  if (expected == AttributeProto::FLOAT &&
      value.type() == AttributeProto::INT) {
    float converted = static_cast<float>(value.i());
    value.clear_i();
    value.set_f(converted);
    value.set_type(AttributeProto::FLOAT);
    return false;
  }
  return emitError(loc,
                   "attribute " + quote(name) + " is declared as '" +
                       attrTypeName(expected) + "' but its value is " +
                       (value.type() == AttributeProto::INT ? "an " : "a ") +
                       "'" + attrTypeName(value.type()) + "'");
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

bool mlir::onnx::parseONNXTextualSyntax(StringRef text, ModelProto &model,
                                        std::string &error) {
  Parser parser(text);
  if (parser.parseModel(model)) {
    model.Clear();
    error = std::move(parser.error);
    return false;
  }
  return true;
}

bool mlir::onnx::looksLikeONNXTextualSyntax(StringRef text) {
  const char *end = text.end();
  const char *p = skipTrivia(text.begin(), end);
  if (p >= end)
    return false;
  if (*p == '<')
    return true;
  // The graph's name, quoted or not, then its inputs (or, since ONNX lets a
  // graph without inputs leave out the parentheses, the '=>').
  if (*p == '"') {
    while (++p < end && *p != '"')
      if (*p == '\\')
        ++p;
    if (p >= end)
      return false;
    ++p;
  } else if (isIdentifierStart(*p)) {
    p = skipIdentifier(p, end);
  } else {
    return false;
  }
  p = skipTrivia(p, end);
  return p < end && (*p == '(' || (*p == '=' && p + 1 < end && p[1] == '>'));
}
