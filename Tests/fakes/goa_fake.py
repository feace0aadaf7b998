"""GNOME Online Accounts for tests, on the session bus the test gives (DBUS_SESSION_BUS_ADDRESS).

It owns org.gnome.OnlineAccounts and serves what contactsd uses of GOA's documented D-Bus
interface: the ObjectManager at /org/gnome/OnlineAccounts (GetManagedObjects), each account
at /org/gnome/OnlineAccounts/Accounts/account_N with org.gnome.OnlineAccounts.Account
(ProviderType, Identity, PresentationIdentity, ContactsDisabled, AttentionNeeded) and
org.gnome.OnlineAccounts.OAuth2Based (GetAccessToken, answering the token given for it).

Usage: goa_fake.py ACCOUNTS_JSON
  ACCOUNTS_JSON: a file with [{"provider": "google", "identity": "kate@example.com",
  "token": "good-token", "contactsDisabled": false}, ...]; it is read again on each call, so a
  test may change it (switch contacts off, remove an account) while the service runs; the
  accounts' objects are those of the start.
"""

import json
import sys

from gi.repository import Gio, GLib

XML = """
<node>
  <interface name="org.freedesktop.DBus.ObjectManager">
    <method name="GetManagedObjects"><arg type="a{oa{sa{sv}}}" direction="out"/></method>
  </interface>
  <interface name="org.gnome.OnlineAccounts.OAuth2Based">
    <method name="GetAccessToken"><arg type="s" direction="out"/><arg type="i" direction="out"/></method>
  </interface>
</node>
"""


def accounts():
    with open(sys.argv[1]) as f:
        return json.load(f)


def path(i):
    return "/org/gnome/OnlineAccounts/Accounts/account_%d" % (1700000000 + i)


def managed():
    out = {}
    for i, a in enumerate(accounts()):
        out[path(i)] = {
            "org.gnome.OnlineAccounts.Account": {
                "ProviderType": GLib.Variant("s", a.get("provider", "google")),
                "ProviderName": GLib.Variant("s", "Google"),
                "Identity": GLib.Variant("s", a["identity"]),
                "PresentationIdentity": GLib.Variant("s", a["identity"]),
                "ContactsDisabled": GLib.Variant("b", a.get("contactsDisabled", False)),
                "AttentionNeeded": GLib.Variant("b", a.get("attentionNeeded", False)),
                "Id": GLib.Variant("s", "account_%d" % (1700000000 + i)),
            },
            "org.gnome.OnlineAccounts.OAuth2Based": {"ClientId": GLib.Variant("s", "goa-client")},
        }
    return out


def call(connection, sender, object_path, interface, method, params, invocation):
    if interface == "org.freedesktop.DBus.ObjectManager" and method == "GetManagedObjects":
        invocation.return_value(GLib.Variant("(a{oa{sa{sv}}})", (managed(),)))
        return
    if interface == "org.gnome.OnlineAccounts.OAuth2Based" and method == "GetAccessToken":
        for i, a in enumerate(accounts()):
            if path(i) == object_path:
                if a.get("attentionNeeded"):
                    invocation.return_dbus_error("org.gnome.OnlineAccounts.Error.NotAuthorized", "The account needs attention")
                else:
                    invocation.return_value(GLib.Variant("(si)", (a.get("token", "good-token"), 3600)))
                return
        invocation.return_dbus_error("org.freedesktop.DBus.Error.UnknownObject", "No such account")
        return
    invocation.return_dbus_error("org.freedesktop.DBus.Error.UnknownMethod", method)


def main():
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    info = Gio.DBusNodeInfo.new_for_xml(XML)
    bus.register_object("/org/gnome/OnlineAccounts", info.interfaces[0], call, None, None)
    # Each account's object (those of the start; one removed later answers no token).
    for i, _ in enumerate(accounts()):
        bus.register_object(path(i), info.interfaces[1], call, None, None)
    loop = GLib.MainLoop()
    Gio.bus_own_name_on_connection(bus, "org.gnome.OnlineAccounts", Gio.BusNameOwnerFlags.NONE, lambda *a: print("ready", flush=True), lambda *a: loop.quit())
    loop.run()


if __name__ == "__main__":
    main()
