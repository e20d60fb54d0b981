import os
import sys

import numpy as np

import onnx_dialect

models = sys.argv[1]
print("from", onnx_dialect.__file__)
sess = onnx_dialect.InferenceSession(os.path.join(models, "tiny-cnn.onnx"))
x = sess.get_inputs()[0]
print(x.name, x.type, x.shape)
y, = sess.run(None, {x.name: np.load(os.path.join(models, "tiny-cnn-input.npy"))})
expected = np.load(os.path.join(models, "tiny-cnn-expected.npy"))
print(sess.get_outputs()[0].name, y.shape, "max-diff",
      0 if np.allclose(y, expected, rtol=1e-5, atol=1e-6) else float(abs(y - expected).max()))
