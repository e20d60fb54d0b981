//===- Recurrent.cpp - RNN, GRU, LSTM to an scf.for over time -------------===//

#include "OnnxDialect/Conversion/ONNXToLinalg/ONNXToLinalg.h"

using namespace mlir;
using namespace mlir::onnx;

void mlir::onnx::populateRecurrentToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {}
