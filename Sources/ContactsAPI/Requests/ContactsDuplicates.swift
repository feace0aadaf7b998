import JSONCore
import JSONRPC

/// `contacts.duplicates`: groups of contacts that are likely one person, best first.
public struct ContactsDuplicates: APIRequest {
    public static let about = APIMethod(
        "contacts.duplicates",
        parameters: [
            RPCParam("limit", "At most this many groups.", schema: APISchema.integer(limits)),
            RPCParam(
                "minScore", "Leave out groups scoring below this (0 to 1, default 0.5; look-alikes score lower).",
                schema: ["type": "number", "minimum": .double(scores.lowerBound), "maximum": .double(scores.upperBound)]),
            ContactFilter.collectedParam,
        ], result: "groups",
        schema: [
            "type": "object", "required": ["groups"],
            "properties": [
                "groups": [
                    "type": "array",
                    "items": [
                        "type": "object", "required": ["ids", "names", "score", "reasons", "identical"],
                        "properties": [
                            "ids": APISchema.stringArray, "names": APISchema.stringArray,
                            "score": ["type": "number", "minimum": 0, "maximum": 1], "reasons": APISchema.stringArray,
                            "identical": APISchema.boolean,
                        ],
                    ],
                ]
            ],
        ],
        summary:
            "Finds contacts that are likely one person: a shared email, phone number (in any form) or name (accents, order and a missing middle name aside), or a name one letter apart. Groups best first."
    )

    public static let limits = 1...Int(Int32.max)
    public static let scores = 0.0...1.0

    public var limit: Int?
    public var minScore: Double?
    /// Whether the contacts collected from mail are compared (by default not: strangers who
    /// share a name are no one's duplicates; `include` finds a collected address that belongs
    /// on a contact).
    public var collected = ContactFilter.Collected.exclude

    public init(limit: Int? = nil, minScore: Double? = nil, collected: ContactFilter.Collected = .exclude) {
        (self.limit, self.minScore, self.collected) = (limit, minScore, collected)
    }

    public init(_ p: RPCParams) throws(RPCError) {
        limit = try p.optionalInt("limit", in: Self.limits)
        minScore = try p.optionalDouble("minScore", in: Self.scores)
        collected = try ContactFilter.collected(p)
    }

    public var params: JSONObject {
        .present([
            "limit": limit.map { .int($0) }, "minScore": minScore.map { .double($0) },
            "collected": collected == .exclude ? nil : .string(collected.rawValue),
        ])
    }
}
