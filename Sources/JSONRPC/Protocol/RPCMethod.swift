import JSONCore

/// One parameter of a method as OpenRPC describes it.
public struct RPCParam: Sendable {
    public var name: String
    public var summary: String
    public var schema: JSONValue
    public var required: Bool

    public init(_ name: String, _ summary: String, schema: JSONValue, required: Bool = false) {
        self.name = name
        self.summary = summary
        self.schema = schema
        self.required = required
    }
}

/// What a handler sees of the connection that sent a request.
public protocol RPCSession: AnyObject, Sendable {
    /// A number unique among the server's connections, for logs and subscriptions.
    var sessionID: Int { get }
    /// The process at the other end, when the transport knows it (`SO_PEERCRED`).
    var peerProcess: Int32? { get }
    /// Sends a server-to-client notification on this connection. Returns false when the
    /// connection is gone or too far behind to take more.
    @discardableResult func sendNotification(method: String, params: JSONValue) -> Bool
    /// Sends a notification that is part of the reply under way (a piece of a large export):
    /// it waits while the client is behind, as a reply does, instead of dropping the
    /// connection. Returns false when the connection is gone.
    func sendPart(method: String, params: JSONValue) -> Bool
    /// Sends a notification the client may be told it missed instead (a live view's change,
    /// which a reset stands for): when the client is behind, over half the limit of what waits
    /// for it, nothing is queued, false is returned, and `whenDrained` is called once all that
    /// waits has gone out. Never waits, never drops the connection.
    func offerNotification(method: String, params: JSONValue, whenDrained: @escaping @Sendable () -> Void) -> Bool
    /// Called once when the connection closes.
    func onClose(_ action: @escaping @Sendable () -> Void)
    /// Whether the client closed its connection while a request of its is still being handled
    /// (it was interrupted): a long request stops then. Asks the kernel each time.
    var clientHasGone: Bool { get }
}

extension RPCSession {
    public var peerProcess: Int32? { nil }
}

/// A call as a handler receives it.
public struct RPCCall: Sendable {
    public var method: String
    public var params: RPCParams
    public var session: RPCSession?

    public init(method: String, params: RPCParams, session: RPCSession?) {
        self.method = method
        self.params = params
        self.session = session
    }
}

/// A method: its name, its description for `rpc.discover`, and its handler.
public struct RPCMethod: Sendable {
    public typealias Handler = @Sendable (RPCCall) throws -> JSONValue

    public var name: String
    public var summary: String
    public var params: [RPCParam]
    public var resultName: String
    public var resultSchema: JSONValue
    public var errors: [RPCError]
    public var handler: Handler

    public init(
        _ name: String, summary: String, params: [RPCParam] = [], result: String = "result", resultSchema: JSONValue,
        errors: [RPCError] = [], handler: @escaping Handler
    ) {
        self.name = name
        self.summary = summary
        self.params = params
        self.resultName = result
        self.resultSchema = resultSchema
        self.errors = errors
        self.handler = handler
    }
}
