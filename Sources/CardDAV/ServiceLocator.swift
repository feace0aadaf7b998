import Foundation
import ResolvShim

/// Where a domain says its CardDAV service is (RFC 6764): the `_carddavs._tcp` SRV record (the
/// host and port, lowest priority first, then highest weight) and the `path` of its TXT
/// record. Plain `_carddav._tcp` is not followed: sync goes over TLS away from this machine.
public struct ServiceLocator: Sendable {
    /// The name server to ask (an IPv4 address and port); nil: the system's resolver.
    public var nameServer: (address: String, port: Int)?

    public init(nameServer: (address: String, port: Int)? = nil) { self.nameServer = nameServer }

    /// The system's resolver.
    public static let system = ServiceLocator()

    /// The service's URL for `domain`; nil when the domain names none (no record, or the
    /// target `.`, which says there is no service) or the lookup failed.
    public func carddavURL(for domain: String) -> URL? {
        let name = "_carddavs._tcp." + domain
        var records = [resolv_srv_record](repeating: resolv_srv_record(), count: 16)
        let n = records.withUnsafeMutableBufferPointer { buffer in
            resolv_srv(name, nameServer?.address, Int32(nameServer?.port ?? 53), buffer.baseAddress, Int32(buffer.count))
        }
        guard n > 0 else { return nil }
        let best = records.prefix(Int(n)).min { a, b in a.priority != b.priority ? a.priority < b.priority : a.weight > b.weight }
        guard var best else { return nil }
        let target = withUnsafeBytes(of: &best.target) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        guard !target.isEmpty, target != "." else { return nil }
        var path = [CChar](repeating: 0, count: 1024)
        let length = resolv_txt(name, nameServer?.address, Int32(nameServer?.port ?? 53), "path", &path, Int32(path.count))
        var p = length > 0 ? String(decoding: path.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self) : "/"
        if !p.hasPrefix("/") { p = "/" + p }
        var c = URLComponents()
        c.scheme = "https"
        c.host = target.hasSuffix(".") ? String(target.dropLast()) : target
        if best.port != 443 { c.port = Int(best.port) }
        c.path = p
        return c.url
    }
}
