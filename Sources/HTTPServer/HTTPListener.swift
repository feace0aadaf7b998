import Foundation
import Glibc
import MicroHTTPDShim

/// An HTTP/1.1 server on a TCP socket, by GNU libmicrohttpd (keep-alive, chunked bodies,
/// `Expect: 100-continue`, a pool of threads, per-connection memory limits and timeouts):
/// each request is read whole, up to a limit, and handed to `handler` on a pool thread.
/// It knows nothing of what it serves. When `owner` is set, a request whose peer socket
/// belongs to another local user (or cannot be told) is answered 403 and never reaches the
/// handler.
public final class HTTPListener: @unchecked Sendable {
    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    public struct Limits: Sendable {
        /// A larger body is answered 413 and not read further.
        public var bodyBytes = 16 << 20
        public var threads: UInt32 = 2
        /// Buffers a connection may hold for its headers and what is read ahead.
        public var connectionMemory = 128 << 10
        public var idleSeconds: UInt32 = 60
        /// Connections at once, in all and from one address (0: libmicrohttpd's own limits).
        public var connections: UInt32 = 0
        public var connectionsPerAddress: UInt32 = 0
        public init() {}
    }

    /// What a listener that speaks TLS (and nothing else) presents: a certificate and its key,
    /// both PEM, and the GnuTLS priorities it holds clients to.
    public struct TLS: Sendable {
        public var certificate: String
        public var key: String
        public var priorities: String

        /// TLS 1.2 and 1.3 only, forward-secret key exchanges only (no static RSA), AEAD
        /// ciphers only; the server's order of preference.
        public static let modern =
            "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2:-RSA:-AES-128-CBC:-AES-256-CBC:-CAMELLIA-128-CBC:-CAMELLIA-256-CBC:-3DES-CBC:-ARCFOUR-128:%SERVER_PRECEDENCE"

        public init(certificate: String, key: String, priorities: String = TLS.modern) {
            (self.certificate, self.key, self.priorities) = (certificate, key, priorities)
        }
    }

    let handler: Handler
    let limits: Limits
    let tls: TLS?
    let owner: UInt32?
    /// Told of each refusal (peer uid, or nil when unknown), for the log.
    let refused: (@Sendable (UInt32?) -> Void)?
    private var daemon: OpaquePointer?
    /// The address it listens on (the port the kernel chose when 0 was asked).
    public private(set) var port: UInt16 = 0

    private init(limits: Limits, tls: TLS?, owner: UInt32?, refused: (@Sendable (UInt32?) -> Void)?, handler: @escaping Handler) {
        self.handler = handler
        self.limits = limits
        self.tls = tls
        self.owner = owner
        self.refused = refused
    }

    /// Listens on `host` (an IPv4 or IPv6 address, not a name) and `port` (0: any free one).
    public convenience init(
        host: String, port: UInt16, limits: Limits = Limits(), tls: TLS? = nil, owner: UInt32? = nil,
        refused: (@Sendable (UInt32?) -> Void)? = nil, handler: @escaping Handler
    ) throws {
        self.init(limits: limits, tls: tls, owner: owner, refused: refused, handler: handler)
        var storage = sockaddr_storage()
        guard Self.address(host, port, into: &storage) else { throw HTTPListenerError.badAddress(host) }
        try withUnsafePointer(to: &storage) { p in
            try p.withMemoryRebound(to: sockaddr.self, capacity: 1) { try start(fd: -1, address: $0) }
        }
    }

    /// Serves a socket already listening (passed by systemd).
    public convenience init(
        socket fd: Int32, limits: Limits = Limits(), tls: TLS? = nil, owner: UInt32? = nil,
        refused: (@Sendable (UInt32?) -> Void)? = nil, handler: @escaping Handler
    ) throws {
        self.init(limits: limits, tls: tls, owner: owner, refused: refused, handler: handler)
        try start(fd: fd, address: nil)
    }

    deinit { stop() }

    private func start(fd: Int32, address: UnsafePointer<sockaddr>?) throws {
        var why = [CChar](repeating: 0, count: 256)
        guard contactsd_mhd_load(&why, why.count) == 0 else {
            throw HTTPListenerError.cannotLoad(String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        daemon = withTLSStrings { certificate, key, priorities in
            var settings = contactsd_mhd_settings(
                threads: limits.threads, memory_limit: limits.connectionMemory, timeout_seconds: limits.idleSeconds,
                connection_limit: limits.connections, per_address_limit: limits.connectionsPerAddress, tls_certificate: certificate,
                tls_key: key, tls_priorities: priorities)
            return contactsd_mhd_start(fd, address, &settings, Self.access, me, Self.completed, nil)
        }
        guard let daemon else { throw HTTPListenerError.cannotListen(errno) }
        // The port actually bound: from the listening socket.
        let listening = fd >= 0 ? fd : contactsd_mhd_listen_fd(daemon)
        var bound = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        if listening >= 0,
            withUnsafeMutablePointer(
                to: &bound, { p in p.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listening, $0, &length) } }) == 0
        {
            port = withUnsafePointer(to: &bound) { p in
                p.withMemoryRebound(to: sockaddr.self, capacity: 1) { PeerOwner.endpoint($0)?.port ?? 0 }
            }
        }
    }

    /// Calls `body` with the TLS identity's strings as C strings (nil without TLS), which
    /// libmicrohttpd reads while it starts.
    private func withTLSStrings<T>(
        _ body: (UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> T
    ) -> T {
        guard let tls else { return body(nil, nil, nil) }
        return tls.certificate.withCString { c in tls.key.withCString { k in tls.priorities.withCString { p in body(c, k, p) } } }
    }

    /// Stops listening and waits for the requests in progress.
    public func stop() {
        if let daemon { contactsd_mhd_stop(daemon) }
        daemon = nil
    }

    /// What one request has read so far, kept by libmicrohttpd between its calls.
    final class Pending {
        var body: [UInt8] = []
        var tooLarge = false
    }

    private static let access: MHD_AccessHandlerCallback = { cls, connection, url, method, _, data, size, state in
        guard let cls, let connection, let state, let size else { return .NO }
        let listener = Unmanaged<HTTPListener>.fromOpaque(cls).takeUnretainedValue()
        if state.pointee == nil {
            state.pointee = Unmanaged.passRetained(Pending()).toOpaque()
            return .YES
        }
        // swift-format-ignore: NeverForceUnwrap
        let pending = Unmanaged<Pending>.fromOpaque(state.pointee!).takeUnretainedValue()
        if size.pointee > 0 {
            if !pending.tooLarge, let data {
                if pending.body.count + size.pointee > listener.limits.bodyBytes {
                    pending.tooLarge = true
                    pending.body = []
                } else {
                    data.withMemoryRebound(to: UInt8.self, capacity: size.pointee) {
                        pending.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: size.pointee))
                    }
                }
            }
            size.pointee = 0
            return .YES
        }
        let response = listener.answer(
            connection, method: method.map { String(cString: $0) } ?? "", path: url.map { String(cString: $0) } ?? "/", pending)
        return send(response, on: connection)
    }

    private static let completed: MHD_RequestCompletedCallback = { _, _, state, _ in
        guard let state, let pointer = state.pointee else { return }
        Unmanaged<Pending>.fromOpaque(pointer).release()
        state.pointee = nil
    }

    private func answer(_ connection: OpaquePointer, method: String, path: String, _ pending: Pending) -> HTTPResponse {
        let uid = peerUID(connection)
        if let owner, uid != owner {
            refused?(uid)
            return HTTPResponse(status: 403, text: "contactsd serves this address book to its own user only\n")
        }
        if pending.tooLarge {
            return HTTPResponse(status: 413, text: "the body is larger than \(limits.bodyBytes) bytes\n")
        }
        var request = HTTPRequest(method: method, path: path, headers: Self.headers(connection), body: pending.body, peerUID: uid)
        request.query = Self.arguments(connection)
        request.peerAddress = contactsd_mhd_client_address(connection).flatMap { PeerOwner.endpoint($0)?.text }
        return handler(request)
    }

    /// The user owning the peer's socket: its address and ours, looked up in the kernel's tables.
    private func peerUID(_ connection: OpaquePointer) -> UInt32? {
        guard owner != nil || refused != nil else { return nil }
        guard let peer = contactsd_mhd_client_address(connection) else { return nil }
        let fd = contactsd_mhd_connection_fd(connection)
        var local = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &local) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard fd >= 0, ok == 0 else { return nil }
        return withUnsafePointer(to: &local) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { PeerOwner.uid(peer: peer, local: $0) }
        }
    }

    /// Name–value pairs libmicrohttpd reads out of a request, gathered by its iterator.
    final class Pairs {
        /// Headers: names in lower case, one sent twice is one list (as HTTP says). Query
        /// arguments: names as sent, the last of one sent twice.
        let areHeaders: Bool
        var values: [String: String] = [:]
        init(areHeaders: Bool) { self.areHeaders = areHeaders }
    }

    private static func headers(_ connection: OpaquePointer) -> [String: String] { pairs(connection, headers: true) }

    /// The URL's query arguments, decoded.
    private static func arguments(_ connection: OpaquePointer) -> [String: String] { pairs(connection, headers: false) }

    private static func pairs(_ connection: OpaquePointer, headers: Bool) -> [String: String] {
        let box = Pairs(areHeaders: headers)
        let pointer = Unmanaged.passUnretained(box).toOpaque()
        let gather: MHD_KeyValueIterator = { cls, _, key, value in
            guard let cls, let key else { return .YES }
            let box = Unmanaged<Pairs>.fromOpaque(cls).takeUnretainedValue()
            let v = value.map { String(cString: $0) } ?? ""
            if box.areHeaders {
                let name = String(cString: key).lowercased()
                box.values[name] = box.values[name].map { $0 + ", " + v } ?? v
            } else {
                box.values[String(cString: key)] = v
            }
            return .YES
        }
        _ = headers ? contactsd_mhd_headers(connection, gather, pointer) : contactsd_mhd_arguments(connection, gather, pointer)
        return withExtendedLifetime(box) { box.values }
    }

    private static func send(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        // The header strings live until the call returns; libmicrohttpd copies them and the body.
        let names = response.headers.map { strdup($0.0) }
        let values = response.headers.map { strdup($0.1) }
        defer { for p in names + values { free(p) } }
        let namePointers = names.map { $0.map { UnsafePointer($0) } }
        let valuePointers = values.map { $0.map { UnsafePointer($0) } }
        return namePointers.withUnsafeBufferPointer { n in
            valuePointers.withUnsafeBufferPointer { v in
                response.body.withUnsafeBytes { body in
                    contactsd_mhd_respond(
                        connection, UInt32(response.status), n.baseAddress, v.baseAddress, n.count, body.baseAddress, body.count)
                }
            }
        }
    }

    /// `host:port` as a socket address; false when `host` is no numeric address.
    static func address(_ host: String, _ port: UInt16, into storage: inout sockaddr_storage) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return withUnsafeMutablePointer(to: &storage) { p -> Bool in
            var v4 = in_addr()
            if inet_pton(AF_INET, bare, &v4) == 1 {
                return p.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { a in
                    a.pointee.sin_family = sa_family_t(AF_INET)
                    a.pointee.sin_port = port.bigEndian
                    a.pointee.sin_addr = v4
                    return true
                }
            }
            var v6 = in6_addr()
            if inet_pton(AF_INET6, bare, &v6) == 1 {
                return p.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { a in
                    a.pointee.sin6_family = sa_family_t(AF_INET6)
                    a.pointee.sin6_port = port.bigEndian
                    a.pointee.sin6_addr = v6
                    return true
                }
            }
            return false
        }
    }
}

public enum HTTPListenerError: Error, CustomStringConvertible, Equatable {
    case badAddress(String)
    case cannotListen(Int32)
    case cannotLoad(String)

    public var description: String {
        switch self {
        case .badAddress(let host): return "'\(host)' is not an IP address"
        case .cannotListen(let code): return "cannot listen: \(String(cString: strerror(code)))"
        case .cannotLoad(let why): return "HTTP is not available: \(why)"
        }
    }
}
