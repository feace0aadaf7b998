#!/usr/bin/env bash
# Installs into a scratch prefix and checks the user units with systemd-analyze.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -m 0700 "$scratch/runtime"
make --no-print-directory install PREFIX="$scratch/prefix" CONFIG="${CONFIG:-debug}" >/dev/null
MANPATH="$scratch/prefix/share/man" XDG_RUNTIME_DIR="$scratch/runtime" systemd-analyze --user verify \
    "$scratch/prefix/share/systemd/user/contactsd.socket" "$scratch/prefix/share/systemd/user/contactsd-carddav.socket" \
    "$scratch/prefix/share/systemd/user/contactsd.service"
make --no-print-directory uninstall PREFIX="$scratch/prefix" >/dev/null
left=$(find "$scratch/prefix" -type f | wc -l)
if [ "$left" -ne 0 ]; then
    echo "uninstall left files behind:" >&2
    find "$scratch/prefix" -type f >&2
    exit 1
fi
echo "units verified; install and uninstall are clean"
