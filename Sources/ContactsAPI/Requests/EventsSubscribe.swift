import JSONCore
import JSONRPC

/// `events.subscribe`: this connection hears of every commit.
public struct EventsSubscribe: APIRequest {
    public static let method = "events.subscribe"
    public static let summary =
        "Subscribes this connection to change notifications: contacts.changed and groups.changed, sent after each commit."
    public static let parameters: [RPCParam] = []
    public static let resultName = "subscribed"
    public static let resultSchema: JSONValue = [
        "type": "object", "required": ["subscribed"], "properties": ["subscribed": APISchema.boolean],
    ]

    public init() {}
    public init(_ p: RPCParams) throws(RPCError) {}
    public var params: JSONObject { [:] }
}
