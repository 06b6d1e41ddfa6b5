#!/usr/bin/python3
"""Prints the markdown of benchmarks/RESULTS.md, "Convolutional models", from the raw results
of benchmarks/cnn/run.sh: epoch CPU seconds of typeflow, the hand-written im2col + sgemm
program and PyTorch (median over the repetitions, and each repetition's ratios, measured
back to back; the verdicts set typeflow's median against the other program's fastest epoch),
test accuracy after the epoch, and the compile time and peak memory of the
training program, against the issue's targets.

    summarize.py OUT_DIR
"""
import json
import re
import statistics
import sys
from pathlib import Path


def main(out):
    out = Path(out)
    machine = dict(line.split("=", 1) for line in (out / "machine.txt").read_text().splitlines() if "=" in line)
    runs = [json.loads(line) for line in (out / "epochs.jsonl").read_text().splitlines()]
    by_rep = {}
    for r in runs:
        by_rep.setdefault(r["rep"], {})[r["result"]["impl"]] = r["result"]
    cpu = lambda res: res["epoch_cpu_seconds"][0]
    wall = lambda res: res["epoch_seconds"][0]
    med = lambda impl, f: statistics.median(f(rep[impl]) for rep in by_rep.values() if impl in rep)

    print(f"Measured {machine['date']} on {machine['cpu']} ({machine['nproc']} cores, shared), "
          f"{machine['gxx']}, OpenBLAS {machine['openblas']} (kernel {machine.get('openblas_core', '?')}), PyTorch {machine['torch']} (oneDNN: {machine.get('onednn_isa', '?')}), "
          f"commit {machine['commit']}; load average {machine['load_start']} at the start, "
          f"{machine.get('load_end', '?')} at the end. 1 thread, every measured process on "
          f"{machine.get('pinned', 'no CPU in particular (not pinned)')}; {machine['steps']} steps of 32 an epoch.")
    print()
    print("| implementation | epoch CPU s (median) | epoch wall s (median) | test accuracy after 1 epoch |")
    print("|---|---|---|---|")
    for impl in ("typeflow", "handwritten", "pytorch"):
        accs = [rep[impl]["test_accuracy"] for rep in by_rep.values() if impl in rep]
        print(f"| {impl} | {med(impl, cpu):.2f} | {med(impl, wall):.2f} | {statistics.median(accs):.4f} |")
    print()
    print("| repetition | PyTorch / typeflow (target >= 1.5) | typeflow / hand-written (target <= 1.3) |")
    print("|---|---|---|")
    ratios_py, ratios_hw = [], []
    for rep, res in sorted(by_rep.items()):
        if not all(k in res for k in ("typeflow", "handwritten", "pytorch")):
            continue
        a, b = cpu(res["pytorch"]) / cpu(res["typeflow"]), cpu(res["typeflow"]) / cpu(res["handwritten"])
        ratios_py.append(a)
        ratios_hw.append(b)
        print(f"| {rep} | {a:.2f} | {b:.2f} |")
    if ratios_py:
        mp, mh = statistics.median(ratios_py), statistics.median(ratios_hw)
        print(f"| median | {mp:.2f} | {mh:.2f} |")
        # The verdicts compare typeflow's median epoch with the other program's fastest: PyTorch's
        # epoch is bimodal on the machine of the 2026-12-05 run (7.6-8.4 s and 13.4 s for 600 steps,
        # pinned to one CPU), and a median of three can land on either mode.
        fastest = lambda impl: min(cpu(rep[impl]) for rep in by_rep.values() if impl in rep)
        cp = fastest("pytorch") / med("typeflow", cpu)
        ch = med("typeflow", cpu) / fastest("handwritten")
        print(f"| verdict: the other's fastest epoch, typeflow's median | {cp:.2f} "
              f"({'met' if cp >= 1.5 else 'missed'}) | {ch:.2f} ({'met' if ch <= 1.3 else 'missed'}) |")
    print()
    print("| compile of cnn_typeflow.cpp | CPU s (user + sys) | wall s | peak memory MB |")
    print("|---|---|---|---|")
    for f in sorted(out.glob("compile_*.txt")):
        t = f.read_text()
        user = float(re.search(r"User time \(seconds\): ([\d.]+)", t).group(1))
        sys_ = float(re.search(r"System time \(seconds\): ([\d.]+)", t).group(1))
        w = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)", t).group(1)
        secs = sum(float(p) * 60 ** i for i, p in enumerate(reversed(w.split(":"))))
        mem = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", t).group(1)) / 1024
        verdict = "met" if user + sys_ <= 20 and mem <= 1536 else "missed"
        print(f"| {f.stem} | {user + sys_:.1f} | {secs:.1f} | {mem:.0f} (target 20 s, 1.5 GB: {verdict}) |")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "build-cnn/cnn-results")
