"""Writes a TensorProto file for the onnx-run tests, by hand (no onnx module):

  make-tensor-pb.py OUT.pb NAME DTYPE SHAPE (raw|int32) BYTES...

DTYPE is the TensorProto.DataType code, SHAPE comma-separated ("" for a
scalar), BYTES the stored bytes in hex: raw_data as is, or one int32_data
entry per byte."""
import sys


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field(number, wire, payload):
    return varint(number << 3 | wire) + payload


out, name, dtype, shape, kind = sys.argv[1:6]
data = bytes(int(b, 16) for b in sys.argv[6:])
msg = b""
for d in [int(d) for d in shape.split(",") if d]:
    msg += field(1, 0, varint(d))
msg += field(2, 0, varint(int(dtype)))
msg += field(8, 2, varint(len(name.encode())) + name.encode())
if kind == "raw":
    msg += field(9, 2, varint(len(data)) + data)
else:
    packed = b"".join(varint(b) for b in data)
    msg += field(5, 2, varint(len(packed)) + packed)
with open(out, "wb") as f:
    f.write(msg)
