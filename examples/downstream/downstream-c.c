/*===- downstream-c.c - The dialect through its MLIR C API ----------------===//
 *
 * Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
 * Exceptions. See LICENSE for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 *===----------------------------------------------------------------------===//
 *
 * A C program outside the project that embeds the onnx dialect the way MLIR
 * projects embed dialects: through the C API (include/OnnxDialect-c and
 * upstream mlir-c). It imports an ONNX model, runs a pass pipeline, prints
 * the module and exports it back to ONNX, printing the exported size.
 *
 *   downstream-c MODEL.onnx[txt] [PIPELINE]
 *
 *===----------------------------------------------------------------------===*/

#include "OnnxDialect-c/Dialects.h"
#include "OnnxDialect-c/Translation.h"

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <stdio.h>
#include <string.h>

static void printTo(MlirStringRef s, void *file) {
  fwrite(s.data, 1, s.length, (FILE *)file);
}

static void countBytes(MlirStringRef s, void *count) {
  *(size_t *)count += s.length;
}

static MlirLogicalResult report(MlirDiagnostic d, void *unused) {
  (void)unused;
  switch (mlirDiagnosticGetSeverity(d)) {
  case MlirDiagnosticError:
    fputs("error: ", stderr);
    break;
  case MlirDiagnosticWarning:
    fputs("warning: ", stderr);
    break;
  default:
    fputs("note: ", stderr);
    break;
  }
  mlirLocationPrint(mlirDiagnosticGetLocation(d), printTo, stderr);
  fputs(": ", stderr);
  mlirDiagnosticPrint(d, printTo, stderr);
  fputc('\n', stderr);
  return mlirLogicalResultSuccess();
}

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: downstream-c MODEL [PIPELINE]\n");
    return 2;
  }
  const char *pipeline =
      argc == 3 ? argv[2] : "builtin.module(onnx-infer-shapes,canonicalize)";

  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  onnxRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__onnx__(), ctx);
  mlirContextAttachDiagnosticHandler(ctx, report, NULL, NULL);
  onnxRegisterAllPasses();

  int status = 1;
  MlirModule module =
      onnxImportModelFile(ctx, mlirStringRefCreateFromCString(argv[1]));
  if (mlirModuleIsNull(module))
    goto done;

  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirLogicalResult parsed = mlirParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString(pipeline), printTo, stderr);
  if (mlirLogicalResultIsSuccess(parsed) &&
      mlirLogicalResultIsSuccess(
          mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module)))) {
    mlirOperationPrint(mlirModuleGetOperation(module), printTo, stdout);
    fputc('\n', stdout);
    size_t bytes = 0;
    if (mlirLogicalResultIsSuccess(
            onnxExportModel(module, false, countBytes, &bytes))) {
      printf("exported: %zu bytes\n", bytes);
      status = 0;
    }
  }
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
done:
  mlirContextDestroy(ctx);
  return status;
}
