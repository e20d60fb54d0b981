//===- ONNXDialect.td - The onnx dialect definition --------*- tablegen -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_IR_ONNXDIALECT_TD
#define ONNXDIALECT_IR_ONNXDIALECT_TD

include "mlir/IR/OpBase.td"

def ONNX_Dialect : Dialect {
  let name = "onnx";
  let cppNamespace = "::mlir::onnx";
  let summary = "The ONNX operators, types and IR rules as an MLIR dialect";
  let description = [{
    Every schema version of every ONNX operator (ai.onnx, ai.onnx.preview,
    ai.onnx.preview.training, ai.onnx.ml) is an op, generated from the ONNX
    specification. Tensors are builtin tensor types; sequences, maps,
    optionals, sparse tensors, opaque values and strings are dialect types.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let dependentDialects = ["::mlir::func::FuncDialect"];
  // Folding of shape arithmetic, constants and no-op ops (ONNXFolding.h).
  let hasCanonicalizer = 1;
  let extraClassDeclaration = [{
    /// The op of each schema version of (domain, op_type), keyed by
    /// "domain::op_type" ("" for ai.onnx), in increasing since_version.
    using SchemaVersions =
        ::llvm::SmallVector<std::pair<int, ::mlir::OperationName>, 4>;
    const ::llvm::StringMap<SchemaVersions> &getSchemaIndex() const {
      return schemaIndex;
    }

  private:
    ::llvm::StringMap<SchemaVersions> schemaIndex;
    void buildSchemaIndex();

  public:
  }];
}

#endif // ONNXDIALECT_IR_ONNXDIALECT_TD
