//===- ONNXTypes.td - Types of the onnx dialect ------------*- tablegen -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// ONNX values that are not dense tensors: strings (as a tensor element type),
// sequences, maps, optionals, sparse tensors and opaque values.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_IR_ONNXTYPES_TD
#define ONNXDIALECT_IR_ONNXTYPES_TD

include "OnnxDialect/Dialect/ONNX/IR/ONNXDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class ONNX_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<ONNX_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def ONNX_StringType : ONNX_Type<"String", "string"> {
  let summary = "ONNX string, the element type of string tensors";
  let description = [{
    The element type of `tensor(string)`: `tensor<2x!onnx.string>`.
  }];
}

def ONNX_SeqType : ONNX_Type<"Seq", "seq"> {
  let summary = "ONNX sequence: an ordered list of values of one type";
  let description = [{
    `!onnx.seq<tensor<?xf32>>`. The element is a tensor, sparse tensor,
    sequence, map or optional type (IR.md, sequence_type).
  }];
  let parameters = (ins "::mlir::Type":$elementType);
  let assemblyFormat = "`<` $elementType `>`";
  let genVerifyDecl = 1;
}

def ONNX_MapType : ONNX_Type<"Map", "map"> {
  let summary = "ONNX map from integer or string keys to values of one type";
  let description = [{
    `!onnx.map<i64, tensor<f32>>`. Keys are an integer type (`i8` ... `i64`,
    `ui8` ... `ui64`) or `!onnx.string`; values are any ONNX value type.
  }];
  let parameters = (ins "::mlir::Type":$keyType, "::mlir::Type":$valueType);
  let assemblyFormat = "`<` $keyType `,` $valueType `>`";
  let genVerifyDecl = 1;
}

def ONNX_OptType : ONNX_Type<"Opt", "opt"> {
  let summary = "ONNX optional: a value of the element type, or none";
  let description = [{
    `!onnx.opt<tensor<3xf32>>`, `!onnx.opt<!onnx.seq<tensor<*xi64>>>`.
  }];
  let parameters = (ins "::mlir::Type":$elementType);
  let assemblyFormat = "`<` $elementType `>`";
  let genVerifyDecl = 1;
}

def ONNX_SparseTensorType : ONNX_Type<"SparseTensor", "sparse_tensor"> {
  let summary = "ONNX sparse tensor (coordinate format)";
  let description = [{
    `!onnx.sparse_tensor<tensor<100x100xf32>>`: the dense tensor type the
    sparse value stands for (IR.md, sparse_tensor_type).
  }];
  let parameters = (ins "::mlir::TensorType":$tensorType);
  let assemblyFormat = "`<` $tensorType `>`";
  let genVerifyDecl = 1;
}

def ONNX_OpaqueType : ONNX_Type<"Opaque", "opaque"> {
  let summary = "ONNX opaque type, identified by domain and name";
  let description = [{
    `!onnx.opaque<"com.example", "handle">`.
  }];
  let parameters = (ins StringRefParameter<>:$domain, StringRefParameter<>:$name);
  let assemblyFormat = "`<` $domain `,` $name `>`";
}

def ONNX_AnyType : ONNX_Type<"Any", "any"> {
  let summary = "the type of a value in a polymorphic model-local function";
  let description = [{
    A model-local function (FunctionProto) does not type its inputs: each
    call decides. `!onnx.any` stands for such a type until the function is
    specialised at a call site; every operator op accepts it wherever it
    accepts a value.
  }];
}

//===----------------------------------------------------------------------===//
// Type constraints used by the generated ops.
//===----------------------------------------------------------------------===//

def ONNX_Any : Type<CPred<"::llvm::isa<::mlir::onnx::AnyType>($_self)">,
                    "!onnx.any", "::mlir::onnx::AnyType">;

def ONNX_String : Type<CPred<"::llvm::isa<::mlir::onnx::StringType>($_self)">,
                       "string", "::mlir::onnx::StringType">;

class ONNX_SeqOf<Type element>
    : ContainerType<element, CPred<"::llvm::isa<::mlir::onnx::SeqType>($_self)">,
                    "::llvm::cast<::mlir::onnx::SeqType>($_self).getElementType()",
                    "sequence", "::mlir::onnx::SeqType">;

class ONNX_OptOf<Type element>
    : ContainerType<element, CPred<"::llvm::isa<::mlir::onnx::OptType>($_self)">,
                    "::llvm::cast<::mlir::onnx::OptType>($_self).getElementType()",
                    "optional", "::mlir::onnx::OptType">;

class ONNX_SparseTensorOf<list<Type> allowed>
    : ContainerType<AnyTypeOf<allowed>,
                    CPred<"::llvm::isa<::mlir::onnx::SparseTensorType>($_self)">,
                    "::llvm::cast<::mlir::onnx::SparseTensorType>($_self)"
                    ".getTensorType().getElementType()",
                    "sparse tensor", "::mlir::onnx::SparseTensorType">;

class ONNX_MapOf<Type key, Type value>
    : Type<And<[CPred<"::llvm::isa<::mlir::onnx::MapType>($_self)">,
                SubstLeaves<"$_self",
                            "::llvm::cast<::mlir::onnx::MapType>($_self).getKeyType()",
                            key.predicate>,
                SubstLeaves<"$_self",
                            "::llvm::cast<::mlir::onnx::MapType>($_self).getValueType()",
                            value.predicate>]>,
           "map from " # key.summary # " to " # value.summary,
           "::mlir::onnx::MapType">;

#endif // ONNXDIALECT_IR_ONNXTYPES_TD
