import JSONCore
import JSONRPC

/// The shapes the history's requests answer with.
public enum HistoryShape {
    static let time: JSONValue = ["type": "string", "format": "date-time"]

    /// One change of a contact.
    static let entry: JSONValue = [
        "type": "object", "required": ["revision", "at", "origin", "change", "fields"],
        "properties": [
            "revision": APISchema.integer, "at": time, "origin": APISchema.string, "operation": ["type": ["integer", "null"]],
            "change": ["type": "string", "enum": ["created", "updated", "deleted", "restored"]], "fields": APISchema.stringArray,
        ],
    ]

    /// One operation: a write as a whole (an import, a delete, an edit).
    static let operation: JSONValue = [
        "type": "object", "required": ["id", "at", "origin", "summary", "contacts", "groups"],
        "properties": [
            "id": APISchema.integer, "at": time, "origin": APISchema.string, "summary": APISchema.string, "contacts": APISchema.integer,
            "groups": APISchema.integer,
        ],
    ]

    /// An undo's or a redo's answer: the operation taken back or done again, the undo's (or
    /// redo's) own under `key`, and what it changed, in numbers.
    static func reversal(_ key: String) -> JSONValue {
        [
            "type": "object", "required": ["operation", "contacts", "groups"],
            "properties": [
                "operation": operation, .init(key): operation, "contacts": ["type": "integer", "minimum": 0],
                "groups": ["type": "integer", "minimum": 0],
            ],
        ]
    }

    static let revisions = 1...Int(Int32.max)
    static let counts = 0...Int(Int32.max)
    static let ifRevision = RPCParam(
        "ifRevision", "Only change it if it is still at this revision.", schema: APISchema.integer(counts))
    static let force = "Even over later changes of the same contacts."
}
