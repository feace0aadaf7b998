import JSONCore
import JSONRPC

/// One method of the API, declared once in a file of its own: its name and description, its
/// parameters (each with the schema and the limits its parsing holds to), its result's schema
/// and errors, and its params as a value. The daemon registers the method from it and parses
/// each call into it; the client builds the value and sends its `params`; `rpc.discover`
/// describes it from the same declaration.
public protocol APIRequest: Sendable {
    static var method: String { get }
    static var summary: String { get }
    /// The parameters, in the order `rpc.discover` lists them.
    static var parameters: [RPCParam] { get }
    static var resultName: String { get }
    static var resultSchema: JSONValue { get }
    static var errors: [RPCError] { get }

    /// The request a call's params make, or why they make none (naming the field).
    init(_ params: RPCParams) throws(RPCError)

    /// The params a client sends for it.
    var params: JSONObject { get }
}

extension APIRequest {
    public static var errors: [RPCError] { [] }
}

extension RPCMethod {
    /// The method `R` declares, answered by `handle` with each call's request parsed.
    public init<R: APIRequest>(_ request: R.Type, handle: @escaping @Sendable (R, RPCCall) throws -> JSONValue) {
        self.init(
            R.method, summary: R.summary, params: R.parameters, result: R.resultName, resultSchema: R.resultSchema, errors: R.errors
        ) { call in try handle(try R(call.params), call) }
    }
}

extension RPCClient {
    /// Sends a request the API declares and waits for its result.
    public func call<R: APIRequest>(_ request: R) throws -> JSONValue { try call(R.method, request.params) }
}
