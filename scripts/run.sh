#!/usr/bin/env bash
# Installs what is missing, builds contactsd in release mode and runs it in the foreground
# with its defaults (store in $XDG_DATA_HOME/contactsd, socket in $XDG_RUNTIME_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
# contactsd, the photo helper it finds beside itself, and contactsctl with the full client it
# runs, linked as installed.
make --no-print-directory build CONFIG=release
bin=$(make --no-print-directory bin-dir CONFIG=release)
echo "contactsctl is at $bin/contactsctl" >&2
exec "$bin/contactsd" "$@"
