//===- downstream-opt.cpp - A tool outside the project using the dialect --===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Parses an MLIR file with onnx ops, verifies it, and prints for each ONNX
// operator op its schema (domain, operator, since_version), then the module.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: downstream-opt FILE.mlir\n";
    return 2;
  }
  mlir::MLIRContext context;
  context.loadDialect<mlir::onnx::ONNXDialect, mlir::func::FuncDialect>();
  llvm::SourceMgr sourceMgr;
  std::string error;
  auto file = mlir::openInputFile(argv[1], &error);
  if (!file) {
    llvm::errs() << error << "\n";
    return 1;
  }
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
  if (!module || mlir::failed(mlir::verify(*module)))
    return 1;
  module->walk([](mlir::onnx::ONNXSchemaOpInterface op) {
    const mlir::onnx::OpSchema &schema = op.getSchema();
    llvm::outs() << "schema " << op->getName() << " = "
                 << (*schema.domain ? schema.domain : "ai.onnx") << "."
                 << schema.name << "-" << schema.sinceVersion << "\n";
  });
  module->print(llvm::outs());
  return 0;
}
