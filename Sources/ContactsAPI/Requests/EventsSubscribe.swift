import JSONCore
import JSONRPC

/// `events.subscribe`: this connection hears of every commit.
public struct EventsSubscribe: APIRequest {
    public static let about = APIMethod(
        "events.subscribe",
        "Subscribes this connection to change notifications: contacts.changed and groups.changed, sent after each commit.",
        result: "subscribed", schema: ["type": "object", "required": ["subscribed"], "properties": ["subscribed": APISchema.boolean]])

    public init() {}
    public init(_ p: RPCParams) throws(RPCError) {}
    public var params: JSONObject { [:] }
}
