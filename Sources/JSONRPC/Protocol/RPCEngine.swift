import JSONCore

/// Information about the service, for the OpenRPC document.
public struct RPCServiceInfo: Sendable {
    public var title: String
    public var version: String
    public var description: String
    public var schemas: JSONObject

    public init(title: String, version: String, description: String, schemas: JSONObject = JSONObject()) {
        self.title = title
        self.version = version
        self.description = description
        self.schemas = schemas
    }
}

/// A transport-independent JSON-RPC 2.0 engine: one line in, at most one line out.
///
/// It implements the whole specification (batches, notifications, the standard errors) and
/// answers `rpc.discover` from the same registry that dispatches, so the document can never
/// drift from what is served.
public final class RPCEngine: Sendable {
    public let info: RPCServiceInfo
    private let methods: [String: RPCMethod]
    private let orderedNames: [String]
    private let mapError: @Sendable (any Error) -> RPCError
    public let maxDepth: Int

    public init(
        info: RPCServiceInfo, methods: [RPCMethod], maxDepth: Int = JSONParser.defaultMaxDepth,
        mapError: @escaping @Sendable (any Error) -> RPCError = { .internalError(String(describing: $0)) }
    ) {
        self.info = info
        var table: [String: RPCMethod] = [:]
        var names: [String] = []
        for m in methods {
            precondition(table[m.name] == nil, "method \(m.name) registered twice")
            table[m.name] = m
            names.append(m.name)
        }
        let discover = RPCMethod(
            "rpc.discover", summary: "Returns the OpenRPC document that describes this service.",
            result: "OpenRPC document", resultSchema: ["type": "object"]
        ) { _ in .null }  // answered by the engine itself below
        table[discover.name] = discover
        names.append(discover.name)
        self.methods = table
        self.orderedNames = names
        self.mapError = mapError
        self.maxDepth = maxDepth
    }

    /// Handles one framed message. Returns the reply line (without the newline), or nil when
    /// nothing must be sent (a notification, or a batch of notifications).
    public func handle(_ bytes: UnsafeRawBufferPointer, session: RPCSession?) -> [UInt8]? {
        let message: JSONValue
        do {
            message = try JSONParser.parse(bytes, maxDepth: maxDepth)
        } catch {
            return JSONWriter.serialize(Self.errorResponse(.parseError(error.description), id: .null))
        }
        switch message {
        case .array(let elements):
            if elements.isEmpty {
                return JSONWriter.serialize(Self.errorResponse(.invalidRequest("empty batch"), id: .null))
            }
            var replies: [JSONValue] = []
            for e in elements {
                if let r = handleRequest(e, session: session) { replies.append(r) }
            }
            return replies.isEmpty ? nil : JSONWriter.serialize(.array(replies))
        default:
            return handleRequest(message, session: session).map(JSONWriter.serialize)
        }
    }

    public func handle(_ bytes: [UInt8], session: RPCSession? = nil) -> [UInt8]? {
        bytes.withUnsafeBytes { handle($0, session: session) }
    }

    /// Calls a method directly, as if it came over the wire.
    public func call(_ method: String, params: JSONObject = JSONObject(), session: RPCSession? = nil) throws -> JSONValue {
        guard let m = methods[method] else { throw RPCError.methodNotFound(method) }
        if method == "rpc.discover" { return discoverDocument() }
        // What a method declares is checked here, so a handler cannot forget to: a parameter it
        // does not take (a misspelt filter would otherwise answer as if there were none; a
        // misspelt required one is named as what it is), then one it requires.
        for key in params.keys where !m.params.contains(where: { $0.name == key }) {
            let known = m.params.map { "'\($0.name)'" }
            throw RPCError.invalidParams(
                "\(method) has no parameter '\(key)'"
                    + (known.isEmpty ? "; it takes none" : "; it takes \(known.joined(separator: ", "))"),
                field: key)
        }
        for p in m.params where p.required && params[p.name] == nil {
            throw RPCError.invalidParams("'\(p.name)' is required", field: p.name)
        }
        return try m.handler(RPCCall(method: method, params: RPCParams(params), session: session))
    }

    private func handleRequest(_ value: JSONValue, session: RPCSession?) -> JSONValue? {
        guard case .object(let request) = value else {
            return Self.errorResponse(.invalidRequest("a request must be an object, not \(value.typeName)"), id: .null)
        }
        // The id is echoed when it is valid, even if the rest of the request is not.
        let idValue = request["id"]
        var id: JSONValue = .null
        let isNotification = idValue == nil
        if let idValue {
            switch idValue {
            case .string, .number, .null: id = idValue
            default:
                return Self.errorResponse(.invalidRequest("'id' must be a string, a number or null"), id: .null)
            }
        }
        guard request["jsonrpc"] == .string("2.0") else {
            return Self.errorResponse(.invalidRequest("'jsonrpc' must be exactly \"2.0\""), id: id)
        }
        guard case .string(let methodName)? = request["method"] else {
            return Self.errorResponse(.invalidRequest("'method' must be a string"), id: id)
        }
        var params = JSONObject()
        switch request["params"] {
        case nil: break
        case .object(let o)?: params = o
        case .array(let a)?:
            // By-position parameters map onto the declared names in order.
            if !a.isEmpty {
                guard let m = methods[methodName] else {
                    return isNotification ? nil : Self.errorResponse(.methodNotFound(methodName), id: id)
                }
                guard a.count <= m.params.count else {
                    let e = RPCError.invalidParams("\(methodName) takes at most \(m.params.count) parameters, not \(a.count)")
                    return isNotification ? nil : Self.errorResponse(e, id: id)
                }
                params = JSONObject(zip(m.params, a).map { JSONObject.Member($0.name, $1) })
            }
        case let other?:
            return Self.errorResponse(.invalidRequest("'params' must be an object or an array, not \(other.typeName)"), id: id)
        }
        let result: JSONValue
        do {
            result = try call(methodName, params: params, session: session)
        } catch let e as RPCError {
            return isNotification ? nil : Self.errorResponse(e, id: id)
        } catch {
            return isNotification ? nil : Self.errorResponse(mapError(error), id: id)
        }
        if isNotification { return nil }
        return .object(["jsonrpc": "2.0", "result": result, "id": id])
    }

    public static func errorResponse(_ error: RPCError, id: JSONValue) -> JSONValue {
        .object(["jsonrpc": "2.0", "error": error.json, "id": id])
    }

    /// The OpenRPC 1.x document for every registered method.
    public func discoverDocument() -> JSONValue {
        var list: [JSONValue] = []
        for name in orderedNames {
            guard let m = methods[name] else { continue }
            var method: JSONObject = [
                "name": .string(m.name),
                "summary": .string(m.summary),
                "paramStructure": "either",
                "params": .array(
                    m.params.map { p in
                        .object([
                            "name": .string(p.name), "summary": .string(p.summary), "required": .bool(p.required),
                            "schema": p.schema,
                        ])
                    }),
                "result": .object(["name": .string(m.resultName), "schema": m.resultSchema]),
            ]
            if !m.errors.isEmpty {
                method["errors"] = .array(
                    m.errors.map { e in .object(["code": .int(e.code.rawValue), "message": .string(e.message)]) })
            }
            list.append(.object(method))
        }
        var doc: JSONObject = [
            "openrpc": "1.2.6",
            "info": .object([
                "title": .string(info.title), "version": .string(info.version), "description": .string(info.description),
            ]),
            "methods": .array(list),
        ]
        if !info.schemas.isEmpty { doc["components"] = .object(["schemas": .object(info.schemas)]) }
        return .object(doc)
    }
}
