//===- ONNXAttrs.td - Attributes of the onnx dialect -------*- tablegen -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Tensor values use the builtin elements attributes (dense, dense_resource,
// string, sparse); ONNX type attributes are TypeAttr. The dialect adds
// references to attribute parameters of model-local functions.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_IR_ONNXATTRS_TD
#define ONNXDIALECT_IR_ONNXATTRS_TD

include "OnnxDialect/Dialect/ONNX/IR/ONNXDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/CommonAttrConstraints.td"

def ONNX_AttrRefAttr : AttrDef<ONNX_Dialect, "AttrRef"> {
  let mnemonic = "ref";
  let summary = "reference to an attribute parameter of the enclosing function";
  let description = [{
    ONNX's `ref_attr_name`: inside a model-local function, a node attribute
    may name one of the function's attribute parameters instead of holding a
    value. `#onnx.ref<"alpha">`. A generated op keeps these in its
    discardable `onnx.attr_refs` dictionary (attribute name -> reference), so
    its typed attributes stay typed; they are resolved when the function is
    specialised at a call site.
  }];
  let parameters = (ins StringRefParameter<"name of the function's attribute">:$name);
  let assemblyFormat = "`<` $name `>`";
}

def ONNX_SparseTensorAttr
    : Attr<CPred<"::llvm::isa<::mlir::SparseElementsAttr>($_self)">,
           "sparse tensor attribute"> {
  let storageType = "::mlir::SparseElementsAttr";
  let returnType = "::mlir::SparseElementsAttr";
  let convertFromStorage = "$_self";
}

def ONNX_TensorListAttr : TypedArrayAttrBase<ElementsAttr, "list of tensors">;
def ONNX_SparseTensorListAttr
    : TypedArrayAttrBase<ONNX_SparseTensorAttr, "list of sparse tensors">;

#endif // ONNXDIALECT_IR_ONNXATTRS_TD
