//===- FlattenGlobals.cpp - Constant memref.globals as 1-D arrays ---------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// finalize-memref-to-llvm gives a memref.global of rank r an LLVM type of r
// nested arrays, and the translation to LLVM IR builds the initializer as
// nested constant aggregates: one uniqued ConstantDataArray per innermost
// row. Packed weights end in a unit dim (mmt4d's [N1, K1, n0, 1]) and 1x1
// convolution filters in two, so ResNet-50's 25M weights became millions of
// one-element constants, which LLVM hashes, walks and frees one by one
// (most of a 108 s compile, and gigabytes of memory).
//
// This pass gives every constant global of rank > 1 with an identity layout
// the flat type memref<N x T> (the same bytes: a dense_resource keeps its
// blob, dense elements are reshaped), and each memref.get_global of it a
// memref.expand_shape back to the shape its users expect.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Pipelines/Pipelines.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace onnx {
#define GEN_PASS_DEF_FLATTENCONSTANTGLOBALSPASS
#include "OnnxDialect/Pipelines/Passes.h.inc"
} // namespace onnx
} // namespace mlir

using namespace mlir;

/// memref<N x T> for a static `type` of N elements (same memory space).
static MemRefType flatTypeOf(MemRefType type) {
  return MemRefType::get({type.getNumElements()}, type.getElementType(),
                         AffineMap(), type.getMemorySpace());
}

/// The initializer of `global` as a flat 1-D value of `flatType`, or null
/// when it has none that can be reshaped without copying.
static Attribute flatInitializer(memref::GlobalOp global,
                                 RankedTensorType flatType) {
  auto initial = global.getInitialValue();
  if (!initial)
    return nullptr;
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(*initial))
    return DenseResourceElementsAttr::get(flatType, resource.getRawHandle());
  if (auto dense = dyn_cast<DenseElementsAttr>(*initial))
    return dense.reshape(flatType);
  return nullptr;
}

namespace {
struct FlattenGlobalsPass
    : public mlir::onnx::impl::FlattenConstantGlobalsPassBase<
          FlattenGlobalsPass> {

  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::StringMap<MemRefType> flattened; // name -> the original type
    for (auto global : module.getOps<memref::GlobalOp>()) {
      MemRefType type = global.getType();
      if (!global.getConstant() || type.getRank() < 2 ||
          !type.hasStaticShape() || !type.getLayout().isIdentity())
        continue;
      MemRefType flatType = flatTypeOf(type);
      Attribute initial = flatInitializer(
          global, RankedTensorType::get(flatType.getShape(),
                                        flatType.getElementType()));
      if (!initial)
        continue;
      global.setType(flatType);
      global.setInitialValueAttr(initial);
      flattened[global.getSymName()] = type;
    }
    if (flattened.empty())
      return;
    module.walk([&](memref::GetGlobalOp get) {
      auto it = flattened.find(get.getName());
      if (it == flattened.end())
        return;
      MemRefType type = it->second;
      OpBuilder b(get);
      MemRefType flatType = flatTypeOf(type);
      auto flat =
          memref::GetGlobalOp::create(b, get.getLoc(), flatType, get.getName());
      SmallVector<ReassociationIndices> all(1);
      for (int64_t d = 0; d < type.getRank(); ++d)
        all.front().push_back(d);
      auto shaped =
          memref::ExpandShapeOp::create(b, get.getLoc(), type, flat, all);
      get.replaceAllUsesWith(shaped.getResult());
      get.erase();
    });
  }
};
} // namespace
