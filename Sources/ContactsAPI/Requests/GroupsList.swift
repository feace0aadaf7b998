import JSONCore
import JSONRPC

/// `groups.list`: every group with its member count.
public struct GroupsList: APIRequest {
    public static let method = "groups.list"
    public static let summary = "Lists every group with its member count, in name order."
    public static let parameters: [RPCParam] = []
    public static let resultName = "groups"
    public static let resultSchema: JSONValue = [
        "type": "object", "required": ["groups"], "properties": ["groups": ["type": "array", "items": GroupShape.group]],
    ]

    public init() {}
    public init(_ p: RPCParams) throws(RPCError) {}
    public var params: JSONObject { [:] }
}
