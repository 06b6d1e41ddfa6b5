#!/usr/bin/python3
"""Issue 14's peer: the flagship's 784-128-10 MLP (nn.Linear, ReLU, F.cross_entropy,
torch.optim.SGD(0.1)) trained on Fashion-MNIST with PyTorch's DistributedDataParallel
(gloo backend, WORLD processes started by torch.multiprocessing on this machine, 1 thread
each), sharded as examples/flagship_mpi.cpp shards: every process draws the same
permutation of the 60,000 images from the seed and the epoch, cuts it into global batches
of 64 (the last one of 32), and takes rows [m r / p, m (r + 1) / p) of a batch of m rows,
its loss scaled by its rows x p / m so that DDP's average is the global batch's mean.
WORLD = 1 is PyTorch's single process: the same loop without DDP or a process group.

Run with OMP_WAIT_POLICY=PASSIVE OMP_NUM_THREADS=1 (Debian's python3-torch). Process 0
prints one line of JSON an epoch ({"impl", "ranks", "epoch", "seconds", "loss"}, the
seconds from a barrier at the epoch's start to the last step's end), then one with the
test accuracy.

    ddp_pytorch.py WORLD [EPOCHS]
"""
import json
import os
import socket
import sys
import time

import numpy as np
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn.functional as F
from torch import nn

# The Fashion-MNIST loader of the single-process peer (benchmarks/training/mlp_pytorch.py).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "training"))
from mlp_pytorch import load  # noqa: E402

BATCH = 64


def train(rank, world, epochs, port):
    torch.set_num_threads(1)
    distributed = world > 1
    if distributed:
        os.environ["MASTER_ADDR"] = "127.0.0.1"
        os.environ["MASTER_PORT"] = str(port)
        dist.init_process_group("gloo", rank=rank, world_size=world)
    torch.manual_seed(42)  # the same initial model on every process (DDP also broadcasts rank 0's)
    train_x, train_y = load("train")
    n = train_x.shape[0]
    steps = (n + BATCH - 1) // BATCH  # 938, the last of 32
    model = nn.Sequential(nn.Linear(784, 128), nn.ReLU(), nn.Linear(128, 10))
    net = nn.parallel.DistributedDataParallel(model) if distributed else model
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    impl = "pytorch_ddp" if distributed else "pytorch"
    for epoch in range(epochs):
        order = torch.from_numpy(np.random.RandomState(7 + epoch).permutation(n))
        if distributed:
            dist.barrier()
        t0 = time.perf_counter()
        loss_sum = 0.0
        for s in range(steps):
            m = min(BATCH, n - s * BATCH)
            first, last = m * rank // world, m * (rank + 1) // world
            idx = order[s * BATCH + first:s * BATCH + last]
            loss = F.cross_entropy(net(train_x[idx]), train_y[idx]) * ((last - first) * world / m)
            opt.zero_grad()
            loss.backward()
            opt.step()
            loss_sum += loss.item()
        seconds = time.perf_counter() - t0
        if rank == 0:
            print(json.dumps({"impl": impl, "ranks": world, "epoch": epoch + 1, "seconds": round(seconds, 4),
                              "loss": round(loss_sum / steps, 4)}), flush=True)
    if rank == 0:
        test_x, test_y = load("t10k")
        with torch.no_grad():
            acc = (model(test_x).argmax(1) == test_y).float().mean().item()
        print(json.dumps({"impl": impl, "ranks": world, "test_accuracy": round(acc, 4)}), flush=True)
    if distributed:
        dist.destroy_process_group()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    world = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    epochs = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    if world == 1:
        train(0, 1, epochs, 0)
    else:
        mp.spawn(train, args=(world, epochs, free_port()), nprocs=world, join=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
