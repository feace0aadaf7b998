import JSONCore
import JSONRPC

/// `events.subscribe`: this connection hears of every commit.
public struct EventsSubscribe: ParameterlessRequest {
    public static let about = APIMethod(
        "events.subscribe", result: "subscribed",
        schema: ["type": "object", "required": ["subscribed"], "properties": ["subscribed": APISchema.boolean]],
        summary: "Subscribes this connection to change notifications: contacts.changed and groups.changed, sent after each commit.")

    public init() {}
}
