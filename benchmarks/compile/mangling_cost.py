#!/usr/bin/env python3
"""What g++ pays to name one function by a long type (benchmarks/RESULTS.md, "Compile time:
the copy example's callgraph construction"). Stdlib only.

  mangling_cost.py LEAVES FUNCTIONS [long|short] > FILE.cpp

writes a program with one type, `big`, a balanced tree of `node<...>` over LEAVES distinct
leaves (each a `name<12 characters>` and a `tag<i>`, as a graph's named nodes are), and
FUNCTIONS instantiations of a [[gnu::noinline]] function template: `f<big, i>` ("long",
each named by the whole tree) or `f<tag<i>, i>` ("short", the same bodies with short names).
Compile both with `g++ -std=c++20 -O0 -c -ftime-report` and compare "callgraph
construction", where g++ gives each function its mangled name.
"""
import random
import sys


def main():
    if len(sys.argv) != 4 or sys.argv[3] not in ("long", "short"):
        sys.exit(__doc__)
    leaves, functions, kind = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    rng = random.Random(1)
    out = [
        "template <char... C> struct name {};",
        "template <class... T> struct node {};",
        "template <int I> struct tag {};",
        "template <class T, int I> [[gnu::noinline]] int f(T*) { return I; }",
    ]
    level = []
    for i in range(leaves):
        chars = ",".join("'%s'" % rng.choice("abcdefghij") for _ in range(12))
        level.append("node<name<%s>, tag<%d>>" % (chars, i))
    while len(level) > 1:
        level = ["node<%s>" % ", ".join(level[i:i + 2]) for i in range(0, len(level), 2)]
    out.append("using big = %s;" % level[0])
    out.append("int main() {\n  int s = 0;")
    for i in range(functions):
        out.append("  s += f<%s, %d>(nullptr);" % ("big" if kind == "long" else "tag<%d>" % i, i))
    out.append("  return s;\n}")
    print("\n".join(out))


if __name__ == "__main__":
    main()
