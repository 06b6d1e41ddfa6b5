#!/usr/bin/python3
"""Writes tests/fuzz/corpus_readers/: the seed inputs of readers_fuzz.cpp, valid and damaged
files of each reader, each prefixed with the byte that selects the reader (0 IDX, 1 .npy,
2 .npz, 3 TFRecord, 4 CSV). Made from the reference files of tests/data/files/
(make_files.py). Run from the repository's root: /usr/bin/python3 tests/fuzz/make_readers_corpus.py"""
import os

src = "tests/data/files"
out = "tests/fuzz/corpus_readers"
os.makedirs(out, exist_ok=True)
for f in os.listdir(out):
    os.remove(os.path.join(out, f))


def write(name, selector, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(bytes([selector]) + data)


def variants(name, selector, data):
    write(name, selector, data)
    write(name + ".truncated", selector, data[: len(data) * 2 // 3])
    flipped = bytearray(data)
    flipped[len(data) // 2] ^= 0x41
    write(name + ".flipped", selector, bytes(flipped))
    header = bytearray(data)
    header[min(9, len(data) - 1)] ^= 0xFF
    write(name + ".header", selector, bytes(header))


def read(name):
    with open(os.path.join(src, name), "rb") as f:
        return f.read()


for name in ["ubyte.idx", "ubyte.idx.gz", "float.idx.gz", "short.idx", "double.idx", "two_members.idx.gz"]:
    variants(name, 0, read(name))
for name in ["f4.npy", "f8_be.npy", "fortran.npy", "v2.npy", "b1.npy", "scalar.npy"]:
    variants(name, 1, read(name))
for name in ["stored.npz", "deflated.npz", "zip64.npz"]:
    variants(name, 2, read(name))
variants("records.tfrecord", 3, read("records.tfrecord"))
variants("records.tfrecord.gz", 3, read("records.tfrecord.gz"))
variants("csv_plain", 4, b"1,2.5,a\n2,3.5,b\n,4.5,\n")
variants("csv_quoted", 4, b'id,x,name\n1,"2",\"a,\"\"b\"\"\"\nNA,3e5,"two\nlines"\r\n')
variants("csv_bad", 4, b"1,2,3\n4,x,5,6\n99999999999999999999,1,c\n")

# Inputs the fuzzer found, kept as regression seeds.
# An IDX shape with a zero dimension and huge others: no element, but strides that overflow.
write("found_idx_zero_dim_huge", 0, bytes.fromhex("00000b06054b50000000000000001d00ffff00007f000004c100ffff"))
