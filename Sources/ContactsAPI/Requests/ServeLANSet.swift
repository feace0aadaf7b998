import JSONCore
import JSONRPC

/// `serve.lan.set`: the CardDAV face on the local network turned on at an address, or off.
public struct ServeLANSet: APIRequest {
    public static let about = APIMethod(
        "serve.lan.set",
        parameters: [
            RPCParam(
                "listen", "ADDR:PORT (0.0.0.0:5233 for every address of the machine, the default port 5233); null to stop.",
                schema: APISchema.nullableString, required: true),
            RPCParam("host", "The host name devices are given (default: the listening address).", schema: APISchema.nullableString),
        ], result: "serve", schema: ServeStatus.resultSchema,
        errors: [
            RPCError(.invalidParams, "Not an IP address and port"), RPCError(.unavailable, "The configuration file cannot be written"),
        ],
        summary:
            "Serves the store over CardDAV with TLS to the devices of the local network at listen, or stops (null): writes carddav.lan into the configuration file and reloads it. The certificate is made the first time."
    )

    /// ADDR:PORT as given (the daemon checks it); nil: stop.
    public var listen: String?
    public var host: String?

    public init(listen: String?, host: String? = nil) { (self.listen, self.host) = (listen, host) }

    public init(_ p: RPCParams) throws(RPCError) {
        switch p.object["listen"] {
        case .string(let text)?: listen = text
        case .null?: listen = nil
        default: throw .invalidParams("'listen' must be ADDR:PORT or null", field: "listen")
        }
        host = try p.optionalString("host")
    }

    public var params: JSONObject {
        var o: JSONObject = ["listen": listen.map { .string($0) } ?? .null]
        if let host { o["host"] = .string(host) }
        return o
    }
}
