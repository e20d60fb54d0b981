"""Writes the models and data files of external-data.test.
usage: make_external_models.py MODEL_DIR OUTSIDE_DIR"""
import hashlib
import os
import struct
import sys

model_dir, outside = sys.argv[1], sys.argv[2]
# 32 floats 0..31, then 2 floats 3, 4 at offset 128.
data = struct.pack("<32f", *range(32)) + struct.pack("<2f", 3, 4)
with open(os.path.join(model_dir, "weights.bin"), "wb") as f:
    f.write(data)
with open(os.path.join(outside, "secret.bin"), "wb") as f:
    f.write(data)
os.symlink(os.path.join(outside, "secret.bin"), os.path.join(model_dir, "link.bin"))
sha1 = hashlib.sha1(data).hexdigest()


def model(name, w_entries, extra=""):
    entries = "".join('external_data { key: "%s" value: "%s" } ' % kv for kv in w_entries)
    text = """ir_version: 8
opset_import { version: 17 }
graph {
  name: "g"
  initializer { name: "w" data_type: 1 dims: 32 data_location: EXTERNAL %s }
  %s
  node { op_type: "Identity" input: "w" output: "y" }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 32 } } } } }
}
""" % (entries, extra)
    with open(os.path.join(model_dir, name + ".textproto"), "w") as f:
        f.write(text)


v = ('initializer { name: "v" data_type: 1 dims: 2 data_location: EXTERNAL '
     'external_data { key: "location" value: "weights.bin" } '
     'external_data { key: "offset" value: "128" } '
     'external_data { key: "length" value: "8" } }')
model("ok", [("location", "weights.bin"), ("offset", "0"), ("length", "128"),
             ("checksum", sha1)], v)
model("absolute", [("location", os.path.abspath(os.path.join(model_dir, "weights.bin")))])
model("dotdot", [("location", "../outside/secret.bin")])
model("symlink", [("location", "link.bin")])
model("missing", [("location", "nothere.bin")])
model("beyond", [("location", "weights.bin"), ("offset", "64")])
model("length", [("location", "weights.bin"), ("length", "100")])
model("checksum", [("location", "weights.bin"), ("checksum", "0" * 40)])
