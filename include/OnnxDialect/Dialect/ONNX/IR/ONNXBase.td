//===- ONNXBase.td - Base classes of the onnx ops ----------*- tablegen -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// ONNX_Op is the base of every generated operator op: it ties the op to its
// schema (domain, name, since_version) and gives it the shared assembly format
//
//   %y = onnx.Clip(%x, none, %max) {attrs} : (tensor<4xf32>, tensor<f32>)
//          -> tensor<4xf32> <graph-name> { region }
//
// where `none` marks an omitted optional input (ONNX's empty input name) and
// `none` in the result type list an omitted optional output.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_IR_ONNXBASE_TD
#define ONNXDIALECT_IR_ONNXBASE_TD

include "OnnxDialect/Dialect/ONNX/IR/ONNXDialect.td"
include "OnnxDialect/Dialect/ONNX/IR/ONNXTypes.td"
include "OnnxDialect/Dialect/ONNX/IR/ONNXAttrs.td"
include "OnnxDialect/Dialect/ONNX/IR/ONNXInterfaces.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class ONNX_Op<string mnemonic, list<Trait> traits = []>
    : Op<ONNX_Dialect, mnemonic,
         !listconcat(traits, [DeclareOpInterfaceMethods<ONNX_SchemaOpInterface>])> {
  // The body of the static getSchema(); written by the generator.
  code schemaDef = "";
  // Deprecated schema versions exist so that a model binding to one gets a
  // clear error; they take and give any values.
  bit isDeprecated = 0;
  let hasCustomAssemblyFormat = 1;
  let extraClassDefinition = [{
    const ::mlir::onnx::OpSchema &$cppClass::getSchema() {
  }] # schemaDef # [{
    }
    ::mlir::ParseResult $cppClass::parse(::mlir::OpAsmParser &parser,
                                         ::mlir::OperationState &result) {
      return ::mlir::onnx::parseSchemaOp(parser, result, getSchema());
    }
    void $cppClass::print(::mlir::OpAsmPrinter &printer) {
      ::mlir::onnx::printSchemaOp(printer, getOperation(), getSchema());
    }
  }];
}

#endif // ONNXDIALECT_IR_ONNXBASE_TD
