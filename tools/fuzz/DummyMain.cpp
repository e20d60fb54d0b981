//===- DummyMain.cpp - Run a fuzz target over files without libFuzzer -----===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The main of the fuzz targets in builds without libFuzzer (every build but
// the one utils/fuzz.sh makes): `TARGET FILE...` runs the target once over
// each file, as libFuzzer runs a reproducer. The lit suite runs every input
// a fuzzer ever crashed on this way (test/Fuzz).
//
//===----------------------------------------------------------------------===//

#include "llvm/FuzzMutate/FuzzerCLI.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int *argc,
                                                          char ***argv);

int main(int argc, char *argv[]) {
  return llvm::runFuzzerOnInputs(
      argc, argv, LLVMFuzzerTestOneInput,
      LLVMFuzzerInitialize ? LLVMFuzzerInitialize
                           : [](int *, char ***) { return 0; });
}
