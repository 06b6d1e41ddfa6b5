#!/usr/bin/python3
"""Issue 3, part 2: the 784-128-10 MLP of mlp_typeflow.cpp in PyTorch (Debian's
python3-torch): plain nn.Linear + F.cross_entropy + torch.optim.SGD(0.1), batch 64, 937
steps, the data a pre-loaded float tensor, the epoch order training_bench::permutation
(common.hpp) reproduced bit for bit. Prints one line of JSON: epoch seconds, test accuracy.

    mlp_pytorch.py THREADS [EPOCHS]      (torch.set_num_threads(THREADS))
"""
import gzip
import json
import os
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

MASK = (1 << 64) - 1


def permutation(n, seed=7):
    """Fisher-Yates driven by splitmix64, as training_bench::permutation."""
    p = list(range(n))
    state = seed
    for i in range(n - 1, 0, -1):
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        z ^= z >> 31
        j = z % (i + 1)
        p[i], p[j] = p[j], p[i]
    return p


def load(which, directory=os.environ.get("FASHION_MNIST_DIR", "/usr/share/datasets/fashion-mnist")):
    with gzip.open(f"{directory}/{which}-images-idx3-ubyte.gz") as f:
        images = np.frombuffer(f.read(), np.uint8, offset=16).reshape(-1, 784)
    with gzip.open(f"{directory}/{which}-labels-idx1-ubyte.gz") as f:
        labels = np.frombuffer(f.read(), np.uint8, offset=8)
    return torch.from_numpy(images.astype(np.float32) / 255.0), torch.from_numpy(labels.astype(np.int64))


def main():
    threads = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    epochs = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    torch.set_num_threads(threads)
    torch.manual_seed(42)
    train_x, train_y = load("train")
    test_x, test_y = load("t10k")
    batch = 64
    steps = train_x.shape[0] // batch  # 937
    order = torch.tensor(permutation(train_x.shape[0]), dtype=torch.int64)

    model = nn.Sequential(nn.Linear(784, 128), nn.ReLU(), nn.Linear(128, 10))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    seconds, cpu_seconds = [], []
    for _ in range(epochs):
        c0 = time.process_time()
        t0 = time.perf_counter()
        for s in range(steps):
            idx = order[s * batch:(s + 1) * batch]
            xb, yb = train_x[idx], train_y[idx]
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        seconds.append(round(time.perf_counter() - t0, 4))
        cpu_seconds.append(round(time.process_time() - c0, 4))
    with torch.no_grad():
        acc = (model(test_x).argmax(1) == test_y).float().mean().item()
    print(json.dumps({"impl": "pytorch", "threads": torch.get_num_threads(), "epoch_seconds": seconds,
                      "epoch_cpu_seconds": cpu_seconds,
                      "last_loss": round(loss.item(), 4), "test_accuracy": round(acc, 4)}))
    return 0 if acc > 0.5 else 1


if __name__ == "__main__":
    sys.exit(main())
