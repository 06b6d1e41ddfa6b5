# benchmarks/common.sh — sourced by the benchmarks' run.sh scripts.

# install_missing_packages PKG...: installs with apt-get (through sudo unless root) the
# Debian packages of the list that are not installed; prints what it installs on stderr.
install_missing_packages() {
  local p missing=() as_root=()
  for p in "$@"; do
    [ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)" = installed ] || missing+=("$p")
  done
  [ ${#missing[@]} -gt 0 ] || return 0
  [ "$(id -u)" -eq 0 ] || as_root=(sudo)
  echo "run.sh: installing ${missing[*]}" >&2
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update >&2
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >&2
}
