#!/usr/bin/python3
"""Issue 14's scaling model on paper (docs/distributed.md, "Beyond one machine"): the step
time of synchronous data-parallel training on p = 2 .. 1024 ranks, for the flagship MLP and
the bidirectional GRU of examples/bidirectional_gru, on networks of 10 and 100 Gb/s.

    step(p, B) = compute(B) + allreduce(p)
    compute(B) = B x (the measured single-rank step time / the measured batch)
    allreduce(p) = 2 (p - 1) / p x bytes / bandwidth + 2 (p - 1) x latency

B is the batch of one rank (weak scaling: the global batch is p x B). The allreduce is a
ring's (reduce-scatter, then all-gather: 2 (p - 1) messages of bytes / p each) over the
parameters, as float32. typeflow's sync_replicas runs the one fused allreduce after the
whole backward pass, so compute and communication add up; an implementation that overlaps
them (Horovod, PyTorch DDP) can hide the allreduce behind the backward pass at best, which
needs compute(B) >= allreduce(p): the script prints the smallest such B, the per-rank batch
from which communication stops hiding behind compute. Compute is linear in B here, a
simplification (a small batch uses the cores less well, so the real compute(B) is larger
and the crossover lower). Assumed latencies, per message: 25 us on 10 Gb/s Ethernet (TCP),
2 us on 100 Gb/s InfiniBand / RoCE; bandwidths as nominal.

    scaling_model.py [MLP_STEP_MS [GRU_STEP_MS]]

MLP_STEP_MS: typeflow's single-rank flagship step (batch 64), benchmarks/distributed/run.sh's
"1 rank x 1 thread" steady epoch / 938 steps; GRU_STEP_MS: the bidirectional GRU(10)'s step
(batch 32) of benchmarks/rnn (benchmarks/RESULTS.md, "Recurrent models"). The defaults are
the figures recorded in benchmarks/RESULTS.md.
"""
import math
import sys

RANKS = (2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)
NETWORKS = (("10 Gb/s", 10e9 / 8, 25e-6), ("100 Gb/s", 100e9 / 8, 2e-6))


def parameters(shapes):
    return sum(math.prod(s) for s in shapes.values())


# The variables of examples/flagship_model.hpp: dense 784 -> 128 -> 10.
MLP = {"hidden/kernel": (784, 128), "hidden/bias": (128,), "logits/kernel": (128, 10), "logits/bias": (10,)}
# The variables of examples/bidirectional_gru/model.hpp: a GRU(10) cell over 30 features in
# each direction (rnn/cell.hpp: gates/kernel [D + H, 2H], gates/bias [2H], candidate/kernel
# [D + H, H], candidate/bias [H]), then dense(5) over the 20 concatenated units.
GRU = {f"bidirectional_rnn/{d}/gru_cell/{v}": s for d in ("fw", "bw")
       for v, s in (("gates/kernel", (40, 20)), ("gates/bias", (20,)),
                    ("candidate/kernel", (40, 10)), ("candidate/bias", (10,)))}
GRU.update({"dense/kernel": (20, 5), "dense/bias": (5,)})


def allreduce(p, nbytes, bandwidth, latency):
    return 2 * (p - 1) / p * nbytes / bandwidth + 2 * (p - 1) * latency


def table(name, shapes, step_s, measured_batch, batch):
    nbytes = 4 * parameters(shapes)
    per_sample = step_s / measured_batch
    compute = per_sample * batch
    print(f"**{name}**: {parameters(shapes):,} parameters ({nbytes:,} bytes as float32); measured single-rank "
          f"step {1e3 * step_s:.3f} ms at batch {measured_batch}, so compute {1e6 * compute:.0f} us at a "
          f"rank's batch of {batch}.")
    print()
    head = " | ".join(f"{n}: allreduce, step, efficiency, batch to hide" for n, _, _ in NETWORKS)
    print(f"| ranks | {head} |")
    print("|---|" + "---|" * len(NETWORKS))
    for p in RANKS:
        cells = []
        for _, bandwidth, latency in NETWORKS:
            comm = allreduce(p, nbytes, bandwidth, latency)
            step = compute + comm
            hide = math.ceil(comm / per_sample)
            cells.append(f"{1e6 * comm:,.0f} us, {1e6 * step:,.0f} us, {100 * compute / step:.0f}%, {hide:,}")
        print(f"| {p} | " + " | ".join(cells) + " |")
    print()
    # The ring's latency term grows with p; for small messages MPI libraries switch to
    # recursive doubling / Rabenseifner's algorithm, 2 log2(p) messages.
    p = RANKS[-1]
    cells = []
    for network, bandwidth, latency in NETWORKS:
        comm = 2 * (p - 1) / p * nbytes / bandwidth + 2 * math.log2(p) * latency
        cells.append(f"{network} {1e6 * comm:,.0f} us (efficiency {100 * compute / (compute + comm):.0f}%)")
    print(f"With 2 log2(p) latencies instead of 2 (p - 1) (Rabenseifner's allreduce), {p} ranks: "
          + ", ".join(cells) + ".")
    print()


def main():
    mlp_step = float(sys.argv[1]) * 1e-3 if len(sys.argv) > 1 else 0.35e-3
    gru_step = float(sys.argv[2]) * 1e-3 if len(sys.argv) > 2 else 0.366e-3
    print("Per network: the allreduce's time, the step's (compute + allreduce, not overlapped, as "
          "typeflow's sync_replicas runs), the efficiency (compute / step: the fraction of p times one "
          "rank's throughput that p ranks reach), and the smallest per-rank batch whose compute covers the "
          "allreduce.")
    print()
    table("The flagship MLP", MLP, mlp_step, 64, 32)
    table("The bidirectional GRU(10)", GRU, gru_step, 32, 32)


if __name__ == "__main__":
    main()
