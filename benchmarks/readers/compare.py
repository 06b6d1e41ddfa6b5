#!/usr/bin/python3
"""Times typeflow's IDX and CSV readers against numpy and pandas on the same files, in one
run: Fashion-MNIST's training images (gzip IDX, as float32 unscaled) and a generated CSV of
about 100 MB (four float columns and an int64 label, a header). Usage, from the repository's
root after building bench_readers:
    /usr/bin/python3 benchmarks/readers/compare.py build/benchmarks/readers/bench_readers [reps]"""
import gzip
import os
import subprocess
import sys
import time

import numpy as np
import pandas as pd

binary = sys.argv[1]
reps = int(sys.argv[2]) if len(sys.argv) > 2 else 3
fm = os.environ.get("FASHION_MNIST_DIR", "/usr/share/datasets/fashion-mnist")
csv = os.path.join(os.path.dirname(binary), "readers_bench.csv")

if not os.path.exists(csv) or os.path.getsize(csv) < 95_000_000:
    rng = np.random.default_rng(0)
    rows = 2_000_000
    df = pd.DataFrame({"a": rng.standard_normal(rows, dtype=np.float32), "b": rng.standard_normal(rows, dtype=np.float32),
                       "c": rng.random(rows, dtype=np.float32) * 1000, "d": rng.standard_normal(rows, dtype=np.float32),
                       "label": rng.integers(0, 1_000_000, rows)})
    df.to_csv(csv, index=False, float_format="%.7g")


def best_of(f):
    best = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t0)
    return best


def numpy_idx():
    with gzip.open(os.path.join(fm, "train-images-idx3-ubyte.gz"), "rb") as f:
        b = f.read()
    return np.frombuffer(b, dtype=np.uint8, offset=16).reshape(-1, 28, 28).astype(np.float32)


def pandas_csv():
    return pd.read_csv(csv, dtype={"a": np.float32, "b": np.float32, "c": np.float32, "d": np.float32, "label": np.int64})


out = subprocess.run([binary, fm, csv, str(reps)], check=True, capture_output=True, text=True).stdout.split("\n")
ours = {line.split()[0]: (float(line.split()[1]), int(line.split()[2])) for line in out if line}
peers = {"idx_float": ("numpy (gzip + frombuffer + astype)", best_of(numpy_idx)),
         "csv": ("pandas.read_csv (C engine)", best_of(pandas_csv))}
print(f"best of {reps}; {os.path.getsize(csv) / 1e6:.1f} MB CSV")
print("| file | typeflow | peer | peer time | typeflow / peer |")
print("|---|---|---|---|---|")
for key, (name, t) in peers.items():
    ours_t, size = ours[key]
    print(f"| {key} ({size / 1e6:.1f} MB on disk) | {ours_t:.3f} s | {name} | {t:.3f} s | {ours_t / t:.2f} |")
