//===- SignalPatterns.h - Signal, detection, sampling patterns --*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// TEMP: moves to ONNXToLinalg.h at merge time.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_LIB_CONVERSION_ONNXTOLINALG_SIGNALPATTERNS_H
#define ONNXDIALECT_LIB_CONVERSION_ONNXTOLINALG_SIGNALPATTERNS_H
#include "mlir/Transforms/DialectConversion.h"
namespace mlir {
namespace onnx {
void populateSignalToLinalgPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns);
void populateDetectionToLinalgPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns);
void populateSamplingToLinalgPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns);
} // namespace onnx
} // namespace mlir
#endif
