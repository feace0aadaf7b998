"""A CardDAV server for tests, playing a hosted service that cannot run here.

It keeps one address book in memory and behaves as the service is documented to:

  google  bearer tokens only (plus Basic for the test's "other device"); sync-collection
          needs Depth: 1 and refuses an empty token (a client starts from the collection's
          own sync-token and a listing); If-Match and If-None-Match are ignored; a new card
          is stored under a name and UID of the server's choosing (the new href in
          Location); CATEGORIES are dropped (no groups).
  icloud  Basic auth; vCard 3.0 only; Apple group cards (X-ADDRESSBOOKSERVER-KIND:group)
          are ordinary cards; the collection itself is listed in its own sync delta;
          cards over --max-card-bytes are refused with 413.

Both ignore address-data asked for in a sync-collection (the cards come by multiget).
With --no-sync-collection the book offers only getctag and listings. With --page N a
sync-collection answers at most N changes, the collection itself with 507 and the token of
the last change sent (RFC 6578 section 3.6), as servers with a result limit do.

Usage: carddav_fake.py PERSONA PORT [--max-card-bytes N] [--no-sync-collection] [--page N]
"""

import base64
import hashlib
import re
import sys
import threading
import uuid
import xml.etree.ElementTree as ET
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote, urlparse

DAV = "DAV:"
CARD = "urn:ietf:params:xml:ns:carddav"
CS = "http://calendarserver.org/ns/"
USER = "kate"
PASSWORD = "secret"
TOKEN = "good-token"


class Book:
    def __init__(self, persona, path):
        self.persona = persona
        self.path = path
        self.cards = {}  # href -> (etag, text)
        self.log = []  # (seq, href)
        self.seq = 1
        self.lock = threading.Lock()

    def token(self):
        return "https://fake.example/sync/%d" % self.seq

    def ctag(self):
        return '"ctag-%d"' % self.seq

    def changed(self, href):
        self.seq += 1
        self.log.append((self.seq, href))


def etag_of(text):
    return '"%s"' % hashlib.sha1(text.encode()).hexdigest()[:16]


def props_xml(pairs):
    out = []
    for tag, value in pairs:
        out.append("<%s>%s</%s>" % (tag, value, tag.split(" ")[0]))
    return "".join(out)


def escape(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "fake-carddav"

    def log_message(self, fmt, *args):
        sys.stderr.write("%s %s\n" % (self.command, self.path))

    @property
    def book(self):
        return self.server.book

    def body(self):
        n = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(n) if n else b""

    def answer(self, status, text="", headers=None, ctype="application/xml; charset=utf-8"):
        data = text.encode()
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        if data:
            self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def authorised(self):
        auth = self.headers.get("Authorization") or ""
        basic = "Basic " + base64.b64encode(("%s:%s" % (USER, PASSWORD)).encode()).decode()
        if auth == basic and (self.book.persona == "icloud" or self.server.basic_for_tests):
            return True
        if self.book.persona == "google" and auth == "Bearer " + TOKEN:
            return True
        challenge = 'Bearer realm="fake"' if self.book.persona == "google" else 'Basic realm="fake"'
        self.answer(401, "", {"WWW-Authenticate": challenge})
        return False

    def multistatus(self, responses, token=None):
        text = '<?xml version="1.0" encoding="UTF-8"?><d:multistatus xmlns:d="DAV:" xmlns:c="%s" xmlns:cs="%s">' % (CARD, CS)
        text += "".join(responses)
        if token:
            text += "<d:sync-token>%s</d:sync-token>" % token
        text += "</d:multistatus>"
        self.answer(207, text)

    @staticmethod
    def response(href, props=None, status=None, missing=()):
        out = "<d:response><d:href>%s</d:href>" % escape(href)
        if status:
            out += "<d:status>HTTP/1.1 %s</d:status>" % status
        if props is not None:
            out += "<d:propstat><d:prop>%s</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>" % props
        if missing:
            out += "<d:propstat><d:prop>%s</d:prop><d:status>HTTP/1.1 404 Not Found</d:status></d:propstat>" % "".join(missing)
        return out + "</d:response>"

    def path_only(self):
        return unquote(urlparse(self.path).path)

    def book_props(self):
        b = self.book
        reports = "<d:supported-report><d:report><c:addressbook-multiget/></d:report></d:supported-report>"
        if self.server.sync_collection:
            reports += "<d:supported-report><d:report><d:sync-collection/></d:report></d:supported-report>"
        props = (
            "<d:resourcetype><d:collection/><c:addressbook/></d:resourcetype>"
            + "<d:displayname>%s</d:displayname>" % ("Address Book" if b.persona == "google" else "Contacts")
            + "<cs:getctag>%s</cs:getctag>" % b.ctag()
            + "<d:supported-report-set>%s</d:supported-report-set>" % reports
            + '<c:supported-address-data><c:address-data-type content-type="text/vcard" version="3.0"/></c:supported-address-data>'
        )
        if self.server.sync_collection:
            props += "<d:sync-token>%s</d:sync-token>" % b.token()
        return props

    def do_OPTIONS(self):
        self.answer(200, "", {"DAV": "1, 3, addressbook", "Allow": "OPTIONS, GET, PUT, DELETE, PROPFIND, REPORT"})

    def do_PROPFIND(self):
        if not self.authorised():
            return
        self.body()
        path = self.path_only()
        depth = self.headers.get("Depth", "infinity")
        b = self.book
        principal = "/principals/%s/" % USER
        home = "/home/%s/" % USER
        if path in ("/", "/.well-known/carddav"):
            return self.multistatus([self.response(path, "<d:current-user-principal><d:href>%s</d:href></d:current-user-principal>" % principal)])
        if path == principal:
            return self.multistatus([self.response(path, "<c:addressbook-home-set><d:href>%s</d:href></c:addressbook-home-set>" % home)])
        if path == home:
            out = [self.response(home, "<d:resourcetype><d:collection/></d:resourcetype>")]
            if depth == "1":
                out.append(self.response(b.path, self.book_props()))
            return self.multistatus(out)
        if path.rstrip("/") + "/" != b.path:
            return self.answer(404)
        with b.lock:
            out = [self.response(b.path, self.book_props())]
            if depth == "1":
                for href, (etag, _) in sorted(b.cards.items()):
                    out.append(self.response(href, "<d:getetag>%s</d:getetag><d:resourcetype/>" % escape(etag)))
            elif depth != "0":
                return self.answer(403, "<d:error xmlns:d=\"DAV:\"><d:propfind-finite-depth/></d:error>")
        self.multistatus(out)

    def do_REPORT(self):
        if not self.authorised():
            return
        root = ET.fromstring(self.body())
        b = self.book
        if root.tag == "{%s}sync-collection" % DAV:
            if not self.server.sync_collection:
                return self.answer(403, "<d:error xmlns:d=\"DAV:\"><d:supported-report/></d:error>")
            if self.headers.get("Depth") != "1" and b.persona == "google":
                return self.answer(400, "Depth: 1 is required", ctype="text/plain")
            token = (root.findtext("{%s}sync-token" % DAV) or "").strip()
            with b.lock:
                if not token:
                    if b.persona == "google":
                        return self.answer(400, "a sync token is required", ctype="text/plain")
                    since = 0
                else:
                    m = re.fullmatch(r"https://fake\.example/sync/(\d+)", token)
                    if not m or int(m.group(1)) > b.seq:
                        return self.answer(403, "<d:error xmlns:d=\"DAV:\"><d:valid-sync-token/></d:error>")
                    since = int(m.group(1))
                last = {}
                for (s, h) in b.log:
                    if s > since:
                        last[h] = s
                hrefs = sorted(last, key=lambda h: last[h])
                token = b.token()
                more = len(hrefs) > self.server.page
                if more:
                    hrefs = hrefs[: self.server.page]
                    token = "https://fake.example/sync/%d" % last[hrefs[-1]]
                out = []
                if more:
                    out.append(self.response(b.path, status="507 Insufficient Storage"))
                if b.persona == "icloud" and hrefs:
                    # The collection itself, listed as changed.
                    out.append(self.response(b.path, "<d:getetag>%s</d:getetag>" % b.ctag()))
                for href in hrefs:
                    if href in b.cards:
                        out.append(self.response(href, "<d:getetag>%s</d:getetag>" % escape(b.cards[href][0]),
                                                 missing=["<c:address-data/>"] if root.find(".//{%s}address-data" % CARD) is not None else ()))
                    else:
                        out.append(self.response(href, status="404 Not Found"))
                return self.multistatus(out, token)
        if root.tag == "{%s}addressbook-multiget" % CARD:
            with b.lock:
                out = []
                for h in root.findall("{%s}href" % DAV):
                    href = unquote(h.text or "")
                    if href in b.cards:
                        etag, text = b.cards[href]
                        out.append(self.response(href, "<d:getetag>%s</d:getetag><c:address-data>%s</c:address-data>" % (escape(etag), escape(text))))
                    else:
                        out.append(self.response(href, status="404 Not Found"))
            return self.multistatus(out)
        self.answer(403, "<d:error xmlns:d=\"DAV:\"><d:supported-report/></d:error>")

    def do_GET(self):
        if not self.authorised():
            return
        with self.book.lock:
            card = self.book.cards.get(self.path_only())
        if not card:
            return self.answer(404)
        self.answer(200, card[1], {"ETag": card[0]}, ctype="text/vcard; charset=utf-8")

    def do_PUT(self):
        if not self.authorised():
            return
        text = self.body().decode("utf-8", "replace")
        b = self.book
        path = self.path_only()
        if not path.startswith(b.path) or "BEGIN:VCARD" not in text.upper():
            return self.answer(400, "not a vCard in the address book", ctype="text/plain")
        if len(text.encode()) > self.server.max_card_bytes:
            return self.answer(413, "<d:error xmlns:d=\"DAV:\" xmlns:c=\"%s\"><c:max-resource-size/></d:error>" % CARD)
        with b.lock:
            if b.persona == "google":
                # No preconditions; a new card gets the server's name and UID; no groups.
                text = "\r\n".join(l for l in re.split(r"\r?\n", text) if not l.upper().startswith("CATEGORIES")).strip() + "\r\n"
                if path not in b.cards:
                    sid = uuid.uuid4().hex[:12]
                    path = b.path + sid
                    text = re.sub(r"(?im)^UID:[^\r\n]*", "UID:" + sid, text)
                    if not re.search(r"(?im)^UID:", text):
                        text = text.replace("END:VCARD", "UID:%s\r\nEND:VCARD" % sid)
                    created = True
                else:
                    old = re.search(r"(?im)^UID:([^\r\n]*)", b.cards[path][1])
                    if old:
                        text = re.sub(r"(?im)^UID:[^\r\n]*", "UID:" + old.group(1).strip(), text)
                    created = False
            else:
                if_match = self.headers.get("If-Match")
                if_none = self.headers.get("If-None-Match")
                current = b.cards.get(path)
                if (if_none == "*" and current) or (if_match and (not current or current[0] != if_match)):
                    return self.answer(412)
                created = current is None
            etag = etag_of(text)
            b.cards[path] = (etag, text)
            b.changed(path)
        headers = {"ETag": etag}
        if path != self.path_only():
            headers["Location"] = path
        self.answer(201 if created else 204, "", headers)

    def do_DELETE(self):
        if not self.authorised():
            return
        b = self.book
        path = self.path_only()
        with b.lock:
            current = b.cards.get(path)
            if not current:
                return self.answer(404)
            if b.persona != "google" and self.headers.get("If-Match") not in (None, current[0]):
                return self.answer(412)
            del b.cards[path]
            b.changed(path)
        self.answer(204)


def main():
    persona, port = sys.argv[1], int(sys.argv[2])
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.book = Book(persona, "/home/%s/%s/" % (USER, "lists/default" if persona == "google" else "card"))
    server.max_card_bytes = 1 << 30
    server.sync_collection = "--no-sync-collection" not in sys.argv
    server.basic_for_tests = True
    server.page = int(sys.argv[sys.argv.index("--page") + 1]) if "--page" in sys.argv else 1 << 30
    if "--max-card-bytes" in sys.argv:
        server.max_card_bytes = int(sys.argv[sys.argv.index("--max-card-bytes") + 1])
    server.serve_forever()


if __name__ == "__main__":
    main()
