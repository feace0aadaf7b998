import JSONCore
import JSONRPC

/// A method as `rpc.discover` describes it: its name and summary, its parameters (each with
/// the schema and the limits its parsing holds to), its result's name and schema, and the
/// errors it answers with. The descriptions are built when asked (the daemon registers a
/// method once, `rpc.discover` describes it): a client that only sends the method's name does
/// not build its schemas on every start.
public struct APIMethod: Sendable {
    public let name: String
    public let summary: String
    public let resultName: String
    private let describeParameters: @Sendable () -> [RPCParam]
    private let describeResult: @Sendable () -> JSONValue
    private let describeErrors: @Sendable () -> [RPCError]

    public var parameters: [RPCParam] { describeParameters() }
    public var resultSchema: JSONValue { describeResult() }
    public var errors: [RPCError] { describeErrors() }

    public init(
        _ name: String, parameters: @autoclosure @escaping @Sendable () -> [RPCParam] = [], result: String,
        schema: @autoclosure @escaping @Sendable () -> JSONValue, errors: @autoclosure @escaping @Sendable () -> [RPCError] = [],
        summary: String
    ) {
        (self.name, self.summary, resultName) = (name, summary, result)
        (describeParameters, describeResult, describeErrors) = (parameters, schema, errors)
    }
}

/// One method of the API, declared once in a file of its own: what it is (`about`), and its
/// params as a value. The daemon registers the method from it and parses each call into it;
/// the client builds the value and sends its `params`; `rpc.discover` describes it from the
/// same declaration.
public protocol APIRequest: Sendable {
    static var about: APIMethod { get }

    /// The request a call's params make, or why they make none (naming the field).
    init(_ params: RPCParams) throws(RPCError)

    /// The params a client sends for it.
    var params: JSONObject { get }
}

extension APIRequest {
    public static var method: String { about.name }
    public static var parameters: [RPCParam] { about.parameters }
    public static var resultName: String { about.resultName }
    public static var resultSchema: JSONValue { about.resultSchema }
}

extension RPCMethod {
    /// The method `R` declares, answered by `handle` with each call's request parsed.
    public init<R: APIRequest>(_ request: R.Type, handle: @escaping @Sendable (R, RPCCall) throws -> JSONValue) {
        let about = R.about
        self.init(
            about.name, summary: about.summary, params: about.parameters, result: about.resultName, resultSchema: about.resultSchema,
            errors: about.errors
        ) { call in try handle(try R(call.params), call) }
    }
}

extension RPCClient {
    /// Sends a request the API declares and waits for its result.
    public func call<R: APIRequest>(_ request: R) throws -> JSONValue { try call(R.method, request.params) }
}

/// A request that takes no params (what a call sends is not looked at).
public protocol ParameterlessRequest: APIRequest {
    init()
}

extension ParameterlessRequest {
    public init(_ params: RPCParams) throws(RPCError) { self.init() }
    public var params: JSONObject { [:] }
}

/// A request that names contacts by their ids and nothing else.
public protocol ContactIDsRequest: APIRequest {
    var ids: [String] { get }
    init(ids: [String])
}

extension ContactIDsRequest {
    public init(_ params: RPCParams) throws(RPCError) { self.init(ids: try params.stringArray("ids")) }
    public var params: JSONObject { ["ids": .array(ids.map { .string($0) })] }
}
