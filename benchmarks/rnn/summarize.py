#!/usr/bin/python3
"""Reads run.sh's raw results (a directory) and prints the markdown of benchmarks/RESULTS.md's
"Recurrent models" section: the machine, the tables, the ratios, the verdict against each target.

Every step figure is a median (and min) over all repetitions of all processes (each process
times 5 repetitions of several steps after a warm-up). CPU time of the process is the figure
the verdicts use: the machine is shared and loaded, so wall time includes the time other
processes held the core; wall is shown beside it."""
import json
import re
import statistics
import sys
from pathlib import Path

# Targets.
BIGRU_MIN_SPEEDUP = 10.0       # PyTorch / typeflow, the question's model
GRU128_MIN_SPEEDUP = 2.0       # PyTorch / typeflow, GRU(128)
GRU128_MAX_BOUND_RATIO = 2.0   # typeflow / gemm bound (the step's matmul flops)
BIGRU_COMPILE_S, BIGRU_COMPILE_B = 20.0, 1.5e9
STATIC_COMPILE_S, STATIC_COMPILE_B = 30.0, 2.0e9
EQUAL_COMPILE_TOLERANCE = 0.10  # |t(50) - t(10)| / t(10)
TIME_STEPS = 50                # GRU(128)'s sequence length

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
      f"PyTorch {machine['torch']} (Debian), typeflow at {machine['commit']}; -O2; every measured process "
      f"on {machine.get('pinned', 'no CPU in particular (not pinned)')}; everything at 1 thread "
      f"(`OPENBLAS_NUM_THREADS=1`, `torch.set_num_threads(1)`, `OMP_NUM_THREADS=1 OMP_WAIT_POLICY=PASSIVE`). "
      f"Load average {machine['load_start']} at the start, {machine.get('load_end', '?')} at the end "
      f"(a shared machine: the verdicts use CPU time).")
print()

rows = [json.loads(line) for line in (out / "steps.jsonl").read_text().splitlines() if line.strip()]
steps = {}
sgemm = {}
for row in rows:
    r = row["result"]
    if r["impl"] == "cblas_sgemm":
        for s in r["shapes"]:
            sgemm.setdefault(s["name"], {"flops": s["flops"], "shape": (s["m"], s["n"], s["k"]), "gflops": []})
            sgemm[s["name"]]["gflops"].append(s["gflops_median"])
        continue
    g = steps.setdefault((r["model"], r["impl"]), {"cpu": [], "wall": [], "procs": 0, "loss": []})
    g["cpu"] += r["step_cpu_ms"]
    g["wall"] += r["step_wall_ms"]
    g["procs"] += 1
    g["loss"].append((r["first_loss"], r["last_loss"]))

names = {"typeflow": "typeflow, `sess.run(train_op, feeds...)`",
         "pytorch": "PyTorch, zero_grad + forward + backward + `Adam.step()`",
         "typeflow-forward": "typeflow, forward only (`sess.run(loss, feeds...)`), for the profile"}


def table(model):
    print("| implementation | CPU median | CPU min | wall median | wall min | samples | PyTorch / this (CPU / wall median) |")
    print("|---|---|---|---|---|---|---|")
    p = steps.get((model, "pytorch"))
    for impl in ("typeflow", "pytorch", "typeflow-forward"):
        g = steps.get((model, impl))
        if not g:
            continue
        ratio = (f"{fmt(med(p['cpu']) / med(g['cpu']), 2)}x / {fmt(med(p['wall']) / med(g['wall']), 2)}x"
                 if p and impl != "typeflow-forward" else "—")
        print(f"| {names[impl]} | {fmt(med(g['cpu']))} | {fmt(min(g['cpu']))} | {fmt(med(g['wall']))} | "
              f"{fmt(min(g['wall']))} | {len(g['cpu'])} ({g['procs']} processes) | {ratio} |")
    print()


def speedup(model):
    t, p = steps[(model, "typeflow")], steps[(model, "pytorch")]
    return med(p["cpu"]) / med(t["cpu"]), med(p["wall"]) / med(t["wall"])


print("**1. The question's model, one training step** (bidirectional_dynamic_rnn of gru_cell<10> fw and bw "
      "over x [32, 10, 30], `concat<2>`, `reduce_mean<1>`, `dense<5>`, softmax cross-entropy, `adam(1e-2)`, "
      "no sequence_length; PyTorch `nn.GRU(30, 10, bidirectional=True, batch_first=True)`, mean over time, "
      "`nn.Linear(20, 5)`, cross-entropy, `Adam(lr=1e-2)`; milliseconds per step)")
print()
table("bigru")

# --- gemm bound -------------------------------------------------------------------------------
fwd = ("fwd_gates", "fwd_candidate")
bwd = ("bwd_gates_dA", "bwd_gates_dB", "bwd_candidate_dA", "bwd_candidate_dB")
rate = {k: med(v["gflops"]) for k, v in sgemm.items()}  # GFLOP/s
ms = {k: sgemm[k]["flops"] / (rate[k] * 1e9) * 1e3 for k in sgemm}  # ms per call
fwd_flops = TIME_STEPS * sum(sgemm[k]["flops"] for k in fwd)
bwd_flops = TIME_STEPS * sum(sgemm[k]["flops"] for k in bwd)
fwd_ms = TIME_STEPS * sum(ms[k] for k in fwd)
bwd_ms = TIME_STEPS * sum(ms[k] for k in bwd)
bound = fwd_ms + bwd_ms

print(f"**2. GRU(128), one training step** (`dynamic_rnn(gru_cell<128>)` over x [64, {TIME_STEPS}, 64], "
      "the final state into `dense<10>`, softmax cross-entropy, `adam(1e-3)`; PyTorch "
      "`nn.GRU(64, 128, batch_first=True)`, `h_n[-1]` into `nn.Linear(128, 10)`, `Adam(lr=1e-3)`; "
      "milliseconds per step)")
print()
table("gru128")
print(f"The gemm bound: this machine's `cblas_sgemm` rate at the step's shapes (`sgemm_rate.cpp`, 1 thread, "
      f"row-major, {len(next(iter(sgemm.values()))['gflops'])} runs interleaved with the steps above, each the "
      f"median of 7 timings of 1000 calls; CPU time). Per time step, the forward pass multiplies [x, h] by the "
      f"gates kernel and [x, r*h] by the candidate kernel; the backward pass computes both products' "
      f"dA = dC B^T and dB = A^T dC (twice the forward's flops). The dense layer's [64,128]x[128,10] "
      f"(0.16 MFLOP forward) is left out.")
print()
print("| product | shape (m x k by k x n) | MFLOP per time step | GFLOP/s median (min-max over runs) | ms per time step |")
print("|---|---|---|---|---|")
labels = {"fwd_gates": "forward, gates: [x,h] W_g", "fwd_candidate": "forward, candidate: [x,r*h] W_c",
          "bwd_gates_dA": "backward, gates: dC W_g^T", "bwd_gates_dB": "backward, gates: [x,h]^T dC",
          "bwd_candidate_dA": "backward, candidate: dC W_c^T", "bwd_candidate_dB": "backward, candidate: [x,r*h]^T dC"}
for k in fwd + bwd:
    m, n, kk = sgemm[k]["shape"]
    print(f"| {labels[k]} | {m} x {kk} by {kk} x {n} | {sgemm[k]['flops'] / 1e6:.2f} | {fmt(rate[k], 1)} "
          f"({fmt(min(sgemm[k]['gflops']), 1)}-{fmt(max(sgemm[k]['gflops']), 1)}) | {fmt(ms[k], 4)} |")
print()
tf_cpu = med(steps[("gru128", "typeflow")]["cpu"])
fw_cpu = med(steps[("gru128", "typeflow-forward")]["cpu"]) if ("gru128", "typeflow-forward") in steps else None
print(f"Over {TIME_STEPS} time steps: forward {fwd_flops / 1e6:.1f} MFLOP ({fmt(fwd_ms, 2)} ms at these rates), "
      f"backward {bwd_flops / 1e6:.1f} MFLOP ({fmt(bwd_ms, 2)} ms). **Gemm bound of the step: "
      f"{(fwd_flops + bwd_flops) / 1e6:.1f} MFLOP, {fmt(bound, 2)} ms** (typeflow's reverse loop is fed the forward "
      f"values and multiplies nothing again). typeflow's step is {fmt(tf_cpu / bound, 2)}x the bound; PyTorch's is "
      f"{fmt(med(steps[('gru128', 'pytorch')]['cpu']) / bound, 2)}x the bound.")
if fw_cpu:
    print(f" typeflow's forward pass alone takes {fmt(fw_cpu, 2)} ms CPU ({fmt(fw_cpu / fwd_ms, 2)}x its gemm "
          f"bound of {fmt(fwd_ms, 2)} ms).")
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
            "rss": int(field("Maximum resident set size (kbytes)")) * 1024, "status": int(field("Exit status")),
            "failed": int(field("Exit status")) != 0 or "Command terminated by signal" in text}


comp = {}
for f in sorted(out.glob("compile_*_*.txt")):
    name = re.match(r"compile_(.*)_\d+\.txt", f.name).group(1)
    comp.setdefault(name, []).append(parse_time(f))
print(f"**3. Compile time and compiler peak memory** (`g++ -O2 -c`, the command CMake uses, under "
      f"`/usr/bin/time -v`; {len(comp.get('bigru', []))} repetitions, the order rotated)")
print()
print("| program | CPU (user+sys) median | CPU min | wall median | peak RSS median | peak RSS max |")
print("|---|---|---|---|---|---|")
cnames = {"bigru": "the question's training program (`bigru_typeflow.cpp`)",
          "gru128_t10": "GRU(128) `dynamic_rnn`, x `shape<64, 10, 64>` (`gru128_typeflow.cpp -DGRU128_TIME=10`)",
          "gru128_t50": "GRU(128) `dynamic_rnn`, x `shape<64, 50, 64>` (`gru128_typeflow.cpp -DGRU128_TIME=50`)",
          "static_rnn": "`static_rnn`, 8 steps of `multi_rnn_cell(gru_cell<32>, gru_cell<32>)`, Adam "
                        "(`static_rnn_compile.cpp`)",
          "static_rnn_tu_local": "the same, typeflow local to the unit (`static_rnn_compile.cpp "
                                 "-DSTATIC_RNN_TU_LOCAL`: `<typeflow/tu_local.hpp>` first)"}
limit = float(machine.get("static_compile_cpu_limit", "inf").replace("unlimited", "inf"))
stopped = {}
for name in cnames:
    c = comp.get(name, [])
    if not c:
        continue
    # A compile stopped at run.sh's CPU limit (static_rnn only) gives a lower bound: "> limit".
    stopped[name] = any(x["failed"] and x["cpu"] >= 0.9 * limit for x in c)
    assert stopped[name] or not any(x["failed"] for x in c), f"{name} failed to compile"
    if stopped[name]:
        print(f"| {cnames[name]} | **> {fmt(limit, 0)} s: stopped at the CPU limit** ({sum(x['failed'] for x in c)} of {len(c)} runs) | — | "
              f"> {fmt(med([x['wall'] for x in c]), 1)} s | > {med([x['rss'] for x in c]) / 1e6:.0f} MB | "
              f"> {max(x['rss'] for x in c) / 1e6:.0f} MB |")
        continue
    print(f"| {cnames[name]} | {fmt(med([x['cpu'] for x in c]), 1)} s | {fmt(min(x['cpu'] for x in c), 1)} s | "
          f"{fmt(med([x['wall'] for x in c]), 1)} s | {med([x['rss'] for x in c]) / 1e6:.0f} MB | "
          f"{max(x['rss'] for x in c) / 1e6:.0f} MB |")
print()

# --- verdicts -------------------------------------------------------------------------------
print("**Verdicts** (CPU time; wall beside it):")
print()
sc, sw = speedup("bigru")
print(f"- The question's model, typeflow at least {BIGRU_MIN_SPEEDUP:.0f}x faster than PyTorch: {fmt(sc, 2)}x CPU "
      f"({fmt(med(steps[('bigru', 'typeflow')]['cpu']), 3)} ms vs {fmt(med(steps[('bigru', 'pytorch')]['cpu']), 3)} ms), "
      f"{fmt(sw, 2)}x wall — {verdict(sc >= BIGRU_MIN_SPEEDUP)}"
      + ("." if sc >= BIGRU_MIN_SPEEDUP else f", by {fmt((BIGRU_MIN_SPEEDUP / sc - 1) * 100, 0)}% "
         f"(typeflow would need {fmt(med(steps[('bigru', 'pytorch')]['cpu']) / BIGRU_MIN_SPEEDUP, 3)} ms)."))
sc, sw = speedup("gru128")
print(f"- GRU(128), typeflow at least {GRU128_MIN_SPEEDUP:.0f}x faster than PyTorch: {fmt(sc, 2)}x CPU "
      f"({fmt(tf_cpu, 2)} ms vs {fmt(med(steps[('gru128', 'pytorch')]['cpu']), 2)} ms), {fmt(sw, 2)}x wall — "
      f"{verdict(sc >= GRU128_MIN_SPEEDUP)}"
      + ("." if sc >= GRU128_MIN_SPEEDUP else
         f": typeflow would need {fmt(med(steps[('gru128', 'pytorch')]['cpu']) / GRU128_MIN_SPEEDUP, 2)} ms, "
         f"{fmt(tf_cpu / (med(steps[('gru128', 'pytorch')]['cpu']) / GRU128_MIN_SPEEDUP), 2)}x less than now."))
r = tf_cpu / bound
print(f"- GRU(128), typeflow within {GRU128_MAX_BOUND_RATIO:.0f}x of the gemm bound (the step's flops, "
      f"{fmt(bound, 2)} ms): {fmt(r, 2)}x — {verdict(r <= GRU128_MAX_BOUND_RATIO)}"
      + ("." if r <= GRU128_MAX_BOUND_RATIO else
         f", by {fmt((r / GRU128_MAX_BOUND_RATIO - 1) * 100, 0)}% (needs {fmt(GRU128_MAX_BOUND_RATIO * bound, 2)} ms)."))
for name, lim_s, lim_b in (("bigru", BIGRU_COMPILE_S, BIGRU_COMPILE_B), ("static_rnn", STATIC_COMPILE_S, STATIC_COMPILE_B),
                           ("static_rnn_tu_local", STATIC_COMPILE_S, STATIC_COMPILE_B)):
    c = comp.get(name)
    if c:
        cpu, w, rss = med([x["cpu"] for x in c]), med([x["wall"] for x in c]), max(x["rss"] for x in c)
        if stopped.get(name):
            print(f"- Compile of {cnames[name]}, at most {lim_s:.0f} s and {lim_b / 1e9} GB: more than {fmt(limit, 0)} s "
                  f"CPU (stopped there, {fmt(w, 1)} s wall; {rss / 1e6:.0f} MB peak by then) — **missed**, by more "
                  f"than {fmt(limit / lim_s, 0)}x on time.")
            continue
        print(f"- Compile of {cnames[name]}, at most {lim_s:.0f} s and {lim_b / 1e9} GB: {fmt(cpu, 1)} s CPU "
              f"({fmt(w, 1)} s wall), {rss / 1e6:.0f} MB peak — {verdict(cpu <= lim_s and rss <= lim_b)}.")
a, b = comp.get("gru128_t10"), comp.get("gru128_t50")
if a and b:
    ta, tb = med([x["cpu"] for x in a]), med([x["cpu"] for x in b])
    ra, rb = med([x["rss"] for x in a]), med([x["rss"] for x in b])
    d = abs(tb - ta) / max(ta, 1e-9)
    print(f"- A dynamic_rnn program's compile time is the same for every sequence length: {fmt(ta, 1)} s at 10 steps, "
          f"{fmt(tb, 1)} s at 50 ({fmt(100 * d, 1)}% apart; peak {ra / 1e6:.0f} MB vs {rb / 1e6:.0f} MB) — "
          f"{verdict(d <= EQUAL_COMPILE_TOLERANCE)} (tolerance {100 * EQUAL_COMPILE_TOLERANCE:.0f}%).")
