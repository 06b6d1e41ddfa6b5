#!/usr/bin/python3
"""Writes the reference files of tests/data/ (data.readers) with NumPy, zipfile, gzip and a
CRC32C written out here, independently of typeflow's code. Run from this directory with
Debian's python3 (python3-numpy 1.24): /usr/bin/python3 make_files.py"""
import gzip
import struct
import zipfile

import numpy as np

# --- .npy: every dtype read, both byte orders, Fortran order, the three versions ---------
np.save("f4.npy", np.array([[1.5, -2.0, 3.25], [4.0, 5.5, -6.75]], dtype="<f4"))
np.save("f8_be.npy", np.array([0.1, -1e300, 2.5], dtype=">f8"))
np.save("i4.npy", np.arange(-3, 3, dtype="<i4").reshape(2, 3))
np.save("i8_be.npy", np.array([2**40, -5, 7], dtype=">i8"))
np.save("b1.npy", np.array([True, False, True, True]))
np.save("u1.npy", np.array([0, 1, 254, 255], dtype="u1"))
np.save("scalar.npy", np.array(42.0, dtype="<f8"))
np.save("empty.npy", np.zeros((0, 3), dtype="<f4"))
np.save("fortran.npy", np.asfortranarray(np.arange(6, dtype="<f8").reshape(2, 3)))
with open("v2.npy", "wb") as f:
    np.lib.format.write_array(f, np.arange(4, dtype="<i8"), version=(2, 0))
with open("v3.npy", "wb") as f:
    np.lib.format.write_array(f, np.arange(4, dtype="<i4"), version=(3, 0))

# --- .npz: stored and deflated --------------------------------------------------------------
np.savez("stored.npz", x=np.arange(5, dtype="<f4"), y=np.array([[1, 2], [3, 4]], dtype="<i8"))
np.savez_compressed("deflated.npz", x=np.arange(100, dtype="<f8"), flags=np.array([True, False]))

# --- IDX: raw and gzip, several element types -----------------------------------------------
def idx(code, dims, fmt, values):
    return bytes([0, 0, code, len(dims)]) + b"".join(struct.pack(">I", d) for d in dims) + \
        b"".join(struct.pack(">" + fmt, v) for v in values)

with open("ubyte.idx", "wb") as f:
    f.write(idx(0x08, [2, 3], "B", [0, 1, 2, 253, 254, 255]))
with gzip.GzipFile("ubyte.idx.gz", "wb", mtime=0) as f:
    f.write(idx(0x08, [2, 3], "B", [0, 1, 2, 253, 254, 255]))
with open("short.idx", "wb") as f:
    f.write(idx(0x0B, [4], "h", [-32768, -1, 0, 32767]))
with open("int.idx", "wb") as f:
    f.write(idx(0x0C, [2], "i", [-2**31, 2**31 - 1]))
with gzip.GzipFile("float.idx.gz", "wb", mtime=0) as f:
    f.write(idx(0x0D, [1, 2, 2], "f", [0.5, -1.5, 2.0, 1e30]))
with open("double.idx", "wb") as f:
    f.write(idx(0x0E, [3], "d", [0.1, -0.2, 1e-300]))
with open("byte.idx", "wb") as f:
    f.write(idx(0x09, [3], "b", [-128, 0, 127]))

# --- TFRecord: records framed as TensorFlow's record writer frames them -----------------------
def crc32c(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF

def masked(crc):
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF

def record(data):
    header = struct.pack("<Q", len(data))
    return header + struct.pack("<I", masked(crc32c(header))) + data + struct.pack("<I", masked(crc32c(data)))

with open("records.tfrecord", "wb") as f:
    for r in [b"hello", b"", b"typeflow" * 40, bytes(range(256))]:
        f.write(record(r))

# GZIP TFRecord (compression_type="GZIP"): the same records, gzip-compressed.
with open("records.tfrecord", "rb") as f, gzip.GzipFile("records.tfrecord.gz", "wb", mtime=0) as g:
    g.write(f.read())

# An .npz whose central directory uses zip64 fields (sizes and offset 0xFFFFFFFF, a zip64
# extra field, the zip64 end records), as zipfile writes archives over 4 GiB; written out
# by hand, and checked by numpy.load.
import zlib

member = open("i4.npy", "rb").read()
crc = zlib.crc32(member)
name = b"a.npy"
local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 45, 0, 0, 0, 0, crc, 0xFFFFFFFF, 0xFFFFFFFF, len(name), 20) + name + \
    struct.pack("<HHQQ", 1, 16, len(member), len(member)) + member
central = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 45, 45, 0, 0, 0, 0, crc, 0xFFFFFFFF, 0xFFFFFFFF, len(name), 28,
                      0, 0, 0, 0, 0xFFFFFFFF) + name + struct.pack("<HHQQQ", 1, 24, len(member), len(member), 0)
record_at = len(local) + len(central)
zip64_record = struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, 1, 1, len(central), len(local))
locator = struct.pack("<IIQI", 0x07064B50, 0, record_at, 1)
end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0)
with open("zip64.npz", "wb") as f:
    f.write(local + central + zip64_record + locator + end)
assert (np.load("zip64.npz")["a"] == np.load("i4.npy")).all()

# gzip with two members (gunzip reads both): an IDX file cut in two.
whole = idx(0x08, [2, 3], "B", [0, 1, 2, 253, 254, 255])
with open("two_members.idx.gz", "wb") as f:
    f.write(gzip.compress(whole[:7], mtime=0) + gzip.compress(whole[7:], mtime=0))
