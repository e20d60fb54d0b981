//===- CheckBufferSizes.cpp - Buffers whose size would overflow -----------===//
//------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// MemRefToLLVM sizes a `memref.alloc` as the product of its dims and its
// element size in 64 bits, wrapping on overflow: an Expand to
// [2^31, 2^31] of float asked the allocator for 0 bytes and the fill after it
// wrote over the heap. Each alloc whose size may pass the limit gets a
// `cf.assert` before it:
//
//   %a = memref.alloc(%d0, %d1) : memref<?x?xf32>
//
// becomes (with the other dims' zero tests, a dim of 0 passing)
//
//   %ok0 = arith.cmpi ule, %d0, (limit / 4)
//   %b0 = arith.muli %c4, %d0
//   %ok1 = arith.cmpi ule, %d1, (limit / max(%b0, 1))
//   %ok = arith.andi %ok0, %ok1
//   cf.assert %ok, "node 'e': cannot allocate a buffer of shape [?, ?] ..."
//   %a = memref.alloc(%d0, %d1) : memref<?x?xf32>
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Pipelines/Pipelines.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

namespace mlir {
namespace onnx {
#define GEN_PASS_DEF_CHECKBUFFERSIZESPASS
#include "OnnxDialect/Pipelines/Passes.h.inc"
} // namespace onnx
} // namespace mlir

using namespace mlir;

int64_t mlir::onnx::bufferElementBytes(Type element, const DataLayout &layout) {
  if (!element.isIntOrIndexOrFloat())
    return -1;
  return llvm::alignTo(layout.getTypeSize(element).getFixedValue(),
                       layout.getTypeABIAlignment(element));
}

/// "node 'e': cannot allocate a buffer of shape [?, 4] and f32 elements"
/// (the node from the first name in the location, when there is one).
static std::string describeBuffer(memref::AllocOp alloc) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto name = alloc.getLoc()->findInstanceOf<NameLoc>())
    os << "node '" << name.getName().getValue() << "': ";
  MemRefType type = alloc.getType();
  os << "cannot allocate a buffer of shape [";
  llvm::interleaveComma(type.getShape(), os, [&](int64_t dim) {
    if (ShapedType::isDynamic(dim))
      os << '?';
    else
      os << dim;
  });
  os << "] and " << type.getElementType() << " elements";
  return text;
}

namespace {
struct CheckBufferSizesPass
    : public mlir::onnx::impl::CheckBufferSizesPassBase<CheckBufferSizesPass> {
  using CheckBufferSizesPassBase::CheckBufferSizesPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<memref::AllocOp> allocs;
    // Not in parallel loops, which a check would keep sequential
    // (onnx-sequentialize-failing-loops): a buffer there is a thread's tile
    // of tensors allocated outside.
    module.walk([&](memref::AllocOp alloc) {
      if (!alloc->getParentOfType<scf::ForallOp>() &&
          !alloc->getParentOfType<scf::ParallelOp>())
        allocs.push_back(alloc);
    });
    for (memref::AllocOp alloc : allocs)
      check(alloc);
  }

  void check(memref::AllocOp alloc) {
    MemRefType type = alloc.getType();
    int64_t element = onnx::bufferElementBytes(type.getElementType(),
                                               DataLayout::closest(alloc));
    // A static dim of 0 empties the buffer whatever the others are.
    if (element <= 0 || !type.getLayout().isIdentity() ||
        llvm::is_contained(type.getShape(), 0))
      return;
    // The static part of the size; the dynamic dims multiply it at run
    // time.
    std::optional<int64_t> bytes = element;
    for (int64_t dim : type.getShape())
      if (!ShapedType::isDynamic(dim) && bytes)
        bytes = llvm::checkedMul(*bytes, dim);
    std::string limit =
        "more than 2^" + std::to_string(llvm::Log2_64(maxBytes)) + " bytes";
    OpBuilder b(alloc);
    Location loc = alloc.getLoc();
    if (!bytes || *bytes > maxBytes) {
      Value no = arith::ConstantIntOp::create(b, loc, 0, 1);
      cf::AssertOp::create(b, loc, no,
                           describeBuffer(alloc) + ": it needs " + limit);
      return;
    }
    if (alloc.getDynamicSizes().empty())
      return;
    // Each dynamic dim d after the size s so far: s * d <= limit when
    // d <= limit / s (s >= 1: a dim of 0 makes the size 0, which passes).
    auto index = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(b, loc, v);
    };
    Value limitValue = index(maxBytes), zero = index(0), one = index(1);
    Value size = index(*bytes);
    Value ok, empty;
    for (Value dim : alloc.getDynamicSizes()) {
      Value room = arith::DivUIOp::create(
          b, loc, limitValue, arith::MaxUIOp::create(b, loc, size, one));
      Value fits =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, dim, room);
      ok = ok ? arith::AndIOp::create(b, loc, ok, fits).getResult() : fits;
      Value none =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, dim, zero);
      empty =
          empty ? arith::OrIOp::create(b, loc, empty, none).getResult() : none;
      size = arith::MulIOp::create(b, loc, size, dim);
    }
    // A dim of 0 empties the buffer whatever the others are.
    ok = arith::OrIOp::create(b, loc, ok, empty);
    cf::AssertOp::create(b, loc, ok,
                         describeBuffer(alloc) + ": it would need " + limit);
  }
};
} // namespace
