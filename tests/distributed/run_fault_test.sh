#!/usr/bin/env bash
# Runs an MPI job that is meant to fail, and checks how it ends:
#   run_fault_test.sh MAX_SECONDS STATUS EXECUTABLE [PATTERN...] -- COMMAND...
# COMMAND (mpiexec ... EXECUTABLE) must end within MAX_SECONDS, with exit status STATUS (a
# number, or "nonzero"), its output (stdout and stderr) matching every extended regular
# expression PATTERN, and leave no process running EXECUTABLE. A job still running 30 s
# after MAX_SECONDS is stopped (SIGTERM to mpiexec, which ends its ranks; SIGKILL 5 s
# later), and the test fails.
set -u
max_seconds=$1 expected=$2 executable=$3
shift 3
patterns=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do patterns+=("$1"); shift; done
[ $# -gt 1 ] || { echo "usage: run_fault_test.sh MAX_SECONDS STATUS EXECUTABLE [PATTERN...] -- COMMAND..."; exit 2; }
shift

output=$(mktemp)
trap 'rm -f "$output"' EXIT
start=$(date +%s.%N)
timeout --kill-after=5 $((max_seconds + 30)) "$@" >"$output" 2>&1
status=$?
elapsed=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
cat "$output"
echo "run_fault_test.sh: exit status $status after $elapsed s"

failed=0
if awk -v e="$elapsed" -v m="$max_seconds" 'BEGIN { exit !(e >= m) }'; then
  echo "run_fault_test.sh: FAILED: the job took $elapsed s, not less than $max_seconds s"
  failed=1
fi
if [ "$expected" = nonzero ]; then
  [ "$status" -ne 0 ] || { echo "run_fault_test.sh: FAILED: exit status 0, expected nonzero"; failed=1; }
elif [ "$status" -ne "$expected" ]; then
  echo "run_fault_test.sh: FAILED: exit status $status, expected $expected"
  failed=1
fi
for p in "${patterns[@]}"; do
  grep -Eq -- "$p" "$output" || { echo "run_fault_test.sh: FAILED: no line of the output matches: $p"; failed=1; }
done

# Processes still running the executable (by /proc/<pid>/exe), given 5 s to go.
target=$(readlink -f "$executable")
strays() {
  find /proc -mindepth 2 -maxdepth 2 -name exe -lname "$target" 2>/dev/null | cut -d/ -f3
}
for _ in $(seq 50); do
  [ -z "$(strays)" ] && break
  sleep 0.1
done
left=$(strays)
if [ -n "$left" ]; then
  echo "run_fault_test.sh: FAILED: processes of $target left running: $left (killed)"
  for pid in $left; do kill -KILL "$pid" 2>/dev/null; done
  failed=1
fi
exit $failed
