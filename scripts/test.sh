#!/usr/bin/env bash
# Installs what is missing and runs every test: unit tests of each module, end-to-end tests
# that drive the built contactsd and contactsctl over a real socket, and a check of the
# systemd units as installed. Arguments go to `swift test` (then the unit check is skipped).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build --build-tests
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
swift test --skip-build --disable-swift-testing "$@" 2>&1 | tee "$log" || status=$?
if [ $# -eq 0 ]; then
    scripts/verify-units.sh || status=$?
fi
# One plain summary line at the end, from XCTest's own count.
scripts/summarize-xctest.sh "$log" tests:
exit $status
