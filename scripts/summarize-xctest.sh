#!/usr/bin/env bash
# Prints one plain line, "LABEL N passed, M failed[, K skipped]", from the last XCTest count
# in a log.
log=$1
label=${2:-tests:}
summary=$(grep -E "^[[:space:]]*Executed [0-9]+ tests?, with ([0-9]+ tests? skipped and )?[0-9]+ failures?" "$log" | tail -1 || true)
[ -n "$summary" ] || exit 0
total=$(echo "$summary" | sed -E 's/.*Executed ([0-9]+) tests?.*/\1/')
failed=$(echo "$summary" | sed -E 's/.* ([0-9]+) failures?.*/\1/')
skipped=0
if echo "$summary" | grep -q -E "[0-9]+ tests? skipped"; then
    skipped=$(echo "$summary" | sed -E 's/.* ([0-9]+) tests? skipped.*/\1/')
fi
line="$label $((total - failed - skipped)) passed, $failed failed"
[ "$skipped" -gt 0 ] && line="$line, $skipped skipped"
echo "$line"
