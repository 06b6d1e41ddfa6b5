#!/usr/bin/env bash
# Installs the Debian 12 packages that typeflow's build, tests and examples need, and only
# those not installed yet (so a second run does nothing). Runs apt-get as root, or through
# sudo otherwise. Nothing else is downloaded, at any time.
set -euo pipefail

packages=(
  g++ make cmake pkg-config          # toolchain
  lld                                # the tests' linker (scripts/test.sh)
  libboost-dev                       # Boost.Mp11 and Boost.Hana
  libxtensor-dev libxtensor-blas-dev # tensors, BLAS bindings
  libopenblas-dev                    # the BLAS typeflow links
  libcereal-dev                      # checkpoints
  doctest-dev                        # unit tests
  libbenchmark-dev                   # benchmarks
  dataset-fashion-mnist              # data of the flagship example
  zlib1g-dev                         # reading the dataset's gzip files
  clang libclang-rt-14-dev           # libFuzzer (checkpoint loader fuzzing, tests/fuzz/)
  clang-19                           # the second tested compiler (build-clang/, scripts/test.sh)
  libclang-rt-19-dev                 # its sanitizer runtimes (build-asan/)
  libopenmpi-dev openmpi-bin         # data-parallel training (typeflow::mpi, tests/distributed/)
)

missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null || true)
  if [ "$status" != installed ]; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} Debian packages are installed"
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  echo "install-deps: missing ${missing[*]}; run as root or install sudo" >&2
  exit 1
fi

echo "install-deps: installing ${missing[*]}"
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y --no-install-recommends "${missing[@]}"
