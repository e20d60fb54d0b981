//===- SanitizerOptions.cpp - AddressSanitizer defaults of the fuzzers ----===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Linked into every fuzz target; ASAN_OPTIONS still overrides these.
// - allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons the unused part
//   of its slabs when the code that inlines it is instrumented, and the
//   uninstrumented libLLVM/libMLIR allocate from the same slabs without
//   unpoisoning: MLIR's uniqued types and attributes would read as
//   use-after-poison in our code (false reports). Heap errors are still
//   caught.
// - detect_leaks=0: LLVM's and protobuf's globals live until exit.
//
//===----------------------------------------------------------------------===//

extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0:detect_leaks=0";
}
