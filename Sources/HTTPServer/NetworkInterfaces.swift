import Glibc

/// The machine's own addresses, as the LAN face names itself to devices.
public enum NetworkInterfaces {
    /// The addresses of the interfaces that are up, loopback and link-local ones left out:
    /// IPv4 first, as text.
    public static func addresses() -> [String] {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0 else { return [] }
        defer { freeifaddrs(first) }
        var v4: [String] = []
        var v6: [String] = []
        var next = first
        while let entry = next {
            next = entry.pointee.ifa_next
            let flags = Int32(bitPattern: entry.pointee.ifa_flags)
            guard let address = entry.pointee.ifa_addr, flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0,
                let text = PeerOwner.endpoint(address)?.text
            else { continue }
            if text.contains(":") {
                if !text.lowercased().hasPrefix("fe80") { v6.append(text) }
            } else if !text.hasPrefix("169.254.") {
                v4.append(text)
            }
        }
        return v4 + v6
    }

    /// The machine's host name.
    public static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
