#!/usr/bin/env bash
# Where g++ spends its time naming functions (benchmarks/RESULTS.md, "Compile time: what g++
# names in the port"). Compiles one source with g++ 12 under uprobes on its mangler
# (`mangle_decl`, entry and return, and `ix86_mangle_decl_assembler_name`, which receives
# each finished name) and prints, per family of names (the first components of the mangled
# name), the time inside `mangle_decl`, the number of names and their total length.
#
# The probes slow the compile down about 1.8x, and their time is counted: compare the
# families' shares, not their seconds with an unprobed compile. Needs root (perf probe) and
# Debian's perf (package linux-perf). cc1plus has no debug information, so the probe reads
# the name's first 128 bytes by hand: an IDENTIFIER_NODE's string pointer is at offset 24,
# its length at 32 (GCC 12's tree_identifier on x86-64).
#
#   benchmarks/compile/mangling.sh tests/rnn/seq2seq_buckets_test.cpp
#
# Environment:
#   CXXFLAGS  the compile's flags (CI's for the tests: -std=c++20 -O1 -DNDEBUG
#             -ftemplate-depth=4096, with include/, tests/ and tests/support/)
#   BENCH_CPU the CPU the compile runs on (0; "none": not pinned; benchmarks/common.sh)
#   TOP       how many families to print (30)
#   TUPLES    1: std::tuple's members (_Tuple_impl, _Head_base, get, __get_helper, tuple)
#             counted by the family of their first typeflow element ("std::tuple of
#             5train14grad_and_var_t"), not by member (0)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
src=${1:?usage: mangling.sh SOURCE (relative to the repository)}
cxxflags=${CXXFLAGS:--std=c++20 -O1 -DNDEBUG -ftemplate-depth=4096 -I$root/include -I$root/tests -I$root/tests/support}
top=${TOP:-30}
tuples=${TUPLES:-0}
cc1plus=$(g++ -print-prog-name=cc1plus)
command -v perf > /dev/null || { echo "mangling.sh: needs perf (Debian package linux-perf)" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "mangling.sh: perf probe needs root" >&2; exit 1; }

work=$(mktemp -d)
cleanup() {
  perf probe -q -d 'probe_cc1plus:*' > /dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
perf probe -q -d 'probe_cc1plus:*' > /dev/null 2>&1 || true
words=""
for i in $(seq 0 15); do words="$words w$i=+$((i * 8))(+24(%si)):u64"; done
perf probe -q -x "$cc1plus" --add mangle_decl
perf probe -q -x "$cc1plus" --add 'mangle_decl%return'
perf probe -q -x "$cc1plus" --add "name=ix86_mangle_decl_assembler_name len=+32(%si):u32$words"

source "$root/benchmarks/common.sh"
bench_pin
# shellcheck disable=SC2086  # cxxflags is a list of flags
"${pin[@]}" perf record -q -e 'probe_cc1plus:*' -o "$work/probes.data" -- \
  g++ $cxxflags -c "$root/$src" -o "$work/out.o"
perf script -i "$work/probes.data" -F time,event,trace 2> /dev/null > "$work/probes.txt"

# Pair each outermost mangle_decl with its return; the name is the one the target hook saw
# between them. A family is the name up to its first template argument list.
perl -e '
  use strict; my $top = shift; my $tuples = shift; my @stack; my (%t, %c, %l); my ($total, $n) = (0, 0);
  while (<>) {
    if (/^\s*([\d.]+):\s+probe_cc1plus:mangle_decl:/) { push @stack, [$1, "", 0]; }
    elsif (/probe_cc1plus:name: \S+ len=(\d+) (.*)/) {
      my $len = $1; my @w = ($2 =~ /w\d+=(\d+)/g);
      my $s = join("", map { pack("Q<", $_) } @w); $s =~ s/\0.*//s;
      @{$stack[-1]}[1, 2] = ($s, $len) if @stack;
    } elsif (/^\s*([\d.]+):\s+probe_cc1plus:mangle_decl__return:/) {
      my $e = pop @stack; next unless $e && !@stack;
      my $d = $1 - $e->[0]; $total += $d; $n++;
      (my $f = $e->[1]) =~ s/^(_Z+N?K?)12_GLOBAL__N_1/$1/;  # typeflow local to the unit (tu_local.hpp)
      $f =~ s/^(.*?\d+[A-Za-z_]\w*?)(I|E|C[12]|D[012]).*$/$1/;
      if ($tuples && $e->[1] =~ /^_Z(NSt11_Tuple_impl|NSt10_Head_base|St3get|St12__get_helper|NSt5tuple)/) {
        # std::tuple members, by the family of the first typeflow type they are named by.
        ($f = $e->[1]) =~ s/_GLOBAL__N_1//g;
        $f =~ s/^.*?N\d*8typeflow(.{0,60}).*$/std::tuple of $1/;
        $f =~ s/^(std::tuple of (?:\d+[A-Za-z_]\w*?)+)(I|E).*$/$1/;
      }
      $f = substr($f, 0, 70); $t{$f} += $d; $c{$f}++; $l{$f} += $e->[2];
    }
  }
  printf "mangle_decl, outermost calls: %d names, %.1f s (probed)\n\n", $n, $total;
  print "| family (mangled prefix) | seconds | share | names | total length |\n|---|---|---|---|---|\n";
  my @k = sort { $t{$b} <=> $t{$a} } keys %t; splice(@k, $top) if @k > $top;
  printf "| `%s` | %.2f | %.1f%% | %d | %.1f MB |\n", $_, $t{$_}, 100 * $t{$_} / $total, $c{$_}, $l{$_} / 1048576 for @k;
' "$top" "$tuples" "$work/probes.txt"
