/*===- Dialects.h - The onnx dialect in MLIR's C API --------------*- C -*-===//
 *
 * Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
 * Exceptions. See LICENSE for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 *===----------------------------------------------------------------------===//
 *
 * The C API of the onnx dialect, following upstream mlir-c: a dialect handle
 * to register or load the dialect into an MlirContext, and the dialect's
 * registration helpers. Ownership follows mlir-c: functions that return an
 * MlirModule give the caller a module to destroy with mlirModuleDestroy.
 *
 *   MlirContext ctx = mlirContextCreate();
 *   MlirDialectRegistry registry = mlirDialectRegistryCreate();
 *   onnxRegisterAllDialects(registry);
 *   mlirContextAppendDialectRegistry(ctx, registry);
 *   mlirDialectRegistryDestroy(registry);
 *   MlirDialect onnx = mlirDialectHandleLoadDialect(
 *       mlirGetDialectHandle__onnx__(), ctx);
 *
 *===----------------------------------------------------------------------===*/

#ifndef ONNXDIALECT_C_DIALECTS_H
#define ONNXDIALECT_C_DIALECTS_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/** mlirGetDialectHandle__onnx__(): the handle of the `onnx` dialect. */
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(ONNX, onnx);

/** Adds the onnx dialect and every dialect and interface extension that its
 *  passes and pipelines produce (func, linalg, tensor, memref, scf, vector,
 *  llvm, ...) to `registry`. The registry is borrowed. */
MLIR_CAPI_EXPORTED void onnxRegisterAllDialects(MlirDialectRegistry registry);

/** Registers the onnx passes and pipelines (onnx-infer-shapes,
 *  onnx-to-llvm, ...) and the upstream passes, so that
 *  mlirParsePassPipeline and mlirOpPassManagerAddPipeline find them by name.
 *  Idempotent and thread-safe. */
MLIR_CAPI_EXPORTED void onnxRegisterAllPasses(void);

#ifdef __cplusplus
}
#endif

#endif /* ONNXDIALECT_C_DIALECTS_H */
