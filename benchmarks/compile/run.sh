#!/usr/bin/env bash
# Compile-time benchmark of typeflow (see benchmarks/RESULTS.md, "Compile time").
#
# For each N in $NS (default 100 200 400 800) it generates the chain graph
# x0 = placeholder, x1 = x0 * 2, x_{i+1} = x_i + x_{i-1} up to x_N (gen.py chain N), and
# the MLP-shaped graph (gen.py mlp), and for each N in $GRAD_NS (default 200 400 800) the
# gradient of the chain with respect to x0 and x1 (gen.py grad N), compiles each with /usr/bin/time -v, one compile at
# a time, records wall seconds, CPU seconds (user + sys) and the compiler's peak resident
# memory, links and runs each binary once to check its result, and prints a markdown
# table on stdout and writes a CSV. N = $REPEAT_N (default 800) is compiled $REPEAT
# more time(s) to show the noise.
#
#   benchmarks/compile/run.sh                       # the whole benchmark
#   NS="100 200" SKIP_MLP=1 benchmarks/compile/run.sh
#   benchmarks/compile/run.sh --time-report 200     # where the compiler spends its time
#   benchmarks/compile/run.sh --time-report grad200 # the same for the gradient benchmark
#   NS= SKIP_MLP=1 GRAD_NS="200 400 800" benchmarks/compile/run.sh   # gradients only
#
# Environment:
#   CXX            compiler (g++)
#   CXXFLAGS       flags (-std=c++20 -O2 -ftemplate-depth=4096)
#   INCLUDE_DIR    typeflow headers (<repo>/include); point it to another tree to compare
#   REF            measure the headers of this git commit instead (extracted to BUILD_DIR)
#   NS (empty: no chain), REPEAT_N, REPEAT, SKIP_MLP, GRAD_NS (empty: no gradient benchmark)
#   BUILD_DIR      generated sources, objects, logs (benchmarks/compile/build)
#   CSV            CSV output (BUILD_DIR/results.csv)
#   MEM_LIMIT_MB   address-space limit of a compile (8192, 4x the budget): on a shared
#                  machine a runaway compile fails with "out of memory" instead of waking
#                  the kernel's OOM killer (16384 did, with other builds running on the
#                  24 GiB machine); 0 disables the limit
#   TIME_LIMIT_S   a compile is stopped after this many wall seconds (1800)
#   BUDGET_S, BUDGET_MB   the budget of N = 800, chain and gradient (20 s, 2048 MB)
set -u -o pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
CXX="${CXX:-g++}"
CXXFLAGS="${CXXFLAGS:--std=c++20 -O2 -ftemplate-depth=4096}"
INCLUDE_DIR="${INCLUDE_DIR:-$ROOT/include}"
NS="${NS-100 200 400 800}"
REPEAT_N="${REPEAT_N:-800}"
REPEAT="${REPEAT:-1}"
SKIP_MLP="${SKIP_MLP:-0}"
GRAD_NS="${GRAD_NS-200 400 800}"
BUILD_DIR="${BUILD_DIR:-$HERE/build}"
CSV="${CSV:-$BUILD_DIR/results.csv}"
MEM_LIMIT_MB="${MEM_LIMIT_MB:-8192}"
TIME_LIMIT_S="${TIME_LIMIT_S:-1800}"
BUDGET_S="${BUDGET_S:-20}"
BUDGET_MB="${BUDGET_MB:-2048}"
PY="${PYTHON:-python3}"
REF="${REF:-}"

die() { echo "run.sh: $*" >&2; exit 1; }

# GNU time gives the peak resident memory; the shell's `time` keyword does not.
if [[ ! -x /usr/bin/time ]]; then
  echo "run.sh: /usr/bin/time missing, installing the Debian package 'time'" >&2
  if [[ $(id -u) -eq 0 ]]; then
    apt-get install -y time >&2 || { apt-get update >&2 && apt-get install -y time >&2; }
  else
    sudo apt-get install -y time >&2 || { sudo apt-get update >&2 && sudo apt-get install -y time >&2; }
  fi
  [[ -x /usr/bin/time ]] || die "could not install /usr/bin/time (apt-get install time)"
fi
command -v "$PY" >/dev/null || die "python3 is needed to generate the sources"
mkdir -p "$BUILD_DIR"

if [[ -n "$REF" ]]; then
  # Measure the headers of one commit, not a working tree someone may be editing.
  sha=$(git -C "$ROOT" rev-parse --short "$REF^{commit}") || die "unknown REF $REF"
  INCLUDE_DIR="$BUILD_DIR/include-$sha/include"
  if [[ ! -d "$INCLUDE_DIR" ]]; then
    mkdir -p "$BUILD_DIR/include-$sha"
    git -C "$ROOT" archive "$sha" include | tar -x -C "$BUILD_DIR/include-$sha" || die "git archive failed"
  fi
  HEADERS_AT="commit $sha (include/ last changed in $(git -C "$ROOT" log -1 --format=%h "$sha" -- include))"
else
  HEADERS_AT=$(cd "$INCLUDE_DIR" 2>/dev/null && git rev-parse --short HEAD 2>/dev/null || echo "not a git tree")
  if [[ "$HEADERS_AT" != "not a git tree" && -n "$(cd "$INCLUDE_DIR" && git status --porcelain -- . 2>/dev/null)" ]]; then
    HEADERS_AT="$HEADERS_AT + uncommitted changes"
  fi
fi

# If the script is interrupted, stop the compile it started (timeout runs it in a
# process group of its own, which a Ctrl-C of this script does not reach).
CURRENT=
stop_current() {
  if [[ -n "$CURRENT" ]]; then
    local c
    for c in $(pgrep -P "$CURRENT"); do kill -- "-$c" 2>/dev/null || kill "$c" 2>/dev/null; done
    kill "$CURRENT" 2>/dev/null
  fi
  exit 130
}
trap stop_current INT TERM

# compile NAME SRC: compiles SRC to BUILD_DIR/NAME.o under /usr/bin/time -v, limits applied.
# Sets: C_STATUS (ok|failed|oom|timeout), C_WALL, C_USER, C_SYS, C_RSS_MB.
compile() {
  local name="$1" src="$2" tv="$BUILD_DIR/$1.time" log="$BUILD_DIR/$1.log"
  rm -f "$BUILD_DIR/$name.o"
  (
    if [[ "$MEM_LIMIT_MB" != 0 ]]; then ulimit -v $((MEM_LIMIT_MB * 1024)); fi
    # shellcheck disable=SC2086
    exec /usr/bin/time -v -o "$tv" timeout -s KILL "$TIME_LIMIT_S" \
      "$CXX" $CXXFLAGS -I"$INCLUDE_DIR" -c "$src" -o "$BUILD_DIR/$name.o"
  ) >"$log" 2>&1 &
  CURRENT=$!
  wait "$CURRENT"
  local rc=$?
  CURRENT=
  C_WALL=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); s = 0;
                        for (i = 1; i <= n; i++) s = s * 60 + t[i]; printf "%.2f", s}' "$tv")
  C_USER=$(awk -F': ' '/User time/ {printf "%.2f", $2}' "$tv")
  C_SYS=$(awk -F': ' '/System time/ {printf "%.2f", $2}' "$tv")
  C_RSS_MB=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' "$tv")
  if [[ $rc -eq 0 ]]; then
    C_STATUS=ok
  elif grep -qiE "out of memory|virtual memory exhausted|cannot allocate memory|std::bad_alloc" "$log"; then
    C_STATUS=oom
  elif grep -q "Command terminated by signal 9" "$tv" || [[ $rc -eq 137 ]] ||
       grep -q "Killed signal terminated program" "$log"; then
    if awk -v w="$C_WALL" -v l="$TIME_LIMIT_S" 'BEGIN {exit !(w + 1 >= l)}'; then
      C_STATUS=timeout
    else
      C_STATUS=killed  # SIGKILL before the time limit: the kernel's OOM killer
    fi
  else
    C_STATUS=failed
  fi
}

# check NAME: links BUILD_DIR/NAME.o and runs it once. Sets R_STATUS and R_OUT.
check() {
  local name="$1"
  R_OUT=""
  if ! "$CXX" "$BUILD_DIR/$name.o" -o "$BUILD_DIR/$name" -lopenblas >"$BUILD_DIR/$name.link.log" 2>&1; then
    R_STATUS="link failed"
    return
  fi
  if R_OUT=$(OPENBLAS_NUM_THREADS=1 "$BUILD_DIR/$name" 2>&1); then R_STATUS=ok; else R_STATUS="wrong result"; fi
}

if [[ "${1:-}" == "--time-report" ]]; then
  n="${2:?usage: run.sh --time-report N|mlp}"
  if [[ "$n" == mlp ]]; then
    "$PY" "$HERE/gen.py" mlp --include "$INCLUDE_DIR" -o "$BUILD_DIR/mlp.cpp"; src="$BUILD_DIR/mlp.cpp"
  elif [[ "$n" == grad* ]]; then
    "$PY" "$HERE/gen.py" grad "${n#grad}" -o "$BUILD_DIR/$n.cpp"; src="$BUILD_DIR/$n.cpp"
  else
    "$PY" "$HERE/gen.py" chain "$n" -o "$BUILD_DIR/chain_$n.cpp"; src="$BUILD_DIR/chain_$n.cpp"
  fi
  out="$BUILD_DIR/time-report-$n.txt"
  (
    if [[ "$MEM_LIMIT_MB" != 0 ]]; then ulimit -v $((MEM_LIMIT_MB * 1024)); fi
    # shellcheck disable=SC2086
    timeout -s KILL "$TIME_LIMIT_S" "$CXX" $CXXFLAGS -I"$INCLUDE_DIR" -c "$src" -o /dev/null -ftime-report
  ) 2>"$out"
  echo "g++ -ftime-report, $src (full report: $out); top entries by user seconds:"
  grep -E '^ [^ ].*: +[0-9]' "$out" | grep -v 'TOTAL' |
    awk -F': +' '{split($2, f, " "); print f[1] "\t" $0}' | sort -rn | head -15 | cut -f2-
  grep 'TOTAL' "$out"
  exit 0
fi

echo "graph,N,nodes,run,status,wall_s,user_s,sys_s,cpu_s,peak_rss_mb,check" >"$CSV"
ROWS=()

record() {  # graph N nodes run
  local cpu
  cpu=$(awk -v u="$C_USER" -v s="$C_SYS" 'BEGIN {printf "%.2f", u + s}')
  echo "$1,$2,$3,$4,$C_STATUS,$C_WALL,$C_USER,$C_SYS,$cpu,$C_RSS_MB,$R_STATUS" >>"$CSV"
  local st="$C_STATUS"
  case "$C_STATUS" in
    oom) st="**failed: out of memory at the ${MEM_LIMIT_MB} MB limit**" ;;
    timeout) st="**stopped after ${TIME_LIMIT_S} s**" ;;
    killed) st="**killed (SIGKILL, OOM killer)**" ;;
    failed) st="**compile error** (see $BUILD_DIR/$5.log)" ;;
  esac
  ROWS+=("| $1 | $2 | $3 | $4 | $C_WALL | $cpu | $C_RSS_MB | $st | $R_STATUS |")
  echo "  $1 N=$2 run $4: $C_STATUS, wall ${C_WALL} s, cpu ${cpu} s, peak ${C_RSS_MB} MB, check: $R_STATUS ${R_OUT}" >&2
}

one_chain() {  # N run
  local n="$1" run="$2" name="chain_$1_run$2"
  "$PY" "$HERE/gen.py" chain "$n" -o "$BUILD_DIR/chain_$n.cpp" || die "gen.py failed"
  compile "$name" "$BUILD_DIR/chain_$n.cpp"
  R_STATUS="-"; R_OUT=""
  [[ "$C_STATUS" == ok ]] && check "$name"
  # nodes: x0 .. x_N and the literal 2
  record chain "$n" $((n + 2)) "$run" "$name"
}

one_grad() {  # N run
  local n="$1" run="$2" name="grad_$1_run$2"
  "$PY" "$HERE/gen.py" grad "$n" -o "$BUILD_DIR/grad_$n.cpp" || die "gen.py failed"
  compile "$name" "$BUILD_DIR/grad_$n.cpp"
  R_STATUS="-"; R_OUT=""
  [[ "$C_STATUS" == ok ]] && check "$name"
  # nodes: the chain's N + 2, the seed (ones), N - 1 adds and the product g_1 * 2
  record grad "$n" $((2 * n + 3)) "$run" "$name"
}

echo "run.sh: $CXX $CXXFLAGS, headers $INCLUDE_DIR ($HEADERS_AT), limits ${MEM_LIMIT_MB} MB / ${TIME_LIMIT_S} s" >&2
for n in $NS; do one_chain "$n" 1; done
for ((r = 2; r <= REPEAT + 1; r++)); do
  case " $NS " in *" $REPEAT_N "*) one_chain "$REPEAT_N" "$r" ;; esac
done
for n in $GRAD_NS; do one_grad "$n" 1; done
if [[ "$SKIP_MLP" != 1 ]]; then
  "$PY" "$HERE/gen.py" mlp --include "$INCLUDE_DIR" -o "$BUILD_DIR/mlp.cpp" || die "gen.py failed"
  compile mlp_run1 "$BUILD_DIR/mlp.cpp"
  R_STATUS="-"; R_OUT=""
  [[ "$C_STATUS" == ok ]] && check mlp_run1
  # x, 4 x (w, b, matmul or mul, add), 3 relu
  record mlp 4x32 20 1 mlp_run1
  echo "  mlp: $(sed -n 2p "$BUILD_DIR/mlp.cpp")" >&2
fi

echo "Headers: $INCLUDE_DIR at $HEADERS_AT; $CXX $CXXFLAGS; $(date -u +%Y-%m-%dT%H:%MZ)"
echo
echo "| graph | N | nodes | run | compile wall s | compile cpu s (user+sys) | peak MB | compile | binary check |"
echo "|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${ROWS[@]}"

# Budget: every compile of N = 800 under BUDGET_S wall seconds and BUDGET_MB.
verdict=$(awk -F, -v bs="$BUDGET_S" -v bm="$BUDGET_MB" '
  ($1 == "chain" || $1 == "grad") && $2 == 800 { seen = 1
    if ($5 != "ok" || $6 + 0 >= bs || $10 + 0 >= bm) bad = 1 }
  END { if (!seen) print "N=800 not measured"; else if (bad) print "OVER BUDGET"; else print "within budget" }' "$CSV")
echo
echo "Budget (N = 800: < ${BUDGET_S} s wall, < ${BUDGET_MB} MB): $verdict"
echo "CSV: $CSV" >&2
