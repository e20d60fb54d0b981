// RUN: onnx-opt %s -split-input-file -verify-diagnostics
// The rules of the dialect types.

// expected-error @+1 {{map key must be an 8 to 64-bit integer or !onnx.string, got 'f32'}}
func.func private @map_key(!onnx.map<f32, tensor<f32>>)

// -----

// expected-error @+1 {{map value must be an ONNX value type, got 'i64'}}
func.func private @map_value(!onnx.map<i64, i64>)

// -----

// expected-error @+1 {{sequence element must be a tensor, sparse tensor, sequence, map or optional type, got 'f32'}}
func.func private @seq_element(!onnx.seq<f32>)

// -----

// expected-error @+1 {{optional element must be a tensor, sparse tensor, sequence or map type, got '!onnx.opt<tensor<f32>>'}}
func.func private @opt_element(!onnx.opt<!onnx.opt<tensor<f32>>>)

// -----

// expected-error @+1 {{sparse tensor element type must be an ONNX element type, got 'index'}}
func.func private @sparse_element(!onnx.sparse_tensor<tensor<4xindex>>)
