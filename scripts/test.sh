#!/usr/bin/env bash
# Installs what is missing and runs every test: unit tests of each module and end-to-end
# tests that drive the built contactsd and contactsctl over a real socket.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build --build-tests
swift test --skip-build "$@"
