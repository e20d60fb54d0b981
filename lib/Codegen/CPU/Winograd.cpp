//===- Winograd.cpp - Winograd's minimal filtering along rows -------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Winograd.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::onnx;

namespace {
constexpr double kWinograd2BT[] = {1, 0,  -1, 0, 0, 1, 1, 0,
                                   0, -1, 1,  0, 0, 1, 0, -1};
constexpr double kWinograd2G[] = {1, 0, 0, .5, .5, .5, .5, -.5, .5, 0, 0, 1};
constexpr double kWinograd2AT[] = {1, 1, 1, 0, 0, 1, -1, -1};
constexpr double kWinograd4BT[] = {4, 0, -5, 0,  1, 0, 0, -4, -4, 1,  1, 0,
                                   0, 4, -4, -1, 1, 0, 0, -2, -1, 2,  1, 0,
                                   0, 2, -1, -2, 1, 0, 0, 4,  0,  -5, 0, 1};
constexpr double kWinograd4G[] = {
    1.0 / 4,  0,         0,        -1.0 / 6, -1.0 / 6, -1.0 / 6,
    -1.0 / 6, 1.0 / 6,   -1.0 / 6, 1.0 / 24, 1.0 / 12, 1.0 / 6,
    1.0 / 24, -1.0 / 12, 1.0 / 6,  0,        0,        1};
constexpr double kWinograd4AT[] = {1, 1, 1, 1, 1, 0, 0, 1, -1, 2, -2, 0,
                                   0, 1, 1, 4, 4, 0, 0, 1, -1, 8, -8, 1};

} // namespace

std::optional<WinogradRows> mlir::onnx::winogradRows(int64_t m) {
  if (m == 2)
    return WinogradRows{2, 4, kWinograd2BT, kWinograd2G, kWinograd2AT};
  if (m == 4)
    return WinogradRows{4, 6, kWinograd4BT, kWinograd4G, kWinograd4AT};
  return std::nullopt;
}

Value mlir::onnx::combineRows(OpBuilder &b, Location loc,
                              ArrayRef<Value> inputs, ArrayRef<double> matrix,
                              int64_t rows, RankedTensorType type, int64_t at,
                              float bias) {
  MLIRContext *ctx = b.getContext();
  int64_t rank = type.getRank();
  SmallVector<AffineExpr> others;
  for (int64_t d = 0; d < rank; ++d)
    if (d != at)
      others.push_back(getAffineDimExpr(d, ctx));
  AffineMap inputMap = AffineMap::get(rank, 0, others, ctx);
  AffineMap columnMap = AffineMap::get(rank, 0, getAffineDimExpr(at, ctx));
  auto columnType = RankedTensorType::get({rows}, b.getF32Type());
  SmallVector<Value> operands;
  SmallVector<AffineMap> maps;
  int64_t columns = inputs.size();
  for (int64_t j = 0; j < columns; ++j) {
    SmallVector<float> column;
    for (int64_t o = 0; o < rows; ++o)
      column.push_back(static_cast<float>(matrix[o * columns + j]));
    if (llvm::all_of(column, [](float v) { return v == 0; }))
      continue;
    operands.push_back(inputs[j]);
    maps.push_back(inputMap);
    operands.push_back(arith::ConstantOp::create(
        b, loc, columnType,
        DenseElementsAttr::get(columnType, ArrayRef<float>(column))));
    maps.push_back(columnMap);
  }
  maps.push_back(b.getMultiDimIdentityMap(rank));
  Value dest =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, operands, ValueRange{dest}, maps,
             SmallVector<utils::IteratorType>(rank,
                                              utils::IteratorType::parallel),
             [&](OpBuilder &nb, Location nl, ValueRange args) {
               Value sum;
               for (size_t k = 0; k + 1 < args.size(); k += 2) {
                 Value term =
                     arith::MulFOp::create(nb, nl, args[k + 1], args[k]);
                 sum =
                     sum ? arith::AddFOp::create(nb, nl, sum, term).getResult()
                         : term;
               }
               if (bias != 0)
                 sum = arith::AddFOp::create(
                     nb, nl, sum,
                     arith::ConstantOp::create(nb, nl,
                                               nb.getF32FloatAttr(bias)));
               linalg::YieldOp::create(nb, nl, sum);
             })
      .getResult(0);
}
