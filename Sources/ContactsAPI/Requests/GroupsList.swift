import JSONCore
import JSONRPC

/// `groups.list`: every group with its member count.
public struct GroupsList: ParameterlessRequest {
    public static let about = APIMethod(
        "groups.list", result: "groups",
        schema: ["type": "object", "required": ["groups"], "properties": ["groups": ["type": "array", "items": GroupShape.group]]],
        summary: "Lists every group with its member count, in name order.")

    public init() {}
}
