/*===- Translation.h - ONNX models to and from MLIR (C API) -------*- C -*-===//
 *
 * Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
 * Exceptions. See LICENSE for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 *===----------------------------------------------------------------------===//
 *
 * The importer and exporter on MlirModule, for compilers that embed the onnx
 * dialect through the C API.
 *
 * Errors are reported as diagnostics on the context (attach a handler with
 * mlirContextAttachDiagnosticHandler to receive them); the functions then
 * return a null module or a failed MlirLogicalResult. The context must have
 * the onnx dialect's registry (onnxRegisterAllDialects) appended.
 *
 *===----------------------------------------------------------------------===*/

#ifndef ONNXDIALECT_C_TRANSLATION_H
#define ONNXDIALECT_C_TRANSLATION_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Imports a model from memory: a binary ModelProto, protobuf text format or
 *  ONNX's textual syntax (told apart by content). `modelDirectory` is where
 *  external data files are looked up (and confined to); an empty string
 *  means the current directory. Returns a new module owned by the caller
 *  (mlirModuleDestroy), or a null module (mlirModuleIsNull) after emitting
 *  the errors as diagnostics. `bytes` is borrowed for the call. */
MLIR_CAPI_EXPORTED MlirModule onnxImportModel(MlirContext context,
                                              MlirStringRef bytes,
                                              MlirStringRef modelDirectory);

/** Imports a model file (.onnx, .onnxtxt, ...); external data is resolved
 *  against the file's directory. Ownership as onnxImportModel. */
MLIR_CAPI_EXPORTED MlirModule onnxImportModelFile(MlirContext context,
                                                  MlirStringRef path);

/** Exports a module at the onnx level as an ONNX model: a binary ModelProto,
 *  or protobuf text format when `textFormat`. The bytes are passed to
 *  `callback` (maybe in several pieces) with `userData`. The module is
 *  borrowed. Fails (with diagnostics) on a module that does not describe an
 *  ONNX model. */
MLIR_CAPI_EXPORTED MlirLogicalResult
onnxExportModel(MlirModule module, bool textFormat, MlirStringCallback callback,
                void *userData);

#ifdef __cplusplus
}
#endif

#endif /* ONNXDIALECT_C_TRANSLATION_H */
