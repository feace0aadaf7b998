import JSONCore
import JSONRPC

/// `contacts.me`: which contact is the user, asked or changed.
public struct ContactsMe: APIRequest {
    public static let about = APIMethod(
        "contacts.me",
        parameters: [
            RPCParam(
                "id", "The contact that is the user from now on; null: none is; absent: only say which is.",
                schema: APISchema.nullableString)
        ],
        result: "me",
        schema: ["type": "object", "required": ["me"], "properties": ["me": ["oneOf": [ContactShape.contact, ["type": "null"]]]]],
        errors: [ContactShape.notFound],
        summary:
            "The contact that is the user (Apple's My Card), asked or set: its addresses are the user's, as mail.me's are (never collected; a message from one is the user's own)."
    )

    public enum Change: Sendable, Equatable {
        case none
        case set(String)
        case clear
    }

    public var change: Change

    public init(_ change: Change = .none) { self.change = change }

    public init(_ p: RPCParams) throws(RPCError) {
        if let id = try p.optionalString("id") {
            change = .set(id)
        } else {
            change = p.object["id"]?.isNull == true ? .clear : .none
        }
    }

    public var params: JSONObject {
        switch change {
        case .none: [:]
        case .set(let id): ["id": .string(id)]
        case .clear: ["id": .null]
        }
    }
}
