#!/usr/bin/env bash
# Prints one plain line, "LABEL N passed, M failed", from the last XCTest count in a log.
log=$1
label=${2:-tests:}
summary=$(grep -E "^[[:space:]]*Executed [0-9]+ tests?, with [0-9]+ failures?" "$log" | tail -1 || true)
[ -n "$summary" ] || exit 0
total=$(echo "$summary" | sed -E 's/.*Executed ([0-9]+) tests?.*/\1/')
failed=$(echo "$summary" | sed -E 's/.*with ([0-9]+) failures?.*/\1/')
echo "$label $((total - failed)) passed, $failed failed"
