#!/usr/bin/env bash
# Installs what building, running, testing and benchmarking contactsd needs (abook is a peer
# the benchmark measures beside contactsctl; evolution-data-server with its Python bindings,
# dbus-daemon and litmus are the CardDAV face's peers; GnuTLS's and libqrencode's headers build the
# LAN face and its QR codes, and gnutls-bin, openssl, zbar-tools, iproute2 and Avahi are its tests'
# peers, network namespaces and DNS-SD; libsecret keeps a Google sign-in in the Secret Service,
# whose tests run gnome-keyring on a private session bus and read it back with secret-tool),
# and nothing that is already there.
set -euo pipefail

packages=(libsqlite3-dev libsystemd-dev libvips-dev libjemalloc-dev libcurl4-openssl-dev libphonenumber-dev libmicrohttpd-dev curl systemd socat python3 python3-pip make man-db bash-completion zsh fish abook
    evolution-data-server gir1.2-ebook-1.2 gir1.2-edataserver-1.2 python3-gi dbus-daemon litmus
    libgnutls28-dev libqrencode-dev gnutls-bin openssl zbar-tools iproute2 avahi-daemon avahi-utils
    libsecret-1-0 gnome-keyring libsecret-tools
    libgmime-3.0-0 notmuch lbdb neomutt aerc tmux)
missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
# systemd-socket-activate ships with systemd; a minimal image may lack it.
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    echo "Installing: ${missing[*]}" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The JSON-RPC conformance check validates rpc.discover with jsonschema; the export tests
# have a third-party parser (vobject) read what contactsd writes.
for module in jsonschema vobject; do
    if ! python3 -c "import $module" 2>/dev/null; then
        echo "Installing the Python package $module" >&2
        python3 -m pip install --quiet "$module" 2>/dev/null \
            || python3 -m pip install --quiet --break-system-packages "$module"
    fi
done

# The sync tests run real CardDAV servers on 127.0.0.1: Radicale and Xandikos, from PyPI,
# in a virtual environment of the project's own (.venv), made once; the benchmark measures
# vdirsyncer beside contactsd.
venv="$(cd "$(dirname "$0")/.." && pwd)/.venv"
if [ ! -x "$venv/bin/radicale" ] || [ ! -x "$venv/bin/xandikos" ] || [ ! -x "$venv/bin/vdirsyncer" ] || [ ! -x "$venv/bin/khard" ]; then
    if ! python3 -c "import venv, ensurepip" 2>/dev/null; then
        sudo=""
        [ "$(id -u)" -ne 0 ] && sudo="sudo"
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends python3-venv >/dev/null
    fi
    echo "Installing Radicale, Xandikos, vdirsyncer and khard into $venv" >&2
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "radicale==3.9.*" "xandikos==0.4.*" "vdirsyncer==0.21.*" "khard==0.19.*"
fi

# khal reads the birthday calendar the daemon keeps (its end-to-end test).
if [ ! -x "$venv/bin/khal" ]; then
    echo "Installing khal into $venv" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "khal==0.13.*"
fi
# vdirsyncer's own CardDAV storage tests run against contactsd (Tests/peers/vdirsyncer): its
# sdist's tests/ and what they import.
if ! "$venv/bin/python" -c "import pytest, pytest_asyncio, hypothesis, pytest_httpserver, trustme, aioresponses" 2>/dev/null; then
    echo "Installing vdirsyncer's test requirements into $venv" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "pytest==9.*" "pytest-asyncio==1.*" "hypothesis>=6.72,<7" \
        pytest-httpserver trustme aioresponses
fi
if [ ! -d "$venv/src/vdirsyncer-0.21.0/tests/storage/dav" ]; then
    echo "Fetching vdirsyncer 0.21.0's source (for its storage tests) into $venv/src" >&2
    mkdir -p "$venv/src"
    "$venv/bin/python" -m pip download --quiet --disable-pip-version-check --no-binary :all: --no-deps -d "$venv/src" "vdirsyncer==0.21.0"
    tar -xzf "$venv/src/vdirsyncer-0.21.0.tar.gz" -C "$venv/src"
fi

if ! command -v swift >/dev/null; then
    echo "swift is not on PATH: contactsd needs the Swift 6 toolchain." >&2
    exit 1
fi
