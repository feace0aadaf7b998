#!/usr/bin/python3
"""evolution-data-server as GNOME Contacts and Evolution use it: the source registry reads the
.source file `contactsctl serve setup-evolution` wrote, an EBookClient opens the book through
EDS's CardDAV backend, and one step is done. Runs on the session bus in the environment (the
test starts a private one). Prints one JSON object.

    eds_client.py SOURCE-UID list
    eds_client.py SOURCE-UID add FULL-NAME EMAIL
    eds_client.py SOURCE-UID retitle FULL-NAME TITLE
    eds_client.py SOURCE-UID remove FULL-NAME
"""
import json
import sys
import time

import gi

gi.require_version("EDataServer", "1.2")
gi.require_version("EBook", "1.2")
gi.require_version("EBookContacts", "1.2")
from gi.repository import EBook, EBookContacts, EDataServer  # noqa: E402


def open_book(uid):
    registry = EDataServer.SourceRegistry.new_sync(None)
    deadline = time.time() + 20
    source = registry.ref_source(uid)
    while source is None and time.time() < deadline:
        time.sleep(0.2)
        source = registry.ref_source(uid)
    if source is None:
        raise SystemExit(json.dumps({"error": f"the registry has no source {uid}"}))
    client = EBook.BookClient.connect_sync(source, 1, None)
    # The backend syncs with the server as it opens; ask again until it has.
    client.refresh_sync(None)
    return client


def contacts(client):
    ok, found = client.get_contacts_sync('(exists "full_name")', None)
    return found if ok else []


def named(client, name, wait=True):
    deadline = time.time() + (20 if wait else 0)
    while True:
        for c in contacts(client):
            if c.get_property("full-name") == name:
                return c
        if time.time() >= deadline:
            raise SystemExit(json.dumps({"error": f"no contact named {name}"}))
        time.sleep(0.3)
        client.refresh_sync(None)


def main():
    uid, step, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    client = open_book(uid)
    if step == "list":
        # The first sync may still be under way: wait until the count settles.
        expected = int(args[0]) if args else 1
        deadline = time.time() + 20
        found = contacts(client)
        while len(found) < expected and time.time() < deadline:
            time.sleep(0.3)
            client.refresh_sync(None)
            found = contacts(client)
        print(json.dumps({"names": sorted(c.get_property("full-name") for c in found)}))
    elif step == "add":
        c = EBookContacts.Contact.new()
        c.set_property("full-name", args[0])
        c.set_property("email-1", args[1])
        ok, uid = client.add_contact_sync(c, EBookContacts.BookOperationFlags.NONE, None)
        print(json.dumps({"uid": uid}))
    elif step == "retitle":
        c = named(client, args[0])
        c.set_property("title", args[1])
        client.modify_contact_sync(c, EBookContacts.BookOperationFlags.NONE, None)
        print(json.dumps({"uid": c.get_property("id")}))
    elif step == "remove":
        c = named(client, args[0])
        client.remove_contact_sync(c, EBookContacts.BookOperationFlags.NONE, None)
        print(json.dumps({"uid": c.get_property("id")}))
    else:
        raise SystemExit(json.dumps({"error": f"no step {step}"}))


main()
