#!/usr/bin/env bash
# Makes Sources/ContactsCore/FoldTables.swift again from the toolchain's transliterator
# (after a toolchain update changes what it reads: SearchFoldingTests then say so).
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swiftc -O scripts/fold-tables/main.swift -o "$work/fold-tables"
"$work/fold-tables" > "$work/FoldTables.swift"
mv "$work/FoldTables.swift" Sources/ContactsCore/FoldTables.swift
swift format --in-place Sources/ContactsCore/FoldTables.swift
echo "Sources/ContactsCore/FoldTables.swift written"
