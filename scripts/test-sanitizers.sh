#!/usr/bin/env bash
# Runs the tests that exercise threads under the thread sanitizer: the transport, the store,
# and the end-to-end tests, whose contactsd is built with the sanitizer too (a report in the
# daemon's log fails the test). `scripts/test-sanitizers.sh address` runs the whole suite
# under the address sanitizer instead.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
kind=${1:-thread}
scratch=.build-$kind
# The daemon is built without jemalloc here (CONTACTSD_SANITIZED): the sanitizer's allocator
# takes malloc over, and jemalloc loaded beside it frees what it did not allocate.
flags=(-Xswiftc -DCONTACTSD_SANITIZED)
# (Package.swift reads it too: contactsctl is linked dynamically, as a sanitizer's runtime needs.)
export CONTACTSD_SANITIZED=1
swift build --build-tests --sanitize="$kind" --scratch-path "$scratch" "${flags[@]}"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
filter=()
if [ "$kind" = thread ]; then filter=(--filter "RPCServerTests|ContactStoreTests|SearchTests|SearchScanTests|ParallelTests|ParkedThreadsTests|ParallelParseTests|HelperDecoderTests|LargeImportTests|EndToEndTests"); fi
status=0
# LeakSanitizer counts the one-time allocations behind Swift's lazy globals as leaks: it
# is turned off; use-after-free, overflows and races are what these runs look for.
ASAN_OPTIONS="detect_leaks=0" TSAN_OPTIONS="halt_on_error=0" swift test --skip-build --disable-swift-testing --sanitize="$kind" --scratch-path "$scratch" "${flags[@]}" "${filter[@]}" 2>&1 | tee "$log" || status=$?
if grep -q -E "WARNING: ThreadSanitizer|ERROR: AddressSanitizer" "$log"; then
    echo "the $kind sanitizer reported a finding" >&2
    status=1
fi
scripts/summarize-xctest.sh "$log" "${kind}-sanitizer:"
exit $status
