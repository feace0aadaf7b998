import ContactsSupport
import Glibc
import JSONCore

/// Why a client call failed before a reply arrived.
public enum RPCClientError: Error, Sendable, CustomStringConvertible {
    /// Nothing serves the socket (missing, refused, wrong path).
    case unreachable(path: String, reason: String)
    /// The connection broke or the reply was not valid JSON-RPC.
    case protocolFailure(String)

    public var description: String {
        switch self {
        case .unreachable(let path, let reason): "cannot reach contactsd at \(path): \(reason)"
        case .protocolFailure(let m): m
        }
    }
}

/// A small blocking JSON-RPC client over a Unix socket, for `contactsctl` and tests.
public final class RPCClient {
    public let path: String
    private let fd: Int32
    private var framer = LineFramer(maxLineBytes: 1 << 30)
    private var nextID = 1
    /// Notifications that arrived while waiting for a reply, oldest first.
    public private(set) var pendingNotifications: [JSONObject] = []

    /// Connects to `path`. With a `timeout` (seconds), a reply that takes longer fails the call.
    public init(path: String, timeout: Double? = nil) throws(RPCClientError) {
        self.path = path
        do {
            fd = try UnixSocket.connect(path: path)
        } catch {
            throw .unreachable(path: path, reason: error.detail == nil ? error.reason : error.description)
        }
        if let timeout {
            var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1_000_000))
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        }
    }

    /// Called with each notification that arrives while waiting for a reply.
    public var onNotification: ((JSONObject) -> Void)?

    deinit { close(fd) }

    /// The connected socket, for callers that write from another thread.
    public var descriptor: Int32 { fd }

    /// Sends a request and waits for its reply. Throws `RPCError` for an error reply.
    public func call(_ method: String, _ params: JSONObject = JSONObject()) throws -> JSONValue {
        let id = nextID
        nextID += 1
        try send(.object(["jsonrpc": "2.0", "method": .string(method), "params": .object(params), "id": .int(id)]))
        while true {
            let message = try readMessage()
            guard case .object(let o) = message else { throw RPCClientError.protocolFailure("unexpected reply: \(message)") }
            if o["id"] == nil, o["method"] != nil {
                if let onNotification { onNotification(o) } else { pendingNotifications.append(o) }
                continue
            }
            if let error = o["error"]?.objectValue {
                let code = error["code"]?.intValue ?? RPCError.Code.internalError.rawValue
                let message = error["message"]?.stringValue ?? "unknown error"
                throw RPCError(RPCError.Code(rawValue: code), message, data: error["data"])
            }
            guard o["id"]?.intValue == id else {
                throw RPCClientError.protocolFailure("reply for another request: \(message)")
            }
            return o["result"] ?? .null
        }
    }

    public func send(_ message: JSONValue) throws {
        var bytes = JSONWriter.serialize(message)
        bytes.append(0x0A)
        try sendRaw(bytes)
    }

    public func sendRaw(_ bytes: [UInt8]) throws {
        let result = bytes.withUnsafeBytes { b in Result { () throws(SystemError) in try UnixSocket.sendAll(fd, b) } }
        if case .failure(let error) = result {
            throw RPCClientError.protocolFailure("the connection to \(path) broke: \(error.reason)")
        }
    }

    /// Reads the next message of any kind (reply or notification).
    public func readMessage() throws -> JSONValue {
        let line = try readLine()
        do {
            return try JSONParser.parse(line)
        } catch {
            throw RPCClientError.protocolFailure("invalid JSON from the server: \(error)")
        }
    }

    /// Reads the next raw line.
    public func readLine() throws -> ArraySlice<UInt8> {
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            switch framer.next() {
            case .line(let l): return l
            case .tooLong: throw RPCClientError.protocolFailure("reply too long")
            case .needMore: break
            }
            let n: Int
            do {
                n = try retryingSyscall("recv") { chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) } }
            } catch {
                throw RPCClientError.protocolFailure("the connection to \(path) broke: \(error.reason)")
            }
            if n == 0 { throw RPCClientError.protocolFailure("contactsd closed the connection") }
            chunk.withUnsafeBytes { framer.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        }
    }

    /// Takes the notifications received so far.
    public func takeNotifications() -> [JSONObject] {
        defer { pendingNotifications.removeAll() }
        return pendingNotifications
    }
}
