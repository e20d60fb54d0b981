//===- Values.cpp - The functions compiled code calls for runtime values --===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Sequences and optionals (lib/Conversion/ONNXToLinalg/RuntimeValues.cpp emits
// the calls). Tensors come in and go out as unranked memrefs, which the
// LLVM lowering passes as (rank, descriptor pointer); a descriptor is
// {allocated, aligned, offset, sizes[rank], strides[rank]}. Failures (a bad
// axis, shapes that do not concatenate) end the run with onnxd_rt_fail.
//
//===----------------------------------------------------------------------===//

#include "Values.h"

#include "Runtime.h"
#include "Shapes.h"

#include <cstring>

using namespace mlir::onnx::runtime;

int64_t RtValue::numElements() const { return elementCount(shape); }

RtValue *Arena::make(int32_t kind) {
  values.emplace_back();
  values.back().kind = kind;
  return &values.back();
}

const char *Arena::string(std::string text) {
  strings.push_back(std::move(text));
  return strings.back().c_str();
}

static thread_local Arena *activeArena = nullptr;

ArenaScope::ArenaScope(Arena &arena) : previous(activeArena) {
  activeArena = &arena;
}

ArenaScope::~ArenaScope() { activeArena = previous; }

Arena &mlir::onnx::runtime::currentArena() {
  // Compiled code called outside onnxd_run (a library linked directly):
  // its values live as long as the thread.
  static thread_local Arena fallback;
  return activeArena ? *activeArena : fallback;
}

size_t mlir::onnx::runtime::storageSize(int32_t dtype) {
  if (dtype == ONNXD_STRING)
    return sizeof(const char *);
  return dtypeSize(dtype);
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

namespace {
struct Descriptor {
  char *allocated;
  char *aligned;
  int64_t offset;
  int64_t sizesAndStrides[];
};
} // namespace

[[noreturn]] static void failRun(const std::string &message) {
  static thread_local std::string text;
  text = message;
  onnxd_rt_fail(text.c_str());
  __builtin_unreachable();
}

/// Calls `fn(elementOffset, linearIndex)` for each element of a strided
/// memref, in row-major order.
template <typename Fn>
static void forEachStrided(int64_t rank, const int64_t *sizes,
                           const int64_t *strides, Fn fn) {
  int64_t total = 1;
  for (int64_t d = 0; d < rank; ++d)
    total *= sizes[d];
  std::vector<int64_t> index(rank, 0);
  for (int64_t n = 0; n < total; ++n) {
    int64_t offset = 0;
    for (int64_t d = 0; d < rank; ++d)
      offset += index[d] * strides[d];
    fn(offset, n);
    for (int64_t d = rank; d-- > 0;) {
      if (++index[d] < sizes[d])
        break;
      index[d] = 0;
    }
  }
}

static RtValue *box(int32_t dtype, int64_t rank, void *desc) {
  auto *d = static_cast<Descriptor *>(desc);
  const int64_t *sizes = d->sizesAndStrides;
  const int64_t *strides = d->sizesAndStrides + rank;
  RtValue *v = currentArena().make(ONNXD_KIND_TENSOR);
  v->dtype = dtype;
  v->shape.assign(sizes, sizes + rank);
  size_t elem = storageSize(dtype);
  v->data.resize(v->numElements() * elem);
  const char *base = d->aligned + d->offset * elem;
  forEachStrided(rank, sizes, strides, [&](int64_t offset, int64_t n) {
    std::memcpy(v->data.data() + n * elem, base + offset * elem, elem);
  });
  return v;
}

static void unbox(RtValue *v, int64_t rank, void *desc) {
  auto *d = static_cast<Descriptor *>(desc);
  const int64_t *sizes = d->sizesAndStrides;
  const int64_t *strides = d->sizesAndStrides + rank;
  size_t elem = storageSize(v->dtype);
  char *base = d->aligned + d->offset * elem;
  forEachStrided(rank, sizes, strides, [&](int64_t offset, int64_t n) {
    std::memcpy(base + offset * elem, v->data.data() + n * elem, elem);
  });
}

static RtValue *checkSequence(void *handle) {
  auto *seq = static_cast<RtValue *>(handle);
  if (!seq || seq->kind != ONNXD_KIND_SEQUENCE)
    failRun("a sequence operation got something that is not a sequence");
  return seq;
}

static std::string shapeText(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

//===----------------------------------------------------------------------===//
// The C functions
//===----------------------------------------------------------------------===//

extern "C" {

#define ONNXD_BOX_FUNCTIONS(suffix)                                            \
  void *onnxd_box_##suffix(int32_t dtype, int64_t rank, void *desc) {          \
    return box(dtype, rank, desc);                                             \
  }                                                                            \
  void onnxd_unbox_##suffix(void *value, int64_t rank, void *desc) {           \
    unbox(static_cast<RtValue *>(value), rank, desc);                          \
  }
ONNXD_BOX_FUNCTIONS(i1)
ONNXD_BOX_FUNCTIONS(i8)
ONNXD_BOX_FUNCTIONS(i16)
ONNXD_BOX_FUNCTIONS(i32)
ONNXD_BOX_FUNCTIONS(i64)
ONNXD_BOX_FUNCTIONS(f16)
ONNXD_BOX_FUNCTIONS(bf16)
ONNXD_BOX_FUNCTIONS(f32)
ONNXD_BOX_FUNCTIONS(f64)
ONNXD_BOX_FUNCTIONS(c64)
ONNXD_BOX_FUNCTIONS(c128)
ONNXD_BOX_FUNCTIONS(str)
#undef ONNXD_BOX_FUNCTIONS

/// The rank of a tensor value; -1 for null or another kind.
int64_t onnxd_value_rank(void *value) {
  auto *v = static_cast<RtValue *>(value);
  if (!v || v->kind != ONNXD_KIND_TENSOR)
    return -1;
  return static_cast<int64_t>(v->shape.size());
}

int64_t onnxd_value_dtype(void *value) {
  auto *v = static_cast<RtValue *>(value);
  return v ? v->dtype : 0;
}

int64_t onnxd_value_dim(void *value, int64_t d) {
  auto *v = static_cast<RtValue *>(value);
  return v->shape[d];
}

void *onnxd_seq_empty(void) { return currentArena().make(ONNXD_KIND_SEQUENCE); }

int64_t onnxd_seq_length(void *seq) {
  return static_cast<int64_t>(checkSequence(seq)->elements.size());
}

/// A new sequence: `seq` with `element` at `pos` (0 <= pos <= length).
void *onnxd_seq_insert(void *seq, int64_t pos, void *element) {
  RtValue *in = checkSequence(seq);
  RtValue *out = currentArena().make(ONNXD_KIND_SEQUENCE);
  out->elements = in->elements;
  out->elements.insert(out->elements.begin() + pos,
                       static_cast<RtValue *>(element));
  return out;
}

/// A new sequence: `seq` without position `pos` (0 <= pos < length).
void *onnxd_seq_erase(void *seq, int64_t pos) {
  RtValue *in = checkSequence(seq);
  RtValue *out = currentArena().make(ONNXD_KIND_SEQUENCE);
  out->elements = in->elements;
  out->elements.erase(out->elements.begin() + pos);
  return out;
}

void *onnxd_seq_get(void *seq, int64_t pos) {
  return checkSequence(seq)->elements[pos];
}

/// ConcatFromSequence: the tensors of `seq` joined along `axis` (stacked
/// along a new axis when `newAxis`).
void *onnxd_seq_concat(void *seq, int64_t axis, int64_t newAxis,
                       const char *node) {
  RtValue *in = checkSequence(seq);
  std::string where = std::string(node) + ": ";
  if (in->elements.empty())
    failRun(where + "the sequence is empty");
  const RtValue *first = in->elements.front();
  int64_t rank = static_cast<int64_t>(first->shape.size());
  int64_t outRank = newAxis ? rank + 1 : rank;
  if (axis < -outRank || axis >= outRank || (!newAxis && rank == 0))
    failRun(where + "axis " + std::to_string(axis) + " is out of range for " +
            "tensors of rank " + std::to_string(rank));
  if (axis < 0)
    axis += outRank;
  std::vector<int64_t> shape = first->shape;
  int64_t joined = 0;
  for (const RtValue *e : in->elements) {
    bool ok = e->kind == ONNXD_KIND_TENSOR && e->dtype == first->dtype &&
              e->shape.size() == first->shape.size();
    for (int64_t d = 0; ok && d < rank; ++d)
      ok = e->shape[d] == shape[d] || (!newAxis && d == axis);
    if (!ok)
      failRun(where + "tensors of shapes " + shapeText(first->shape) + " and " +
              shapeText(e->shape) + " cannot be joined along axis " +
              std::to_string(axis));
    joined += newAxis ? 1 : e->shape[axis];
  }
  if (newAxis)
    shape.insert(shape.begin() + axis, joined);
  else
    shape[axis] = joined;
  RtValue *out = currentArena().make(ONNXD_KIND_TENSOR);
  out->dtype = first->dtype;
  out->shape = shape;
  size_t elem = storageSize(first->dtype);
  out->data.resize(out->numElements() * elem);
  int64_t outer = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= shape[d];
  char *dst = out->data.data();
  for (int64_t o = 0; o < outer; ++o)
    for (const RtValue *e : in->elements) {
      size_t chunk = outer ? e->data.size() / outer : 0;
      if (chunk)
        std::memcpy(dst, e->data.data() + o * chunk, chunk);
      dst += chunk;
    }
  return out;
}

/// SplitToSequence: `input` cut along `axis` into the sizes of `split` (a
/// tensor value, or null for pieces of 1, squeezed unless `keepdims`).
void *onnxd_seq_split(void *input, void *split, int64_t axis, int64_t keepdims,
                      const char *node) {
  auto *in = static_cast<RtValue *>(input);
  auto *sp = static_cast<RtValue *>(split);
  std::string where = std::string(node) + ": ";
  int64_t rank = static_cast<int64_t>(in->shape.size());
  if (axis < -rank || axis >= rank)
    failRun(where + "axis " + std::to_string(axis) +
            " is out of range for rank " + std::to_string(rank));
  if (axis < 0)
    axis += rank;
  int64_t dim = in->shape[axis];
  std::vector<int64_t> sizes;
  auto splitAt = [&](int64_t i) -> int64_t {
    if (sp->dtype == ONNXD_INT32)
      return reinterpret_cast<const int32_t *>(sp->data.data())[i];
    return reinterpret_cast<const int64_t *>(sp->data.data())[i];
  };
  bool squeeze = false;
  if (!sp) {
    sizes.assign(dim, 1);
    squeeze = !keepdims;
  } else if (sp->shape.empty()) {
    int64_t s = splitAt(0);
    if (s <= 0)
      failRun(where + "split must be positive, got " + std::to_string(s));
    for (int64_t start = 0; start < dim; start += s)
      sizes.push_back(std::min(s, dim - start));
  } else {
    int64_t total = 0;
    for (int64_t i = 0; i < sp->numElements(); ++i) {
      int64_t s = splitAt(i);
      if (s < 0)
        failRun(where + "split sizes must not be negative");
      sizes.push_back(s);
      total += s;
    }
    if (total != dim)
      failRun(where + "split sizes add up to " + std::to_string(total) +
              ", but the dim along axis " + std::to_string(axis) + " is " +
              std::to_string(dim));
  }
  size_t elem = storageSize(in->dtype);
  int64_t outer = 1, inner = static_cast<int64_t>(elem);
  for (int64_t d = 0; d < axis; ++d)
    outer *= in->shape[d];
  for (int64_t d = axis + 1; d < rank; ++d)
    inner *= in->shape[d];
  RtValue *seq = currentArena().make(ONNXD_KIND_SEQUENCE);
  int64_t start = 0;
  for (int64_t s : sizes) {
    RtValue *piece = currentArena().make(ONNXD_KIND_TENSOR);
    piece->dtype = in->dtype;
    piece->shape = in->shape;
    piece->shape[axis] = s;
    if (squeeze)
      piece->shape.erase(piece->shape.begin() + axis);
    piece->data.resize(outer * s * inner);
    // (An empty piece has no buffer to copy into: memcpy of a null pointer
    // is undefined even for 0 bytes.)
    for (int64_t o = 0; s * inner > 0 && o < outer; ++o)
      std::memcpy(piece->data.data() + o * s * inner,
                  in->data.data() + (o * dim + start) * inner, s * inner);
    start += s;
    seq->elements.push_back(piece);
  }
  return seq;
}

} // extern "C"

//===----------------------------------------------------------------------===//
// Strings
//===----------------------------------------------------------------------===//
//
// A string tensor holds one `const char *` (NUL-terminated UTF-8) per
// element: strings of the caller's inputs (borrowed for the run), constants
// of the compiled module, or strings of the run's arena.

#include <charconv>
#include <cmath>
#include <map>
#include <regex>

static const char *str(int64_t s) {
  const char *p = reinterpret_cast<const char *>(s);
  return p ? p : "";
}

static const char *const *strings(const RtValue *v) {
  return reinterpret_cast<const char *const *>(v->data.data());
}

static std::string changeCase(std::string s, int64_t action) {
  // ASCII letters only (the C locale); other bytes are kept.
  for (char &c : s) {
    if (action == 1 && c >= 'A' && c <= 'Z')
      c = static_cast<char>(c - 'A' + 'a');
    else if (action == 2 && c >= 'a' && c <= 'z')
      c = static_cast<char>(c - 'a' + 'A');
  }
  return s;
}

extern "C" {

double onnxd_str_to_f64(int64_t s) { return std::strtod(str(s), nullptr); }

int64_t onnxd_str_to_i64(int64_t s) {
  return std::strtoll(str(s), nullptr, 10);
}

int64_t onnxd_str_to_u64(int64_t s) {
  return static_cast<int64_t>(std::strtoull(str(s), nullptr, 10));
}

/// The shortest text that reads back as the same value of `bits` width
/// (float32 values as float32); "NaN", "INF", "-INF" as ONNX writes them.
int64_t onnxd_str_from_f64(double x, int32_t bits) {
  char buf[64];
  if (x != x)
    return reinterpret_cast<int64_t>("NaN");
  if (x == HUGE_VAL)
    return reinterpret_cast<int64_t>("INF");
  if (x == -HUGE_VAL)
    return reinterpret_cast<int64_t>("-INF");
  std::to_chars_result r =
      bits <= 32 ? std::to_chars(buf, buf + sizeof(buf), static_cast<float>(x))
                 : std::to_chars(buf, buf + sizeof(buf), x);
  return reinterpret_cast<int64_t>(
      currentArena().string(std::string(buf, r.ptr)));
}

int64_t onnxd_str_from_i64(int64_t x) {
  return reinterpret_cast<int64_t>(currentArena().string(std::to_string(x)));
}

int64_t onnxd_str_from_u64(int64_t x) {
  return reinterpret_cast<int64_t>(
      currentArena().string(std::to_string(static_cast<uint64_t>(x))));
}

bool onnxd_str_equal(int64_t a, int64_t b) {
  return std::strcmp(str(a), str(b)) == 0;
}

int64_t onnxd_str_concat(int64_t a, int64_t b) {
  return reinterpret_cast<int64_t>(
      currentArena().string(std::string(str(a)) + str(b)));
}

/// RegexFullMatch with std::regex (ECMAScript grammar; docs/runtime.md lists
/// how it differs from RE2). Compiled patterns are cached per thread.
bool onnxd_str_regex_full_match(int64_t s, const char *pattern,
                                const char *node) {
  static thread_local std::map<std::string, std::regex> cache;
  auto it = cache.find(pattern);
  if (it == cache.end()) {
    try {
      it = cache.emplace(pattern, std::regex(pattern, std::regex::ECMAScript))
               .first;
    } catch (const std::regex_error &e) {
      failRun(std::string(node) + ": bad pattern '" + pattern +
              "': " + e.what());
    }
  }
  return std::regex_match(str(s), it->second);
}

/// StringNormalizer on a [C] or [1, C] tensor; `stopwords` is a 1-D string
/// tensor or null; case action 0 none, 1 lower, 2 upper.
void *onnxd_str_normalize(void *input, void *stopwords, int64_t caseAction,
                          int64_t caseSensitive, const char *node) {
  auto *in = static_cast<RtValue *>(input);
  auto *stop = static_cast<RtValue *>(stopwords);
  size_t rank = in->shape.size();
  if (rank != 1 && !(rank == 2 && in->shape[0] == 1))
    failRun(std::string(node) + ": the input must be [C] or [1, C], not " +
            shapeText(in->shape));
  std::vector<std::string> words;
  if (stop)
    for (int64_t i = 0; i < stop->numElements(); ++i)
      words.push_back(caseSensitive ? std::string(strings(stop)[i])
                                    : changeCase(strings(stop)[i], 1));
  Arena &arena = currentArena();
  RtValue *out = arena.make(ONNXD_KIND_TENSOR);
  out->dtype = ONNXD_STRING;
  std::vector<const char *> kept;
  for (int64_t i = 0; i < in->numElements(); ++i) {
    const char *s = strings(in)[i];
    std::string key = caseSensitive ? std::string(s) : changeCase(s, 1);
    bool drop = false;
    for (const std::string &w : words)
      drop |= w == key;
    if (!drop)
      kept.push_back(arena.string(changeCase(s, caseAction)));
  }
  if (kept.empty())
    kept.push_back("");
  out->shape = in->shape;
  out->shape.back() = static_cast<int64_t>(kept.size());
  out->data.resize(kept.size() * sizeof(const char *));
  std::memcpy(out->data.data(), kept.data(), out->data.size());
  return out;
}

/// StringSplit: a sequence of two values, the substrings (the input's shape
/// + [max count], padded with "") and the counts (int64, the input's shape).
void *onnxd_str_split(void *input, const char *delimiter, int64_t maxsplit) {
  auto *in = static_cast<RtValue *>(input);
  Arena &arena = currentArena();
  std::vector<std::vector<std::string>> parts;
  size_t widest = 0;
  std::string delim = delimiter ? delimiter : "";
  for (int64_t i = 0; i < in->numElements(); ++i) {
    std::string s = strings(in)[i];
    std::vector<std::string> p;
    int64_t splits = 0;
    auto canSplit = [&] { return maxsplit < 0 || splits < maxsplit; };
    if (delim.empty()) {
      size_t pos = s.find_first_not_of(" \t\n\r\f\v");
      while (pos != std::string::npos) {
        if (!canSplit()) {
          size_t last = s.find_last_not_of(" \t\n\r\f\v");
          p.push_back(s.substr(pos, last + 1 - pos));
          break;
        }
        size_t end = s.find_first_of(" \t\n\r\f\v", pos);
        p.push_back(s.substr(pos, end == std::string::npos ? end : end - pos));
        ++splits;
        pos = end == std::string::npos
                  ? end
                  : s.find_first_not_of(" \t\n\r\f\v", end);
      }
    } else {
      size_t pos = 0;
      while (true) {
        size_t end = canSplit() ? s.find(delim, pos) : std::string::npos;
        if (end == std::string::npos) {
          p.push_back(s.substr(pos));
          break;
        }
        p.push_back(s.substr(pos, end - pos));
        ++splits;
        pos = end + delim.size();
      }
    }
    widest = std::max(widest, p.size());
    parts.push_back(std::move(p));
  }
  RtValue *y = arena.make(ONNXD_KIND_TENSOR);
  y->dtype = ONNXD_STRING;
  y->shape = in->shape;
  y->shape.push_back(static_cast<int64_t>(widest));
  RtValue *z = arena.make(ONNXD_KIND_TENSOR);
  z->dtype = ONNXD_INT64;
  z->shape = in->shape;
  std::vector<const char *> ys;
  std::vector<int64_t> zs;
  for (const std::vector<std::string> &p : parts) {
    for (size_t k = 0; k < widest; ++k)
      ys.push_back(k < p.size() ? arena.string(p[k]) : "");
    zs.push_back(static_cast<int64_t>(p.size()));
  }
  y->data.resize(ys.size() * sizeof(const char *));
  if (!ys.empty())
    std::memcpy(y->data.data(), ys.data(), y->data.size());
  z->data.resize(zs.size() * sizeof(int64_t));
  if (!zs.empty())
    std::memcpy(z->data.data(), zs.data(), z->data.size());
  RtValue *pair = arena.make(ONNXD_KIND_SEQUENCE);
  pair->elements = {y, z};
  return pair;
}

/// LabelEncoder: each element of `input` looked up in `keys` (1-D, the
/// input's element type) and replaced by the value at the same index of
/// `values`, or by `fallback` (a scalar of the values' type).
void *onnxd_label_encode(void *input, void *keys, void *values, void *fallback,
                         const char *node) {
  auto *in = static_cast<RtValue *>(input);
  auto *k = static_cast<RtValue *>(keys);
  auto *v = static_cast<RtValue *>(values);
  auto *d = static_cast<RtValue *>(fallback);
  if (k->numElements() != v->numElements())
    failRun(std::string(node) + ": " + std::to_string(k->numElements()) +
            " keys but " + std::to_string(v->numElements()) + " values");
  size_t keySize = storageSize(k->dtype), valueSize = storageSize(v->dtype);
  auto keyAt = [&](const RtValue *t, int64_t i) -> std::string {
    if (t->dtype == ONNXD_STRING)
      return strings(t)[i];
    if (t->dtype == ONNXD_FLOAT || t->dtype == ONNXD_DOUBLE) {
      // Floats match by value (-0 = 0; NaN matches NaN).
      double x = t->dtype == ONNXD_FLOAT
                     ? reinterpret_cast<const float *>(t->data.data())[i]
                     : reinterpret_cast<const double *>(t->data.data())[i];
      if (x != x)
        return "nan";
      if (x == 0)
        x = 0;
      return std::string(reinterpret_cast<const char *>(&x), sizeof(x));
    }
    return std::string(t->data.data() + i * keySize, keySize);
  };
  std::map<std::string, int64_t> index;
  for (int64_t i = 0; i < k->numElements(); ++i)
    index.emplace(keyAt(k, i), i);
  RtValue *out = currentArena().make(ONNXD_KIND_TENSOR);
  out->dtype = v->dtype;
  out->shape = in->shape;
  out->data.resize(in->numElements() * valueSize);
  for (int64_t i = 0; i < in->numElements(); ++i) {
    auto it = index.find(keyAt(in, i));
    const char *src = it == index.end()
                          ? d->data.data()
                          : v->data.data() + it->second * valueSize;
    std::memcpy(out->data.data() + i * valueSize, src, valueSize);
  }
  return out;
}

} // extern "C"
