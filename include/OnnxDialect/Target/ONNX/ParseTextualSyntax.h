//===- ParseTextualSyntax.h - ONNX textual syntax to ModelProto -*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The parser for ONNX's compact textual model syntax (Syntax.md), the
// importer's third input format beside binary and text-format protobuf.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_TARGET_ONNX_PARSETEXTUALSYNTAX_H
#define ONNXDIALECT_TARGET_ONNX_PARSETEXTUALSYNTAX_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace onnx_dialect::proto {
class ModelProto;
} // namespace onnx_dialect::proto

namespace mlir {
namespace onnx {

/// Parses a model in the ONNX textual syntax (Syntax.md). On failure returns
/// false and sets `error` to a message naming the line and column ("line L,
/// column C: ...").
bool parseONNXTextualSyntax(llvm::StringRef text,
                            onnx_dialect::proto::ModelProto &model,
                            std::string &error);

/// Whether `text` looks like the textual syntax (starts, after whitespace and
/// comments, with '<' or an identifier followed by '(' ), as opposed to
/// protobuf text format (identifier followed by ':' or '{').
bool looksLikeONNXTextualSyntax(llvm::StringRef text);

} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_TARGET_ONNX_PARSETEXTUALSYNTAX_H
