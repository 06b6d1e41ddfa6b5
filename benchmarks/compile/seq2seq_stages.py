#!/usr/bin/env python3
"""Where the compile time of testModelWithBuckets' training program goes.

Builds variants of tests/rnn/seq2seq_buckets_test.cpp with one bucket of n encoder and n
decoder steps, each stopping at a later stage of the program, and times
`g++ -std=c++20 -O2 -fsyntax-only` on each (the template work; no code generation):

  forward            the sampled loss and a session that fetches it
  compute_gradients  + optimizer.compute_gradients(loss)
  apply              + apply_gradients of the pairs, unclipped
  global_norm        + global_norm of the gradients
  clip               + clip_by_global_norm of the gradients
  update             the whole clipped update, with a session that runs it once (until
                     2026-12-03 the session was built but not run: no run's functions)

Usage: benchmarks/compile/seq2seq_stages.py [n ...]   (default: 2 3), from the source root.
Prints one CSV line per variant: n,stage,seconds,max_rss_kb, seconds of user CPU (of wall time
before 2026-12-03). STAGES="update clip" builds only
those stages; MODE=compile compiles them (`-c`, the tests' -DNDEBUG, no link) instead of
-fsyntax-only.
"""
import os
import re
import subprocess
import sys
import tempfile

SOURCE = "tests/rnn/seq2seq_buckets_test.cpp"
CLIP = """    auto [grads, norm] = tf::clip_by_global_norm(tf::train::gradients_of(pairs), tf::constant<30.0f>());
    return optimizer.apply_gradients(tf::train::zip(grads, tf::train::variables_of(pairs)));"""


def variant(text, n, stage):
    text = text.replace("using buckets = rnn::buckets<rnn::bucket<4, 4>, rnn::bucket<8, 8>>;",
                        f"using buckets = rnn::buckets<rnn::bucket<{n}, {n}>>;")
    text = text.replace("  auto update1 = update_for(std::get<1>(losses));\n", "")
    # No training loop: the variants end after building the session; "update" runs it once.
    run = "".join(f"tf::feed(std::get<{i}>(inp), o[{i}]), " for i in range(8)) + \
        ", ".join(f"tf::feed(std::get<{i}>(out), o[{8 + i}])" for i in range(8))
    end = "}\n" if stage != "update" else \
        f"  std::array<ids_t, 16> o{{}};\n  (void)sess.run(tf::fetch(update0, std::get<0>(losses)), {run});\n}}\n"
    text = re.sub(r"  // One run of TensorFlow's loop.*\n}\s*$", lambda m: end, text, flags=re.S)
    body = {
        "compute_gradients": "    return pairs;",
        "apply": "    return optimizer.apply_gradients(pairs);",
        "global_norm": "    return std::apply([](const auto&... g) { return tf::global_norm(g...); }, "
                       "tf::train::gradients_of(pairs));",
        "clip": "    auto [grads, norm] = tf::clip_by_global_norm(tf::train::gradients_of(pairs), "
                "tf::constant<30.0f>());\n    return grads;",
    }
    if stage in body:
        text = text.replace(CLIP, body[stage])
    if stage == "forward":
        text = text.replace("  auto update0 = update_for(std::get<0>(losses));\n", "")
    session = "tf::session sess(update0, update1, std::get<0>(losses), std::get<1>(losses));"
    if stage == "update":
        text = text.replace(session, "tf::session sess(update0, std::get<0>(losses));")
    elif stage == "forward":
        text = text.replace(session, "tf::session sess(std::get<0>(losses));")
    else:
        text = text.replace(session, "(void)update0;\n  tf::session sess(std::get<0>(losses));")
    return text


def main():
    sizes = [int(a) for a in sys.argv[1:]] or [2, 3]
    text = open(SOURCE).read()
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            stages = os.environ.get("STAGES", "forward compute_gradients apply global_norm clip update").split()
            for stage in stages:
                path = os.path.join(tmp, f"{stage}_{n}.cpp")
                open(path, "w").write(variant(text, n, stage))
                mode = ["-c", "-DNDEBUG", "-ftemplate-depth=4096", "-o", os.devnull] \
                    if os.environ.get("MODE") == "compile" else ["-fsyntax-only"]
                cmd = ["/usr/bin/time", "-f", "%U %M", "g++", "-std=c++20", "-O2", "-Iinclude"] + mode + [path]
                run = subprocess.run(cmd, capture_output=True, text=True)
                last = run.stderr.strip().splitlines()[-1]
                if run.returncode != 0:
                    sys.exit(f"{stage} n={n} did not compile:\n{run.stderr[-2000:]}")
                seconds, rss = last.split()
                print(f"{n},{stage},{seconds},{rss}", flush=True)


if __name__ == "__main__":
    main()
