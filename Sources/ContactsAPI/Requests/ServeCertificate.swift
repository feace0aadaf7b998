import JSONCore
import JSONRPC

/// `serve.certificate`: the LAN face's certificate, renewed, or the user's own taken.
public struct ServeCertificate: APIRequest {
    public static let about = APIMethod(
        "serve.certificate",
        parameters: [
            RPCParam(
                "renew", "Make a new key and certificate (devices that trusted the old one must accept it again).",
                schema: APISchema.boolean),
            RPCParam("certificate", "A certificate of the user's own (PEM text) to use instead, with key.", schema: APISchema.string),
            RPCParam("key", "Its private key (PEM text).", schema: APISchema.string),
        ], result: "certificate", schema: ServeShape.certificate,
        errors: [
            RPCError(.notFound, "There is no certificate yet"),
            RPCError(.invalidData, "The certificate or key cannot be read, or do not match"),
        ],
        summary:
            "The certificate the LAN face presents: its SHA-256 fingerprint (as phones show it), names and validity. renew makes a new one; certificate and key take the user's own."
    )

    public enum Change: Sendable, Equatable {
        case renew
        case use(certificate: String, key: String)
    }

    /// Nil: only say what it is.
    public var change: Change?

    public init(change: Change? = nil) { self.change = change }

    public init(_ p: RPCParams) throws(RPCError) {
        let renew = try p.optionalBool("renew") ?? false
        switch (renew, try p.optionalString("certificate"), try p.optionalString("key")) {
        case (false, nil, nil): change = nil
        case (true, nil, nil): change = .renew
        case (false, let certificate?, let key?): change = .use(certificate: certificate, key: key)
        case (true, _, _): throw .invalidParams("give renew or a certificate and key, not both")
        default: throw .invalidParams("a certificate goes with its key: give both", field: "key")
        }
    }

    public var params: JSONObject {
        switch change {
        case nil: [:]
        case .renew: ["renew": true]
        case .use(let certificate, let key): ["certificate": .string(certificate), "key": .string(key)]
        }
    }
}
