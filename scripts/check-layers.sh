#!/usr/bin/env bash
# check-layers.sh — the layering of include/typeflow (docs/ARCHITECTURE.md):
#
#   core -> graph -> ops -> autodiff -> control -> rnn -> session -> io -> train -> data -> debug -> saved_model -> distributed
#
# A header includes only headers of its own folder and of the folders before it. (The
# design draws ops and autodiff, train and io, debug and saved_model as one tier each; the
# order inside a tier is the one the code needs: autodiff derives from the ops' rules, loops
# (control/) and recurrent cells and their drivers (rnn/) build on ops and autodiff, the
# saver writes the io format, the data readers use io's files and CRC32C, a signature exports its graph through debug/.)
#
# Exempt: the umbrella headers at the top (typeflow.hpp, saved_model.hpp), and forwarding
# headers, which keep an old path working and say so with the line
#   // typeflow: forwarding header
# Known violations that another change removes are listed in scripts/layers-allowed.txt
# ("<header> -> <included header>", one a line, `#` comments); they are printed, not failed.
#
# Internals: a header of folder F keeps its internals in `typeflow::F::detail`; the session
# folder, whose `typeflow::session` is a class template, in `typeflow::session_detail`. A
# header that opens a `detail` namespace anywhere else (`typeflow::detail` included), or a
# `session_detail` outside session/, fails. The nesting is followed through the `namespace`
# lines and the `}  // namespace ...` comment that closes each of them.
#
# Usage: scripts/check-layers.sh [include-dir]. Prints each violation; exits 1 if any is
# not allowed.
set -euo pipefail

root=${1:-"$(cd "$(dirname "$0")/.." && pwd)/include"}
allowed_file="$(dirname "$0")/layers-allowed.txt"
layers=(core graph ops autodiff control rnn session io train data debug saved_model distributed)

rank() {
  local i
  for i in "${!layers[@]}"; do
    [[ ${layers[$i]} == "$1" ]] && { echo "$i"; return; }
  done
  echo -1
}

allowed=()
if [[ -f $allowed_file ]]; then
  while IFS= read -r line; do
    line=${line%%#*}
    line=$(echo "$line" | xargs)
    [[ -n $line ]] && allowed+=("$line")
  done <"$allowed_file"
fi

failed=0
count=0
cd "$root"
while IFS= read -r header; do
  rel=${header#./}
  rel=${rel#typeflow/}
  [[ $rel != */* ]] && continue                     # umbrella headers
  grep -q '^// typeflow: forwarding header' "$header" && continue
  from=${rel%%/*}
  from_rank=$(rank "$from")
  if ((from_rank < 0)); then
    echo "unknown layer: $rel" >&2
    failed=1
    continue
  fi
  while IFS= read -r inc; do
    inc_rel=${inc#typeflow/}
    to=${inc_rel%%/*}
    [[ $inc_rel != */* ]] && to=umbrella
    to_rank=$(rank "$to")
    if [[ $to == umbrella ]] || ((to_rank > from_rank)); then
      entry="$rel -> $inc_rel"
      count=$((count + 1))
      if printf '%s\n' "${allowed[@]+"${allowed[@]}"}" | grep -qxF "$entry"; then
        echo "allowed:   $entry"
      else
        echo "violation: $entry"
        failed=1
      fi
    fi
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\(typeflow\/[^"]*\)".*/\1/p' "$header")
done < <(find ./typeflow -name '*.hpp' | sort)

layers_failed=$failed
failed=0

# Each namespace a header opens, with its full name: "<line>: <name>", or "unbalanced".
namespaces() {
  awk '
    /^[[:space:]]*(inline[[:space:]]+)?namespace([[:space:]]+[A-Za-z_][A-Za-z0-9_:]*)?[[:space:]]*\{/ {
      line = $0
      sub(/^[[:space:]]*(inline[[:space:]]+)?namespace[[:space:]]*/, "", line)
      sub(/[[:space:]]*\{.*/, "", line)
      if (line == "") line = "(anonymous)"
      full = (depth ? stack[depth] "::" : "") line
      stack[++depth] = full
      print NR ": " full
      next
    }
    /^[[:space:]]*\}[[:space:]]*\/\/[[:space:]]*namespace/ {
      if (depth == 0) { print "unbalanced"; exit }
      depth--
    }
    END { if (depth != 0) print "unbalanced" }
  ' "$1"
}

while IFS= read -r header; do
  rel=${header#./typeflow/}
  [[ $rel != */* ]] && continue                     # umbrella headers
  folder=${rel%%/*}
  while IFS= read -r entry; do
    if [[ $entry == unbalanced ]]; then
      echo "namespace: $rel: close each namespace with a '}  // namespace <name>' line"
      failed=1
      continue
    fi
    name=${entry#*: }
    case "::$name::" in
      *::detail::*)
        if [[ $folder == session ]]; then
          ok=0
        else
          [[ $name == "typeflow::$folder::detail" || $name == "typeflow::$folder::detail::"* ]] && ok=1 || ok=0
        fi ;;
      *::session_detail::*)
        [[ $folder == session && ( $name == typeflow::session_detail || $name == typeflow::session_detail::* ) ]] && ok=1 || ok=0 ;;
      *) ok=1 ;;
    esac
    if ((!ok)); then
      if [[ $folder == session ]]; then want=typeflow::session_detail; else want="typeflow::$folder::detail"; fi
      echo "namespace: $rel:${entry%%: *}: internals in $name, not $want"
      failed=1
    fi
  done < <(namespaces "$header")
done < <(find ./typeflow -name '*.hpp' | sort)

if ((layers_failed)); then
  echo "check-layers: a header includes a later layer (see docs/ARCHITECTURE.md)" >&2
fi
if ((failed)); then
  echo "check-layers: a header keeps its internals outside its folder's detail namespace (see docs/ARCHITECTURE.md)" >&2
fi
((layers_failed || failed)) && exit 1
echo "check-layers: ok ($count known exceptions)"
