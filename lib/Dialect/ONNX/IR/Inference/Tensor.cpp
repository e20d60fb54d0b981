//===- Tensor.cpp - Inference of the data movement operators --------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Type and shape inference of the operators that create, copy, reshape,
// slice, gather, scatter, pad and reorder tensors (Constant, Identity,
// Dropout, Range, EyeLike, Trilu, Reshape, Slice, Gather, Pad, Col2Im,
// MaxUnpool, ...) and the random generators.
//
//===----------------------------------------------------------------------===//

#include "Helpers.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXDialect.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXShapeInference.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::onnx;
using namespace mlir::onnx::inference;

namespace {

/// Dim `a` times `b` when both are static (unknown when the product leaves
/// int64_t: the run checks the actual sizes).
Dim mulDims(const Dim &a, const Dim &b) {
  if (a.isStatic() && b.isStatic()) {
    std::optional<int64_t> product = llvm::checkedMul(a.size, b.size);
    return product ? Dim(*product) : Dim::unknown();
  }
  if ((a.isStatic() && a.size == 0) || (b.isStatic() && b.size == 0))
    return Dim(0);
  return Dim::unknown();
}

/// Normalizes every axis of `axes` for `rank` and checks that none repeats.
FailureOr<SmallVector<int64_t>> normalizeAxes(InferenceContext &ctx,
                                              ArrayRef<int64_t> axes,
                                              int64_t rank, StringRef what) {
  SmallVector<int64_t> result;
  for (int64_t axis : axes) {
    std::optional<int64_t> a = normalizeAxis(axis, rank);
    if (!a)
      return ctx.fail() << "'" << what << "' value " << axis
                        << " is out of range for rank " << rank;
    if (llvm::is_contained(result, *a))
      return ctx.fail() << "'" << what << "' repeats axis " << axis;
    result.push_back(*a);
  }
  return result;
}

/// The scalar integer value of constant input `i` (a scalar or a
/// one-element tensor, integer or floating point).
std::optional<int64_t> getConstantScalar(InferenceContext &ctx, unsigned i) {
  if (auto ints = ctx.getConstantInts(i)) {
    if (ints->size() == 1)
      return (*ints)[0];
    return std::nullopt;
  }
  if (auto floats = ctx.getConstantFloats(i))
    if (floats->size() == 1)
      return static_cast<int64_t>((*floats)[0]);
  return std::nullopt;
}

/// The length of a 1-D input when it is static.
std::optional<int64_t> getStaticLength(InferenceContext &ctx, unsigned i) {
  std::optional<Shape> shape = ctx.getInputShape(i);
  if (!shape || shape->size() != 1 || !(*shape)[0].isStatic())
    return std::nullopt;
  return (*shape)[0].size;
}

/// The rank an output takes from the static length of 1-D input `i` plus
/// `extra`: none when the length is not static; an error above kMaxRank,
/// before a shape of that rank is allocated.
FailureOr<std::optional<int64_t>>
getRankFromLength(InferenceContext &ctx, unsigned i, int64_t extra = 0) {
  std::optional<int64_t> n = getStaticLength(ctx, i);
  if (!n)
    return std::optional<int64_t>();
  if (*n > kMaxRank - extra) {
    ArrayRef<ArgSchema> inputs = ctx.getSchema().inputs;
    StringRef name = i < inputs.size() ? StringRef(inputs[i].name) : "?";
    return ctx.fail() << "input '" << name << "' has " << *n
                      << " values: the output's rank would be above "
                      << kMaxRank;
  }
  return std::optional<int64_t>(*n + extra);
}

/// The values of a constant boolean (or integer) input as bools.
std::optional<SmallVector<bool>> getConstantBools(InferenceContext &ctx,
                                                  unsigned i) {
  ElementsAttr attr = ctx.getConstantInput(i);
  if (!attr)
    return std::nullopt;
  if (auto ints = ctx.getConstantInts(i)) {
    SmallVector<bool> result;
    for (int64_t v : *ints)
      result.push_back(v != 0);
    return result;
  }
  if (auto values = attr.tryGetValues<bool>())
    return SmallVector<bool>(*values);
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

LogicalResult inferConstant(InferenceContext &ctx) {
  MLIRContext *context = ctx.getContext();
  Builder b(context);
  static const char *const names[] = {
      "value",     "sparse_value", "value_float",  "value_floats",
      "value_int", "value_ints",   "value_string", "value_strings"};
  int count = 0;
  for (const char *name : names)
    if (ctx.hasAttr(name))
      ++count;
  if (count != 1)
    return ctx.fail() << "exactly one of the 'value*' attributes must be set, "
                      << "got " << count;
  for (const char *name : names)
    if (ctx.hasAttr(name) && ctx.isAttrRef(name))
      return success();

  if (Attribute attr = ctx.getAttr("value")) {
    if (auto elements = dyn_cast<ElementsAttr>(attr))
      if (auto type = dyn_cast<RankedTensorType>(elements.getType()))
        return setOut(ctx, staticShape(type.getShape()), type.getElementType());
    return success();
  }
  if (Attribute attr = ctx.getAttr("sparse_value")) {
    if (auto sparse = dyn_cast<SparseElementsAttr>(attr))
      if (auto type = dyn_cast<RankedTensorType>(sparse.getType()))
        return setOut(ctx, staticShape(type.getShape()), type.getElementType());
    return success();
  }
  if (ctx.hasAttr("value_float"))
    return setOut(ctx, Shape{}, b.getF32Type());
  if (auto floats = ctx.getFloatsAttr("value_floats"))
    return setOut(ctx, Shape{Dim(floats->size())}, b.getF32Type());
  if (ctx.hasAttr("value_int"))
    return setOut(ctx, Shape{}, b.getI64Type());
  if (auto ints = ctx.getIntsAttr("value_ints"))
    return setOut(ctx, Shape{Dim(ints->size())}, b.getI64Type());
  Type string = StringType::get(context);
  if (ctx.hasAttr("value_string"))
    return setOut(ctx, Shape{}, string);
  if (auto strings = dyn_cast_or_null<ArrayAttr>(ctx.getAttr("value_strings")))
    return setOut(ctx, Shape{Dim(strings.size())}, string);
  return success();
}

/// The shape that a shape-like 1-D input `i` gives: its constant values,
/// else its static length with unknown dims, else unranked. Fails on
/// negative values or a rank other than 1.
FailureOr<std::optional<Shape>> shapeFromInput(InferenceContext &ctx,
                                               unsigned i, StringRef name) {
  if (std::optional<int64_t> rank = ctx.getInputRank(i); rank && *rank != 1)
    return ctx.fail() << "input '" << name << "' must have rank 1, got "
                      << *rank;
  if (auto values = ctx.getConstantInts(i)) {
    for (int64_t v : *values)
      if (v < 0)
        return ctx.fail() << "input '" << name
                          << "' must not hold negative sizes, got " << v;
    return std::optional<Shape>(staticShape(*values));
  }
  FailureOr<std::optional<int64_t>> rank = getRankFromLength(ctx, i);
  if (failed(rank))
    return failure();
  if (*rank)
    return std::optional<Shape>(unknownShape(**rank));
  return std::optional<Shape>();
}

LogicalResult inferConstantOfShape(InferenceContext &ctx) {
  Type elementType = Builder(ctx.getContext()).getF32Type();
  if (auto value = dyn_cast_or_null<ElementsAttr>(ctx.getAttr("value"))) {
    if (value.getNumElements() != 1)
      return ctx.fail() << "attribute 'value' must hold one element, got "
                        << value.getNumElements();
    elementType = value.getElementType();
  } else if (ctx.hasAttr("value")) {
    elementType = nullptr;
  }
  auto shape = shapeFromInput(ctx, 0, "input");
  if (failed(shape))
    return failure();
  return setOut(ctx, *shape, elementType);
}

LogicalResult inferShape(InferenceContext &ctx) {
  std::optional<int64_t> rank = ctx.getInputRank(0);
  if (!rank)
    return setOut(ctx, unknownShape(1));
  int64_t start = ctx.getIntAttrOrDefault("start");
  int64_t end = ctx.getIntAttr("end").value_or(*rank);
  auto clamp = [&](int64_t v) {
    if (v < 0)
      v += *rank;
    return std::clamp<int64_t>(v, 0, *rank);
  };
  start = clamp(start);
  end = clamp(end);
  return setOut(ctx, Shape{Dim(std::max<int64_t>(0, end - start))});
}

LogicalResult inferSize(InferenceContext &ctx) { return setOut(ctx, Shape{}); }

//===----------------------------------------------------------------------===//
// Reshaping
//===----------------------------------------------------------------------===//

LogicalResult inferReshape(InferenceContext &ctx) {
  std::optional<Shape> in = ctx.getInputShape(0);
  bool allowZero = ctx.getIntAttrOrDefault("allowzero") != 0;
  std::optional<SmallVector<int64_t>> target;
  if (ctx.getVersion() < 5) {
    target = ctx.getIntsAttr("shape");
  } else {
    if (std::optional<int64_t> rank = ctx.getInputRank(1); rank && *rank != 1)
      return ctx.fail() << "input 'shape' must have rank 1, got " << *rank;
    target = ctx.getConstantInts(1);
    if (!target) {
      FailureOr<std::optional<int64_t>> rank = getRankFromLength(ctx, 1);
      if (failed(rank))
        return failure();
      if (*rank)
        return setOut(ctx, unknownShape(**rank));
      return setOut(ctx, std::nullopt);
    }
  }
  if (!target)
    return setOut(ctx, std::nullopt);

  Shape out;
  int inferredAxis = -1;
  for (auto [i, v] : llvm::enumerate(*target)) {
    if (v == -1) {
      if (inferredAxis >= 0)
        return ctx.fail() << "input 'shape' may hold at most one -1";
      inferredAxis = i;
      out.push_back(Dim::unknown());
    } else if (v < -1) {
      return ctx.fail() << "input 'shape' holds an invalid size " << v;
    } else if (v == 0 && !allowZero) {
      if (!in) {
        out.push_back(Dim::unknown());
        continue;
      }
      if (static_cast<int64_t>(i) >= static_cast<int64_t>(in->size()))
        return ctx.fail() << "input 'shape' copies dim " << i
                          << " (a 0) that input 'data' of rank " << in->size()
                          << " does not have";
      out.push_back((*in)[i]);
    } else {
      out.push_back(Dim(v));
    }
  }
  if (allowZero && inferredAxis >= 0 && llvm::is_contained(*target, 0))
    return ctx.fail() << "input 'shape' may not hold both 0 and -1 when "
                         "'allowzero' is set";

  std::optional<int64_t> inElems = in ? getNumElements(*in) : std::nullopt;
  int64_t known = 1;
  bool allKnown = true;
  for (auto [i, d] : llvm::enumerate(out)) {
    if (static_cast<int>(i) == inferredAxis)
      continue;
    if (!d.isStatic())
      allKnown = false;
    else if (llvm::MulOverflow(known, d.size, known))
      return ctx.fail() << "input 'shape' " << formatShape(out)
                        << " has more elements than int64 can count";
  }
  if (inferredAxis >= 0) {
    if (inElems && allKnown) {
      if (known == 0 || *inElems % known != 0)
        return ctx.fail() << "input 'data' with " << *inElems
                          << " elements cannot be reshaped to input 'shape'";
      out[inferredAxis] = Dim(*inElems / known);
    }
  } else if (inElems && allKnown && known != *inElems) {
    return ctx.fail() << "input 'data' with " << *inElems
                      << " elements cannot be reshaped to " << known
                      << " elements";
  }
  return setOut(ctx, out);
}

LogicalResult inferFlatten(InferenceContext &ctx) {
  std::optional<Shape> in = ctx.getInputShape(0);
  if (!in)
    return setOut(ctx, unknownShape(2));
  int64_t rank = in->size();
  int64_t axis = ctx.getIntAttrOrDefault("axis");
  if (axis < -rank || axis > rank)
    return ctx.fail() << "attribute 'axis' " << axis
                      << " is out of range for rank " << rank;
  if (axis < 0)
    axis += rank;
  auto product = [&](int64_t begin, int64_t end) -> Dim {
    if (end - begin == 1)
      return (*in)[begin];
    Dim result(1);
    for (int64_t i = begin; i < end; ++i)
      result = mulDims(result, (*in)[i]);
    return result;
  };
  return setOut(ctx, Shape{product(0, axis), product(axis, rank)});
}

LogicalResult inferTranspose(InferenceContext &ctx) {
  std::optional<Shape> in = ctx.getInputShape(0);
  std::optional<SmallVector<int64_t>> perm = ctx.getIntsAttr("perm");
  if (!in) {
    if (perm)
      return setOut(ctx, unknownShape(perm->size()));
    return setOut(ctx, std::nullopt);
  }
  int64_t rank = in->size();
  if (!perm) {
    Shape out(llvm::reverse(*in));
    return setOut(ctx, out);
  }
  if (static_cast<int64_t>(perm->size()) != rank)
    return ctx.fail() << "attribute 'perm' must have " << rank
                      << " values (the rank of input 'data'), got "
                      << perm->size();
  SmallVector<bool> seen(rank, false);
  Shape out;
  for (int64_t p : *perm) {
    std::optional<int64_t> axis = normalizeAxis(p, rank);
    if (!axis || seen[*axis])
      return ctx.fail() << "attribute 'perm' must be a permutation of the "
                           "axes of input 'data'";
    seen[*axis] = true;
    out.push_back((*in)[*axis]);
  }
  return setOut(ctx, out);
}

LogicalResult inferSqueeze(InferenceContext &ctx) {
  std::optional<Shape> in = ctx.getInputShape(0);
  bool present = false;
  std::optional<SmallVector<int64_t>> axes =
      ctx.getIntsInputOrAttr("axes", &present);
  if (!in)
    return setOut(ctx, std::nullopt);
  int64_t rank = in->size();
  if (!present) {
    Shape out;
    for (const Dim &d : *in) {
      if (!d.isStatic())
        return setOut(ctx, std::nullopt);
      if (d.size != 1)
        out.push_back(d);
    }
    return setOut(ctx, out);
  }
  if (!axes) {
    if (std::optional<int64_t> n = getStaticLength(ctx, 1); n && *n <= rank)
      return setOut(ctx, unknownShape(rank - *n));
    return setOut(ctx, std::nullopt);
  }
  auto normalized = normalizeAxes(ctx, *axes, rank, "axes");
  if (failed(normalized))
    return failure();
  Shape out;
  for (int64_t i = 0; i < rank; ++i) {
    if (!llvm::is_contained(*normalized, i)) {
      out.push_back((*in)[i]);
      continue;
    }
    if ((*in)[i].isStatic() && (*in)[i].size != 1)
      return ctx.fail() << "'axes' selects axis " << i << " of size "
                        << (*in)[i].size << ", which is not 1";
  }
  return setOut(ctx, out);
}

LogicalResult inferUnsqueeze(InferenceContext &ctx) {
  std::optional<Shape> in = ctx.getInputShape(0);
  bool present = false;
  std::optional<SmallVector<int64_t>> axes =
      ctx.getIntsInputOrAttr("axes", &present);
  if (!in)
    return setOut(ctx, std::nullopt);
  if (!axes) {
    if (present) {
      FailureOr<std::optional<int64_t>> rank =
          getRankFromLength(ctx, 1, in->size());
      if (failed(rank))
        return failure();
      if (*rank)
        return setOut(ctx, unknownShape(**rank));
    }
    if (!present)
      return ctx.fail() << "'axes' is required";
    return setOut(ctx, std::nullopt);
  }
  int64_t outRank = in->size() + axes->size();
  auto normalized = normalizeAxes(ctx, *axes, outRank, "axes");
  if (failed(normalized))
    return failure();
  Shape out;
  unsigned next = 0;
  for (int64_t i = 0; i < outRank; ++i) {
    if (llvm::is_contained(*normalized, i))
      out.push_back(Dim(1));
    else
      out.push_back((*in)[next++]);
  }
  return setOut(ctx, out);
}

//===----------------------------------------------------------------------===//
// Concat and Split
//===----------------------------------------------------------------------===//

LogicalResult inferConcat(InferenceContext &ctx) {
  std::optional<int64_t> rank;
  for (unsigned i = 0, e = ctx.getNumInputs(); i < e; ++i) {
    std::optional<int64_t> r = ctx.getInputRank(i);
    if (!r)
      continue;
    if (rank && *rank != *r)
      return ctx.fail() << "all inputs must have the same rank, got " << *rank
                        << " and " << *r;
    rank = r;
  }
  if (!rank)
    return setOut(ctx, std::nullopt);
  // Concat-1 states its default (1) in the attribute's text only; from
  // Concat-4 on, axis is required.
  int64_t axis = ctx.getIntAttr("axis").value_or(1);
  std::optional<int64_t> a = normalizeAxis(axis, *rank);
  if (!a)
    return ctx.fail() << "attribute 'axis' " << axis
                      << " is out of range for rank " << *rank;
  Shape out = unknownShape(*rank);
  out[*a] = Dim(0);
  for (unsigned i = 0, e = ctx.getNumInputs(); i < e; ++i) {
    std::optional<Shape> s = ctx.getInputShape(i);
    if (!s) {
      out[*a] = Dim::unknown();
      continue;
    }
    for (int64_t d = 0; d < *rank; ++d) {
      if (d == *a) {
        const Dim &x = (*s)[d];
        std::optional<int64_t> sum = out[d].isStatic() && x.isStatic()
                                         ? llvm::checkedAdd(out[d].size, x.size)
                                         : std::nullopt;
        if (sum)
          out[d] = Dim(*sum);
        else
          out[d] = Dim::unknown();
        continue;
      }
      FailureOr<Dim> merged = mergeDims(out[d], (*s)[d]);
      if (failed(merged))
        return ctx.fail() << "inputs differ in dim " << d << " (" << out[d].size
                          << " and " << (*s)[d].size
                          << "), which is not the concatenation axis";
      out[d] = *merged;
    }
  }
  return setOut(ctx, out);
}

LogicalResult inferSplit(InferenceContext &ctx) {
  unsigned numOutputs = ctx.getNumOutputs();
  std::optional<Shape> in = ctx.getInputShape(0);
  bool present = false;
  std::optional<SmallVector<int64_t>> split;
  if (ctx.getVersion() == 1 && !ctx.hasInput(1)) {
    split = ctx.getIntsAttr("split");
    present = split.has_value();
  } else {
    split = ctx.getIntsInputOrAttr("split", &present);
  }
  std::optional<int64_t> numParts = ctx.getIntAttr("num_outputs");
  if (present && numParts)
    return ctx.fail() << "input 'split' and attribute 'num_outputs' may not "
                         "both be set";
  if (numParts && (*numParts < 1 || *numParts != numOutputs))
    return ctx.fail() << "attribute 'num_outputs' is " << *numParts
                      << " but the op has " << numOutputs << " outputs";
  if (split && split->size() != numOutputs)
    return ctx.fail() << "'split' has " << split->size()
                      << " values but the op has " << numOutputs << " outputs";
  if (split)
    for (int64_t s : *split)
      if (s < 0)
        return ctx.fail() << "'split' must not hold negative sizes, got " << s;
  if (!in) {
    for (unsigned i = 0; i < numOutputs; ++i)
      ctx.setOutput(i, nullptr, std::nullopt);
    return success();
  }
  int64_t rank = in->size();
  int64_t axisAttr = ctx.getIntAttrOrDefault("axis");
  std::optional<int64_t> axis = normalizeAxis(axisAttr, rank);
  if (!axis)
    return ctx.fail() << "attribute 'axis' " << axisAttr
                      << " is out of range for rank " << rank;
  Dim dim = (*in)[*axis];
  SmallVector<Dim> sizes(numOutputs, Dim::unknown());
  if (split) {
    int64_t sum = 0;
    for (int64_t s : *split)
      if (llvm::AddOverflow(sum, s, sum))
        return ctx.fail() << "the sum of 'split' overflows";
    if (dim.isStatic() && sum != dim.size)
      return ctx.fail() << "'split' sums to " << sum << " but the split axis "
                        << "has size " << dim.size;
    for (unsigned i = 0; i < numOutputs; ++i)
      sizes[i] = Dim((*split)[i]);
  } else if (!present && dim.isStatic()) {
    int64_t n = numOutputs;
    if (numParts) {
      int64_t chunk = dim.size / n + (dim.size % n != 0);
      for (int64_t i = 0; i < n; ++i)
        sizes[i] = Dim(std::max<int64_t>(
            0, std::min<int64_t>(chunk, dim.size - i * chunk)));
    } else {
      if (n == 0 || dim.size % n != 0)
        return ctx.fail() << "the split axis of size " << dim.size
                          << " cannot be split into " << n << " equal parts";
      for (int64_t i = 0; i < n; ++i)
        sizes[i] = Dim(dim.size / n);
    }
  } else if (!present && numOutputs == 1) {
    sizes[0] = dim;
  }
  for (unsigned i = 0; i < numOutputs; ++i) {
    Shape out = *in;
    out[*axis] = sizes[i];
    ctx.setOutput(i, nullptr, out);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Slice
//===----------------------------------------------------------------------===//

/// The size of one sliced axis of static size `dim`.
int64_t sliceLength(int64_t dim, int64_t start, int64_t end, int64_t step) {
  if (start < 0)
    start += dim;
  if (end < 0)
    end += dim;
  if (step > 0) {
    start = std::clamp<int64_t>(start, 0, dim);
    end = std::clamp<int64_t>(end, 0, dim);
    if (end <= start)
      return 0;
    return (end - start - 1) / step + 1;
  }
  start = std::clamp<int64_t>(start, 0, dim - 1);
  end = std::clamp<int64_t>(end, -1, dim - 1);
  if (start <= end)
    return 0;
  return (start - end - 1) / (-step) + 1;
}

LogicalResult inferSlice(InferenceContext &ctx) {
  std::optional<Shape> in = ctx.getInputShape(0);
  std::optional<SmallVector<int64_t>> starts, ends, axes, steps;
  bool hasAxes, hasSteps;
  if (ctx.getVersion() < 10) {
    starts = ctx.getIntsAttr("starts");
    ends = ctx.getIntsAttr("ends");
    axes = ctx.getIntsAttr("axes");
    hasAxes = axes.has_value();
    hasSteps = false;
  } else {
    for (unsigned i = 1; i < 5; ++i)
      if (std::optional<int64_t> r = ctx.getInputRank(i); r && *r != 1)
        return ctx.fail() << "inputs 'starts', 'ends', 'axes' and 'steps' "
                             "must have rank 1, got "
                          << *r;
    starts = ctx.getConstantInts(1);
    ends = ctx.getConstantInts(2);
    hasAxes = ctx.hasInput(3);
    hasSteps = ctx.hasInput(4);
    if (hasAxes)
      axes = ctx.getConstantInts(3);
    if (hasSteps)
      steps = ctx.getConstantInts(4);
  }
  if (!in)
    return setOut(ctx, std::nullopt);
  int64_t rank = in->size();
  if ((hasAxes && !axes) || !starts || !ends || (hasSteps && !steps)) {
    // Unknown parameters: the rank stays, the sliced axes are unknown.
    Shape out = unknownShape(rank);
    if (axes) {
      out = *in;
      for (int64_t a : *axes)
        if (std::optional<int64_t> n = normalizeAxis(a, rank))
          out[*n] = Dim::unknown();
    }
    return setOut(ctx, out);
  }
  if (starts->size() != ends->size())
    return ctx.fail() << "'starts' and 'ends' must have the same length, got "
                      << starts->size() << " and " << ends->size();
  size_t n = starts->size();
  SmallVector<int64_t> axisList;
  if (axes) {
    if (axes->size() != n)
      return ctx.fail() << "'axes' must have the length of 'starts' (" << n
                        << "), got " << axes->size();
    auto normalized = normalizeAxes(ctx, *axes, rank, "axes");
    if (failed(normalized))
      return failure();
    axisList = *normalized;
  } else {
    if (static_cast<int64_t>(n) > rank)
      return ctx.fail() << "'starts' has " << n
                        << " values, more than the rank " << rank;
    for (size_t i = 0; i < n; ++i)
      axisList.push_back(i);
  }
  if (steps && steps->size() != n)
    return ctx.fail() << "'steps' must have the length of 'starts' (" << n
                      << "), got " << steps->size();
  Shape out = *in;
  for (size_t i = 0; i < n; ++i) {
    int64_t step = steps ? (*steps)[i] : 1;
    if (step == 0)
      return ctx.fail() << "'steps' must not hold 0";
    int64_t axis = axisList[i];
    const Dim &d = (*in)[axis];
    int64_t start = (*starts)[i], end = (*ends)[i];
    if (d.isStatic()) {
      out[axis] = Dim(sliceLength(d.size, start, end, step));
      continue;
    }
    // The whole axis of unknown size.
    if (step == 1 && start == 0 && end == std::numeric_limits<int64_t>::max())
      continue;
    out[axis] = Dim::unknown();
  }
  return setOut(ctx, out);
}

//===----------------------------------------------------------------------===//
// Gather and Scatter
//===----------------------------------------------------------------------===//

LogicalResult inferGather(InferenceContext &ctx) {
  std::optional<Shape> data = ctx.getInputShape(0);
  std::optional<Shape> indices = ctx.getInputShape(1);
  if (!data || !indices)
    return setOut(ctx, std::nullopt);
  int64_t rank = data->size();
  if (rank < 1)
    return ctx.fail() << "input 'data' must have rank at least 1";
  int64_t axisAttr = ctx.getIntAttrOrDefault("axis");
  std::optional<int64_t> axis = normalizeAxis(axisAttr, rank);
  if (!axis)
    return ctx.fail() << "attribute 'axis' " << axisAttr
                      << " is out of range for rank " << rank;
  Shape out(data->begin(), data->begin() + *axis);
  out.append(indices->begin(), indices->end());
  out.append(data->begin() + *axis + 1, data->end());
  return setOut(ctx, out);
}

LogicalResult inferGatherElements(InferenceContext &ctx) {
  std::optional<int64_t> dataRank = ctx.getInputRank(0);
  std::optional<Shape> indices = ctx.getInputShape(1);
  if (dataRank && indices) {
    if (*dataRank != static_cast<int64_t>(indices->size()))
      return ctx.fail() << "inputs 'data' and 'indices' must have the same "
                           "rank, got "
                        << *dataRank << " and " << indices->size();
  }
  if (dataRank) {
    int64_t axis = ctx.getIntAttrOrDefault("axis");
    if (!normalizeAxis(axis, *dataRank))
      return ctx.fail() << "attribute 'axis' " << axis
                        << " is out of range for rank " << *dataRank;
  }
  return setOut(ctx, indices);
}

LogicalResult inferGatherND(InferenceContext &ctx) {
  std::optional<Shape> data = ctx.getInputShape(0);
  std::optional<Shape> indices = ctx.getInputShape(1);
  if (!data || !indices)
    return setOut(ctx, std::nullopt);
  int64_t r = data->size(), q = indices->size();
  int64_t b = ctx.getIntAttrOrDefault("batch_dims");
  if (r < 1 || q < 1)
    return ctx.fail() << "inputs 'data' and 'indices' must have rank at "
                         "least 1";
  if (b < 0 || b >= std::min(r, q))
    return ctx.fail() << "attribute 'batch_dims' " << b
                      << " must be less than the ranks of 'data' and "
                         "'indices'";
  const Dim &last = indices->back();
  if (!last.isStatic())
    return setOut(ctx, std::nullopt);
  int64_t k = last.size;
  if (k < 1 || k > r - b)
    return ctx.fail() << "the last dim of input 'indices' (" << k
                      << ") must be in [1, " << r - b << "]";
  Shape out(indices->begin(), indices->end() - 1);
  out.append(data->begin() + b + k, data->end());
  return setOut(ctx, out);
}

LogicalResult inferSameAsData(InferenceContext &ctx) {
  return sameShapeAs(ctx, 0);
}

//===----------------------------------------------------------------------===//
// Pad, Expand, Tile
//===----------------------------------------------------------------------===//

LogicalResult inferPad(InferenceContext &ctx) {
  std::optional<Shape> in = ctx.getInputShape(0);
  int version = ctx.getVersion();
  std::optional<SmallVector<int64_t>> pads;
  if (version < 2)
    pads = ctx.getIntsAttr("paddings");
  else if (version < 11)
    pads = ctx.getIntsAttr("pads");
  else
    pads = ctx.getConstantInts(1);
  bool hasAxes = version >= 18 && ctx.hasInput(3);
  std::optional<SmallVector<int64_t>> axes;
  if (hasAxes)
    axes = ctx.getConstantInts(3);
  if (!in)
    return setOut(ctx, std::nullopt);
  int64_t rank = in->size();
  if (!pads || (hasAxes && !axes)) {
    Shape out = unknownShape(rank);
    if (axes) {
      out = *in;
      for (int64_t a : *axes)
        if (std::optional<int64_t> n = normalizeAxis(a, rank))
          out[*n] = Dim::unknown();
    }
    return setOut(ctx, out);
  }
  SmallVector<int64_t> axisList;
  if (axes) {
    auto normalized = normalizeAxes(ctx, *axes, rank, "axes");
    if (failed(normalized))
      return failure();
    axisList = *normalized;
  } else {
    for (int64_t i = 0; i < rank; ++i)
      axisList.push_back(i);
  }
  size_t n = axisList.size();
  if (pads->size() != 2 * n)
    return ctx.fail() << "'pads' must have " << 2 * n << " values, got "
                      << pads->size();
  Shape out = *in;
  for (size_t i = 0; i < n; ++i) {
    int64_t axis = axisList[i];
    int64_t before = (*pads)[i], after = (*pads)[i + n];
    const Dim &d = (*in)[axis];
    if (before == 0 && after == 0)
      continue;
    if (!d.isStatic()) {
      out[axis] = Dim::unknown();
      continue;
    }
    std::optional<int64_t> padded = llvm::checkedAdd(d.size, before);
    if (padded)
      padded = llvm::checkedAdd(*padded, after);
    if (!padded)
      return ctx.fail() << "'pads' make axis " << axis << " of size " << d.size
                        << " overflow";
    int64_t size = *padded;
    if (size < 0)
      return ctx.fail() << "'pads' make axis " << axis << " of size " << d.size
                        << " negative";
    out[axis] = Dim(size);
  }
  return setOut(ctx, out);
}

LogicalResult inferExpand(InferenceContext &ctx) {
  std::optional<Shape> in = ctx.getInputShape(0);
  auto target = shapeFromInput(ctx, 1, "shape");
  if (failed(target))
    return failure();
  if (!in || !*target)
    return setOut(ctx, std::nullopt);
  FailureOr<Shape> out = broadcastShapes({*in, **target});
  if (failed(out))
    return ctx.fail() << "input 'input' cannot be broadcast to input 'shape'";
  return setOut(ctx, *out);
}

LogicalResult inferTile(InferenceContext &ctx) {
  std::optional<Shape> in = ctx.getInputShape(0);
  if (ctx.getVersion() < 6) {
    if (!in)
      return setOut(ctx, std::nullopt);
    std::optional<int64_t> tiles = getConstantScalar(ctx, 1);
    std::optional<int64_t> axisValue = getConstantScalar(ctx, 2);
    if (!axisValue)
      return setOut(ctx, unknownShape(in->size()));
    std::optional<int64_t> axis = normalizeAxis(*axisValue, in->size());
    if (!axis)
      return ctx.fail() << "input 'axis' " << *axisValue
                        << " is out of range for rank " << in->size();
    Shape out = *in;
    out[*axis] = tiles ? mulDims(out[*axis], Dim(*tiles)) : Dim::unknown();
    return setOut(ctx, out);
  }
  if (std::optional<int64_t> r = ctx.getInputRank(1); r && *r != 1)
    return ctx.fail() << "input 'repeats' must have rank 1, got " << *r;
  std::optional<SmallVector<int64_t>> repeats = ctx.getConstantInts(1);
  if (!in) {
    if (repeats)
      return setOut(ctx, unknownShape(repeats->size()));
    FailureOr<std::optional<int64_t>> rank = getRankFromLength(ctx, 1);
    if (failed(rank))
      return failure();
    if (*rank)
      return setOut(ctx, unknownShape(**rank));
    return setOut(ctx, std::nullopt);
  }
  int64_t rank = in->size();
  if (!repeats)
    return setOut(ctx, unknownShape(rank));
  if (static_cast<int64_t>(repeats->size()) != rank)
    return ctx.fail() << "input 'repeats' must have " << rank
                      << " values (the rank of input 'input'), got "
                      << repeats->size();
  Shape out;
  for (int64_t i = 0; i < rank; ++i) {
    int64_t rep = (*repeats)[i];
    if (rep < 0)
      return ctx.fail() << "input 'repeats' must not hold negative values";
    out.push_back(rep == 1 ? (*in)[i] : mulDims((*in)[i], Dim(rep)));
  }
  return setOut(ctx, out);
}

LogicalResult inferDepthToSpace(InferenceContext &ctx, bool toSpace) {
  std::optional<Shape> in = ctx.getInputShape(0);
  std::optional<int64_t> blockSize = ctx.getIntAttr("blocksize");
  if (!blockSize)
    return ctx.fail() << "attribute 'blocksize' is required";
  // Below 2^31, so that blocksize^2 (and a dim times it, checked) fits.
  constexpr int64_t kMaxBlockSize = (int64_t(1) << 31) - 1;
  if (*blockSize < 1 || *blockSize > kMaxBlockSize)
    return ctx.fail() << "attribute 'blocksize' must be in [1, "
                      << kMaxBlockSize << "], got " << *blockSize;
  if (!in)
    return setOut(ctx, unknownShape(4));
  if (in->size() != 4)
    return ctx.fail() << "input 'input' must have rank 4, got " << in->size();
  int64_t b = *blockSize;
  Shape out = *in;
  auto div = [&](const Dim &d, int64_t by, StringRef what) -> FailureOr<Dim> {
    if (!d.isStatic())
      return Dim::unknown();
    if (d.size % by != 0)
      return ctx.fail() << "the " << what << " of input 'input' (" << d.size
                        << ") must be a multiple of " << by;
    return Dim(d.size / by);
  };
  auto mul = [&](const Dim &d, int64_t by, StringRef what) -> FailureOr<Dim> {
    if (!d.isStatic())
      return Dim::unknown();
    std::optional<int64_t> size = llvm::checkedMul(d.size, by);
    if (!size)
      return ctx.fail() << "the " << what << " of the output overflows";
    return Dim(*size);
  };
  if (toSpace) {
    FailureOr<Dim> c = div((*in)[1], b * b, "channel dim");
    FailureOr<Dim> h = mul((*in)[2], b, "height");
    FailureOr<Dim> w = mul((*in)[3], b, "width");
    if (failed(c) || failed(h) || failed(w))
      return failure();
    out[1] = *c;
    out[2] = *h;
    out[3] = *w;
  } else {
    FailureOr<Dim> c = mul((*in)[1], b * b, "channel dim");
    if (failed(c))
      return failure();
    out[1] = *c;
    FailureOr<Dim> h = div((*in)[2], b, "height");
    if (failed(h))
      return failure();
    FailureOr<Dim> w = div((*in)[3], b, "width");
    if (failed(w))
      return failure();
    out[2] = *h;
    out[3] = *w;
  }
  if (b == 1)
    out = *in;
  return setOut(ctx, out);
}

LogicalResult inferOneHot(InferenceContext &ctx) {
  std::optional<Shape> indices = ctx.getInputShape(0);
  if (std::optional<int64_t> r = ctx.getInputRank(2); r && *r != 1)
    return ctx.fail() << "input 'values' must have rank 1, got " << *r;
  if (!indices)
    return setOut(ctx, std::nullopt);
  int64_t rank = indices->size() + 1;
  int64_t axisAttr = ctx.getIntAttrOrDefault("axis");
  std::optional<int64_t> axis = normalizeAxis(axisAttr, rank);
  if (!axis)
    return ctx.fail() << "attribute 'axis' " << axisAttr
                      << " is out of range for rank " << rank;
  Dim depth = Dim::unknown();
  if (std::optional<int64_t> d = getConstantScalar(ctx, 1)) {
    if (*d < 1)
      return ctx.fail() << "input 'depth' must be positive, got " << *d;
    depth = Dim(*d);
  }
  Shape out = *indices;
  out.insert(out.begin() + *axis, depth);
  return setOut(ctx, out);
}

//===----------------------------------------------------------------------===//
// Data-dependent shapes
//===----------------------------------------------------------------------===//

LogicalResult inferNonZero(InferenceContext &ctx) {
  std::optional<int64_t> rank = ctx.getInputRank(0);
  return setOut(ctx, Shape{rank ? Dim(*rank) : Dim::unknown(), Dim::unknown()});
}

LogicalResult inferUnique(InferenceContext &ctx) {
  std::optional<Shape> in = ctx.getInputShape(0);
  std::optional<int64_t> axisAttr = ctx.getIntAttr("axis");
  std::optional<Shape> y;
  Shape inverse = unknownShape(1);
  if (!axisAttr) {
    y = unknownShape(1);
    if (in)
      if (std::optional<int64_t> n = getNumElements(*in))
        inverse = Shape{Dim(*n)};
  } else if (in) {
    std::optional<int64_t> axis = normalizeAxis(*axisAttr, in->size());
    if (!axis)
      return ctx.fail() << "attribute 'axis' " << *axisAttr
                        << " is out of range for rank " << in->size();
    y = *in;
    (*y)[*axis] = Dim::unknown();
    inverse = Shape{(*in)[*axis]};
  }
  ctx.setOutput(0, nullptr, y);
  for (unsigned i = 1; i < 4; ++i)
    if (ctx.hasOutput(i))
      ctx.setOutput(i, nullptr, i == 2 ? inverse : unknownShape(1));
  return success();
}

LogicalResult inferCompress(InferenceContext &ctx) {
  std::optional<Shape> in = ctx.getInputShape(0);
  if (std::optional<int64_t> r = ctx.getInputRank(1); r && *r != 1)
    return ctx.fail() << "input 'condition' must have rank 1, got " << *r;
  std::optional<int64_t> axisAttr = ctx.getIntAttr("axis");
  std::optional<int64_t> axis;
  if (axisAttr && in) {
    axis = normalizeAxis(*axisAttr, in->size());
    if (!axis)
      return ctx.fail() << "attribute 'axis' " << *axisAttr
                        << " is out of range for rank " << in->size();
  }
  // The number of selected slices, when the condition is constant and the
  // length it applies to is known.
  Dim count = Dim::unknown();
  std::optional<SmallVector<bool>> cond = getConstantBools(ctx, 1);
  std::optional<int64_t> length;
  if (in) {
    if (axis) {
      if ((*in)[*axis].isStatic())
        length = (*in)[*axis].size;
    } else if (!axisAttr) {
      length = getNumElements(*in);
    }
  }
  if (cond && length) {
    int64_t n = 0;
    for (int64_t i = 0, e = std::min<int64_t>(cond->size(), *length); i < e;
         ++i)
      n += (*cond)[i];
    count = Dim(n);
  }
  if (!axisAttr)
    return setOut(ctx, Shape{count});
  if (!in)
    return setOut(ctx, std::nullopt);
  Shape out = *in;
  out[*axis] = count;
  return setOut(ctx, out);
}

//===----------------------------------------------------------------------===//
// CenterCropPad
//===----------------------------------------------------------------------===//

LogicalResult inferCenterCropPad(InferenceContext &ctx) {
  std::optional<Shape> in = ctx.getInputShape(0);
  if (std::optional<int64_t> r = ctx.getInputRank(1); r && *r != 1)
    return ctx.fail() << "input 'shape' must have rank 1, got " << *r;
  if (!in)
    return setOut(ctx, std::nullopt);
  int64_t rank = in->size();
  SmallVector<int64_t> axisList;
  if (auto axes = ctx.getIntsAttr("axes")) {
    auto normalized = normalizeAxes(ctx, *axes, rank, "axes");
    if (failed(normalized))
      return failure();
    axisList = *normalized;
  } else {
    for (int64_t i = 0; i < rank; ++i)
      axisList.push_back(i);
  }
  Shape out = *in;
  std::optional<SmallVector<int64_t>> sizes = ctx.getConstantInts(1);
  if (!sizes) {
    for (int64_t a : axisList)
      out[a] = Dim::unknown();
    return setOut(ctx, out);
  }
  if (sizes->size() != axisList.size())
    return ctx.fail() << "input 'shape' must have " << axisList.size()
                      << " values, got " << sizes->size();
  for (auto [a, s] : llvm::zip(axisList, *sizes)) {
    if (s < 0)
      return ctx.fail() << "input 'shape' must not hold negative sizes";
    out[a] = Dim(s);
  }
  return setOut(ctx, out);
}

//===----------------------------------------------------------------------===//
// Random generators
//===----------------------------------------------------------------------===//

/// The element type named by the `dtype` attribute, or `deflt`.
FailureOr<Type> getDType(InferenceContext &ctx, Type deflt) {
  if (!ctx.hasAttr("dtype") || ctx.isAttrRef("dtype"))
    return deflt;
  Type type = ctx.getDataTypeAttr("dtype");
  if (!type)
    return ctx.fail() << "attribute 'dtype' is not a known data type";
  return type;
}

LogicalResult inferRandom(InferenceContext &ctx) {
  FailureOr<Type> type = getDType(ctx, Builder(ctx.getContext()).getF32Type());
  if (failed(type))
    return failure();
  std::optional<SmallVector<int64_t>> shape = ctx.getIntsAttr("shape");
  if (!shape)
    return setOut(ctx, std::nullopt, *type);
  for (int64_t s : *shape)
    if (s < 0)
      return ctx.fail() << "attribute 'shape' must not hold negative sizes";
  return setOut(ctx, staticShape(*shape), *type);
}

LogicalResult inferRandomLike(InferenceContext &ctx) {
  FailureOr<Type> type = getDType(ctx, ctx.getInputElementType(0));
  if (failed(type))
    return failure();
  return sameShapeAs(ctx, 0, *type);
}

LogicalResult inferMultinomial(InferenceContext &ctx) {
  FailureOr<Type> type = getDType(ctx, IntegerType::get(ctx.getContext(), 32));
  if (failed(type))
    return failure();
  std::optional<Shape> in = ctx.getInputShape(0);
  int64_t samples = ctx.getIntAttrOrDefault("sample_size");
  if (in && in->size() != 2)
    return ctx.fail() << "input 'input' must have rank 2, got " << in->size();
  return setOut(ctx, Shape{in ? (*in)[0] : Dim::unknown(), Dim(samples)},
                *type);
}

//===----------------------------------------------------------------------===//
// Strings
//===----------------------------------------------------------------------===//

/// Trilu: the shape of a tensor of rank 2 or more.
LogicalResult inferTrilu(InferenceContext &ctx) {
  std::optional<Shape> x = ctx.getInputShape(0);
  if (x && x->size() < 2)
    return ctx.fail() << "input 'input' must have rank 2 or more, got "
                      << x->size();
  ctx.setOutput(0, nullptr, x);
  return success();
}

/// EyeLike: the shape of a 2-D input, the element type of dtype or of the
/// input.
LogicalResult inferEyeLike(InferenceContext &ctx) {
  std::optional<Shape> x = ctx.getInputShape(0);
  if (x && x->size() != 2)
    return ctx.fail() << "input 'input' must have rank 2, got " << x->size();
  Type type;
  if (ctx.hasAttr("dtype")) {
    if (ctx.isAttrRef("dtype"))
      return success();
    type = ctx.getDataTypeAttr("dtype");
    if (!type)
      return ctx.fail() << "attribute 'dtype' is not a known data type";
  } else {
    type = ctx.getInputElementType(0);
  }
  if (!type)
    return success();
  ctx.setOutput(0, type, x ? x : unknownShape(2));
  return success();
}

/// Range: a 1-D tensor of max(ceil((limit - start) / delta), 0) elements.
LogicalResult inferRange(InferenceContext &ctx) {
  static const char *names[] = {"start", "limit", "delta"};
  for (unsigned i = 0; i < 3; ++i) {
    std::optional<Shape> s = ctx.getInputShape(i);
    if (!s || s->empty())
      continue;
    if (s->size() > 1 || (s->front().isStatic() && s->front().size != 1))
      return ctx.fail() << "input '" << names[i] << "' must be a scalar, "
                        << "got shape " << formatShape(*s);
  }
  Dim n;
  Type type = ctx.getInputElementType(0);
  if (type && isa<IntegerType>(type)) {
    auto start = ctx.getConstantInts(0), limit = ctx.getConstantInts(1),
         delta = ctx.getConstantInts(2);
    if (delta && delta->size() == 1 && (*delta)[0] == 0)
      return ctx.fail() << "input 'delta' must not be zero";
    if (start && limit && delta && start->size() == 1 && limit->size() == 1 &&
        delta->size() == 1) {
      // ceil((limit - start) / delta) in exact integer arithmetic.
      __int128 num = static_cast<__int128>((*limit)[0]) - (*start)[0];
      __int128 den = (*delta)[0];
      __int128 q = num / den;
      if ((num % den != 0) && ((num < 0) == (den < 0)))
        ++q;
      n = Dim(static_cast<int64_t>(q < 0 ? 0 : q));
    }
  } else {
    auto start = ctx.getConstantFloats(0), limit = ctx.getConstantFloats(1),
         delta = ctx.getConstantFloats(2);
    if (delta && delta->size() == 1 && (*delta)[0] == 0)
      return ctx.fail() << "input 'delta' must not be zero";
    if (start && limit && delta && start->size() == 1 && limit->size() == 1 &&
        delta->size() == 1) {
      double count = std::ceil(((*limit)[0] - (*start)[0]) / (*delta)[0]);
      if (std::isfinite(count))
        n = Dim(count < 0 ? 0 : static_cast<int64_t>(count));
    }
  }
  ctx.setOutput(0, nullptr, Shape{n});
  return success();
}

/// Identity: the input's type (tensors, sequences and optionals since
/// opset 14/16).
LogicalResult inferIdentity(InferenceContext &ctx) {
  Type type = ctx.getInputType(0);
  if (!type)
    return success();
  if (isa<TensorType>(type))
    return inferSameShape(ctx);
  ctx.setOutputType(0, type);
  return success();
}

/// Dropout: the output and the mask have the shape of the data.
LogicalResult inferDropout(InferenceContext &ctx) {
  return inferSameShape(ctx, 0, {0, 1});
}

LogicalResult inferMaxUnpool(InferenceContext &ctx) {
  std::optional<Shape> x = ctx.getInputShape(0);
  std::optional<SmallVector<int64_t>> kernel = ctx.getIntsAttr("kernel_shape");
  if (!kernel)
    return ctx.fail() << "attribute 'kernel_shape' is required";
  int64_t n = kernel->size();
  if (x && static_cast<int64_t>(x->size()) != n + 2)
    return ctx.fail() << "input 'X' must have rank " << n + 2
                      << " (2 + the length of 'kernel_shape'), got "
                      << x->size();
  if (ctx.hasInput(2)) {
    // output_shape: the full shape of the output.
    if (failed(expectRank(ctx, 2, 1)))
      return failure();
    if (auto shape = ctx.getConstantInts(2)) {
      if (static_cast<int64_t>(shape->size()) != n + 2)
        return ctx.fail() << "input 'output_shape' must have " << n + 2
                          << " values, got " << shape->size();
      if (failed(checkSizes(ctx, *shape, "input 'output_shape'")))
        return failure();
      ctx.setOutput(0, {}, staticShape(*shape));
      return success();
    }
    Shape out = unknownShape(n + 2);
    if (x) {
      out[0] = (*x)[0];
      out[1] = (*x)[1];
    }
    ctx.setOutput(0, {}, out);
    return success();
  }
  if (failed(checkSizeList(ctx, "kernel_shape", *kernel, 1)))
    return failure();
  Window w;
  for (int64_t k : *kernel)
    w.kernel.push_back(Dim(k));
  if (failed(readWindow(ctx, n, w, /*hasAutoPad=*/false)))
    return failure();
  Shape xs = x ? *x : unknownShape(n + 2);
  Shape out{xs[0], xs[1]};
  for (int64_t i = 0; i < n; ++i) {
    Dim in = xs[i + 2];
    if (in.isStatic()) {
      std::optional<int64_t> size = checkedMulAdd(
          in.size - 1, w.strides[i], (*kernel)[i] - w.pads[i] - w.pads[i + n]);
      if (!size)
        return ctx.fail() << "the output size along spatial axis " << i
                          << " overflows";
      out.push_back(Dim(*size));
    } else {
      out.push_back(Dim::unknown());
    }
    if (out.back().isStatic() && out.back().size < 0)
      return ctx.fail() << "the output size along spatial axis " << i
                        << " is negative (" << out.back().size << ")";
  }
  ctx.setOutput(0, {}, out);
  return success();
}

LogicalResult inferCol2Im(InferenceContext &ctx) {
  if (failed(expectRank(ctx, 0, 3)) || failed(expectRank(ctx, 1, 1)) ||
      failed(expectRank(ctx, 2, 1)))
    return failure();
  std::optional<SmallVector<int64_t>> image = ctx.getConstantInts(1);
  std::optional<SmallVector<int64_t>> block = ctx.getConstantInts(2);
  std::optional<int64_t> n;
  if (image)
    n = image->size();
  else if (block)
    n = block->size();
  else if (inputDim(ctx, 1, 0).isStatic())
    n = inputDim(ctx, 1, 0).size;
  else if (inputDim(ctx, 2, 0).isStatic())
    n = inputDim(ctx, 2, 0).size;
  if (image && block && image->size() != block->size())
    return ctx.fail() << "inputs 'image_shape' and 'block_shape' must have "
                         "the same length, got "
                      << image->size() << " and " << block->size();
  // The window attributes, each of n values when n is known.
  for (auto [name, min] : {std::pair<StringRef, int64_t>{"strides", 1},
                           {"dilations", 1},
                           {"pads", 0}}) {
    std::optional<SmallVector<int64_t>> values = ctx.getIntsAttr(name);
    if (!values)
      continue;
    int64_t expected = n ? (name == "pads" ? 2 * *n : *n) : -1;
    if (expected >= 0 && static_cast<int64_t>(values->size()) != expected)
      return ctx.fail() << "attribute '" << name << "' must have " << expected
                        << " values, got " << values->size();
    if (failed(checkSizeList(ctx, name, *values, min)))
      return failure();
  }
  if (!n) {
    ctx.setOutput(0, {}, std::nullopt);
    return success();
  }
  if (image && failed(checkSizes(ctx, *image, "input 'image_shape'")))
    return failure();
  Dim cTimesBlock = inputDim(ctx, 0, 1);
  Dim c = Dim::unknown();
  if (block && cTimesBlock.isStatic()) {
    int64_t product = 1;
    for (int64_t b : *block) {
      if (b < 1)
        return ctx.fail() << "input 'block_shape' must be >= 1, got " << b;
      std::optional<int64_t> next = llvm::checkedMul(product, b);
      if (!next)
        return ctx.fail() << "the product of input 'block_shape' overflows";
      product = *next;
    }
    if (cTimesBlock.size % product != 0)
      return ctx.fail() << "dim 1 of input 'input' (" << cTimesBlock.size
                        << ") must be a multiple of the block size (" << product
                        << ")";
    c = Dim(cTimesBlock.size / product);
  }
  Shape out{inputDim(ctx, 0, 0), c};
  for (int64_t i = 0; i < *n; ++i)
    out.push_back(image ? Dim((*image)[i]) : Dim::unknown());
  ctx.setOutput(0, {}, out);
  return success();
}

} // namespace

void mlir::onnx::registerTensorInference(InferenceRegistry &r) {
  r.add<ConstantOp>(inferConstant);
  r.add<ConstantOfShapeOp>(inferConstantOfShape);
  r.add<ShapeOp>(inferShape);
  r.add<SizeOp>(inferSize);
  r.add<ReshapeOp>(inferReshape);
  r.add<FlattenOp>(inferFlatten);
  r.add<TransposeOp>(inferTranspose);
  r.add<SqueezeOp>(inferSqueeze);
  r.add<UnsqueezeOp>(inferUnsqueeze);
  r.add<ConcatOp>(inferConcat);
  r.add<SplitOp>(inferSplit);
  r.add<SliceOp>(inferSlice);
  r.add<GatherOp>(inferGather);
  r.add<GatherElementsOp>(inferGatherElements);
  r.add<GatherNDOp>(inferGatherND);
  r.add<ScatterOp, ScatterElementsOp, ScatterNDOp, TensorScatterOp,
        ReverseSequenceOp>(inferSameAsData);
  r.add<PadOp>(inferPad);
  r.add<ExpandOp>(inferExpand);
  r.add<TileOp>(inferTile);
  r.add<DepthToSpaceOp>(
      [](InferenceContext &ctx) { return inferDepthToSpace(ctx, true); });
  r.add<SpaceToDepthOp>(
      [](InferenceContext &ctx) { return inferDepthToSpace(ctx, false); });
  r.add<OneHotOp>(inferOneHot);
  r.add<NonZeroOp>(inferNonZero);
  r.add<UniqueOp>(inferUnique);
  r.add<CompressOp>(inferCompress);
  r.add<CenterCropPadOp>(inferCenterCropPad);
  r.add<RandomNormalOp, RandomUniformOp>(inferRandom);
  r.add<RandomNormalLikeOp, RandomUniformLikeOp, BernoulliOp>(inferRandomLike);
  r.add<MultinomialOp>(inferMultinomial);
  r.add<TriluOp>(inferTrilu);
  r.add<EyeLikeOp>(inferEyeLike);
  r.add<RangeOp>(inferRange);
  r.add<IdentityOp>(inferIdentity);
  r.add<DropoutOp>(inferDropout);
  r.add<MaxUnpoolOp>(inferMaxUnpool);
  r.add<Col2ImOp>(inferCol2Im);
}
