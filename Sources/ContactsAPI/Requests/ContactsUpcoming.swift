import JSONCore
import JSONRPC

/// `contacts.upcoming`: the birthdays and dates of the coming days.
public struct ContactsUpcoming: APIRequest {
    public static let about = APIMethod(
        "contacts.upcoming",
        parameters: [
            RPCParam("days", "How many days from 'from' (it included): 1 to 366, default 30.", schema: APISchema.integer(days)),
            RPCParam("from", "The first day, YYYY-MM-DD; default today where the daemon runs (TZ).", schema: APISchema.string),
        ], result: "upcoming",
        schema: [
            "type": "object", "required": ["from", "days", "dates"],
            "properties": [
                "from": APISchema.string, "days": APISchema.integer,
                "dates": [
                    "type": "array",
                    "items": [
                        "type": "object", "required": ["date", "inDays", "kind", "value", "id", "name"],
                        "properties": [
                            "date": ["type": "string", "description": "the day it falls on, YYYY-MM-DD"],
                            "inDays": ["type": "integer", "description": "0 for 'from' itself"], "kind": ["enum": ["birthday", "date"]],
                            "label": APISchema.nullableString,
                            "value": ["type": "string", "description": "the date as the contact holds it"],
                            "years": [
                                "type": ["integer", "null"],
                                "description": "the age on a birthday, the years since on a date; null when the year is not known",
                            ], "id": APISchema.string, "name": APISchema.string,
                        ],
                    ],
                ],
            ],
        ],
        summary:
            "The birthdays and dates of the next days, soonest first, in the user's time zone, with the age or the number of years where the year is known (29 February falls on 28 February in other years)."
    )
    public static let days = 1...366
    public static let defaultDays = 30

    public var days: Int
    /// The first day, `YYYY-MM-DD` (checked by the daemon); nil: today where it runs.
    public var from: String?

    public init(days: Int = defaultDays, from: String? = nil) { (self.days, self.from) = (days, from) }

    public init(_ p: RPCParams) throws(RPCError) {
        days = try p.optionalInt("days", in: Self.days) ?? Self.defaultDays
        from = try p.optionalString("from")
    }

    public var params: JSONObject { .present(["days": .int(days), "from": from.map { .string($0) }]) }
}
