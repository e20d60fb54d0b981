//===- ONNXOps.td - The ops of the onnx dialect ------------*- tablegen -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The structural ops that are not ONNX operators (lower-case mnemonics), and
// the generated operator ops, one file per domain group.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_IR_ONNXOPS_TD
#define ONNXDIALECT_IR_ONNXOPS_TD

include "OnnxDialect/Dialect/ONNX/IR/ONNXBase.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"

def ONNX_YieldOp : Op<ONNX_Dialect, "yield",
                      [Pure, Terminator, ReturnLike]> {
  let summary = "the outputs of a subgraph (If, Loop, Scan, ... bodies)";
  let description = [{
    Terminates the region of a graph attribute; its operands are the graph's
    outputs in order.
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, {}); }]>];
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

def ONNX_CustomOp : Op<ONNX_Dialect, "custom", []> {
  let summary = "a node of an operator the dialect does not define";
  let description = [{
    A node whose domain (or operator) has no schema here: it keeps the domain,
    the operator type, the inputs (omitted ones as `none`), the outputs, the
    node attributes (as the op's other attributes) and its graph attributes
    (as named regions), so that nothing of the node is lost on export.

    ```mlir
    %y = onnx.custom "com.example" "FusedConv"(%x, none, %w) {alpha = 1.0 : f32}
           : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
    ```
  }];
  let arguments = (ins StrAttr:$domain, StrAttr:$op_type,
                       Variadic<AnyType>:$inputs,
                       OptionalAttr<DenseI64ArrayAttr>:$absent_inputs,
                       OptionalAttr<DenseI64ArrayAttr>:$absent_outputs,
                       OptionalAttr<StrArrayAttr>:$graph_names);
  let results = (outs Variadic<AnyType>:$outputs);
  let regions = (region VariadicRegion<SizedRegion<1>>:$graphs);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def ONNX_CallOp : Op<ONNX_Dialect, "call",
    [CallOpInterface, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "a node that calls a model-local function";
  let description = [{
    A node whose (domain, op_type) names a model-local function. The node's
    attributes (the values of the function's attribute parameters) are the
    op's other attributes.

    ```mlir
    %y = onnx.call @"custom.domain::MyRelu"(%x) {alpha = 0.1 : f32}
           : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$args,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let results = (outs Variadic<AnyType>:$outputs);
  let assemblyFormat = [{
    $callee `(` $args `)` attr-dict `:` functional-type($args, results)
  }];
  let extraClassDeclaration = [{
    ::mlir::Operation::operand_range getArgOperands() { return getArgs(); }
    ::mlir::MutableOperandRange getArgOperandsMutable() {
      return getArgsMutable();
    }
    ::mlir::CallInterfaceCallable getCallableForCallee() {
      return getCalleeAttr();
    }
    void setCalleeFromCallable(::mlir::CallInterfaceCallable callee) {
      setCalleeAttr(::llvm::cast<::mlir::FlatSymbolRefAttr>(
          ::llvm::cast<::mlir::SymbolRefAttr>(callee)));
    }
  }];
}

include "OnnxDialect/Dialect/ONNX/IR/ONNXOpsAiOnnx.td"
include "OnnxDialect/Dialect/ONNX/IR/ONNXOpsPreview.td"
include "OnnxDialect/Dialect/ONNX/IR/ONNXOpsML.td"

#endif // ONNXDIALECT_IR_ONNXOPS_TD
