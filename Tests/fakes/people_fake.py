"""Google's People API for tests, as its reference documents it (it cannot run here).

One user's people and contact groups in memory, behind bearer tokens:

  people      resource names people/cN, an etag per person that changes with every write,
              memberships (myContacts added to a person made without it), clientData kept,
              only the personFields asked for in an answer (resourceName and etag always).
  listing     people/me/connections: pageSize at most 1000, nextPageToken (with the same
              syncToken, or refused), requestSyncToken; from a syncToken, the people changed
              since, the deleted ones as {resourceName, etag, metadata: {deleted: true}}.
              A sync token expires 7 days after the full listing it descends from (400
              FAILED_PRECONDITION, ErrorInfo reason EXPIRED_SYNC_TOKEN), on a clock the test
              moves (POST /_test/clock {"advance": seconds}).
  lag         with --lag S, a write is seen by sync-token listings only S seconds later
              (Google: "several minutes"); a full listing and reads see it at once.
  writes      batchCreateContacts and batchUpdateContacts at most 200 people, batchGet 200,
              batchDeleteContacts 500 (400 INVALID_ARGUMENT beyond); an update applies the
              fields of updateMask alone; a person whose etag is not the one sent fails the
              whole batch (400 FAILED_PRECONDITION).
  groups      contactGroups with Google's system groups (myContacts, starred, friends, family,
              coworkers, chatBuddies, all, blocked) and the user's labels: create (409 on a
              name taken), rename (PUT), delete (members lose it, and so change), members.
  faults      POST /_test/faults {"status": 429, "count": N, "retryAfter": S}: the next N
              API requests are answered so.
  counting    GET /_test/requests: the API requests answered, by method and path.
  seeding     POST /_test/seed {"people": [...]}: people made at once, counted as no request.
  photos      people:updateContactPhoto (PATCH, photoBytes) and :deleteContactPhoto (DELETE);
              `photos` names the photo's URL (GET /photo/cN, no credentials asked, as Google's
              photo host), or Google's default avatar (`default: true`); photos cannot be
              written with updateContact.
  oauth       Google's endpoints for installed apps: GET /o/oauth2/v2/auth redirects to a
              loopback redirect_uri with a code and the state, only for the test's client
              (test-client, secret test-secret), scope contacts and a PKCE S256 challenge;
              POST /token exchanges that code once (the verifier, client and redirect checked)
              and refreshes, with access tokens that last --access-lifetime seconds of the
              fake's clock; POST /revoke?token=T (or /_test/revoke) ends a grant:
              invalid_grant from then on.

Usage: people_fake.py PORT [--lag SECONDS]
"""

import base64
import hashlib
import json
import random
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlparse

TOKENS = {"good-token", "phone-token"}
CLIENT_ID = "test-client"
CLIENT_SECRET = "test-secret"
SCOPE = "https://www.googleapis.com/auth/contacts"
SYSTEM_GROUPS = ["myContacts", "starred", "friends", "family", "coworkers", "chatBuddies", "all", "blocked"]
WEEK = 7 * 24 * 3600
FIELDS = {
    "addresses", "ageRanges", "biographies", "birthdays", "calendarUrls", "clientData", "coverPhotos", "emailAddresses",
    "events", "externalIds", "genders", "imClients", "interests", "locales", "locations", "memberships", "metadata",
    "miscKeywords", "names", "nicknames", "occupations", "organizations", "phoneNumbers", "photos", "relations",
    "sipAddresses", "skills", "urls", "userDefined",
}


class ApiError(Exception):
    def __init__(self, code, status, message, reason=None, retry_after=None):
        super().__init__(message)
        self.code, self.status, self.message, self.reason, self.retry_after = code, status, message, reason, retry_after

    def body(self):
        error = {"code": self.code, "message": self.message, "status": self.status}
        if self.reason:
            error["details"] = [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": self.reason}]
        return {"error": error}


class Store:
    def __init__(self, lag):
        self.lock = threading.Lock()
        self.lag = lag
        self.offset = 0.0
        self.people = {}  # name -> person (without deleted ones)
        self.changes = {}  # name -> (seen_at, deleted)
        self.groups = {}  # resource -> {name, etag, type}
        for g in SYSTEM_GROUPS:
            self.groups["contactGroups/" + g] = {"name": g, "etag": self.etag(), "type": "SYSTEM_CONTACT_GROUP"}
        self.next_id = 1
        self.faults = []
        self.requests = {}
        self.codes = {}  # code -> (challenge, redirect_uri)
        self.refresh = {}  # refresh token -> revoked
        self.access = {}  # access token -> (expires, refresh token)
        self.access_lifetime = 3600
        self.token_requests = []

    def now(self):
        return time.time() + self.offset

    @staticmethod
    def etag():
        return "%" + "".join(random.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(16))

    def touched(self, name, deleted=False):
        self.changes[name] = (self.now() + self.lag, deleted)

    # Sync tokens: when the listing was made, and when the full listing it descends from was.
    def token(self, made, full):
        return "st_%r_%r" % (made, full)

    def read_token(self, token):
        try:
            tag, made, full = token.split("_")
            assert tag == "st"
            return float(made), float(full)
        except Exception:
            raise ApiError(400, "INVALID_ARGUMENT", "Request contains an invalid argument: syncToken")


BASE = ""


def only(person, fields):
    out = {"resourceName": person["resourceName"], "etag": person["etag"]}
    for f in fields:
        if f in person:
            out[f] = person[f]
    if "photos" in fields:
        if person.get("_photo"):
            out["photos"] = [{"url": BASE + "photo/" + person["resourceName"][7:] + "?v=" + person["etag"][1:], "metadata": {"primary": True}}]
        else:
            out["photos"] = [{"url": BASE + "photo/default", "default": True, "metadata": {"primary": True}}]
    return out


def person_fields(query, key="personFields"):
    value = (query.get(key) or query.get("readMask") or [""])[0]
    fields = [f for f in value.split(",") if f]
    if not fields:
        raise ApiError(400, "INVALID_ARGUMENT", "personFields mask is required. Please specify one or more valid paths.")
    for f in fields:
        if f not in FIELDS:
            raise ApiError(400, "INVALID_ARGUMENT", "Invalid personFields mask path: \"%s\"." % f)
    return fields


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    store = None

    def log_message(self, *args):
        pass

    def raw(self, status, content_type, data):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def answer(self, status, body, headers=None):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=UTF-8")
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def body(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            return json.loads(raw or b"{}")
        except ValueError:
            raise ApiError(400, "INVALID_ARGUMENT", "Invalid JSON payload received.")

    def do_GET(self):
        self.route("GET")

    def do_POST(self):
        self.route("POST")

    def do_PUT(self):
        self.route("PUT")

    def do_DELETE(self):
        self.route("DELETE")

    def do_PATCH(self):
        self.route("PATCH")

    def route(self, method):
        url = urlparse(self.path)
        query = parse_qs(url.query)
        path = url.path
        s = self.store
        try:
            if path.startswith("/_test/"):
                return self.answer(200, self.control(method, path, s))
            if path.startswith("/photo/"):
                with s.lock:
                    p = s.people.get("people/" + path[7:])
                    data = base64.b64decode(p["_photo"]) if p and p.get("_photo") else b"default-avatar"
                return self.raw(200, "image/jpeg", data)
            if path == "/o/oauth2/v2/auth":
                return self.authorize(query, s)
            if path == "/token" and method == "POST":
                return self.token(s)
            if path == "/revoke" and method == "POST":
                with s.lock:
                    t = (query.get("token") or [""])[0]
                    if t in s.refresh:
                        s.refresh[t] = True
                return self.answer(200, {})
            if not self.authorized(s):
                raise ApiError(401, "UNAUTHENTICATED", "Request had invalid authentication credentials. Expected OAuth 2 access token.")
            with s.lock:
                key = method + " " + (path.split("/")[2] if path.count("/") >= 2 else path)
                if path == "/v1/people/me/connections":
                    key = method + " connections"
                elif path == "/v1/people/me":
                    key = method + " me"
                elif path.startswith("/v1/people/") and ":" not in path:
                    key = method + " person"
                s.requests[key] = s.requests.get(key, 0) + 1
                if s.faults:
                    status, retry = s.faults.pop(0)
                    word = "RESOURCE_EXHAUSTED" if status == 429 else "UNAVAILABLE"
                    raise ApiError(status, word, "Injected fault.", retry_after=retry)
                self.answer(200, self.api(method, path, query, s))
        except ApiError as e:
            headers = {"Retry-After": str(e.retry_after)} if e.retry_after is not None else None
            self.answer(e.code, e.body(), headers)

    def authorized(self, s):
        header = self.headers.get("Authorization", "")
        if not header.startswith("Bearer "):
            return False
        token = header[7:]
        if token in TOKENS:
            return True
        with s.lock:
            known = s.access.get(token)
            return bool(known) and known[0] > s.now() and not s.refresh.get(known[1], True)

    def authorize(self, query, s):
        """The consent page, the user saying yes at once: a redirect with the code."""
        one = lambda k: (query.get(k) or [""])[0]
        redirect = one("redirect_uri")
        host = urlparse(redirect)
        problems = []
        if one("client_id") != CLIENT_ID:
            problems.append("invalid_client")
        if host.scheme != "http" or host.hostname not in ("127.0.0.1", "::1") or not host.port:
            problems.append("redirect_uri_mismatch")
        if one("response_type") != "code" or SCOPE not in one("scope").split():
            problems.append("invalid_request")
        if one("code_challenge_method") != "S256" or len(one("code_challenge")) < 43:
            problems.append("invalid_request: PKCE S256 is required")
        if problems:
            return self.raw(400, "text/plain", ("Error 400: " + ", ".join(problems)).encode())
        code = "4/" + Store.etag()[1:]
        with s.lock:
            s.codes[code] = (one("code_challenge"), redirect)
        self.send_response(302)
        self.send_header("Location", redirect + "?" + urlencode({"state": one("state"), "code": code, "scope": SCOPE}))
        self.send_header("Content-Length", "0")
        self.end_headers()

    def token(self, s):
        length = int(self.headers.get("Content-Length") or 0)
        form = {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode()).items()}
        with s.lock:
            s.token_requests.append(sorted(form))
            if form.get("client_id") != CLIENT_ID or form.get("client_secret") not in (None, CLIENT_SECRET):
                return self.answer(401, {"error": "invalid_client", "error_description": "The OAuth client was not found."})
            grant = form.get("grant_type")
            if grant == "authorization_code":
                known = s.codes.pop(form.get("code", ""), None)
                if not known:
                    return self.answer(400, {"error": "invalid_grant", "error_description": "Malformed auth code."})
                challenge, redirect = known
                verifier = form.get("code_verifier", "")
                digest = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
                if digest != challenge:
                    return self.answer(400, {"error": "invalid_grant", "error_description": "Invalid code verifier."})
                if form.get("redirect_uri") != redirect:
                    return self.answer(400, {"error": "redirect_uri_mismatch", "error_description": "Bad Request"})
                refresh = "1//" + Store.etag()[1:] + Store.etag()[1:]
                s.refresh[refresh] = False
            elif grant == "refresh_token":
                refresh = form.get("refresh_token", "")
                if s.refresh.get(refresh, True):
                    return self.answer(400, {"error": "invalid_grant", "error_description": "Token has been expired or revoked."})
            else:
                return self.answer(400, {"error": "unsupported_grant_type"})
            access = "ya29." + Store.etag()[1:]
            s.access[access] = (s.now() + s.access_lifetime, refresh)
            out = {"access_token": access, "expires_in": s.access_lifetime, "scope": SCOPE, "token_type": "Bearer"}
            if grant == "authorization_code":
                out["refresh_token"] = refresh
            return self.answer(200, out)

    def control(self, method, path, s):
        with s.lock:
            if path == "/_test/oauth":
                b = self.body()
                if "accessLifetime" in b:
                    s.access_lifetime = int(b["accessLifetime"])
                return {"refreshTokens": len(s.refresh), "tokenRequests": s.token_requests}
            if path == "/_test/revoke":
                for t in s.refresh:
                    s.refresh[t] = True
                return {}
            if path == "/_test/clock":
                s.offset += float(self.body().get("advance", 0))
                return {"now": s.now()}
            if path == "/_test/faults":
                b = self.body()
                s.faults += [(int(b.get("status", 429)), b.get("retryAfter"))] * int(b.get("count", 1))
                return {}
            if path == "/_test/requests":
                return s.requests
            if path == "/_test/people":
                return {"people": list(s.people.values()), "groups": s.groups}
            if path == "/_test/seed":
                # Many people at once, as made on the phone long ago (seen at once by any listing).
                for p in self.body().get("people", []):
                    name = "people/c%d" % s.next_id
                    s.next_id += 1
                    p = self.clean(p)
                    p["resourceName"], p["etag"] = name, Store.etag()
                    p.setdefault("memberships", []).insert(0, {"contactGroupMembership": {"contactGroupResourceName": "contactGroups/myContacts"}})
                    s.people[name] = p
                    s.changes[name] = (s.now() - 1, False)
                return {"people": len(s.people)}
        raise ApiError(404, "NOT_FOUND", "no such control")

    def api(self, method, path, query, s):
        if method == "GET" and path == "/v1/people/me":
            person_fields(query)
            return {"resourceName": "people/100", "etag": "%me", "emailAddresses": [
                {"value": "kate@example.com", "metadata": {"primary": True}}]}
        if method == "GET" and path == "/v1/people/me/connections":
            return self.connections(query, s)
        if method == "GET" and path == "/v1/people:batchGet":
            fields = person_fields(query)
            names = query.get("resourceNames", [])
            if len(names) > 200:
                raise ApiError(400, "INVALID_ARGUMENT", "Too many resource names: at most 200.")
            responses = []
            for n in names:
                p = s.people.get(n)
                if p:
                    responses.append({"requestedResourceName": n, "person": only(p, fields), "httpStatusCode": 200})
                else:
                    responses.append({"requestedResourceName": n, "httpStatusCode": 404, "status": {"code": 5, "message": "Not found"}})
            return {"responses": responses}
        if path.startswith("/v1/people/c") and (path.endswith(":updateContactPhoto") or path.endswith(":deleteContactPhoto")):
            name = path[4:].rsplit(":", 1)[0]
            p = s.people.get(name)
            if not p:
                raise ApiError(404, "NOT_FOUND", "Requested entity was not found.")
            if method == "PATCH" and path.endswith(":updateContactPhoto"):
                b = self.body()
                try:
                    raw = base64.b64decode(b.get("photoBytes", ""), validate=True)
                except Exception:
                    raise ApiError(400, "INVALID_ARGUMENT", "Invalid photo bytes.")
                if not raw:
                    raise ApiError(400, "INVALID_ARGUMENT", "Photo bytes are required.")
                p["_photo"] = base64.b64encode(raw).decode()
                fields = [f for f in (b.get("personFields") or "names").split(",") if f]
            elif method == "DELETE" and path.endswith(":deleteContactPhoto"):
                p.pop("_photo", None)
                fields = person_fields(query)
            else:
                raise ApiError(404, "NOT_FOUND", "Method not found.")
            p["etag"] = Store.etag()
            s.touched(name)
            return {"person": only(p, fields)}
        if method == "GET" and path.startswith("/v1/people/c"):
            fields = person_fields(query)
            p = s.people.get(path[4:])
            if not p:
                raise ApiError(404, "NOT_FOUND", "Requested entity was not found.")
            return only(p, fields)
        if method == "POST" and path == "/v1/people:batchCreateContacts":
            return self.create(self.body(), s)
        if method == "POST" and path == "/v1/people:batchUpdateContacts":
            return self.update(self.body(), s)
        if method == "POST" and path == "/v1/people:batchDeleteContacts":
            names = self.body().get("resourceNames", [])
            if not names or len(names) > 500:
                raise ApiError(400, "INVALID_ARGUMENT", "Between 1 and 500 resource names.")
            for n in names:
                if n not in s.people:
                    raise ApiError(400, "INVALID_ARGUMENT", "Resource not found: %s" % n)
            for n in names:
                del s.people[n]
                s.touched(n, deleted=True)
            return {}
        if path.startswith("/v1/contactGroups"):
            return self.groups(method, path, query, s)
        raise ApiError(404, "NOT_FOUND", "Method not found.")

    def connections(self, query, s):
        fields = person_fields(query)
        size = int((query.get("pageSize") or ["100"])[0])
        if not 1 <= size <= 1000:
            raise ApiError(400, "INVALID_ARGUMENT", "pageSize must be between 1 and 1000.")
        sync = (query.get("syncToken") or [None])[0]
        page = (query.get("pageToken") or [None])[0]
        now = s.now()
        if page:
            try:
                offset, made, full, page_sync = json.loads(page)
            except ValueError:
                raise ApiError(400, "INVALID_ARGUMENT", "Request contains an invalid argument: pageToken")
            if page_sync != sync:
                raise ApiError(400, "INVALID_ARGUMENT", "Parameters provided with a page token must match the call that provided the page token.")
        else:
            offset, made, full = 0, now, now
        if sync:
            since, full = s.read_token(sync)
            if now - full > WEEK:
                raise ApiError(400, "FAILED_PRECONDITION", "Sync token is expired. Clear local cache and retry call without the sync token.", reason="EXPIRED_SYNC_TOKEN")
            names = sorted(n for n, (seen, _) in s.changes.items() if since < seen <= made)
            items = []
            for n in names:
                if n in s.people:
                    items.append(only(s.people[n], fields))
                else:
                    items.append({"resourceName": n, "etag": Store.etag(), "metadata": {"deleted": True}})
        else:
            items = [only(p, fields) for _, p in sorted(s.people.items(), key=lambda kv: int(kv[0][8:]))]
        chunk = items[offset:offset + size]
        out = {"connections": chunk, "totalPeople": len(s.people), "totalItems": len(items)}
        if offset + size < len(items):
            out["nextPageToken"] = json.dumps([offset + size, made, full, sync])
        elif query.get("requestSyncToken", ["false"])[0] == "true" or sync:
            out["nextSyncToken"] = s.token(made, full)
        return out

    def clean(self, person):
        person = {k: v for k, v in person.items() if k in FIELDS and k != "metadata"}
        # Google fills in what is output only: a name's displayName and its parts.
        for n in person.get("names", []):
            n.pop("displayName", None)
            if n.get("unstructuredName") and not (n.get("givenName") or n.get("familyName")):
                parts = n["unstructuredName"].rsplit(" ", 1)
                n["givenName"] = parts[0]
                if len(parts) > 1:
                    n["familyName"] = parts[1]
            shown = " ".join(x for x in (n.get("honorificPrefix"), n.get("givenName"), n.get("middleName"), n.get("familyName"), n.get("honorificSuffix")) if x)
            n["displayName"] = shown or n.get("unstructuredName", "")
            n.setdefault("unstructuredName", n["displayName"])
        memberships = person.get("memberships", [])
        for m in memberships:
            g = m.get("contactGroupMembership", {}).get("contactGroupResourceName")
            if g not in self.store.groups:
                raise ApiError(400, "INVALID_ARGUMENT", "Contact group not found: %s" % g)
        return person

    def create(self, body, s):
        contacts = body.get("contacts", [])
        if not contacts or len(contacts) > 200:
            raise ApiError(400, "INVALID_ARGUMENT", "Between 1 and 200 contacts.")
        fields = person_fields({"readMask": [body.get("readMask", "")]}, key="readMask")
        created = []
        for c in contacts:
            person = self.clean(c.get("contactPerson", {}))
            name = "people/c%d" % s.next_id
            s.next_id += 1
            person["resourceName"] = name
            person["etag"] = Store.etag()
            groups = [m.get("contactGroupMembership", {}).get("contactGroupResourceName") for m in person.get("memberships", [])]
            if "contactGroups/myContacts" not in groups:
                person.setdefault("memberships", []).insert(0, {"contactGroupMembership": {"contactGroupResourceName": "contactGroups/myContacts"}})
            s.people[name] = person
            s.touched(name)
            created.append({"requestedResourceName": name, "httpStatusCode": 200, "person": only(person, fields)})
        return {"createdPeople": created}

    def update(self, body, s):
        contacts = body.get("contacts", {})
        mask = [f for f in body.get("updateMask", "").split(",") if f]
        if not contacts or len(contacts) > 200:
            raise ApiError(400, "INVALID_ARGUMENT", "Between 1 and 200 contacts.")
        if not mask or any(f not in FIELDS for f in mask):
            raise ApiError(400, "INVALID_ARGUMENT", "Invalid updateMask.")
        if "photos" in mask:
            raise ApiError(400, "INVALID_ARGUMENT", "photos cannot be updated with updateContact: use updateContactPhoto.")
        fields = person_fields({"readMask": [body.get("readMask", "")]}, key="readMask")
        for name, p in contacts.items():
            if name not in s.people:
                raise ApiError(404, "NOT_FOUND", "Requested entity was not found: %s" % name)
            if p.get("etag") != s.people[name]["etag"]:
                raise ApiError(400, "FAILED_PRECONDITION", "Request person.etag is different than the current person.etag. Clear local cache and get the latest person.")
        result = {}
        for name, p in contacts.items():
            p = self.clean(p)
            person = s.people[name]
            for f in mask:
                if p.get(f):
                    person[f] = p[f]
                else:
                    person.pop(f, None)
            person["etag"] = Store.etag()
            s.touched(name)
            result[name] = {"requestedResourceName": name, "httpStatusCode": 200, "person": only(person, fields)}
        return {"updateResult": result}

    def group_json(self, resource, g, members=None):
        out = {"resourceName": resource, "etag": g["etag"], "name": g["name"], "formattedName": g["name"], "groupType": g["type"],
               "metadata": {"updateTime": "2026-01-01T00:00:00Z"}}
        count = sum(1 for p in self.store.people.values() if resource in member_groups(p))
        out["memberCount"] = count
        if members is not None:
            out["memberResourceNames"] = [n for n, p in sorted(self.store.people.items()) if resource in member_groups(p)][:members]
        return out

    def groups(self, method, path, query, s):
        if method == "GET" and path == "/v1/contactGroups":
            return {"contactGroups": [self.group_json(r, g) for r, g in sorted(s.groups.items())], "totalItems": len(s.groups)}
        if method == "POST" and path == "/v1/contactGroups":
            name = self.body().get("contactGroup", {}).get("name", "").strip()
            if not name:
                raise ApiError(400, "INVALID_ARGUMENT", "Contact group name is required.")
            if any(g["name"] == name for g in s.groups.values()):
                raise ApiError(409, "ALREADY_EXISTS", "Contact group name already exists.")
            resource = "contactGroups/%x" % random.getrandbits(48)
            s.groups[resource] = {"name": name, "etag": Store.etag(), "type": "USER_CONTACT_GROUP"}
            return self.group_json(resource, s.groups[resource])
        resource = path[4:]
        g = s.groups.get(resource)
        if not g:
            raise ApiError(404, "NOT_FOUND", "Requested entity was not found.")
        if method == "GET":
            return self.group_json(resource, g, members=int((query.get("maxMembers") or ["0"])[0]))
        if g["type"] != "USER_CONTACT_GROUP":
            raise ApiError(400, "FAILED_PRECONDITION", "Cannot modify a system contact group.")
        if method == "PUT":
            g["name"] = self.body().get("contactGroup", {}).get("name", g["name"])
            g["etag"] = Store.etag()
            return self.group_json(resource, g)
        if method == "DELETE":
            del s.groups[resource]
            for n, p in s.people.items():
                if resource in member_groups(p):
                    p["memberships"] = [m for m in p["memberships"] if m.get("contactGroupMembership", {}).get("contactGroupResourceName") != resource]
                    p["etag"] = Store.etag()
                    s.touched(n)
            return {}
        raise ApiError(404, "NOT_FOUND", "Method not found.")


def member_groups(person):
    return [m.get("contactGroupMembership", {}).get("contactGroupResourceName") for m in person.get("memberships", [])]


def main():
    port = int(sys.argv[1])
    lag = float(sys.argv[sys.argv.index("--lag") + 1]) if "--lag" in sys.argv else 0.0
    global BASE
    BASE = "http://127.0.0.1:%d/" % port
    Handler.store = Store(lag)
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    server.serve_forever()


if __name__ == "__main__":
    main()
