import JSONCore
import JSONRPC

/// `serve.set`: the CardDAV face on loopback turned on at an address, or off.
public struct ServeSet: APIRequest {
    public static let about = APIMethod(
        "serve.set",
        parameters: [
            RPCParam(
                "listen", "127.0.0.1:PORT, [::1]:PORT or localhost:PORT; null to stop.", schema: APISchema.nullableString, required: true)
        ], result: "serve", schema: ServeStatus.resultSchema,
        errors: [RPCError(.invalidParams, "Not a loopback address"), RPCError(.unavailable, "The configuration file cannot be written")],
        summary:
            "Serves the store over CardDAV at listen (a loopback HOST:PORT, such as 127.0.0.1:5232), or stops serving it (null): writes carddav.listen into the configuration file and reloads it."
    )

    /// The loopback HOST:PORT as given (the daemon checks it is one); nil: stop serving.
    public var listen: String?

    public init(listen: String?) { self.listen = listen }

    public init(_ p: RPCParams) throws(RPCError) {
        switch p.object["listen"] {
        case .string(let text)?: listen = text
        case .null?: listen = nil
        default: throw .invalidParams("'listen' must be a loopback HOST:PORT or null", field: "listen")
        }
    }

    public var params: JSONObject { ["listen": listen.map { .string($0) } ?? .null] }
}
