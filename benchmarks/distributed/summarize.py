#!/usr/bin/python3
"""Prints the markdown of benchmarks/RESULTS.md, "Data-parallel training", from the raw
results of benchmarks/distributed/run.sh: wall seconds per epoch of the flagship MLP
(global batch 64) for every mode, the first epoch and the steady ones (the median of
epochs 2..n of a process), their medians over the repetitions, the time per step in the
gradient allreduce, the wait for the other rank and the transfer (allreduce_timer.cpp), and the verdicts against issue 14's targets:
typeflow's 2-rank epoch faster than its 1-rank epoch, and at least 5x faster than PyTorch
DDP's 2-process epoch, each judged on the median over the repetitions of the ratio of the
two modes' steady epochs in that repetition.

    summarize.py OUT_DIR
"""
import json
import re
import statistics
import sys
from pathlib import Path

MODES = {
    "tf_1x1": "typeflow, 1 rank x 1 thread",
    "tf_1x2": "typeflow, 1 rank x 2 OpenBLAS threads",
    "tf_2x1": "typeflow, 2 ranks x 1 thread",
    "torch_1": "PyTorch, 1 process x 1 thread",
    "torch_ddp_2": "PyTorch DDP (gloo), 2 processes x 1 thread",
}
STEPS = 938  # a step per global batch of 64, the last of 32


def parse(path):
    """The epochs' seconds, the test accuracy, the load at the start and the allreduce
    lines of one process's log."""
    run = {"epochs": [], "accuracy": None, "allreduce": [], "load": None}
    for line in path.read_text().splitlines():
        if line.startswith("load "):
            run["load"] = float(line.split()[1])
        elif m := re.match(r"epoch (\d+): mean loss [\d.]+, ([\d.]+) s", line):
            run["epochs"].append(float(m.group(2)))
        elif m := re.search(r"test accuracy ([\d.]+)%", line):
            run["accuracy"] = float(m.group(1)) / 100
        elif line.startswith("allreduce "):
            run["allreduce"].append(json.loads(line[len("allreduce "):]))
        elif line.startswith("{"):
            j = json.loads(line)
            if "seconds" in j:
                run["epochs"].append(j["seconds"])
            if "test_accuracy" in j:
                run["accuracy"] = j["test_accuracy"]
    return run


def steady(run):
    later = run["epochs"][1:]
    return statistics.median(later) if later else None


def main(out):
    out = Path(out)
    machine = dict(line.split("=", 1) for line in (out / "machine.txt").read_text().splitlines() if "=" in line)
    runs = {}
    for path in sorted(out.glob("*.*.txt")):
        mode, rep = path.name[:-4].rsplit(".", 1)
        runs.setdefault(mode, {})[int(rep)] = parse(path)
    reps = sorted({r for by_rep in runs.values() for r in by_rep})
    loads = [run["load"] for by_rep in runs.values() for run in by_rep.values() if run["load"] is not None]

    print(f"Measured {machine['date']} on {machine['cpu']} ({machine['nproc']} cores, shared), "
          f"{machine['gxx']}, -O2, {machine['mpi']}, PyTorch {machine['torch']}, commit {machine['commit']}; "
          f"load average {machine['load_start']} at the start, {machine.get('load_end', '?')} at the end "
          f"(1-minute load before each process: median {statistics.median(loads):.2f}, max {max(loads):.2f}). "
          f"`mpirun {machine.get('mpirun_flags', '')}`. {len(reps)} repetitions of {machine['epochs']} epochs a process, the modes' order rotated. "
          f"Wall seconds per epoch of 60,000 images ({STEPS} steps); steady = the median of epochs 2..n; "
          f"the medians are over the repetitions:")
    print()
    print("| mode | first epoch | steady epoch | steady min | images/s (steady) | test accuracy "
          "| gradient allreduce per step: wait for the other rank + transfer (their share of the step) |")
    print("|---|---|---|---|---|---|---|")
    medians = {}
    for mode, label in MODES.items():
        by_rep = runs.get(mode, {})
        if not by_rep:
            continue
        firsts = [run["epochs"][0] for run in by_rep.values() if run["epochs"]]
        steadies = [s for run in by_rep.values() if (s := steady(run)) is not None]
        accs = [run["accuracy"] for run in by_rep.values() if run["accuracy"] is not None]
        med = statistics.median(steadies) if steadies else None
        medians[mode] = med
        allreduce = "-"
        per_rank = [a for run in by_rep.values() for a in run["allreduce"] if a["calls"]]
        if per_rank and mode.startswith("tf_2"):
            per_step = statistics.median(a["seconds"] / a["calls"] for a in per_rank)
            wait = statistics.median(a["wait_seconds"] / a["calls"] for a in per_rank)
            step = statistics.median(sum(run["epochs"]) / (len(run["epochs"]) * STEPS) for run in by_rep.values())
            allreduce = (f"{1e6 * wait:.0f} + {1e6 * per_step:.0f} us "
                         f"({100 * wait / step:.0f}% + {100 * per_step / step:.0f}%)")
        print(f"| {label} | {statistics.median(firsts):.3f} | "
              f"{'-' if med is None else f'{med:.3f}'} | {'-' if not steadies else f'{min(steadies):.3f}'} | "
              f"{'-' if med is None else f'{60000 / med:,.0f}'} | "
              f"{'-' if not accs else f'{100 * statistics.median(accs):.2f}%'} | {allreduce} |")
    print()

    def paired(numerator, denominator):
        ratios = []
        for r in reps:
            a, b = runs.get(numerator, {}).get(r), runs.get(denominator, {}).get(r)
            if a and b and steady(a) and steady(b):
                ratios.append(steady(a) / steady(b))
        return ratios

    speedup = paired("tf_1x1", "tf_2x1")
    versus_ddp = paired("torch_ddp_2", "tf_2x1")
    versus_threads = paired("tf_1x2", "tf_2x1")
    if speedup:
        med = statistics.median(speedup)
        print(f"- typeflow 2 ranks against 1 rank x 1 thread: **{med:.2f}x** as fast (median of the repetitions' "
              f"ratios; each: {', '.join(f'{x:.2f}' for x in speedup)}); target > 1: "
              f"{'**met**' if med > 1 else '**missed**'}.")
    if versus_threads:
        print(f"- typeflow 2 ranks against 1 rank x 2 OpenBLAS threads: {statistics.median(versus_threads):.2f}x "
              f"as fast.")
    if versus_ddp:
        med = statistics.median(versus_ddp)
        print(f"- typeflow 2 ranks against PyTorch DDP 2 processes: **{med:.1f}x** as fast (each: "
              f"{', '.join(f'{x:.1f}' for x in versus_ddp)}); target >= 5: {'**met**' if med >= 5 else '**missed**'}.")
    modes_log = out / "allreduce_modes.log"
    if modes_log.exists():
        rows = [json.loads(line[len("allreduce_modes "):]) for line in modes_log.read_text().splitlines()
                if line.startswith("allreduce_modes ")]
        print("- The gradient buffer's sum alone (`bench_allreduce_modes`, 2 ranks, 3,000 times each after a "
              "barrier; median [10th-90th percentile] of each run): " + "; ".join(
                  f"{name} " + ", ".join(f"{r['median_us']:.0f} [{r['p10_us']:.0f}-{r['p90_us']:.0f}] us"
                                         for r in rows if r["mode"] == name)
                  for name in ("iallreduce", "ibarrier+allreduce", "allreduce")) + ".")
    if medians.get("torch_1") and medians.get("torch_ddp_2"):
        print(f"- PyTorch's own scaling: DDP's 2-process epoch {medians['torch_ddp_2']:.3f} s against its single "
              f"process's {medians['torch_1']:.3f} s.")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
