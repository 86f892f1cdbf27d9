# shellcheck shell=bash
# The system packages the build and the tests need, and the one way they are installed:
# sourced by scripts/demo.sh and scripts/test.sh.
#
#   ensure_packages build   the C libraries the build links (a missing one is an error)
#   ensure_packages test    those, and the intermediaries the tests start (a missing one
#                           only means those tests cannot run here)
#
# As root with apt-get, what is missing is installed; otherwise the one command that
# installs it is printed.

BUILD_PACKAGES=(libcurl4-openssl-dev zlib1g-dev libssl-dev libsqlite3-dev)
TEST_PACKAGES=(nghttp2-proxy tinyproxy openssl)

package_installed() {
  [[ $(dpkg-query -W -f='${Status}' "$1" 2>/dev/null) == "install ok installed" ]]
}

# Puts the toolchain on PATH where the Swift images install it, or fails saying so.
ensure_swift() {
  if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then
    export PATH="/opt/swift/usr/bin:$PATH"
  fi
  command -v swift >/dev/null 2>&1 || {
    printf 'error: swift not found on PATH (install a Swift 6 toolchain)\n' >&2
    exit 1
  }
}

ensure_packages() { # $1 = build | test
  command -v dpkg-query >/dev/null 2>&1 || return 0 # not Debian: nothing to check
  local -a wanted=("${BUILD_PACKAGES[@]}") missing=() still=()
  local p
  [[ ${1:-build} == test ]] && wanted+=("${TEST_PACKAGES[@]}")
  for p in "${wanted[@]}"; do
    package_installed "$p" || missing+=("$p")
  done
  ((${#missing[@]})) || return 0
  if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null 2>&1; then
    printf '==> installing missing packages: %s\n' "${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq || true
    apt-get install -y -qq --no-install-recommends "${missing[@]}" || true
  fi
  for p in "${BUILD_PACKAGES[@]}"; do
    package_installed "$p" || still+=("$p")
  done
  if ((${#still[@]})); then
    printf 'error: the build needs %s: install with: sudo apt-get install %s\n' "${still[*]}" "${still[*]}" >&2
    exit 1
  fi
  [[ ${1:-build} == test ]] || return 0
  for p in "${TEST_PACKAGES[@]}"; do
    package_installed "$p" || echo "note: $p is not installed (sudo apt-get install $p); the tests that need it will not run"
  done
}
