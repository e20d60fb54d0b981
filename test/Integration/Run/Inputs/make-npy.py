"""Writes .npy files for the onnx-run tests: make-npy.py OUT.npy DTYPE SHAPE VALUES...

SHAPE is comma-separated ("2,3", "" for a scalar); VALUES fill it in order
(repeated if fewer)."""
import sys

import numpy as np

out, dtype, shape = sys.argv[1], sys.argv[2], sys.argv[3]
dims = [int(d) for d in shape.split(",") if d]
count = int(np.prod(dims)) if dims else 1
values = [float(v) if dtype.startswith("float") else int(v) for v in sys.argv[4:]] or [0]
data = np.resize(np.array(values, dtype=dtype), count).reshape(dims)
np.save(out, data)
