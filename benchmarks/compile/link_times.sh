#!/usr/bin/env bash
# link_times.sh <build dir> [linker ...]: relinks every program of a built tree (each target's
# CMake link.txt, in its own directory) with each linker given to -fuse-ld (bfd, gold,
# lld; default "bfd lld"), one link at a time, the output thrown away, and prints the
# programs linked and the wall seconds summed per linker ("CI time: the linker" in
# benchmarks/RESULTS.md). The tree must be built (its objects present).
set -euo pipefail
build=$(cd "${1:?usage: link_times.sh <build dir> [linker ...]}" && pwd)
shift
linkers=("$@")
[ ${#linkers[@]} -gt 0 ] || linkers=(bfd lld)
out=$(mktemp)
trap 'rm -f "$out"' EXIT
status=0
mapfile -t scripts < <(find "$build" -name link.txt -path '*/CMakeFiles/*' | sort)
for linker in "${linkers[@]}"; do
  total=0 linked=0 failed=0 skipped=0
  for script in "${scripts[@]}"; do
    command=$(head -n 1 "$script")
    case "$command" in *" -o "*) ;; *) continue ;; esac  # static libraries: no link
    dir=$(dirname "$(dirname "$(dirname "$script")")")    # <dir>/CMakeFiles/<target>.dir/link.txt
    built=1
    for object in $(grep -o '[^ ]*\.o\b' <<<"$command"); do
      [ -f "$dir/$object" ] || built=0
    done
    if [ "$built" -eq 0 ]; then  # a target this tree does not build
      skipped=$((skipped + 1))
      continue
    fi
    start=$(date +%s.%N)
    if (cd "$dir" && eval "$command -o '$out' -fuse-ld=$linker") >/dev/null 2>&1; then
      end=$(date +%s.%N)
      total=$(echo "$total + $end - $start" | bc)
      linked=$((linked + 1))
    else
      failed=$((failed + 1))
    fi
  done
  printf '%s: %d programs linked in %.1f s (%d failed; %d not built here, skipped)\n' \
    "$linker" "$linked" "$total" "$failed" "$skipped"
  [ "$failed" -eq 0 ] || status=1
done
exit "$status"
