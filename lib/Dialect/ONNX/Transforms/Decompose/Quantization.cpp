//===- Quantization.cpp - Expansions of the Quantization family -----------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Expansions of the Quantization family: DynamicQuantizeLinear.
//
//===----------------------------------------------------------------------===//

#include "Expansion.h"

#include <cmath>

using namespace mlir;
using namespace mlir::onnx;
using namespace mlir::onnx::decompose;

//===--- Quantization, windows, random, crop ------------------------------===//

static LogicalResult expandDynamicQuantizeLinear(Expansion &x) {
  Emitter &e = x.e;
  Value v = x.in(0);
  Type f32 = Float32Type::get(e.getContext());
  if (x.et() != f32)
    return unsupported(x, "the input is not f32");
  Type ui8 = IntegerType::get(e.getContext(), 8, IntegerType::Unsigned);
  Value qmin = e.scalar(f32, 0.0), qmax = e.scalar(f32, 255.0);
  Emitter::Axes all{SmallVector<int64_t>(), {}};
  Value lo = e.binary<MinOp>(e.reduce<ReduceMinOp>(v, all, false), qmin);
  Value hi = e.binary<MaxOp>(e.reduce<ReduceMaxOp>(v, all, false), qmin);
  Value scale = e.div(e.sub(hi, lo), qmax);
  Value zpf = e.sub(qmin, e.div(lo, scale));
  // Clip(zpf, qmin, qmax), itself expanded.
  Value clipped = e.binary<MinOp>(e.binary<MaxOp>(zpf, qmin), qmax);
  Value zp = e.castTo(e.unary<RoundOp>(clipped), ui8);
  Value y = e.create1<QuantizeLinearOp>({v, scale, zp},
                                        withElementType(v.getType(), ui8));
  x.results = {y, scale, zp};
  return success(!e.failed());
}

void decompose::registerQuantizationExpansions(ExpansionRegistry &r) {
  r.add<DynamicQuantizeLinearOp>(expandDynamicQuantizeLinear);
}
