import JSONCore
import JSONRPC

/// `serve.devices.password`: a new password for a device.
public struct ServeDevicesPassword: DeviceRequest {
    public static let about = APIMethod(
        "serve.devices.password", parameters: [ServeShape.nameParameter], result: "device", schema: ServeShape.credentials,
        errors: [ServeShape.noDevice],
        summary: "Gives a device a new password, returned this once; the old one stops working at once.")

    public var name: String

    public init(name: String) { self.name = name }
}
