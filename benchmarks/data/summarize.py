#!/usr/bin/python3
"""Prints the markdown of benchmarks/RESULTS.md, "Input pipelines", from the raw results of
benchmarks/data/run.sh: wall seconds per epoch of the flagship MLP fed hand-gathered batches
and through the dataset pipeline (with and without prefetch), every repetition's ratio
pipeline / gathered measured back to back, for the first epoch and the steady ones (the
median of epochs 2..n), against the issue's 1.05x target; then the readers' table.

    summarize.py OUT_DIR
"""
import json
import statistics
import sys
from pathlib import Path


def main(out):
    out = Path(out)
    machine = dict(line.split("=", 1) for line in (out / "machine.txt").read_text().splitlines() if "=" in line)
    runs = [json.loads(line) for line in (out / "epochs.jsonl").read_text().splitlines() if line.strip()]
    by_rep = {}
    for r in runs:
        res = r["result"]
        by_rep.setdefault(r["rep"], {}).setdefault(res["mode"], {})[res["epoch"]] = res["seconds"]

    def first(rep, mode):
        epochs = by_rep[rep].get(mode, {})
        return epochs[min(epochs)] if epochs else None

    def steady(rep, mode):
        epochs = by_rep[rep].get(mode, {})
        later = [s for e, s in epochs.items() if e != min(epochs)]
        return statistics.median(later) if later else None

    print(f"Measured {machine['date']} on {machine['cpu']} ({machine['nproc']} cores, shared), "
          f"{machine['gxx']}, -O2, commit {machine['commit']}; load average {machine['load_start']} at "
          f"the start, {machine.get('load_end', '?')} at the end. OPENBLAS_NUM_THREADS=1; "
          f"{machine['epochs']} epochs a process, the modes alternated. Wall seconds per epoch:")
    print()
    modes = ("gathered", "pipeline", "pipeline_no_prefetch")
    print("| repetition | " + " | ".join(f"{m} first / steady" for m in modes) +
          " | pipeline / gathered, steady (target <= 1.05) |")
    print("|---" * (len(modes) + 2) + "|")
    ratios = []
    for rep in sorted(by_rep):
        cells = []
        for m in modes:
            f, s = first(rep, m), steady(rep, m)
            cells.append("-" if f is None else f"{f:.3f} / {s:.3f}" if s is not None else f"{f:.3f} / -")
        g, p = steady(rep, "gathered"), steady(rep, "pipeline")
        ratio = p / g if g and p else None
        if ratio is not None:
            ratios.append(ratio)
        print(f"| {rep} | " + " | ".join(cells) + f" | {'-' if ratio is None else f'{ratio:.3f}'} |")
    print()
    if ratios:
        med = statistics.median(ratios)
        verdict = "met" if med <= 1.05 else "missed"
        print(f"Median steady ratio pipeline / gathered: **{med:.3f}** (target 1.05: {verdict}).")
    readers = out / "readers.txt"
    if readers.exists():
        print()
        print("Readers against their peers, in the same run:")
        print()
        print(readers.read_text().rstrip())


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
