import ContactsAPI
import JSONCore
import JSONRPC

/// A parsed command line: the verb path, its options and arguments, and the global settings.
public struct Invocation {
    public var path: [String]
    public var options: [String: [String]] = [:]
    public var flags: Set<String> = []
    public var arguments: [String] = []
    public var json = false
    public var socketPath: String
    public var environment: [String: String]
    public var output: Output

    public func value(_ name: String) -> String? { options[name]?.last }
    public func values(_ name: String) -> [String] { options[name] ?? [] }
    public func flag(_ name: String) -> Bool { flags.contains(name) }

    private var connection: RPCClientBox = RPCClientBox()

    init(path: [String], socketPath: String, environment: [String: String], output: Output) {
        self.path = path
        self.socketPath = socketPath
        self.environment = environment
        self.output = output
    }

    /// The connection to the daemon, opened on first use.
    public func client() throws -> RPCClient {
        if let c = connection.client { return c }
        let c = try RPCClient(path: socketPath)
        connection.client = c
        return c
    }

    /// Calls a method on the daemon.
    @discardableResult
    public func call(_ method: String, _ params: JSONObject = JSONObject()) throws -> JSONValue {
        try client().call(method, params)
    }

    /// Calls `method`; with `--json`, prints its result and gives nil (the verb is done), else
    /// gives the result for the verb to show as people read it.
    public func callForPeople(_ method: String, _ params: JSONObject = JSONObject()) throws -> JSONValue? {
        let result = try call(method, params)
        guard json else { return result }
        output.json(result)
        return nil
    }

    /// `callForPeople` of a request the API declares.
    public func callForPeople<R: APIRequest>(_ request: R) throws -> JSONValue? { try callForPeople(R.method, request.params) }

    /// Sends a request the API declares.
    public func call<R: APIRequest>(_ request: R) throws -> JSONValue { try client().call(request) }
}

/// Holds the lazily opened client so that `Invocation` can stay a value type.
final class RPCClientBox {
    var client: RPCClient?
}
