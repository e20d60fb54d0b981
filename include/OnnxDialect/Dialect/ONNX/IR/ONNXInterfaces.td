//===- ONNXInterfaces.td - Interfaces of the onnx ops ------*- tablegen -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_IR_ONNXINTERFACES_TD
#define ONNXDIALECT_IR_ONNXINTERFACES_TD

include "mlir/IR/OpBase.td"

def ONNX_SchemaOpInterface : OpInterface<"ONNXSchemaOpInterface"> {
  let cppNamespace = "::mlir::onnx";
  let description = [{
    An op that is one schema version of an ONNX operator. The schema (domain,
    operator name, since_version, inputs, outputs, attributes and type
    variables as the specification states them) drives the shared printer,
    parser and verifier, and the importer's lookup of the op for a node.
  }];
  let methods = [
    StaticInterfaceMethod<"The ONNX schema this op was generated from.",
      "const ::mlir::onnx::OpSchema &", "getSchema">,
  ];
  let verify = [{ return ::mlir::onnx::verifySchemaOp($_op); }];
}

#endif // ONNXDIALECT_IR_ONNXINTERFACES_TD
