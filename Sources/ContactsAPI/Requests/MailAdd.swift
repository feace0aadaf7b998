import JSONCore
import JSONRPC

/// `mail.add`: the addresses of messages, counted and, where no contact has them, collected.
public struct MailAdd: APIRequest {
    public static let about = APIMethod(
        "mail.add",
        parameters: [
            RPCParam(
                "messages", "The messages' headers as read (with headers, at most \(batchLimit) a call).",
                schema: ["type": "array", "items": APISchema.ref("MailMessage"), "maxItems": .int(batchLimit)]),
            RPCParam(
                "headers",
                "Messages' headers as their bytes, read by the daemon as mail.read reads one but leniently: one it cannot read is counted in 'unreadable', not an error.",
                schema: ["type": "array", "items": APISchema.ref("MailHeader"), "maxItems": .int(batchLimit)]),
            RPCParam(
                "all", "Also the To, Cc and Reply-To of messages the user received (default: their From only).", schema: APISchema.boolean),
            RPCParam("sent", "The messages are the user's own: their recipients are written to.", schema: APISchema.boolean),
        ], result: "recording",
        schema: [
            "type": "object", "required": ["messages", "repeated", "addresses", "collected", "fromUser", "unreadable"],
            "properties": [
                "messages": APISchema.integer, "repeated": APISchema.integer, "addresses": APISchema.integer,
                "unreadable": ["type": "integer", "description": "How many of the headers could not be read"],
                "unreadableExamples": [
                    "type": "array", "items": APISchema.string, "maxItems": .int(unreadableExamples),
                    "description": "The first of them: where each is (its place) and why",
                ],
                "fromUser": [
                    "type": "integer", "description": "How many of the messages were the user's own (their recipients written to)",
                ],
                "collected": ["type": "array", "items": APISchema.string, "description": "The ids of the contacts collected now"],
            ],
        ],
        summary:
            "Counts the people of messages: a message from the user (mail.me, or 'sent') counts its recipients as written to; another counts its sender as heard from. An address no contact has is collected as a contact of its own, kept out of lists; one a contact has only counts. A message (by its id) counts once."
    )
    public static let batchLimit = 1000
    /// How many unreadable headers a result names.
    public static let unreadableExamples = 5

    public var messages: [MailMessage]
    public var headers: [MailHeader]
    public var all: Bool
    public var sent: Bool

    public init(messages: [MailMessage] = [], headers: [MailHeader] = [], all: Bool = false, sent: Bool = false) {
        (self.messages, self.headers, self.all, self.sent) = (messages, headers, all, sent)
    }

    public init(_ p: RPCParams) throws(RPCError) {
        guard p["messages"] != nil || p["headers"] != nil else {
            throw .invalidParams("'messages' or 'headers' is required", field: "messages")
        }
        var messages: [MailMessage] = []
        var headers: [MailHeader] = []
        if let v = p["messages"] {
            guard let list = v.arrayValue else { throw .invalidParams("'messages' must be an array of messages", field: "messages") }
            for (i, v) in list.prefix(Self.batchLimit + 1).enumerated() { messages.append(try MailMessage(v, path: "messages[\(i)]")) }
        }
        if let v = p["headers"] {
            guard let list = v.arrayValue else { throw .invalidParams("'headers' must be an array of headers", field: "headers") }
            for (i, v) in list.prefix(Self.batchLimit + 1).enumerated() { headers.append(try MailHeader(v, path: "headers[\(i)]")) }
        }
        guard messages.count + headers.count <= Self.batchLimit else {
            throw .invalidParams(
                "send at most \(Self.batchLimit) messages and headers a call", field: headers.isEmpty ? "messages" : "headers")
        }
        (self.messages, self.headers) = (messages, headers)
        all = try p.optionalBool("all") ?? false
        sent = try p.optionalBool("sent") ?? false
    }

    public var params: JSONObject {
        var o: JSONObject = [:]
        if !messages.isEmpty || headers.isEmpty { o["messages"] = .array(messages.map(\.json)) }
        if !headers.isEmpty { o["headers"] = .array(headers.map(\.json)) }
        if all { o["all"] = true }
        if sent { o["sent"] = true }
        return o
    }
}

/// A message's headers as `mail.add` takes them: its id, date and addresses.
public struct MailMessage: Sendable, Equatable {
    /// Its Message-ID (or a digest of its headers when it has none).
    public var id: String
    /// Milliseconds since 1970; nil: when it arrived is not known (now).
    public var date: Int64?
    public var from: [Address] = []
    public var to: [Address] = []
    public var cc: [Address] = []
    public var bcc: [Address] = []
    public var replyTo: [Address] = []

    /// An address and the name beside it.
    public struct Address: Sendable, Equatable {
        public var address: String
        public var name: String
        public init(_ address: String, name: String = "") { (self.address, self.name) = (address, name) }
    }

    public init(id: String, date: Int64? = nil) { (self.id, self.date) = (id, date) }

    public static let schema: JSONValue = [
        "type": "object", "required": ["id"],
        "properties": [
            "id": APISchema.string, "date": ["type": "integer", "description": "Milliseconds since 1970"],
            "from": addressList, "to": addressList, "cc": addressList, "bcc": addressList, "replyTo": addressList,
        ],
    ]
    static let addressList: JSONValue = [
        "type": "array",
        "items": ["type": "object", "required": ["address"], "properties": ["address": APISchema.string, "name": APISchema.string]],
    ]
    nonisolated(unsafe) static let lists: [(key: String, path: WritableKeyPath<MailMessage, [Address]>)] = [
        ("from", \.from), ("to", \.to), ("cc", \.cc), ("bcc", \.bcc), ("replyTo", \.replyTo),
    ]
    /// Longer than any address or name a header holds sensibly (a header line's limit).
    public static let textLimit = 998
    /// The longest id taken.
    public static let idLimit = textLimit

    /// A message as `mail.read` gives it.
    public init(json v: JSONValue) throws(RPCError) { try self.init(v, path: "message") }

    init(_ v: JSONValue, path: String) throws(RPCError) {
        guard let o = v.objectValue else { throw .invalidParams("'\(path)' must be an object", field: path) }
        guard let id = o["id"]?.stringValue, !id.isEmpty, id.utf8.count <= Self.textLimit else {
            throw .invalidParams("'\(path).id' must be the message's id (a string)", field: "\(path).id")
        }
        self.id = id
        if let d = o["date"], !d.isNull {
            guard let ms = d.intValue else { throw .invalidParams("'\(path).date' must be milliseconds since 1970", field: "\(path).date") }
            date = Int64(ms)
        }
        for (key, keyPath) in Self.lists {
            guard let list = o[key], !list.isNull else { continue }
            guard let items = list.arrayValue else { throw .invalidParams("'\(path).\(key)' must be an array", field: "\(path).\(key)") }
            for (i, item) in items.enumerated() {
                let at = "\(path).\(key)[\(i)]"
                guard let address = item["address"]?.stringValue, !address.isEmpty, address.utf8.count <= Self.textLimit else {
                    throw .invalidParams("'\(at).address' must be a mail address", field: "\(at).address")
                }
                let name = item["name"]?.stringValue ?? ""
                guard name.utf8.count <= Self.textLimit else { throw .invalidParams("'\(at).name' is too long", field: "\(at).name") }
                self[keyPath: keyPath].append(Address(address, name: name))
            }
        }
    }

    public var json: JSONValue {
        var o: JSONObject = ["id": .string(id)]
        if let date { o["date"] = .int(Int(date)) }
        for (key, keyPath) in Self.lists where !self[keyPath: keyPath].isEmpty {
            o[key] = .array(
                self[keyPath: keyPath].map { a in
                    a.name.isEmpty ? ["address": .string(a.address)] : ["address": .string(a.address), "name": .string(a.name)]
                })
        }
        return .object(o)
    }
}
