#!/usr/bin/env bash
# The README's first command: `bash scripts/demo.sh [firestore demo options...]`.
#
# Installs the C libraries the build needs when they are missing and it runs as root
# (otherwise prints the command that does), then `swift run firestore demo`: on an
# in-process mock server, or on the emulator at FIRESTORE_EMULATOR_HOST when it is set.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/packages.sh
source "$ROOT/scripts/packages.sh"

cd "$ROOT"
ensure_swift
ensure_packages build
exec swift run firestore demo "$@"
