#!/usr/bin/env python3
"""Keeps the list of favorites current: opens a view, then applies and prints each change.

With a number, stops once the list holds that many contacts."""
import json
import os
import socket
import sys

path = os.environ.get("CONTACTSD_SOCKET") or os.path.join(os.environ["XDG_RUNTIME_DIR"], "contactsd.sock")
sock = socket.socket(socket.AF_UNIX)
sock.connect(path)
lines = sock.makefile("r", encoding="utf-8")


def call(method, params):
    sock.sendall((json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}) + "\n").encode())
    while True:  # notifications that come first are for later: this example has none yet
        message = json.loads(lines.readline())
        if message.get("id") == 1:
            return message["result"]


def take(window):
    return [c["id"] for c in window["contacts"]], {c["id"]: c["name"] for c in window["contacts"]}


window = call("views.open", {"query": {"favoritesOnly": True}, "fields": ["name"]})
view, (ids, names) = window["view"], take(window)
print("favorites:", ", ".join(names[i] for i in ids), flush=True)
while len(sys.argv) < 2 or len(ids) != int(sys.argv[1]):
    message = json.loads(lines.readline())
    change = message["params"]
    if message["method"] == "view.reset":
        ids, names = take(call("views.read", {"view": view}))
    elif message["method"] == "view.changed":
        gone = set(change["removed"]) | {m["id"] for m in change["moved"]}
        ids = [i for i in ids if i not in gone]
        for entry in sorted(change["added"] + [{"id": m["id"], "index": m["to"]} for m in change["moved"]],
                            key=lambda e: e["index"]):
            ids.insert(entry["index"], entry["id"])
        for entry in change["added"] + change["changed"]:
            names[entry["id"]] = entry["contact"]["name"]
    print("favorites:", ", ".join(names[i] for i in ids), flush=True)
