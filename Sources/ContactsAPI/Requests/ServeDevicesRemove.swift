import JSONCore
import JSONRPC

/// `serve.devices.remove`: a device no longer let in.
public struct ServeDevicesRemove: DeviceRequest {
    public static let about = APIMethod(
        "serve.devices.remove", parameters: [ServeShape.nameParameter], result: "removed",
        schema: ["type": "object", "required": ["removed"], "properties": ["removed": APISchema.string]], errors: [ServeShape.noDevice],
        summary: "Removes a device: it is refused from its next request on, on connections already open too.")

    public var name: String

    public init(name: String) { self.name = name }
}
