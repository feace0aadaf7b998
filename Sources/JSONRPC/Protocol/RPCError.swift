import JSONCore

/// A JSON-RPC error object: a stable integer code, a human message and optional data.
public struct RPCError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An extensible error code; the standard ones are defined here, applications add theirs.
    public struct Code: RawRepresentable, Hashable, Sendable {
        public var rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        public static let parseError = Code(rawValue: -32700)
        public static let invalidRequest = Code(rawValue: -32600)
        public static let methodNotFound = Code(rawValue: -32601)
        public static let invalidParams = Code(rawValue: -32602)
        public static let internalError = Code(rawValue: -32603)
        /// A connection the server will not serve (another user's, or one too many): the
        /// first of the codes JSON-RPC leaves to servers.
        public static let serverRefused = Code(rawValue: -32000)
    }

    public var code: Code
    public var message: String
    public var data: JSONValue?

    public init(_ code: Code, _ message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    public static func parseError(_ message: String) -> RPCError { RPCError(.parseError, "Parse error: \(message)") }
    public static func invalidRequest(_ message: String) -> RPCError { RPCError(.invalidRequest, "Invalid request: \(message)") }
    public static func methodNotFound(_ name: String) -> RPCError {
        RPCError(.methodNotFound, "Method not found: \(name)", data: ["method": .string(name)])
    }
    public static func invalidParams(_ message: String, field: String? = nil) -> RPCError {
        RPCError(.invalidParams, "Invalid params: \(message)", data: field.map { ["field": .string($0)] })
    }
    public static func internalError(_ message: String) -> RPCError { RPCError(.internalError, "Internal error: \(message)") }

    public var json: JSONValue {
        var o: JSONObject = ["code": .int(code.rawValue), "message": .string(message)]
        if let data { o["data"] = data }
        return .object(o)
    }

    public var description: String { "\(message) (\(code.rawValue))" }
}
