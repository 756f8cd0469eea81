#!/usr/bin/env bash
# Installs every Debian 12 package dq needs to build, run and test. Idempotent: packages already
# present are skipped, and apt is not touched at all when nothing is missing. Nothing is fetched
# from anywhere but Debian's archive.
#
#   scripts/install-deps.sh            build + run + test dependencies
#   scripts/install-deps.sh --bench    also the load-generation tools used by bench/
#   scripts/install-deps.sh --fuzz     also clang and its sanitizer/fuzzer runtime
#   scripts/install-deps.sh --crosscheck  also the reference implementations the rule cross-check
#                                         (tests/crosscheck, docs/crosscheck.md) compares against
set -euo pipefail

packages=(
  # toolchain
  build-essential cmake ninja-build pkgconf ccache git ca-certificates python3 curl
  # RPC and serialisation
  protobuf-compiler protobuf-compiler-grpc libprotobuf-dev libgrpc++-dev
  # HTTP server, Redis, crypto, JSON, HTTP client
  libpistache-dev libhiredis-dev redis-server redis-tools libssl-dev nlohmann-json3-dev
  libcurl4-openssl-dev
  # rule data: phone numbers, ISO country and currency lists, UUIDs
  libphonenumber-dev iso-codes uuid-dev
  # tests and benchmarks
  libgtest-dev libgmock-dev libbenchmark-dev
)
for arg in "$@"; do
  case "$arg" in
    --bench) packages+=(wrk) ;;
    --fuzz) packages+=(clang libclang-rt-14-dev) ;;
    --crosscheck)
      packages+=(python3-stdnum python3-phonenumbers python3-email-validator python3-pycountry) ;;
    *) echo "install-deps: unknown option $arg" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# --no-install-recommends: Recommends would drag in daemons and hundreds of MB we never use.
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
