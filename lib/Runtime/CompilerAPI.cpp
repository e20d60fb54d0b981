//===- CompilerAPI.cpp - onnxd_compile and onnxd_emit ---------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The two functions of the C API that compile (OnnxRuntime.h), in the
// compiler library (OnnxDialectCompiler): a program that only loads and runs
// ahead-of-time libraries links the runtime library alone, which links
// neither LLVM nor MLIR.
//
//===----------------------------------------------------------------------===//

#include "Compiler.h"

#include <memory>

using namespace mlir::onnx::runtime;

onnxd_status onnxd_compile(const char *path, const onnxd_options *options,
                           onnxd_model **model) {
  if (!path || !model)
    return fail(ONNXD_INVALID_ARGUMENT, "onnxd_compile: NULL argument");
  *model = nullptr;
  makeRuntimeGlobal();
  onnxd_options defaults;
  onnxd_options_init(&defaults);
  auto jit = std::make_unique<JITModel>();
  if (Error e = compileJIT(path, options ? *options : defaults, *jit))
    return fail(e.status, e.message);
  Signature signature = jit->signature;
  PackedEntry entry = jit->entry;
  return makeModel(signature, entry, std::move(jit),
                   options ? options->num_threads : 1, model);
}

onnxd_status onnxd_emit(const char *path, const onnxd_options *options,
                        onnxd_emit_kind kind, const char *out_path) {
  if (!path || !out_path)
    return fail(ONNXD_INVALID_ARGUMENT, "onnxd_emit: NULL argument");
  if (kind < ONNXD_EMIT_MLIR || kind > ONNXD_EMIT_PTX)
    return fail(ONNXD_INVALID_ARGUMENT, "onnxd_emit: unknown kind");
  onnxd_options defaults;
  onnxd_options_init(&defaults);
  if (Error e = emit(path, options ? *options : defaults, kind, out_path))
    return fail(e.status, e.message);
  return ONNXD_OK;
}
