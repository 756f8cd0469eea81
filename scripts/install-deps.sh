#!/usr/bin/env bash
# Installs every Debian 12 package dq needs to build, run and test. Idempotent: packages already
# present are skipped, and apt is not touched at all when nothing is missing. Nothing is fetched
# from anywhere but Debian's archive.
#
#   scripts/install-deps.sh            build + run + test dependencies
#   scripts/install-deps.sh --bench    also the load-generation tools used by bench/ and the
#                                      pandas peer script (bench/tools/peer_pandas.py)
#   scripts/install-deps.sh --fuzz     also clang and its sanitizer/fuzzer runtime
#   scripts/install-deps.sh --crosscheck  also the reference implementations the rule cross-check
#                                         (tests/crosscheck, docs/crosscheck.md) compares against
#   scripts/install-deps.sh --browser  also Chromium, ChromeDriver and Selenium for the console's
#                                      browser tests
#   scripts/install-deps.sh --s3       also Ceph's RADOS Gateway (ceph-mon, ceph-osd, radosgw,
#                                      ceph-common: ~264 MB), the real S3 server the S3 artifact
#                                      store's integration tests run against (scripts/start-rgw.sh)
#   scripts/install-deps.sh --node     also Node.js tools used only by tests and linters (OpenAPI
#                                      linters, the Standard Webhooks verifier, axe-core), pinned in
#                                      scripts/package.json and installed into scripts/node_modules
set -euo pipefail

packages=(
  # toolchain
  build-essential cmake ninja-build pkgconf ccache git ca-certificates python3 curl
  # RPC and serialisation
  protobuf-compiler protobuf-compiler-grpc libprotobuf-dev libgrpc++-dev libabsl-dev
  # HTTP server, Redis (and Sentinel: the failover tests), crypto, JSON, HTTP client
  libpistache-dev libhiredis-dev redis-server redis-tools redis-sentinel libssl-dev
  nlohmann-json3-dev
  libcurl4-openssl-dev
  # rule data: phone numbers (libphonenumber, and RE2 for the engine's phone fast path), ISO
  # country and currency lists, UUIDs
  libphonenumber-dev libre2-dev iso-codes uuid-dev
  # passwords (argon2; john-data's list of common passwords, embedded at build time), IDNA
  # (libidn2 + libunistring), CLI parsing; simdjson (the /v1/validate reader)
  libargon2-dev john-data libidn2-dev libunistring-dev libcli11-dev libsimdjson-dev
  # upload formats: XLSX (zip + XML), gzip, encoding detection; zstd (job pieces in Redis)
  libzip-dev libexpat1-dev zlib1g-dev libuchardet-dev libzstd-dev
  # the console's browser libraries, copied into the image; nothing comes from a CDN
  libjs-bootstrap5 libjs-chart.js
  # tests and benchmarks; shellcheck for the scripts and Universal Ctags for the functions'
  # lengths (tests/lint)
  libgtest-dev libgmock-dev libbenchmark-dev shellcheck universal-ctags
  # example clients and test fixtures (examples/, XLSX corpus)
  python3-requests python3-openpyxl nodejs
)
node_tools=0
for arg in "$@"; do
  case "$arg" in
    --bench) packages+=(wrk linux-perf hyperfine python3-pandas python3-stdnum python3-phonenumbers) ;;
    --fuzz) packages+=(clang libclang-rt-14-dev) ;;
    --crosscheck)
      packages+=(python3-stdnum python3-phonenumbers python3-email-validator python3-pycountry) ;;
    --browser) packages+=(chromium chromium-driver python3-selenium libreoffice-calc-nogui) ;;
    --s3) packages+=(ceph-mon ceph-osd radosgw ceph-common) ;;
    --node) packages+=(nodejs); node_tools=1 ;;
    *) echo "install-deps: unknown option $arg" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
install_node_tools() {
  # Test and lint tools only; never used at run time. npm ci reproduces package-lock.json exactly.
  local dir
  dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
  if [ ! -f "$dir/node_modules/.package-lock.json" ] ||
    ! cmp -s <(sed -n '/"packages"/,$p' "$dir/package-lock.json" | md5sum) "$dir/node_modules/.dq-lock-sum"; then
    echo "install-deps: installing Node.js test tools (scripts/package.json)" >&2
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
    sed -n '/"packages"/,$p' "$dir/package-lock.json" | md5sum >"$dir/node_modules/.dq-lock-sum"
  fi
}

if [ ${#missing[@]} -eq 0 ]; then
  [ "$node_tools" = 0 ] || install_node_tools
  exit 0
fi

echo "install-deps: installing ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# --no-install-recommends: Recommends would drag in daemons and hundreds of MB we never use.
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
[ "$node_tools" = 0 ] || install_node_tools
