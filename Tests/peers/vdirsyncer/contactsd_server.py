"""A server fixture for vdirsyncer's own DAV storage tests (tests/storage/dav/ of its sdist):
each test gets a fresh contactsd (the binary in $CONTACTSD) in a scratch home, serving
CardDAV on a free loopback port, and runs against its book of this machine's contacts.

Installed by scripts/vdirsyncer-storage-tests.sh as tests/storage/servers/contactsd and
chosen with DAV_SERVER=contactsd, as vdirsyncer's CI chooses Radicale or Xandikos.
"""
from __future__ import annotations

import json
import os
import socket
import subprocess
import time
import urllib.request

import pytest


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerMixin:
    @pytest.fixture
    def contactsd_book(self, tmp_path):
        home = tmp_path / "home"
        for d in ("config/contactsd", "data", "cache", "run"):
            (home / d).mkdir(parents=True)
        (home / "run").chmod(0o700)
        port = free_port()
        (home / "config/contactsd/config.json").write_text(json.dumps({"carddav": {"listen": f"127.0.0.1:{port}"}}))
        env = dict(os.environ, HOME=str(home), XDG_CONFIG_HOME=str(home / "config"), XDG_DATA_HOME=str(home / "data"),
                   XDG_CACHE_HOME=str(home / "cache"), XDG_RUNTIME_DIR=str(home / "run"))
        env.pop("NOTIFY_SOCKET", None)
        env.pop("LISTEN_FDS", None)
        log = open(home / "daemon.log", "wb")
        daemon = subprocess.Popen([os.environ["CONTACTSD"]], env=env, stdout=log, stderr=log)
        url = f"http://127.0.0.1:{port}/books/local/"
        deadline = time.time() + 20
        while True:
            try:
                urllib.request.urlopen(urllib.request.Request(url, method="OPTIONS"), timeout=2)
                break
            except OSError:
                if time.time() > deadline or daemon.poll() is not None:
                    daemon.kill()
                    raise RuntimeError("contactsd did not serve " + url + ": " + (home / "daemon.log").read_text())
                time.sleep(0.05)
        yield url
        daemon.terminate()
        daemon.wait(timeout=20)
        log.close()

    @pytest.fixture
    def get_storage_args(self, contactsd_book, aio_connector):
        async def inner(collection="test"):
            # contactsd's books are this machine's and one per sync account: a client does
            # not make new ones (no MKCOL), so tests that create collections do not apply.
            if collection != "test":
                pytest.skip("contactsd serves its own books; a client does not create collections")
            return {"url": contactsd_book, "connector": aio_connector}

        return inner
