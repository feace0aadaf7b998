#!/bin/sh
# Puts the options the command tree declares into the man page, between its markers:
# scripts/man-options.sh CONTACTSCTL MANPAGE
set -eu
ctl=$1 page=$2
generated=$(mktemp)
trap 'rm -f "$generated" "$generated.page"' EXIT
"$ctl" completions man > "$generated"
awk -v gen="$generated" '
    /^\.\\" Generated from the command tree/ { while ((getline line < gen) > 0) print line; skip = 1; next }
    skip && /^\.\\" End of the generated options\./ { skip = 0; next }
    !skip { print }
' "$page" > "$generated.page"
grep -q 'Generated from the command tree' "$generated.page" || { echo "$page has no generated options block" >&2; exit 1; }
cat "$generated.page" > "$page"
