//===- ML.cpp - Expansions of the ML family -------------------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Expansions of the ML family: ai.onnx.ml Binarizer and ArrayFeatureExtractor.
//
//===----------------------------------------------------------------------===//

#include "Expansion.h"

#include <cmath>

using namespace mlir;
using namespace mlir::onnx;
using namespace mlir::onnx::decompose;

//===--- ai.onnx.ml -------------------------------------------------------===//

/// Binarizer: X > threshold as 1 or 0 of X's type.
static LogicalResult expandBinarizer(Expansion &x) {
  Emitter &e = x.e;
  Type et = x.et();
  if (!et)
    return unsupported(x, "unknown element type");
  Value above = e.compare<GreaterOp>(x.in(0), e.scalar(et, x.f("threshold")));
  x.results = {e.castTo(above, et)};
  return success(!e.failed());
}

/// ArrayFeatureExtractor: Gather of the flattened indices along the last
/// axis; a 1-D X gives a [1, n] result.
static LogicalResult expandArrayFeatureExtractor(Expansion &x) {
  Emitter &e = x.e;
  std::optional<int64_t> rank = rankOf(x.in(0));
  if (!rank || *rank < 1 || !x.et())
    return unsupported(x, "X needs a known rank of at least 1");
  Value flat = e.reshape(x.in(1), e.i64s({-1}));
  Value out =
      e.build1<GatherOp>({x.in(0), flat}, x.et(), {e.attr("axis", *rank - 1)});
  if (*rank == 1)
    out = e.unsqueeze(out, {0});
  x.results = {out};
  return success(!e.failed());
}

void decompose::registerMLExpansions(ExpansionRegistry &r) {
  r.add<MLBinarizerOp>(expandBinarizer);
  r.add<MLArrayFeatureExtractorOp>(expandArrayFeatureExtractor);
}
