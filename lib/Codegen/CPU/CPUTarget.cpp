//===- CPUTarget.cpp - The CPU's vector width and registers ---------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Resolves a CPU name and feature string through LLVM's subtarget tables, so
// that `--target-cpu znver4` on a machine without AVX-512 still generates
// AVX-512 code, and `-avx512f` on one with it does not.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Codegen/CPU/CPUTarget.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"
#include "llvm/TargetParser/Triple.h"

#include <memory>
#include <mutex>

using namespace mlir::onnx;

CPUTarget CPUTarget::get(llvm::StringRef cpu, llvm::StringRef extraFeatures) {
  CPUTarget target;
  llvm::SubtargetFeatures features;
  if (cpu.empty() || cpu == "host") {
    target.cpu = llvm::sys::getHostCPUName().str();
    for (const auto &feature : llvm::sys::getHostCPUFeatures())
      features.AddFeature(feature.getKey(), feature.getValue());
  } else {
    target.cpu = cpu.str();
  }
  llvm::SmallVector<llvm::StringRef> extra;
  extraFeatures.split(extra, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (llvm::StringRef feature : extra)
    features.AddFeature(feature.trim());
  target.features = features.getString();

  // LLVM's target registry is a list that concurrent registration corrupts
  // (the passes run on functions in parallel).
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
  llvm::Triple triple(llvm::sys::getProcessTriple());
  std::string error;
  const llvm::Target *llvmTarget =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!llvmTarget)
    return target;
  // A subtarget of an unknown CPU would warn on stderr: ask a generic one.
  std::unique_ptr<llvm::MCSubtargetInfo> generic(
      llvmTarget->createMCSubtargetInfo(triple, "", ""));
  if (!generic || !generic->isCPUStringValid(target.cpu)) {
    target.valid = false;
    return target;
  }
  std::unique_ptr<llvm::MCSubtargetInfo> info(
      llvmTarget->createMCSubtargetInfo(triple, target.cpu, target.features));
  if (!info)
    return target;
  if (triple.isX86()) {
    if (info->checkFeatures("+avx512f")) {
      target.vectorBits = 512;
      target.vectorRegisters = 32;
      target.hasVNNI = info->checkFeatures("+avx512vnni");
    } else if (info->checkFeatures("+avx")) {
      target.vectorBits = 256;
    }
    target.hasFMA = info->checkFeatures("+fma");
  } else if (triple.isAArch64()) {
    target.vectorRegisters = 32;
    target.hasFMA = true;
  }
  return target;
}
