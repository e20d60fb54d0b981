//===- Dialects.cpp - The onnx dialect in MLIR's C API --------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// include/OnnxDialect-c/Dialects.h: the dialect handle and the registration
// of the dialects and passes the project uses.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect-c/Dialects.h"

#include "OnnxDialect/Dialect/ONNX/IR/ONNXDialect.h"
#include "OnnxDialect/InitAllDialects.h"
#include "OnnxDialect/InitAllPasses.h"

#include "mlir/CAPI/Registration.h"

#include <mutex>

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(ONNX, onnx, mlir::onnx::ONNXDialect)

void onnxRegisterAllDialects(MlirDialectRegistry registry) {
  mlir::onnx::registerAllDialects(*unwrap(registry));
}

void onnxRegisterAllPasses(void) {
  static std::once_flag once;
  std::call_once(once, [] { mlir::onnx::registerAllPasses(); });
}
