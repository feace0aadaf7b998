import JSONCore
import JSONRPC

/// `serve.devices.list`: the devices the LAN face lets in.
public struct ServeDevicesList: ParameterlessRequest {
    public static let about = APIMethod(
        "serve.devices.list", result: "devices",
        schema: ["type": "object", "required": ["devices"], "properties": ["devices": ["type": "array", "items": ServeShape.device]]],
        summary:
            "The devices the LAN face lets in: their books, whether read-only, when added, last seen when and from where, wrong passwords given."
    )

    public init() {}
}
