import JSONCore
import JSONRPC

/// Which contacts a query or a view holds: `contacts.query`'s filters, `views.open`'s `query`.
public struct ContactFilter: Sendable, Equatable {
    /// The contacts of one sync account, or those of none.
    public enum Account: Sendable, Equatable {
        case local
        case named(String)
    }

    /// Whether the contacts collected from mail are taken.
    public enum Collected: String, Sendable, CaseIterable {
        case exclude, include, only
    }

    public var text: String?
    public var favoritesOnly = false
    public var group: String?
    public var account: Account?
    public var collected = Collected.exclude

    public init(
        text: String? = nil, favoritesOnly: Bool = false, group: String? = nil, account: Account? = nil, collected: Collected = .exclude
    ) {
        (self.text, self.favoritesOnly, self.group, self.account, self.collected) = (text, favoritesOnly, group, account, collected)
    }

    /// The filters' properties, as a schema describes them.
    public static let properties: JSONObject = [
        "text": APISchema.string, "favoritesOnly": APISchema.boolean, "group": APISchema.string,
        "account": APISchema.nullableString, "collected": ["enum": .array(Collected.allCases.map { .string($0.rawValue) })],
    ]

    /// The `collected` parameter, as each method that takes it declares it.
    public static var collectedParam: RPCParam {
        RPCParam(
            "collected", "The contacts collected from mail: exclude (the default), include, or only them.",
            schema: properties["collected"] ?? APISchema.string)
    }

    /// The `collected` parameter `p` gives (exclude when absent).
    public static func collected(_ p: RPCParams) throws(RPCError) -> Collected {
        guard let c = try p.optionalString("collected") else { return .exclude }
        guard let v = Collected(rawValue: c) else {
            throw .invalidParams("'collected' must be exclude, include or only, not '\(c)'", field: "collected")
        }
        return v
    }

    /// The filters `p` gives (other members are not looked at).
    public init(_ p: RPCParams) throws(RPCError) {
        text = try p.optionalString("text")
        favoritesOnly = try p.optionalBool("favoritesOnly") ?? false
        group = try p.optionalString("group")
        if let a = p.object["account"] {
            guard a.isNull || a.stringValue != nil else {
                throw .invalidParams("'account' must be an account's name or null, not \(a.typeName)", field: "account")
            }
            account = a.stringValue.map(Account.named) ?? .local
        }
        collected = try Self.collected(p)
    }

    public var json: JSONObject {
        var o: JSONObject = [:]
        if let text { o["text"] = .string(text) }
        if favoritesOnly { o["favoritesOnly"] = true }
        if let group { o["group"] = .string(group) }
        switch account {
        case .local: o["account"] = .null
        case .named(let name): o["account"] = .string(name)
        case nil: break
        }
        if collected != .exclude { o["collected"] = .string(collected.rawValue) }
        return o
    }
}

/// One key a list is sorted by.
public struct SortKey: Sendable, Equatable {
    public enum Field: String, Sendable, CaseIterable {
        case name, createdAt, updatedAt
        /// By mail (written to, then heard from, more often and more lately first when descending).
        case frequency
    }

    public var field: Field
    public var ascending: Bool

    public init(_ field: Field, ascending: Bool = true) { (self.field, self.ascending) = (field, ascending) }

    public static let schema: JSONValue = [
        "type": "object", "required": ["field"],
        "properties": ["field": ["enum": .array(Field.allCases.map { .string($0.rawValue) })], "order": ["enum": ["asc", "desc"]]],
    ]

    /// The keys of `sort` (`{field, order}` objects, or a field's name alone), first wins.
    public static func list(_ sort: JSONValue) throws(RPCError) -> [SortKey] {
        guard let list = sort.arrayValue else { throw .invalidParams("'sort' must be an array", field: "sort") }
        var keys: [SortKey] = []
        for (i, e) in list.enumerated() {
            let path = "sort[\(i)]"
            let o: JSONObject
            if let s = e.stringValue {
                o = ["field": .string(s)]
            } else if let obj = e.objectValue {
                o = obj
            } else {
                throw .invalidParams("'\(path)' must be an object {field, order}", field: path)
            }
            guard let name = o["field"]?.stringValue, let field = Field(rawValue: name) else {
                throw .invalidParams(
                    "'\(path).field' must be one of \(Field.allCases.map(\.rawValue).joined(separator: ", "))", field: "\(path).field")
            }
            // Most written to first, unless asked otherwise.
            let order = o["order"]?.stringValue ?? (field == .frequency ? "desc" : "asc")
            guard order == "asc" || order == "desc" else {
                throw .invalidParams("'\(path).order' must be asc or desc", field: "\(path).order")
            }
            keys.append(SortKey(field, ascending: order == "asc"))
        }
        return keys
    }

    public var json: JSONValue { ["field": .string(field.rawValue), "order": ascending ? "asc" : "desc"] }
}
