//===- onnx-run.cpp - Compile and run an ONNX model -----------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
//   onnx-run model.onnx --input x=x.npy [--output-dir DIR]
//   onnx-run --test-dir CASE [--rtol R --atol A]
//   onnx-run model.onnx --bench N [--threads T]
//   onnx-run model.onnx --emit mlir|llvm|obj [-o FILE]
//   onnx-run model.onnx -o model.so        (ahead of time, + model.h)
//   onnx-run model.so --input ...          (a library written by -o)
//
// A thin driver over the C API (OnnxDialect/Runtime/OnnxRuntime.h). Exit
// status: 0 ok, 1 a mismatch or a run-time error, 2 a usage or compile error.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Runtime/OnnxRuntime.h"
#include "OnnxDialect/Runtime/TensorFiles.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <map>
#include <type_traits>

using namespace mlir::onnx::runtime;

namespace {
/// The command line (parsed by hand: LLVM's own options, e.g. `threads`,
/// live in the same global registry as llvm::cl's).
struct Options {
  std::string modelPath, outputDir, testDir, emitKind, outputFile;
  std::string targetCPU, targetFeatures, profileFile, deviceConfig;
  std::string device, gpuChip;
  int winograd = 4;
  bool codegen = true, memoryPlan = true, outputDirGiven = false,
       profileGiven = false, blockedLayout = true, gpuTF32 = false;
  std::vector<std::string> inputFiles;
  double rtol = 1e-3, atol = 1e-7;
  unsigned benchRuns = 0;
  int threads = 1, optLevel = 3, microBatches = 1;
};
} // namespace

static Options opts;

/// This process's peak resident memory in KB (VmHWM; -1 where /proc has
/// none). Unlike the rusage a parent reads, it does not include what the
/// parent held when it forked this process.
static long peakResidentKB() {
  FILE *status = std::fopen("/proc/self/status", "r");
  if (!status)
    return -1;
  char line[256];
  long kb = -1;
  while (std::fgets(line, sizeof(line), status))
    if (std::sscanf(line, "VmHWM: %ld kB", &kb) == 1)
      break;
  std::fclose(status);
  return kb;
}

/// More threads than this is a typing error, not a machine (OpenMP aborts
/// when it cannot create them).
static constexpr int kMaxThreads = 1024;

static const char *const kUsageText =
    "usage: onnx-run MODEL [options]\n"
    "  MODEL                 .onnx (binary or text), .mlir/.mlirbc, or a .so "
    "from -o\n"
    "  --input NAME=FILE     an input (.npy or TensorProto .pb); repeat\n"
    "  --output-dir DIR      write each output as DIR/<name>.npy\n"
    "  --test-dir CASE       run a conformance case (CASE/model.onnx, "
    "test_data_set_*)\n"
    "  --rtol R, --atol A    tolerances of --test-dir (1e-3, 1e-7)\n"
    "  --bench N             print the median latency over N runs\n"
    "  --threads T           threads for the compiled code (1)\n"
    "  -O0 .. -O3            LLVM optimization level (3)\n"
    "  --target-cpu CPU      compile for an LLVM CPU name (host)\n"
    "  --target-features F   LLVM target features added to the CPU's "
    "(+x,-y)\n"
    "  --no-codegen          skip the CPU code-generation stage (scalar "
    "loops)\n"
    "  --no-memory-plan      allocate each buffer on its own instead of "
    "placing\n"
    "                        them in one arena planned by liveness\n"
    "  --winograd M          3x3 convolutions with unit strides through "
    "Winograd's\n"
    "                        F(M, 3) along their rows: 4 (default), 2, or 0 "
    "(off)\n"
    "  --no-blocked-layout   convolutions, depthwise convolutions and pools "
    "on\n"
    "                        [N, C, H, W] activations instead of the blocked "
    "layout\n"
    "                        [N, C/c0, H, W, c0]\n"
    "  --profile FILE        time every kernel of every run; write them to "
    "FILE as\n"
    "                        Chrome trace events (ONNX Runtime's profile "
    "format)\n"
    "  --device cpu|cuda     where the model runs (cpu); cuda: kernels for "
    "an NVIDIA\n"
    "                        GPU, run through the driver (docs/gpu.md)\n"
    "  --gpu-chip SM         with --device cuda: the GPU architecture "
    "(sm_90)\n"
    "  --gpu-tf32            with --device cuda: f32 products on the tensor "
    "cores with\n"
    "                        TF32 operands (sm_80 or newer; off: full f32)\n"
    "  --emit mlir|llvm|obj|ptx  write the lowered module / LLVM IR / "
    "object /\n"
    "                        the kernels' PTX (--device cuda) and stop\n"
    "  -o FILE               with --emit: the file (stdout); alone: a shared "
    "library + .h\n"
    "  --device-config NAME  run the model's device configuration NAME (IR "
    "11) as\n"
    "                        one rank of an MPI job (mpirun -np N onnx-run "
    "...);\n"
    "                        rank 0 reads the inputs and writes the outputs; "
    "%r in\n"
    "                        MODEL and -o is the rank (one library a rank)\n"
    "  --micro-batches M     with --device-config: split the batch into M "
    "micro-batches\n"
    "                        that flow through the pipeline stages one after "
    "another\n";

/// Parses argv into `opts`; false (after a message) on a usage error.
static bool parseArgs(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (arg == "-h" || arg == "--help" || arg == "-help") {
      llvm::outs() << kUsageText;
      std::exit(0);
    }
    // --name=value or --name value.
    auto value = [&](llvm::StringRef name, std::string &out) {
      if (arg == name) {
        if (i + 1 >= argc) {
          llvm::errs() << "onnx-run: " << name << " needs a value\n";
          std::exit(2);
        }
        out = argv[++i];
        return true;
      }
      if (arg.starts_with((name + "=").str())) {
        out = arg.drop_front(name.size() + 1).str();
        return true;
      }
      return false;
    };
    auto number = [&](llvm::StringRef name, const std::string &text,
                      auto &out) {
      char *end = nullptr;
      double v = std::strtod(text.c_str(), &end);
      if (text.empty() || *end) {
        llvm::errs() << "onnx-run: " << name << " takes a number, got '" << text
                     << "'\n";
        return false;
      }
      out = static_cast<std::remove_reference_t<decltype(out)>>(v);
      return true;
    };
    std::string v;
    if (value("--input", v) || value("-input", v))
      opts.inputFiles.push_back(v);
    else if (value("--output-dir", v)) {
      opts.outputDir = v;
      opts.outputDirGiven = true;
    } else if (value("--target-cpu", v))
      opts.targetCPU = v;
    else if (value("--target-features", v))
      opts.targetFeatures = v;
    else if (arg == "--no-codegen")
      opts.codegen = false;
    else if (arg == "--no-memory-plan")
      opts.memoryPlan = false;
    else if (arg == "--no-blocked-layout")
      opts.blockedLayout = false;
    else if (value("--winograd", v)) {
      if (v != "0" && v != "2" && v != "4") {
        llvm::errs() << "onnx-run: --winograd takes 0 (off), 2 or 4, got '" << v
                     << "'\n";
        return false;
      }
      opts.winograd = std::stoi(v);
    } else if (value("--profile", v)) {
      opts.profileFile = v;
      opts.profileGiven = true;
    } else if (value("--test-dir", v))
      opts.testDir = v;
    else if (value("--device-config", v))
      opts.deviceConfig = v;
    else if (value("--device", v))
      opts.device = v;
    else if (value("--gpu-chip", v))
      opts.gpuChip = v;
    else if (arg == "--gpu-tf32")
      opts.gpuTF32 = true;
    else if (value("--emit", v))
      opts.emitKind = v;
    else if (value("-o", v))
      opts.outputFile = v;
    else if (value("--rtol", v)) {
      if (!number("--rtol", v, opts.rtol))
        return false;
    } else if (value("--atol", v)) {
      if (!number("--atol", v, opts.atol))
        return false;
    } else if (value("--bench", v)) {
      double runs = 0;
      if (!number("--bench", v, runs))
        return false;
      if (runs < 1 || runs > 1e7 || runs != static_cast<unsigned>(runs)) {
        llvm::errs() << "onnx-run: --bench takes a whole number of runs "
                        "from 1 to 10000000, got '"
                     << v << "'\n";
        return false;
      }
      opts.benchRuns = static_cast<unsigned>(runs);
    } else if (value("--micro-batches", v)) {
      double m = 0;
      if (!number("--micro-batches", v, m))
        return false;
      if (m < 1 || m > 4096 || m != static_cast<int>(m)) {
        llvm::errs() << "onnx-run: --micro-batches takes a whole number from "
                        "1 to 4096, got '"
                     << v << "'\n";
        return false;
      }
      opts.microBatches = static_cast<int>(m);
    } else if (value("--threads", v)) {
      double threads = 0;
      if (!number("--threads", v, threads))
        return false;
      if (threads < 1 || threads > kMaxThreads ||
          threads != static_cast<int>(threads)) {
        llvm::errs() << "onnx-run: --threads takes a whole number from 1 to "
                     << kMaxThreads << ", got '" << v << "'\n";
        return false;
      }
      opts.threads = static_cast<int>(threads);
    } else if (arg.size() == 3 && arg.starts_with("-O") && arg[2] >= '0' &&
               arg[2] <= '3')
      opts.optLevel = arg[2] - '0';
    else if (arg.starts_with("-") && arg != "-") {
      llvm::errs() << "onnx-run: unknown option '" << arg << "'\n"
                   << kUsageText;
      return false;
    } else if (opts.modelPath.empty())
      opts.modelPath = arg.str();
    else {
      llvm::errs() << "onnx-run: more than one model ('" << opts.modelPath
                   << "', '" << arg << "')\n";
      return false;
    }
  }
  return true;
}

namespace {
enum Exit { kOk = 0, kMismatch = 1, kUsage = 2 };
} // namespace

/// The MPI job of a multi-device run (--device-config); one rank otherwise.
static int mpiRank = 0, mpiSize = 1;

/// "onnx-run: " or, in a job of several ranks, "onnx-run: rank R: ".
static std::string prefix() {
  return mpiSize > 1 ? "onnx-run: rank " + std::to_string(mpiRank) + ": "
                     : "onnx-run: ";
}

static int report(onnxd_status status) {
  llvm::errs() << prefix() << onnxd_last_error() << "\n";
  return status == ONNXD_COMPILE_ERROR || status == ONNXD_IO_ERROR ||
                 status == ONNXD_UNSUPPORTED
             ? kUsage
             : kMismatch;
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

static float halfToFloat(uint16_t h) {
  uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1f, mant = h & 0x3ff,
           bits;
  if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else {
      exp = 127 - 15 + 1;
      while (!(mant & 0x400)) {
        mant <<= 1;
        --exp;
      }
      bits = sign | exp << 23 | (mant & 0x3ff) << 13;
    }
  } else if (exp == 31) {
    bits = sign | 0x7f800000u | mant << 13;
  } else {
    bits = sign | (exp + 127 - 15) << 23 | mant << 13;
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

/// A small float of 1 sign bit (when `hasSign`), `expBits` exponent and
/// `mantBits` mantissa bits with exponent `bias`; `nan`/`inf` say which bit
/// patterns are special (ONNX's float8 and float4 types).
static double smallFloat(unsigned v, bool hasSign, unsigned expBits,
                         unsigned mantBits, int bias) {
  unsigned mant = v & ((1u << mantBits) - 1);
  unsigned exp = (v >> mantBits) & ((1u << expBits) - 1);
  bool negative = hasSign && (v >> (expBits + mantBits)) & 1;
  double m = exp ? 1.0 + std::ldexp(mant, -int(mantBits))
                 : std::ldexp(mant, -int(mantBits));
  double r = std::ldexp(m, (exp ? int(exp) : 1) - bias);
  return negative ? -r : r;
}

static double float8Value(int32_t dtype, uint8_t v) {
  double nan = std::nan("");
  switch (dtype) {
  case ONNXD_FLOAT8E4M3FN:
    if ((v & 0x7f) == 0x7f)
      return nan;
    return smallFloat(v, true, 4, 3, 7);
  case ONNXD_FLOAT8E4M3FNUZ:
    if (v == 0x80)
      return nan;
    return smallFloat(v, true, 4, 3, 8);
  case ONNXD_FLOAT8E5M2:
    if ((v & 0x7c) == 0x7c)
      return (v & 3) ? nan : (v & 0x80 ? -HUGE_VAL : HUGE_VAL);
    return smallFloat(v, true, 5, 2, 15);
  case ONNXD_FLOAT8E5M2FNUZ:
    if (v == 0x80)
      return nan;
    return smallFloat(v, true, 5, 2, 16);
  case ONNXD_FLOAT8E8M0:
    if (v == 0xff)
      return nan;
    return std::ldexp(1.0, int(v) - 127);
  case ONNXD_FLOAT4E2M1:
    return smallFloat(v & 0xf, true, 2, 1, 1);
  default:
    return 0;
  }
}

static bool isFloat(int32_t dtype) {
  switch (dtype) {
  case ONNXD_FLOAT:
  case ONNXD_DOUBLE:
  case ONNXD_FLOAT16:
  case ONNXD_BFLOAT16:
  case ONNXD_FLOAT8E4M3FN:
  case ONNXD_FLOAT8E4M3FNUZ:
  case ONNXD_FLOAT8E5M2:
  case ONNXD_FLOAT8E5M2FNUZ:
  case ONNXD_FLOAT8E8M0:
  case ONNXD_FLOAT4E2M1:
    return true;
  default:
    return false;
  }
}

/// Types numpy has no dtype for: their files hold the bits as integers of
/// the same width (or ml_dtypes' void dtypes, read as such integers).
static bool needsBitFile(int32_t dtype) {
  return dtype == ONNXD_BFLOAT16 || dtype == ONNXD_FLOAT8E4M3FN ||
         dtype == ONNXD_FLOAT8E4M3FNUZ || dtype == ONNXD_FLOAT8E5M2 ||
         dtype == ONNXD_FLOAT8E5M2FNUZ || dtype == ONNXD_FLOAT8E8M0 ||
         dtype == ONNXD_FLOAT4E2M1 || dtype == ONNXD_UINT4 ||
         dtype == ONNXD_INT4 || dtype == ONNXD_UINT2 || dtype == ONNXD_INT2;
}

/// Gives a tensor read as raw bits the element type `want` expects: uint16
/// data for bfloat16 (as ONNX 1.12's test data stores it), uint8/int8 data
/// for the float8, float4, int4 and int2 types.
static void adoptType(HostTensor &t, int32_t want) {
  if (t.dtype == want || !needsBitFile(want))
    return;
  bool isInteger = t.dtype == ONNXD_UINT8 || t.dtype == ONNXD_INT8 ||
                   t.dtype == ONNXD_UINT16 || t.dtype == ONNXD_INT16;
  if (isInteger && onnxd_dtype_size(t.dtype) == onnxd_dtype_size(want))
    t.dtype = want;
}

/// adoptType for every input, matched by name (or by position when none has
/// a name).
static void adoptInputTypes(onnxd_model *model,
                            std::vector<HostValue> &inputs) {
  size_t n = onnxd_model_num_inputs(model);
  for (size_t k = 0; k < inputs.size(); ++k)
    for (size_t i = 0; i < n; ++i) {
      onnxd_value_info info;
      onnxd_model_input(model, i, &info);
      if (inputs[k].kind == ONNXD_KIND_TENSOR &&
          (inputs[k].name.empty() ? i == k : inputs[k].name == info.name))
        adoptType(inputs[k].tensor, info.dtype);
    }
}

/// Element `i` as a double (exact for every integer up to 2^53).
static double valueAt(const HostTensor &t, int64_t i) {
  const char *p = t.data.data();
  auto load = [&](auto v) {
    std::memcpy(&v, p + i * sizeof(v), sizeof(v));
    return v;
  };
  switch (t.dtype) {
  case ONNXD_FLOAT:
    return load(float());
  case ONNXD_DOUBLE:
    return load(double());
  case ONNXD_FLOAT16:
    return halfToFloat(load(uint16_t()));
  case ONNXD_BFLOAT16: {
    uint32_t bits = uint32_t(load(uint16_t())) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  }
  case ONNXD_FLOAT8E4M3FN:
  case ONNXD_FLOAT8E4M3FNUZ:
  case ONNXD_FLOAT8E5M2:
  case ONNXD_FLOAT8E5M2FNUZ:
  case ONNXD_FLOAT8E8M0:
  case ONNXD_FLOAT4E2M1:
    return float8Value(t.dtype, load(uint8_t()));
  case ONNXD_INT8:
  case ONNXD_INT4:
  case ONNXD_INT2:
    return load(int8_t());
  case ONNXD_UINT8:
  case ONNXD_UINT4:
  case ONNXD_UINT2:
    return load(uint8_t());
  case ONNXD_BOOL:
    return load(uint8_t()) != 0;
  case ONNXD_INT16:
    return load(int16_t());
  case ONNXD_UINT16:
    return load(uint16_t());
  case ONNXD_INT32:
    return load(int32_t());
  case ONNXD_UINT32:
    return load(uint32_t());
  case ONNXD_INT64:
    return static_cast<double>(load(int64_t()));
  case ONNXD_UINT64:
    return static_cast<double>(load(uint64_t()));
  default:
    return 0;
  }
}

/// Exact comparison of integer elements (64-bit values beyond 2^53 too).
static bool sameBits(const HostTensor &a, const HostTensor &b, int64_t i) {
  size_t n = onnxd_dtype_size(a.dtype);
  if (a.dtype == ONNXD_BOOL)
    return (a.data[i] != 0) == (b.data[i] != 0);
  return std::memcmp(a.data.data() + i * n, b.data.data() + i * n, n) == 0;
}

static std::string formatValue(const HostTensor &t, int64_t i) {
  if (t.dtype == ONNXD_STRING)
    return "'" + t.strings[i] + "'";
  if (t.dtype == ONNXD_BOOL)
    return valueAt(t, i) ? "True" : "False";
  char buf[64];
  if (t.dtype == ONNXD_INT64 || t.dtype == ONNXD_UINT64) {
    int64_t v;
    std::memcpy(&v, t.data.data() + i * 8, 8);
    if (t.dtype == ONNXD_INT64)
      std::snprintf(buf, sizeof(buf), "%lld", static_cast<long long>(v));
    else
      std::snprintf(buf, sizeof(buf), "%llu",
                    static_cast<unsigned long long>(v));
    return buf;
  }
  double v = valueAt(t, i);
  if (!isFloat(t.dtype)) {
    std::snprintf(buf, sizeof(buf), "%.0f", v);
    return buf;
  }
  if (std::isnan(v))
    return "nan";
  if (std::isinf(v))
    return v > 0 ? "inf" : "-inf";
  std::snprintf(buf, sizeof(buf), "%.7g", v);
  std::string s = buf;
  if (s.find_first_of(".en") == std::string::npos)
    s += ".";
  return s;
}

static std::string formatIndex(const std::vector<int64_t> &shape,
                               int64_t flat) {
  std::vector<int64_t> index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = shape[d] ? flat % shape[d] : 0;
    flat = shape[d] ? flat / shape[d] : 0;
  }
  std::string s = "[";
  for (size_t d = 0; d < index.size(); ++d)
    s += (d ? "," : "") + std::to_string(index[d]);
  return s + "]";
}

static std::string formatShape(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t d = 0; d < shape.size(); ++d)
    s += (d ? "," : "") + std::to_string(shape[d]);
  return s + "]";
}

/// numpy's layout: nested brackets, summarised with "..." beyond 1000
/// elements (3 at each edge).
static void printValues(llvm::raw_ostream &os, const HostTensor &t, size_t dim,
                        int64_t offset, bool summarise, unsigned indent) {
  if (t.shape.empty()) {
    os << formatValue(t, 0);
    return;
  }
  int64_t n = t.shape[dim];
  int64_t inner = 1;
  for (size_t d = dim + 1; d < t.shape.size(); ++d)
    inner *= t.shape[d];
  bool last = dim + 1 == t.shape.size();
  os << "[";
  for (int64_t i = 0; i < n; ++i) {
    if (summarise && n > 6 && i == 3) {
      os << (last ? " ..." : "\n" + std::string(indent + 1, ' ') + "...");
      i = n - 3;
    }
    if (i > 0 || (summarise && n > 6 && i == n - 3)) {
      if (last)
        os << " ";
      else
        os << std::string(t.shape.size() - dim - 1, '\n')
           << std::string(indent + 1, ' ');
    }
    if (last)
      os << formatValue(t, offset + i);
    else
      printValues(os, t, dim + 1, offset + i * inner, summarise, indent + 1);
  }
  os << "]";
}

static void printTensor(llvm::raw_ostream &os, const HostTensor &t) {
  os << t.name << ": " << onnxd_dtype_name(t.dtype) << formatShape(t.shape)
     << "\n";
  printValues(os, t, 0, 0, t.numElements() > 1000, 0);
  os << "\n";
}

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

/// Rank 0's inputs to every rank of the job (numeric tensors). Only rank 0
/// reads files: the others may run on machines without them.
static bool shareInputs(std::vector<HostValue> &inputs) {
  if (mpiSize == 1)
    return true;
  std::string buf;
  auto put = [&](const void *p, size_t n) {
    buf.append(static_cast<const char *>(p), n);
  };
  if (mpiRank == 0)
    for (const HostValue &v : inputs) {
      if (v.kind != ONNXD_KIND_TENSOR || v.tensor.dtype == ONNXD_STRING) {
        llvm::errs() << prefix() << "input '" << v.name
                     << "': a multi-device run takes numeric tensors\n";
        return false;
      }
      uint64_t sizes[4] = {v.name.size(), uint64_t(v.tensor.dtype),
                           v.tensor.shape.size(), v.tensor.data.size()};
      put(sizes, sizeof(sizes));
      put(v.name.data(), v.name.size());
      put(v.tensor.shape.data(), v.tensor.shape.size() * sizeof(int64_t));
      put(v.tensor.data.data(), v.tensor.data.size());
    }
  uint64_t bytes = buf.size();
  if (onnxd_mpi_bcast(&bytes, sizeof(bytes), 0) != ONNXD_OK)
    return false;
  buf.resize(bytes);
  if (onnxd_mpi_bcast(buf.data(), bytes, 0) != ONNXD_OK)
    return false;
  if (mpiRank == 0)
    return true;
  inputs.clear();
  const char *p = buf.data(), *end = buf.data() + buf.size();
  while (p < end) {
    uint64_t sizes[4];
    std::memcpy(sizes, p, sizeof(sizes));
    p += sizeof(sizes);
    HostValue v;
    v.name.assign(p, sizes[0]);
    p += sizes[0];
    v.tensor.name = v.name;
    v.tensor.dtype = int32_t(sizes[1]);
    v.tensor.shape.resize(sizes[2]);
    std::memcpy(v.tensor.shape.data(), p, sizes[2] * sizeof(int64_t));
    p += sizes[2] * sizeof(int64_t);
    v.tensor.data.assign(p, p + sizes[3]);
    p += sizes[3];
    inputs.push_back(std::move(v));
  }
  return true;
}

/// Whether rank 0 has another data set for the others (a multi-device
/// --test-dir): rank 0 says, the others hear.
static bool shareFlag(bool more) {
  if (mpiSize == 1)
    return more;
  int flag = more ? 1 : 0;
  onnxd_mpi_bcast(&flag, sizeof(flag), 0);
  return flag != 0;
}

/// Runs once; the outputs as host values.
static onnxd_status runOnce(onnxd_model *model,
                            const std::vector<HostValue> &inputs,
                            std::vector<HostValue> *results) {
  std::vector<onnxd_value> views;
  for (const HostValue &v : inputs)
    views.push_back(v.view());
  size_t n = onnxd_model_num_outputs(model);
  std::vector<onnxd_value *> outs(n, nullptr);
  onnxd_status s =
      onnxd_run_values(model, views.data(), views.size(), outs.data(), n);
  if (s != ONNXD_OK)
    return s;
  for (onnxd_value *v : outs) {
    if (results)
      results->push_back(HostValue::fromValue(*v));
    onnxd_value_free(v);
  }
  return ONNXD_OK;
}

static std::string expected(onnxd_model *model) {
  std::string s;
  for (size_t i = 0; i < onnxd_model_num_inputs(model); ++i) {
    onnxd_value_info info;
    onnxd_model_input(model, i, &info);
    s += std::string("\n  --input ") + info.name + "=FILE  (";
    if (info.kind != ONNXD_KIND_TENSOR) {
      s += std::string(info.type) + ")";
      continue;
    }
    s += std::string(onnxd_dtype_name(info.dtype)) + "[";
    for (int32_t d = 0; d < info.rank; ++d) {
      if (d)
        s += ",";
      if (info.dim_params[d][0])
        s += info.dim_params[d];
      else if (info.dims[d] < 0)
        s += "?";
      else
        s += std::to_string(info.dims[d]);
    }
    s += "])";
  }
  return s;
}

/// Compares one output with its expected value; a message when it differs.
static std::string compare(const HostTensor &got, const HostTensor &wanted) {
  HostTensor want = wanted;
  adoptType(want, got.dtype);
  if (got.dtype != want.dtype)
    return std::string("element type ") + onnxd_dtype_name(got.dtype) +
           ", expected " + onnxd_dtype_name(want.dtype);
  if (got.shape != want.shape)
    return "shape " + formatShape(got.shape) + ", expected " +
           formatShape(want.shape);
  if (got.dtype == ONNXD_STRING) {
    for (size_t i = 0; i < got.strings.size(); ++i)
      if (got.strings[i] != want.strings[i])
        return "index " + formatIndex(got.shape, i) + ": got \"" +
               got.strings[i] + "\", expected \"" + want.strings[i] + "\"";
    return "";
  }
  bool floating = isFloat(got.dtype);
  for (int64_t i = 0, e = got.numElements(); i < e; ++i) {
    bool ok;
    if (floating) {
      double g = valueAt(got, i), w = valueAt(want, i);
      if (std::isnan(w) || std::isnan(g))
        ok = std::isnan(w) && std::isnan(g);
      else if (std::isinf(w) || std::isinf(g))
        ok = g == w;
      else
        ok = std::fabs(g - w) <= opts.atol + opts.rtol * std::fabs(w);
    } else {
      ok = sameBits(got, want, i);
    }
    if (!ok)
      return "index " + formatIndex(got.shape, i) + ": got " +
             formatValue(got, i) + ", expected " + formatValue(want, i);
  }
  return "";
}

static const char *kindName(int32_t kind) {
  switch (kind) {
  case ONNXD_KIND_TENSOR:
    return "a tensor";
  case ONNXD_KIND_SEQUENCE:
    return "a sequence";
  case ONNXD_KIND_OPTIONAL:
    return "an optional";
  default:
    return "a map";
  }
}

/// Compares values of any kind, recursively.
static std::string compareValues(const HostValue &got, const HostValue &want) {
  if (got.kind != want.kind)
    return std::string(kindName(got.kind)) + ", expected " +
           kindName(want.kind);
  if (got.kind == ONNXD_KIND_TENSOR)
    return compare(got.tensor, want.tensor);
  if (got.elements.size() != want.elements.size()) {
    if (got.kind == ONNXD_KIND_OPTIONAL)
      return got.elements.empty() ? "no value, expected one"
                                  : "a value, expected none";
    return std::to_string(got.elements.size()) + " elements, expected " +
           std::to_string(want.elements.size());
  }
  for (size_t i = 0; i < got.elements.size(); ++i) {
    std::string m = compareValues(got.elements[i], want.elements[i]);
    if (!m.empty())
      return (got.kind == ONNXD_KIND_OPTIONAL
                  ? std::string("its value: ")
                  : "element " + std::to_string(i) + ": ") +
             m;
  }
  return "";
}

static void printValue(llvm::raw_ostream &os, const HostValue &v,
                       const std::string &name) {
  if (v.kind == ONNXD_KIND_TENSOR) {
    HostTensor t = v.tensor;
    t.name = name;
    printTensor(os, t);
    return;
  }
  if (v.kind == ONNXD_KIND_OPTIONAL) {
    if (v.elements.empty())
      os << name << ": None\n";
    else
      printValue(os, v.elements[0], name);
    return;
  }
  os << name << ": sequence of " << v.elements.size() << "\n";
  for (size_t i = 0; i < v.elements.size(); ++i)
    printValue(os, v.elements[i], name + "[" + std::to_string(i) + "]");
}

static std::vector<std::string> listFiles(const std::string &dir,
                                          llvm::StringRef prefix) {
  std::vector<std::pair<int, std::string>> found;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec)) {
    llvm::StringRef name = llvm::sys::path::filename(it->path());
    if (!name.starts_with(prefix) || !name.ends_with(".pb"))
      continue;
    int index = 0;
    name.drop_front(prefix.size()).drop_back(3).getAsInteger(10, index);
    found.emplace_back(index, it->path());
  }
  llvm::sort(found);
  std::vector<std::string> out;
  for (auto &f : found)
    out.push_back(f.second);
  return out;
}

static int runTestDirRank(onnxd_model *model);

static int runTestDir(onnxd_model *model, const std::string &dir) {
  if (mpiRank != 0)
    return runTestDirRank(model);
  std::vector<std::string> sets;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec))
    if (llvm::sys::path::filename(it->path()).starts_with("test_data_set_"))
      sets.push_back(it->path());
  llvm::sort(sets);
  std::string name = llvm::sys::path::filename(dir).str();
  if (sets.empty()) {
    llvm::errs() << prefix() << dir << ": no test_data_set_* directory\n";
    return kUsage;
  }
  llvm::scope_exit done([] { shareFlag(false); });
  for (const std::string &set : sets) {
    llvm::StringRef setName = llvm::sys::path::filename(set);
    std::vector<HostValue> inputs, wanted;
    std::string error;
    auto kindOf = [&](bool input, size_t i) {
      onnxd_value_info info;
      onnxd_status s = input ? onnxd_model_input(model, i, &info)
                             : onnxd_model_output(model, i, &info);
      return s == ONNXD_OK ? info.kind : int32_t(ONNXD_KIND_TENSOR);
    };
    for (const std::string &file : listFiles(set, "input_")) {
      inputs.emplace_back();
      if (!readValueProto(file, kindOf(true, inputs.size() - 1), inputs.back(),
                          error)) {
        llvm::errs() << "onnx-run: " << error << "\n";
        return kUsage;
      }
    }
    for (const std::string &file : listFiles(set, "output_")) {
      wanted.emplace_back();
      if (!readValueProto(file, kindOf(false, wanted.size() - 1), wanted.back(),
                          error)) {
        llvm::errs() << "onnx-run: " << error << "\n";
        return kUsage;
      }
    }
    // Inputs whose names are not all the model's go in signature order.
    bool named = !inputs.empty();
    for (const HostValue &t : inputs) {
      bool known = false;
      for (size_t i = 0; i < onnxd_model_num_inputs(model); ++i) {
        onnxd_value_info info;
        onnxd_model_input(model, i, &info);
        known |= t.name == info.name;
      }
      named &= known;
    }
    if (!named)
      for (HostValue &t : inputs)
        t.name.clear();
    adoptInputTypes(model, inputs);
    shareFlag(true);
    if (!shareInputs(inputs))
      return kUsage;
    std::vector<HostValue> got;
    if (onnxd_status s = runOnce(model, inputs, &got)) {
      llvm::outs() << "FAIL " << name << " " << setName << ": "
                   << onnxd_last_error() << "\n";
      return s == ONNXD_INVALID_ARGUMENT || s == ONNXD_RUNTIME_ERROR ? kMismatch
                                                                     : kUsage;
    }
    if (got.size() != wanted.size()) {
      llvm::outs() << "FAIL " << name << " " << setName << ": " << got.size()
                   << " outputs, expected " << wanted.size() << "\n";
      return kMismatch;
    }
    for (size_t i = 0; i < got.size(); ++i) {
      std::string message = compareValues(got[i], wanted[i]);
      if (!message.empty()) {
        llvm::outs() << "FAIL " << name << " " << setName << " output '"
                     << got[i].name << "': " << message << "\n";
        return kMismatch;
      }
    }
  }
  llvm::outs() << "PASS " << name << " (" << sets.size() << " data set"
               << (sets.size() == 1 ? "" : "s") << ")\n";
  return kOk;
}

/// The other ranks' side of runTestDir: run each data set rank 0 shares.
static int runTestDirRank(onnxd_model *model) {
  while (shareFlag(false)) {
    std::vector<HostValue> inputs;
    if (!shareInputs(inputs))
      return kUsage;
    if (onnxd_status s = runOnce(model, inputs, nullptr))
      return report(s);
  }
  return kOk;
}

static int runBench(onnxd_model *model, const std::vector<HostValue> &inputs) {
  if (onnxd_status s = runOnce(model, inputs, nullptr)) // warm-up
    return report(s);
  std::vector<double> ms;
  for (unsigned i = 0; i < opts.benchRuns; ++i) {
    auto start = std::chrono::steady_clock::now();
    if (onnxd_status s = runOnce(model, inputs, nullptr))
      return report(s);
    auto end = std::chrono::steady_clock::now();
    ms.push_back(
        std::chrono::duration<double, std::milli>(end - start).count());
  }
  llvm::sort(ms);
  double median = ms.size() % 2
                      ? ms[ms.size() / 2]
                      : (ms[ms.size() / 2 - 1] + ms[ms.size() / 2]) / 2;
  char buf[128];
  std::snprintf(buf, sizeof(buf),
                "median latency: %.4f ms over %u runs (%d thread%s)\n", median,
                opts.benchRuns, opts.threads, opts.threads == 1 ? "" : "s");
  if (mpiSize > 1) {
    // Every rank's peak memory, and what this rank's collectives move.
    std::vector<long> all(mpiSize, 0);
    if (onnxd_mpi_allgather_long(peakResidentKB(), all.data()) != ONNXD_OK)
      return report(ONNXD_RUNTIME_ERROR);
    if (mpiRank != 0)
      return kOk;
    llvm::outs() << buf << "peak resident memory per rank:";
    for (long kb : all)
      llvm::outs() << " " << kb / 1024;
    llvm::outs() << " MB\ncommunication per run (rank 0): "
                 << onnxd_model_comm_bytes(model) << " bytes\n";
    return kOk;
  }
  llvm::outs() << buf;
  if (long kb = peakResidentKB(); kb > 0)
    llvm::outs() << "peak resident memory: " << kb / 1024 << " MB\n";
  return kOk;
}

static int runModel(onnxd_model *m, const std::string &model);

static int mainBody();

/// `path` with each %r replaced by the rank.
static std::string withRank(std::string path) {
  for (size_t at; (at = path.find("%r")) != std::string::npos;)
    path.replace(at, 2, std::to_string(mpiRank));
  return path;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  if (!parseArgs(argc, argv))
    return kUsage;
  if (opts.deviceConfig.empty())
    return mainBody();
  if (onnxd_status s = onnxd_mpi_init(&mpiRank, &mpiSize))
    return report(s);
  opts.modelPath = withRank(opts.modelPath);
  opts.outputFile = withRank(opts.outputFile);
  int rc = mainBody();
  llvm::outs().flush();
  // A rank that fails ends the job: the others would wait for it forever.
  if (rc != kOk && mpiSize > 1)
    onnxd_mpi_abort(rc);
  return rc;
}

static int mainBody() {
  const std::string &testDir = opts.testDir, &emitKind = opts.emitKind,
                    &outputFile = opts.outputFile, &outputDir = opts.outputDir;
  int threads = opts.threads;
  std::string model = opts.modelPath;
  if (!testDir.empty() && model.empty())
    model = testDir + "/model.onnx";
  if (model.empty()) {
    llvm::errs() << "onnx-run: no model given (see --help)\n";
    return kUsage;
  }
  if (opts.outputDirGiven && outputDir.empty()) {
    llvm::errs() << "onnx-run: --output-dir needs a directory, got ''\n";
    return kUsage;
  }
  if (threads < 1) {
    llvm::errs() << "onnx-run: --threads must be at least 1\n";
    return kUsage;
  }
  if (opts.profileGiven && opts.profileFile.empty()) {
    llvm::errs() << "onnx-run: --profile needs a file name, got ''\n";
    return kUsage;
  }
  onnxd_options options;
  onnxd_options_init(&options);
  options.opt_level = opts.optLevel;
  options.num_threads = threads;
  options.target_cpu = opts.targetCPU.c_str();
  options.target_features = opts.targetFeatures.c_str();
  options.codegen = opts.codegen ? 1 : 0;
  options.memory_plan = opts.memoryPlan ? 1 : 0;
  options.winograd = opts.winograd;
  options.blocked_layout = opts.blockedLayout ? 1 : 0;
  options.profile = opts.profileGiven ? 1 : 0;
  options.device_config =
      opts.deviceConfig.empty() ? nullptr : opts.deviceConfig.c_str();
  options.micro_batches = opts.microBatches;
  if (!opts.device.empty() && opts.device != "cpu" && opts.device != "cuda") {
    llvm::errs() << "onnx-run: --device takes cpu or cuda, got '" << opts.device
                 << "'\n";
    return kUsage;
  }
  options.device = opts.device.empty() ? nullptr : opts.device.c_str();
  options.gpu_chip = opts.gpuChip.empty() ? nullptr : opts.gpuChip.c_str();
  options.gpu_tf32 = opts.gpuTF32 ? 1 : 0;

  // Ahead of time: --emit KIND [-o FILE], or -o FILE.so.
  if (!emitKind.empty() || (!outputFile.empty() && testDir.empty())) {
    onnxd_emit_kind kind = ONNXD_EMIT_SHARED;
    if (emitKind == "mlir")
      kind = ONNXD_EMIT_MLIR;
    else if (emitKind == "llvm")
      kind = ONNXD_EMIT_LLVM;
    else if (emitKind == "obj")
      kind = ONNXD_EMIT_OBJECT;
    else if (emitKind == "ptx")
      kind = ONNXD_EMIT_PTX;
    else if (!emitKind.empty()) {
      llvm::errs() << "onnx-run: --emit takes mlir, llvm, obj or ptx\n";
      return kUsage;
    }
    std::string out = outputFile.empty() ? "-" : outputFile;
    if (onnxd_status s = onnxd_emit(model.c_str(), &options, kind, out.c_str()))
      return report(s);
    return kOk;
  }

  // A run on a GPU needs one: say so before compiling.
  if (opts.device == "cuda")
    if (onnxd_status s = onnxd_device_check("cuda"))
      return report(s);
  onnxd_model *m = nullptr;
  onnxd_status status = llvm::StringRef(model).ends_with(".so")
                            ? onnxd_load(model.c_str(), &m)
                            : onnxd_compile(model.c_str(), &options, &m);
  if (status != ONNXD_OK)
    return report(status);
  llvm::scope_exit release([&] { onnxd_model_free(m); });
  if (threads > 1)
    onnxd_model_set_num_threads(m, threads);
  int rc = runModel(m, model);
  if (opts.profileGiven && rc != kUsage) {
    size_t events = 0;
    if (onnxd_status s =
            onnxd_model_write_profile(m, opts.profileFile.c_str(), &events))
      return report(s);
    llvm::errs() << "onnx-run: profile: " << events << " events written to "
                 << opts.profileFile << "\n";
  }
  return rc;
}

/// Runs a compiled model as the options say (a test case, a benchmark, or
/// once with the given inputs); the process's exit status.
static int runModel(onnxd_model *m, const std::string &model) {
  const std::string &testDir = opts.testDir, &outputDir = opts.outputDir;
  if (!testDir.empty())
    return runTestDir(m, testDir);

  std::vector<HostValue> inputs;
  for (const std::string &arg :
       mpiRank == 0 ? opts.inputFiles : std::vector<std::string>()) {
    auto [name, file] = llvm::StringRef(arg).split('=');
    if (name.empty() || file.empty()) {
      llvm::errs() << "onnx-run: --input takes NAME=FILE, got '" << arg
                   << "'\n";
      return kUsage;
    }
    HostValue t;
    std::string error;
    int32_t kind = ONNXD_KIND_TENSOR;
    for (size_t i = 0; i < onnxd_model_num_inputs(m); ++i) {
      onnxd_value_info info;
      onnxd_model_input(m, i, &info);
      if (name == info.name)
        kind = info.kind;
    }
    bool ok = kind == ONNXD_KIND_TENSOR
                  ? readTensorFile(file.str(), t.tensor, error)
                  : readValueProto(file.str(), kind, t, error);
    if (!ok) {
      llvm::errs() << "onnx-run: input '" << name << "': " << error << "\n";
      return kUsage;
    }
    t.name = name.str();
    inputs.push_back(std::move(t));
  }
  if (mpiRank == 0 && inputs.size() < onnxd_model_num_inputs(m) &&
      inputs.empty()) {
    llvm::errs() << "onnx-run: " << model << " needs its inputs:" << expected(m)
                 << "\n";
    return kUsage;
  }

  adoptInputTypes(m, inputs);
  if (!shareInputs(inputs))
    return kUsage;
  if (opts.benchRuns)
    return runBench(m, inputs);

  std::vector<HostValue> outputs;
  if (onnxd_status s = runOnce(m, inputs, &outputs))
    return report(s);
  if (mpiRank != 0)
    return kOk; // rank 0 writes the outputs
  if (!outputDir.empty()) {
    llvm::sys::fs::create_directories(outputDir);
    for (const HostValue &v : outputs) {
      HostTensor t = v.tensor;
      t.name = v.name;
      std::string error;
      if (v.kind != ONNXD_KIND_TENSOR || t.dtype == ONNXD_STRING) {
        llvm::errs() << "onnx-run: output '" << v.name
                     << "': only numeric tensors can be written as .npy\n";
        return kUsage;
      }
      llvm::SmallString<128> path(outputDir);
      llvm::sys::path::append(path, t.name + ".npy");
      if (!writeNpy(path.str().str(), t, error)) {
        llvm::errs() << "onnx-run: " << error << "\n";
        return kUsage;
      }
    }
    return kOk;
  }
  for (const HostValue &v : outputs)
    printValue(llvm::outs(), v, v.name);
  return kOk;
}
