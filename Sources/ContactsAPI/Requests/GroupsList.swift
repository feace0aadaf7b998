import JSONCore
import JSONRPC

/// `groups.list`: every group with its member count.
public struct GroupsList: APIRequest {
    public static let about = APIMethod(
        "groups.list", "Lists every group with its member count, in name order.", result: "groups",
        schema: ["type": "object", "required": ["groups"], "properties": ["groups": ["type": "array", "items": GroupShape.group]]])

    public init() {}
    public init(_ p: RPCParams) throws(RPCError) {}
    public var params: JSONObject { [:] }
}
