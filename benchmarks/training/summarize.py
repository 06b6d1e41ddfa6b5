#!/usr/bin/python3
"""Reads run.sh's raw results (a directory) and prints the markdown of benchmarks/RESULTS.md's
"Training speed" section: the machine, the tables, the verdict against each target of issue 3.

Every figure is a median (and min) over interleaved repetitions. Wall time is what a user
waits; on a shared, loaded machine it includes the time other processes held the core, so
the CPU time of the process is given beside it (for 1 thread the better measure of the code)."""
import json
import re
import statistics
import sys
from pathlib import Path

# Targets of issue 3.
SCALAR_MAX_RATIO = 1.2        # typeflow / hand-written
MLP_MAX_RATIO = 1.2           # typeflow / hand-written OpenBLAS
MLP_MIN_SPEEDUP_TORCH = 1.25  # PyTorch / typeflow
COMPILE_MAX_SECONDS = 15.0
COMPILE_MAX_BYTES = 1.2e9

out = Path(sys.argv[1])
machine = dict(line.split("=", 1) for line in (out / "machine.txt").read_text().splitlines() if "=" in line)


def med(v):
    return statistics.median(v)


def fmt(x, digits=3):
    return f"{x:.{digits}f}"


def verdict(ok):
    return "**met**" if ok else "**missed**"


print(f"Measured {machine['date']} on {machine['nproc']} cores, {machine['cpu']} "
      f"(OpenBLAS {machine['openblas']}, kernel {machine['openblas_core'] or '?'}), {machine['gxx']}, "
      f"PyTorch {machine['torch']} (Debian), typeflow at {machine['commit']}; -O2. "
      f"Load average {machine['load_start']} at the start, {machine.get('load_end', '?')} at the end "
      f"(a shared machine: see the CPU-time columns).")
print()

# --- 1. scalar ------------------------------------------------------------------------------
scalar = json.loads((out / "scalar.json").read_text())
runs = {}
for b in scalar["benchmarks"]:
    if b.get("run_type") != "iteration":
        continue
    name = b["run_name"].removeprefix("BM_")
    scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[b["time_unit"]] / b["steps"]
    runs.setdefault(name, {"cpu": [], "wall": []})
    runs[name]["cpu"].append(b["cpu_time"] * scale)
    runs[name]["wall"].append(b["real_time"] * scale)
labels = {
    "hand_written": "hand-written loop (`m -= lr*2*err*x`, m and b in registers)",
    "typeflow": "typeflow, the issue's program (loop where the session is made)",
    "hand_written_typeflow_order": "hand-written, typeflow's association (`m -= lr*(x*(2*err))`)",
    "typeflow_loop_in_callee": "typeflow, loop in a function taking `session&`",
    "hand_written_state_by_reference": "hand-written, m and b in a struct taken by reference",
}
base = med(runs["hand_written"]["cpu"])
base_wall = med(runs["hand_written"]["wall"])
n = len(runs["hand_written"]["cpu"])
print(f"**1. Scalar linear regression step** (100,000 points of y = 2.5x - 1.25, lr 1e-3, double; "
      f"Google Benchmark, {n} repetitions randomly interleaved; ns per step)")
print()
print("| implementation | CPU median | CPU min | wall median | wall min | ratio to hand-written (CPU / wall median) |")
print("|---|---|---|---|---|---|")
for name in labels:
    if name not in runs:
        continue
    r = runs[name]
    print(f"| {labels[name]} | {fmt(med(r['cpu']), 2)} | {fmt(min(r['cpu']), 2)} | {fmt(med(r['wall']), 2)} | "
          f"{fmt(min(r['wall']), 2)} | {fmt(med(r['cpu']) / base, 2)}x / {fmt(med(r['wall']) / base_wall, 2)}x |")
scalar_ratio = med(runs["typeflow"]["cpu"]) / base
print()

# --- 2. MLP ---------------------------------------------------------------------------------
mlp = [json.loads(line) for line in (out / "mlp.jsonl").read_text().splitlines() if line.strip()]
groups = {}
for m in mlp:
    r = m["result"]
    g = groups.setdefault((m["threads"], r["impl"]), {"wall": [], "cpu": [], "acc": []})
    g["wall"].append(r["epoch_seconds"][0])
    g["cpu"].append(r["epoch_cpu_seconds"][0])
    g["acc"].append(r["test_accuracy"])
names = {"cblas": "hand-written, OpenBLAS `cblas_sgemm`", "typeflow": "typeflow",
         "pytorch": "PyTorch (`nn.Linear`, `F.cross_entropy`, SGD; `OMP_WAIT_POLICY=PASSIVE`)",
         "xtensor-direct-adam": "xtensor written directly", "typeflow-adam": "typeflow"}
reps = len(groups.get((1, "cblas"), {"wall": []})["wall"])
print(f"**2. MLP epoch on Fashion-MNIST** (784-128-10, ReLU, softmax cross-entropy, batch 64, SGD 0.1, "
      f"937 steps incl. batch gathering, the same precomputed order for all; one process per run, "
      f"{reps} repetitions, order rotated; threads = `OPENBLAS_NUM_THREADS` (and `torch.set_num_threads`); seconds)")
print()
print("| threads | implementation | wall median | wall min | CPU median | CPU min | test accuracy | ratio to hand-written (wall / CPU median) |")
print("|---|---|---|---|---|---|---|---|")
ratios = {}
for t in (1, 2):
    b = groups.get((t, "cblas"))
    for impl in ("cblas", "typeflow", "pytorch"):
        g = groups.get((t, impl))
        if not g or not b:
            continue
        rw, rc = med(g["wall"]) / med(b["wall"]), med(g["cpu"]) / med(b["cpu"])
        ratios[(t, impl)] = (rw, rc)
        print(f"| {t} | {names[impl]} | {fmt(med(g['wall']))} | {fmt(min(g['wall']))} | {fmt(med(g['cpu']))} | "
              f"{fmt(min(g['cpu']))} | {100 * med(g['acc']):.2f}% | {fmt(rw, 2)}x / {fmt(rc, 2)}x |")
print()
ta, xa = groups.get((1, "typeflow-adam")), groups.get((1, "xtensor-direct-adam"))
if ta and xa:
    print("The Adam variant of part 3 (same model, `adam(1e-3)`), 1 thread, for reference:")
    print()
    print("| implementation | wall median | wall min | CPU median | CPU min | test accuracy | ratio to xtensor (wall / CPU median) |")
    print("|---|---|---|---|---|---|---|")
    for impl, g in (("xtensor-direct-adam", xa), ("typeflow-adam", ta)):
        print(f"| {names[impl]} | {fmt(med(g['wall']))} | {fmt(min(g['wall']))} | {fmt(med(g['cpu']))} | "
              f"{fmt(min(g['cpu']))} | {100 * med(g['acc']):.2f}% | {fmt(med(g['wall']) / med(xa['wall']), 2)}x / "
              f"{fmt(med(g['cpu']) / med(xa['cpu']), 2)}x |")
    print()

# --- 3. compile -----------------------------------------------------------------------------
def parse_time(path):
    text = path.read_text()
    def field(label):
        return re.search(re.escape(label) + r": (.*)", text).group(1).strip()
    wall = 0.0
    for part in field("Elapsed (wall clock) time (h:mm:ss or m:ss)").split(":"):
        wall = wall * 60 + float(part)
    return {"wall": wall, "cpu": float(field("User time (seconds)")) + float(field("System time (seconds)")),
            "rss": int(field("Maximum resident set size (kbytes)")) * 1024,
            "status": int(field("Exit status"))}

comp = {}
for f in sorted(out.glob("compile_*_*.txt")):
    name = re.match(r"compile_(.*)_\d+\.txt", f.name).group(1)
    comp.setdefault(name, []).append(parse_time(f))
print(f"**3. Compile time and compiler peak memory** of the MLP training program with Adam "
      f"(`g++ -O2 -c`, the command CMake uses, under `/usr/bin/time -v`; "
      f"{len(comp.get('mlp_adam_typeflow', []))} repetitions interleaved)")
print()
print("| program | wall median | wall min | CPU (user+sys) median | peak RSS median | peak RSS max |")
print("|---|---|---|---|---|---|")
cnames = {"mlp_xtensor_direct": "xtensor written directly (`mlp_xtensor_direct.cpp`, xtensor-blas `dot`)",
          "mlp_adam_typeflow": "typeflow (`mlp_adam_typeflow.cpp`)"}
for name in ("mlp_xtensor_direct", "mlp_adam_typeflow"):
    c = comp.get(name, [])
    if not c:
        continue
    assert all(x["status"] == 0 for x in c), f"{name} failed to compile"
    print(f"| {cnames[name]} | {fmt(med([x['wall'] for x in c]), 1)} s | {fmt(min(x['wall'] for x in c), 1)} s | "
          f"{fmt(med([x['cpu'] for x in c]), 1)} s | {med([x['rss'] for x in c]) / 1e6:.0f} MB | "
          f"{max(x['rss'] for x in c) / 1e6:.0f} MB |")
print()

# --- verdicts -------------------------------------------------------------------------------
print("**Verdicts** (issue 3's targets). Single-threaded figures are judged on CPU time, which the load of "
      "this shared machine inflates least; 2-thread epochs on wall time; both are shown:")
print()
print(f"- Scalar step, typeflow within {SCALAR_MAX_RATIO}x of the hand-written loop: "
      f"{fmt(scalar_ratio, 2)}x CPU, {fmt(med(runs['typeflow']['wall']) / base_wall, 2)}x wall "
      f"— {verdict(scalar_ratio <= SCALAR_MAX_RATIO)}.")
for t in (1, 2):
    plural = "s" if t > 1 else ""
    if (t, "typeflow") in ratios:
        rw, rc = ratios[(t, "typeflow")]
        judged = rc if t == 1 else rw
        print(f"- MLP epoch, {t} thread{plural}, typeflow within {MLP_MAX_RATIO}x of hand-written OpenBLAS: "
              f"{fmt(rc, 2)}x CPU, {fmt(rw, 2)}x wall — {verdict(judged <= MLP_MAX_RATIO)}.")
    if (t, "typeflow") in ratios and (t, "pytorch") in ratios:
        tw = med(groups[(t, "pytorch")]["wall"]) / med(groups[(t, "typeflow")]["wall"])
        tc = med(groups[(t, "pytorch")]["cpu"]) / med(groups[(t, "typeflow")]["cpu"])
        judged = tc if t == 1 else tw
        print(f"- MLP epoch, {t} thread{plural}, typeflow at least {MLP_MIN_SPEEDUP_TORCH}x faster than PyTorch: "
              f"{fmt(tc, 2)}x CPU, {fmt(tw, 2)}x wall — {verdict(judged >= MLP_MIN_SPEEDUP_TORCH)}.")
c = comp.get("mlp_adam_typeflow")
if c:
    w, cpu, rss = med([x["wall"] for x in c]), med([x["cpu"] for x in c]), max(x["rss"] for x in c)
    print(f"- Compile of the Adam MLP, at most {COMPILE_MAX_SECONDS:.0f} s and {COMPILE_MAX_BYTES / 1e9} GB: "
          f"{fmt(cpu, 1)} s CPU ({fmt(w, 1)} s wall), {rss / 1e6:.0f} MB peak — "
          f"{verdict(cpu <= COMPILE_MAX_SECONDS and rss <= COMPILE_MAX_BYTES)}.")
