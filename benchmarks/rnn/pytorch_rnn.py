#!/usr/bin/python3
"""The PyTorch peers of bigru_typeflow.cpp and gru128_typeflow.cpp (Debian's python3-torch),
one training step = zero_grad, forward, backward, Adam step:

  bigru   nn.GRU(30, 10, bidirectional=True, batch_first=True) over x [32, 10, 30], the mean
          over time, nn.Linear(20, 5), cross-entropy, torch.optim.Adam(lr=1e-2);
  gru128  nn.GRU(64, 128, batch_first=True) over x [64, 50, 64], h_n[-1] into
          nn.Linear(128, 10), cross-entropy, torch.optim.Adam(lr=1e-3).

Prints one line of JSON as the C++ programs do (CPU and wall milliseconds per step, per
repetition). Run at 1 thread as run.sh does:

    OMP_WAIT_POLICY=PASSIVE OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 /usr/bin/python3 \
        pytorch_rnn.py MODEL [REPS [STEPS [WARMUP]]]
"""
import json
import sys
import time

import torch
import torch.nn.functional as F
from torch import nn


class BiGRU(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(30, 10, bidirectional=True, batch_first=True)
        self.dense = nn.Linear(20, 5)

    def forward(self, x):
        out, _ = self.gru(x)             # [32, 10, 20], fw and bw concatenated
        return self.dense(out.mean(1))


class GRU128(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(64, 128, batch_first=True)
        self.dense = nn.Linear(128, 10)

    def forward(self, x):
        _, h_n = self.gru(x)             # h_n [1, 64, 128]
        return self.dense(h_n[-1])


def main():
    which = sys.argv[1]
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    torch.set_num_threads(1)
    torch.manual_seed(42)
    if which == "bigru":
        batch, time_steps, depth, classes = 32, 10, 30, 5
        model, lr, steps, warmup = BiGRU(), 1e-2, 100, 10
    elif which == "gru128":
        batch, time_steps, depth, classes = 64, 50, 64, 10
        model, lr, steps, warmup = GRU128(), 1e-3, 10, 3
    else:
        sys.exit(f"unknown model {which}")
    steps = int(sys.argv[3]) if len(sys.argv) > 3 else steps
    warmup = int(sys.argv[4]) if len(sys.argv) > 4 else warmup
    x = torch.randn(batch, time_steps, depth)
    y = torch.arange(batch) % classes
    for c in range(classes):  # the class shifts a few features, as in the C++ programs
        x[y == c, :, c::classes] += 0.8
    opt = torch.optim.Adam(model.parameters(), lr=lr)

    def step():
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        return loss

    with torch.no_grad():
        first = F.cross_entropy(model(x), y).item()
    for _ in range(warmup):
        step()
    cpu, wall = [], []
    for _ in range(reps):
        c0, w0 = time.process_time(), time.perf_counter()
        for _ in range(steps):
            step()
        cpu.append(round(1e3 * (time.process_time() - c0) / steps, 6))
        wall.append(round(1e3 * (time.perf_counter() - w0) / steps, 6))
    with torch.no_grad():
        last = F.cross_entropy(model(x), y).item()
    print(json.dumps({"impl": "pytorch", "model": which, "steps": steps, "threads": torch.get_num_threads(),
                      "step_cpu_ms": cpu, "step_wall_ms": wall, "first_loss": round(first, 5),
                      "last_loss": round(last, 5)}))


if __name__ == "__main__":
    main()
