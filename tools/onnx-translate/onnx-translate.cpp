//===- onnx-translate.cpp - Translations to and from the onnx dialect -----===//

#include "OnnxDialect/InitAllDialects.h"
#include "OnnxDialect/InitAllTranslations.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

using namespace mlir;

int main(int argc, char **argv) {
  onnx::registerAllTranslations();
  return failed(
      mlirTranslateMain(argc, argv, "OnnxDialect translation driver"));
}
