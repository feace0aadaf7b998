import CSystem
import ContactsSupport
import Foundation
import Glibc

/// The local user that owns the other end of a loopback TCP connection: the socket whose
/// own address is the peer's and whose remote address is ours, looked up by the kernel
/// through sock_diag netlink (an exact lookup), or, where that cannot be asked, found in its
/// socket tables (`/proc/net/tcp` and `tcp6`, whose reading walks every socket of the
/// machine: milliseconds a request). The same promise for TCP on loopback as `SO_PEERCRED`
/// is for a Unix socket; nil when the peer is not on this machine or its socket is not found.
public enum PeerOwner {
    /// An IP address and port as the tables write them: the address's bytes in the kernel's
    /// order as hex, then the port in hex.
    struct Endpoint: Equatable {
        var address: [UInt8]
        var port: UInt16

        /// The address as text: `198.18.0.2`, `fd00::2` (an IPv4 address mapped into IPv6 as
        /// the IPv4 one).
        var text: String? {
            var bytes = address
            if bytes.count == 16 && bytes.prefix(12) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff] { bytes = Array(bytes.suffix(4)) }
            var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            let family = bytes.count == 4 ? AF_INET : AF_INET6
            guard bytes.count == 4 || bytes.count == 16, inet_ntop(family, bytes, &buffer, socklen_t(buffer.count)) != nil else {
                return nil
            }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    public static func uid(peer: UnsafePointer<sockaddr>, local: UnsafePointer<sockaddr>) -> UInt32? {
        guard let p = endpoint(peer), let l = endpoint(local) else { return nil }
        switch diagnosed(peer: p, local: l) {
        case .found(let uid): return uid
        case .absent: return nil
        case .unavailable: return fromTables(peer: p, local: l)
        }
    }

    enum Diagnosis: Equatable {
        case found(UInt32)
        case absent
        case unavailable
    }

    /// Asks sock_diag for the peer's socket. A peer that reached a dual-stack socket over
    /// IPv4 appears as `::ffff:a.b.c.d`; its own socket is then an IPv4 one.
    static func diagnosed(peer: Endpoint, local: Endpoint) -> Diagnosis {
        let (peerAddress, localAddress) = (v4(peer.address), v4(local.address))
        let family = peerAddress.count == 4 && localAddress.count == 4 ? AF_INET : AF_INET6
        let (a, b) = family == AF_INET ? (peerAddress, localAddress) : (peer.address, local.address)
        var uid: UInt32 = 0
        let answer = a.withUnsafeBytes { pa in
            b.withUnsafeBytes { pb in contactsd_tcp_socket_owner(family, pa.baseAddress, peer.port, pb.baseAddress, local.port, &uid) }
        }
        switch answer {
        case 0: return .found(uid)
        case 1: return .absent
        default: return .unavailable
        }
    }

    /// The peer's socket found in the kernel's socket tables.
    static func fromTables(peer p: Endpoint, local l: Endpoint) -> UInt32? {
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            guard let text = readWhole(table) else { continue }
            if let uid = find(in: text, local: p, remote: l) { return uid }
        }
        return nil
    }

    /// A file of /proc read to its end: it tells no size, and reading as much as it tells
    /// gives its first page alone.
    static func readWhole(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return (try? FileIO.readAll(fd, detail: path)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The `uid` of the entry with this local and remote address in one table's text.
    static func find(in table: String, local: Endpoint, remote: Endpoint) -> UInt32? {
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count > 7, let l = parse(fields[1]), let r = parse(fields[2]) else { continue }
            if same(l, local) && same(r, remote) { return UInt32(fields[7]) }
        }
        return nil
    }

    /// An address in the tables is 4 bytes (tcp) or 16 (tcp6, where IPv4 peers of a dual
    /// stack socket appear mapped, ::ffff:a.b.c.d); both forms of one address are the same.
    static func same(_ a: Endpoint, _ b: Endpoint) -> Bool {
        a.port == b.port && v4(a.address) == v4(b.address)
    }

    static func v4(_ bytes: [UInt8]) -> [UInt8] {
        if bytes.count == 16 && bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            return Array(bytes[12..<16])
        }
        return bytes
    }

    /// "0100007F:1470": the address as the kernel holds it, 32-bit words in host order.
    static func parse(_ field: Substring) -> Endpoint? {
        let parts = field.split(separator: ":")
        guard parts.count == 2, let port = UInt16(parts[1], radix: 16) else { return nil }
        let hex = Array(parts[0].utf8)
        guard hex.count == 8 || hex.count == 32 else { return nil }
        var bytes: [UInt8] = []
        // Each 8 hex digits are one 32-bit word, printed as a number: on a little-endian
        // machine its bytes come out reversed.
        for word in stride(from: 0, to: hex.count, by: 8) {
            guard let value = UInt32(String(decoding: hex[word..<word + 8], as: UTF8.self), radix: 16) else { return nil }
            withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
        }
        return Endpoint(address: bytes, port: port)
    }

    static func endpoint(_ address: UnsafePointer<sockaddr>) -> Endpoint? {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { a in
                withUnsafeBytes(of: a.pointee.sin_addr) { Endpoint(address: Array($0), port: UInt16(bigEndian: a.pointee.sin_port)) }
            }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { a in
                withUnsafeBytes(of: a.pointee.sin6_addr) { Endpoint(address: Array($0), port: UInt16(bigEndian: a.pointee.sin6_port)) }
            }
        default:
            return nil
        }
    }
}
