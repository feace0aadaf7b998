#!/usr/bin/env bash
# Installs what is missing, builds contactsd in release mode and runs it in the foreground
# with its defaults (store in $XDG_DATA_HOME/contactsd, socket in $XDG_RUNTIME_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build -c release --product contactsd
# Photos are decoded by a helper process that contactsd finds beside itself.
swift build -c release --product contactsd-imaging
swift build -c release --product contactsctl
echo "contactsctl is at $(pwd)/.build/release/contactsctl" >&2
exec .build/release/contactsd "$@"
