import CardDAV
import ContactsSupport
import Foundation
import JSONCore

/// Requests to Google's People API (v1) for the signed-in user: people and their changes,
/// batched writes, and contact groups. Every error is a `DAVError` naming the URL without
/// credentials, with Google's status word and message, and `Retry-After` when given.
public final class PeopleClient: Sendable {
    /// The API's root (`https://people.googleapis.com/`, or a stand-in's).
    public let root: URL
    public let http: HTTPClient

    /// Google's limits: people a list page holds, people a batch create or update takes, and
    /// resource names a batch delete or get takes.
    public static let pageSize = 1000
    public static let writeBatch = 200
    public static let deleteBatch = 500
    public static let getBatch = 200
    /// A photo larger than this is not taken (Google's own are at most a few hundred KiB).
    public static let largestPhoto = 20 << 20

    public init(root: URL, http: HTTPClient) {
        self.root = root.absoluteString.hasSuffix("/") ? root : root.appendingPathComponent("")
        self.http = http
    }

    public static let defaultRoot = "https://people.googleapis.com/"

    // MARK: Reading

    /// One page of the user's people: from the start (with a sync token at the end) or since
    /// `syncToken` (deleted people then come with `metadata.deleted`).
    public struct Page: Sendable {
        public var people: [JSONObject]
        public var nextPageToken: String?
        public var nextSyncToken: String?
    }

    public func connections(syncToken: String?, pageToken: String?, fields: [String] = PersonMapping.readFields) throws(DAVError) -> Page {
        var query = [
            ("personFields", fields.joined(separator: ",")), ("pageSize", String(Self.pageSize)), ("requestSyncToken", "true"),
        ]
        if let syncToken { query.append(("syncToken", syncToken)) }
        if let pageToken { query.append(("pageToken", pageToken)) }
        let o = try object(try call("GET", "v1/people/me/connections", query: query))
        return Page(
            people: o["connections"]?.arrayValue?.compactMap(\.objectValue) ?? [], nextPageToken: o["nextPageToken"]?.stringValue,
            nextSyncToken: o["nextSyncToken"]?.stringValue)
    }

    /// The signed-in user's own address (their primary email), which names the account.
    public func me() throws(DAVError) -> String {
        let o = try object(try call("GET", "v1/people/me", query: [("personFields", "emailAddresses")]))
        let emails = PersonMapping.list(o, "emailAddresses")
        guard let email = (emails.first { $0["metadata"]?["primary"]?.boolValue == true } ?? emails.first)?["value"]?.stringValue else {
            throw .malformed("Google named no address for the signed-in user")
        }
        return email
    }

    /// The people named (at most `getBatch`); those that are gone are left out.
    public func people(_ names: [String]) throws(DAVError) -> [JSONObject] {
        guard !names.isEmpty else { return [] }
        let query = names.map { ("resourceNames", $0) } + [("personFields", PersonMapping.readFields.joined(separator: ","))]
        let o = try object(try call("GET", "v1/people:batchGet", query: query))
        return (o["responses"]?.arrayValue ?? []).compactMap { r in r["person"]?.objectValue }
    }

    /// One person, or nil when there is none of that name.
    public func person(_ name: String) throws(DAVError) -> JSONObject? {
        do {
            return try object(try call("GET", "v1/" + name, query: [("personFields", PersonMapping.readFields.joined(separator: ","))]))
        } catch .status(404, _, _, _) {
            return nil
        }
    }

    // MARK: Writing

    /// What Google said of one person of a batch write.
    public enum Written: Sendable, Equatable {
        case person(JSONObject)
        /// The etag sent is not the person's any more.
        case stale
        case failed(status: Int, message: String)
    }

    /// Makes people (at most `writeBatch`); the answers in the order given.
    public func create(_ people: [JSONObject]) throws(DAVError) -> [Written] {
        let body: JSONObject = [
            "contacts": .array(people.map { .object(["contactPerson": .object($0)]) }),
            "readMask": .string(PersonMapping.readFields.joined(separator: ",")),
        ]
        let o = try object(try call("POST", "v1/people:batchCreateContacts", body: body))
        let answers = o["createdPeople"]?.arrayValue ?? []
        return people.indices.map { i in i < answers.count ? Self.written(answers[i]) : .failed(status: 500, message: "no answer") }
    }

    /// Updates people (at most `writeBatch`, each with its etag) in the fields of `mask` alone.
    public func update(_ people: [(name: String, person: JSONObject)], mask: [String]) throws(DAVError) -> [Written] {
        var contacts = JSONObject()
        for p in people { contacts[p.name] = .object(p.person) }
        let body: JSONObject = [
            "contacts": .object(contacts), "updateMask": .string(mask.joined(separator: ",")),
            "readMask": .string(PersonMapping.readFields.joined(separator: ",")),
        ]
        let o = try object(try call("POST", "v1/people:batchUpdateContacts", body: body))
        let results = o["updateResult"]?.objectValue ?? JSONObject()
        return people.map { p in results[p.name].map(Self.written) ?? .failed(status: 500, message: "no answer") }
    }

    /// Gives a person a photo (JPEG or PNG bytes); returns the person as it is then.
    public func updatePhoto(_ name: String, _ bytes: [UInt8]) throws(DAVError) -> JSONObject {
        let body: JSONObject = [
            "photoBytes": .string(Data(bytes).base64EncodedString()),
            "personFields": .string(PersonMapping.readFields.joined(separator: ",")),
        ]
        let o = try object(try call("PATCH", "v1/\(name):updateContactPhoto", body: body))
        return o["person"]?.objectValue ?? JSONObject()
    }

    /// Takes a person's photo away; returns the person as it is then.
    public func deletePhoto(_ name: String) throws(DAVError) -> JSONObject {
        let o = try object(
            try call("DELETE", "v1/\(name):deleteContactPhoto", query: [("personFields", PersonMapping.readFields.joined(separator: ","))]))
        return o["person"]?.objectValue ?? JSONObject()
    }

    /// The bytes at a photo's URL (Google's photo host takes no credentials; a stand-in on
    /// the API's origin is sent them).
    public func photoBytes(_ url: URL) throws(DAVError) -> [UInt8]? {
        let answer = try http.send(HTTPRequest("GET", url))
        guard (200..<300).contains(answer.status), !answer.body.isEmpty, answer.body.count <= Self.largestPhoto else { return nil }
        return [UInt8](answer.body)
    }

    /// Deletes people (at most `deleteBatch`).
    public func delete(_ names: [String]) throws(DAVError) {
        guard !names.isEmpty else { return }
        _ = try call("POST", "v1/people:batchDeleteContacts", body: ["resourceNames": .array(names.map { .string($0) })])
    }

    static func written(_ answer: JSONValue) -> Written {
        let status = answer["httpStatusCode"]?.intValue ?? answer["status"]?["code"]?.intValue.map(httpStatus) ?? 200
        if (200..<300).contains(status), let person = answer["person"]?.objectValue { return .person(person) }
        let message = answer["status"]?["message"]?.stringValue ?? ""
        if status == 400 && message.lowercased().contains("etag") || status == 412 { return .stale }
        return .failed(status: status == 200 ? 500 : status, message: message)
    }

    /// An RPC code (google.rpc.Code) as the HTTP status Google gives it.
    static func httpStatus(_ code: Int) -> Int {
        switch code {
        case 0: 200
        case 3, 9, 11: 400
        case 5: 404
        case 6: 409
        case 7: 403
        case 8: 429
        case 14: 503
        case 16: 401
        default: 500
        }
    }

    // MARK: Contact groups

    /// A contact group: a label of the user's, or one of Google's (`starred`, `myContacts`).
    public struct Group: Sendable, Equatable {
        public var resourceName: String
        public var name: String
        public var isUsers: Bool
        public var etag: String?
    }

    /// Every contact group.
    public func groups() throws(DAVError) -> [Group] {
        var out: [Group] = []
        var page: String?
        repeat {
            var query = [("pageSize", "1000"), ("groupFields", "name,groupType,metadata")]
            if let page { query.append(("pageToken", page)) }
            let o = try object(try call("GET", "v1/contactGroups", query: query))
            for g in o["contactGroups"]?.arrayValue ?? [] {
                guard let name = g["resourceName"]?.stringValue, g["metadata"]?["deleted"]?.boolValue != true else { continue }
                out.append(
                    Group(
                        resourceName: name, name: g["name"]?.stringValue ?? "",
                        isUsers: g["groupType"]?.stringValue == "USER_CONTACT_GROUP",
                        etag: g["etag"]?.stringValue))
            }
            page = o["nextPageToken"]?.stringValue
        } while page != nil
        return out
    }

    /// Makes a label; returns it.
    public func createGroup(named name: String) throws(DAVError) -> Group {
        let o = try object(try call("POST", "v1/contactGroups", body: ["contactGroup": .object(["name": .string(name)])]))
        guard let resource = o["resourceName"]?.stringValue else { throw .malformed("Google made a label without a resource name") }
        return Group(resourceName: resource, name: o["name"]?.stringValue ?? name, isUsers: true, etag: o["etag"]?.stringValue)
    }

    /// Renames a label (its etag read first, as Google asks for it).
    public func renameGroup(_ resource: String, to name: String) throws(DAVError) {
        let current = try object(try call("GET", "v1/" + resource, query: []))
        var group: JSONObject = ["name": .string(name)]
        if let etag = current["etag"] { group["etag"] = etag }
        _ = try call("PUT", "v1/" + resource, body: ["contactGroup": .object(group)])
    }

    /// Deletes a label; its people stay.
    public func deleteGroup(_ resource: String) throws(DAVError) {
        _ = try call("DELETE", "v1/" + resource, query: [("deleteContacts", "false")])
    }

    /// The people in a label.
    public func members(of group: String) throws(DAVError) -> [String] {
        let o = try object(try call("GET", "v1/" + group, query: [("maxMembers", "100000")]))
        return o["memberResourceNames"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    // MARK: Requests

    /// Sends one request and returns the body of a successful answer.
    func call(_ method: String, _ path: String, query: [(String, String)] = [], body: JSONObject? = nil) throws(DAVError) -> Data {
        var c = URLComponents(url: root.appendingPathComponent(path), resolvingAgainstBaseURL: false)
        if !query.isEmpty { c?.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) } }
        // `+` and `:` in a token or resource name must reach Google as they are.
        let encoded = c?.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        c?.percentEncodedQuery = encoded
        guard let url = c?.url else { throw .refusedURL("cannot make a URL of \(root) and \(path)") }
        var request = HTTPRequest(method, url, headers: ["Accept": "application/json"])
        if let body {
            request.body = Data(JSONWriter.string(.object(body)).utf8)
            request.headers["Content-Type"] = "application/json"
        }
        let answer = try http.send(request)
        guard (200..<300).contains(answer.status) else { throw Self.failure(answer) }
        return answer.body
    }

    /// Google's error (`{"error": {"code", "status", "message", "details"}}`) as a `DAVError`:
    /// the status word and message, and the reason of an `ErrorInfo` (`EXPIRED_SYNC_TOKEN`).
    static func failure(_ answer: HTTPResponse) -> DAVError {
        var message = ""
        if let parsed = try? JSONParser.parse([UInt8](answer.body)), let e = parsed["error"] {
            let reasons = (e["details"]?.arrayValue ?? []).compactMap { $0["reason"]?.stringValue }
            message = ([e["status"]?.stringValue] + reasons.map(Optional.some) + [e["message"]?.stringValue]).compactMap { $0 }
                .joined(separator: ": ")
        }
        return .status(answer.status, url: URLPolicy.redacted(answer.url), message: message, retryAfter: answer.retryAfter)
    }

    func object(_ data: Data) throws(DAVError) -> JSONObject {
        do {
            guard let o = try JSONParser.parse([UInt8](data)).objectValue else { throw DAVError.malformed("not a JSON object") }
            return o
        } catch let e as DAVError {
            throw e
        } catch {
            throw .malformed("Google's answer is not JSON: \(error)")
        }
    }
}
