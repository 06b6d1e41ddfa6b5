#!/usr/bin/python3
"""Reads benchmarks/seq2seq/run.sh's raw results (a directory) and prints the markdown of
benchmarks/RESULTS.md's "Sequence-to-sequence: one training step against PyTorch" section:
the machine, per bucket the milliseconds per step of both and their ratio, the verdict
against issue 12's target (typeflow at least 5x faster at 1 thread).

Every figure is a median (and min) over all repetitions of all processes (each process times
5 repetitions of many steps after a warm-up). The verdict uses CPU time of the process: the
machine is shared, so wall time includes the time other processes held the core; wall is
shown beside it."""
import json
import statistics
import sys
from pathlib import Path

MIN_SPEEDUP = 5.0  # PyTorch / typeflow, issue 12

out = Path(sys.argv[1])
machine = dict(line.split("=", 1) for line in (out / "machine.txt").read_text().splitlines() if "=" in line)
rows = [json.loads(line)["result"] for line in (out / "steps.jsonl").read_text().splitlines() if line.strip()]
steps = {}
for r in rows:
    g = steps.setdefault((r["model"], r["impl"]), {"cpu": [], "wall": [], "procs": 0, "loss": []})
    g["cpu"] += r["step_cpu_ms"]
    g["wall"] += r["step_wall_ms"]
    g["procs"] += 1
    g["loss"].append((r["first_loss"], r["last_loss"]))


def med(v):
    return statistics.median(v)


print(f"Measured {machine['date']} on {machine['nproc']} cores, {machine['cpu']}, {machine['gxx']}, "
      f"PyTorch {machine['torch']} (Debian), typeflow at {machine['commit']}; -O2; every measured process "
      f"on {machine.get('pinned', 'no CPU in particular (not pinned)')}; everything at 1 thread "
      f"(`torch.set_num_threads(1)`, `OMP_NUM_THREADS=1 OMP_WAIT_POLICY=PASSIVE`, `OPENBLAS_NUM_THREADS=1`). "
      f"Load average {machine['load_start']} at the start, {machine.get('load_end', '?')} at the end "
      f"(a shared machine: the verdict uses CPU time).")
print()
print("| bucket | softmax | typeflow CPU median (min) | PyTorch CPU median (min) | PyTorch / typeflow, CPU | "
      "typeflow wall median | PyTorch wall median | PyTorch / typeflow, wall | samples (processes) each | 5x target |")
print("|---|---|---|---|---|---|---|---|---|---|")
verdicts = []
for model in ("copy4", "copy8", "copy4-full", "copy8-full"):
    t, p = steps.get((model, "typeflow")), steps.get((model, "pytorch"))
    if not t or not p:
        continue
    length = model[4]
    kind = "full" if model.endswith("-full") else "sampled (8)"
    ratio = med(p["cpu"]) / med(t["cpu"])
    ok = ratio >= MIN_SPEEDUP
    verdicts.append((model, ratio, ok))
    print(f"| ({length}, {length}) | {kind} | {med(t['cpu']):.3f} ms ({min(t['cpu']):.3f}) | "
          f"{med(p['cpu']):.3f} ms ({min(p['cpu']):.3f}) | **{ratio:.1f}x** | {med(t['wall']):.3f} ms | "
          f"{med(p['wall']):.3f} ms | {med(p['wall']) / med(t['wall']):.1f}x | "
          f"{len(t['cpu'])} ({t['procs']}) / {len(p['cpu'])} ({p['procs']}) | {'**met**' if ok else '**missed**'} |")
print()
print("The loss of the first batch before and after each process's steps (a check that both train): "
      + "; ".join(f"{m} {i} {med([a for a, _ in g['loss']]):.3f} -> {med([b for _, b in g['loss']]):.3f}"
                  for (m, i), g in sorted(steps.items())) + ".")
print()
met = [m for m, _, ok in verdicts if ok]
missed = [m for m, _, ok in verdicts if not ok]
if not missed:
    print(f"Verdict: the 5x target is **met** in every measured case ({', '.join(met)}).")
else:
    print(f"Verdict: the 5x target is **missed** for {', '.join(missed)}"
          + (f" (met for {', '.join(met)})." if met else "."))
