#!/usr/bin/python3
"""Issue 15: the Fashion-MNIST CNN of examples/cnn_fashion_mnist.cpp in PyTorch (Debian's
python3-torch), the peer of benchmarks/cnn/run.sh:

    conv 3x3 32 (SAME) + bias, ReLU, max pool 2x2/2
    conv 3x3 64 (SAME) + bias, batch normalization (momentum 0.9 in TensorFlow's sense,
        epsilon 1e-3), ReLU, max pool 2x2/2
    flatten, dropout (rate 0.25), dense 10, softmax cross-entropy, Adam (1e-3)

Glorot-uniform kernels and zero biases as tf.layers; batch 32, 1875 steps an epoch in the
order training_bench::permutation (benchmarks/training/common.hpp) reproduces; the data a
pre-loaded float tensor. PyTorch is NCHW: the channel order of the flattened features
differs from TensorFlow's NHWC, which changes neither the work nor what the model can learn.
Prints one line of JSON: epoch seconds (wall and CPU), the last loss, test accuracy.

    cnn_pytorch.py THREADS [EPOCHS] [STEPS]   (STEPS: steps an epoch, default 1875)
    env CNN_C1, CNN_C2: the filter counts (32, 64)
"""
import json
import os
import sys
import time

import torch
import torch.nn.functional as F
from torch import nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "training"))
from mlp_pytorch import load as load_flat, permutation  # noqa: E402  (the MLP's data and order)


def load(which):
    """Images as [n, 1, 28, 28] (NCHW) in [0, 1], labels as int64."""
    images, labels = load_flat(which)
    return images.reshape(-1, 1, 28, 28), labels


class Net(nn.Module):
    def __init__(self, c1, c2):
        super().__init__()
        self.conv1 = nn.Conv2d(1, c1, 3, padding=1)
        self.conv2 = nn.Conv2d(c1, c2, 3, padding=1)
        self.bn = nn.BatchNorm2d(c2, eps=1e-3, momentum=0.1)  # TensorFlow's momentum 0.9
        self.drop = nn.Dropout(0.25)
        self.dense = nn.Linear(7 * 7 * c2, 10)
        for m in (self.conv1, self.conv2, self.dense):
            nn.init.xavier_uniform_(m.weight)
            nn.init.zeros_(m.bias)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.bn(self.conv2(x))), 2)
        return self.dense(self.drop(torch.flatten(x, 1)))


def main():
    threads = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    epochs = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    torch.set_num_threads(threads)
    torch.manual_seed(42)
    c1, c2 = int(os.environ.get("CNN_C1", 32)), int(os.environ.get("CNN_C2", 64))
    train_x, train_y = load("train")
    test_x, test_y = load("t10k")
    batch = 32
    steps = int(sys.argv[3]) if len(sys.argv) > 3 else train_x.shape[0] // batch  # 1875
    order = torch.tensor(permutation(train_x.shape[0]), dtype=torch.int64)

    model = Net(c1, c2)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, eps=1e-8)
    seconds, cpu_seconds = [], []
    for _ in range(epochs):
        model.train()
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
    model.eval()
    with torch.no_grad():
        acc = (model(test_x).argmax(1) == test_y).float().mean().item()
    print(json.dumps({"impl": "pytorch", "threads": torch.get_num_threads(), "filters": [c1, c2],
                      "steps": steps, "epoch_seconds": seconds, "epoch_cpu_seconds": cpu_seconds,
                      "last_loss": round(loss.item(), 4), "test_accuracy": round(acc, 4)}))
    return 0 if acc > 0.5 else 1


if __name__ == "__main__":
    sys.exit(main())
