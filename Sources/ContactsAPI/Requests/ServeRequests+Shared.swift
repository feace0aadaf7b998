import JSONCore
import JSONRPC

/// What the requests about serving (the CardDAV faces, their certificate and devices) share.
public enum ServeShape {
    static let noDevice = RPCError(.notFound, "No device of that name")
    static let nameParameter = RPCParam("name", "The device's name.", schema: APISchema.string, required: true)

    /// The LAN face's certificate, as a person checks it.
    public static let certificate: JSONValue = [
        "type": "object", "required": ["fingerprint", "names", "notBefore", "expires"],
        "properties": [
            "fingerprint": APISchema.string, "names": APISchema.stringArray, "notBefore": APISchema.string, "expires": APISchema.string,
            "expiresSoon": APISchema.boolean,
        ],
    ]

    /// A device as the list shows it (never its password).
    public static let device: JSONValue = [
        "type": "object", "required": ["name", "books", "readOnly", "addedAt", "failedSignIns"],
        "properties": [
            "name": APISchema.string, "books": APISchema.stringArray, "readOnly": APISchema.boolean, "addedAt": APISchema.string,
            "lastSeenAt": APISchema.nullableString, "lastSeenFrom": APISchema.nullableString, "failedSignIns": APISchema.integer,
        ],
    ]

    /// What a device is set up with: shown once, when it is added or given a new password.
    public static let credentials: JSONValue = [
        "type": "object", "required": ["name", "user", "password", "url", "fingerprint", "books", "readOnly"],
        "properties": [
            "name": APISchema.string, "user": APISchema.string, "password": APISchema.string, "url": APISchema.nullableString,
            "fingerprint": APISchema.string, "books": APISchema.stringArray, "readOnly": APISchema.boolean,
        ],
    ]

    /// The LAN face in `serve.status`: null while it is off.
    public static let lan: JSONValue = [
        "type": ["object", "null"],
        "properties": [
            "listen": APISchema.string, "url": APISchema.string, "fingerprint": APISchema.nullableString,
            "expires": APISchema.nullableString, "expiresSoon": APISchema.boolean, "devices": APISchema.integer,
        ],
    ]
}

/// A request naming one device (`serve.devices.remove`, `serve.devices.password`).
public protocol DeviceRequest: APIRequest {
    var name: String { get }
    init(name: String)
}

extension DeviceRequest {
    public init(_ p: RPCParams) throws(RPCError) { self.init(name: try p.string("name")) }
    public var params: JSONObject { ["name": .string(name)] }
}
