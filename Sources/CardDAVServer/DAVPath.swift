import Foundation

/// The URL layout of the CardDAV face, and what a request's path names in it.
public enum DAVPath: Equatable, Sendable {
    case wellKnown
    case root
    case principal
    case home
    case book(String)
    case card(book: String, name: String)

    public static let principalPath = "/principal/"
    public static let homePath = "/books/"

    /// What a path names; nil when nothing (or when it tries to step out: `..`, NUL, a slash
    /// encoded inside a segment).
    public init?(_ raw: String) {
        var path = raw
        if let q = path.firstIndex(of: "?") { path = String(path[..<q]) }
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var decoded: [String] = []
        for s in segments {
            // Most segments have nothing encoded (a multiget names thousands of them).
            let d = s.utf8.contains(UInt8(ascii: "%")) ? s.removingPercentEncoding : s
            guard let d, !d.isEmpty, d != ".", d != "..", !d.utf8.contains(where: { $0 == UInt8(ascii: "/") || $0 == 0 }) else {
                return nil
            }
            decoded.append(d)
        }
        switch decoded.count {
        case 0: self = .root
        case 1 where decoded[0] == "principal": self = .principal
        case 1 where decoded[0] == "books": self = .home
        case 2 where decoded == [".well-known", "carddav"]: self = .wellKnown
        case 2 where decoded[0] == "books": self = .book(decoded[1])
        case 3 where decoded[0] == "books": self = .card(book: decoded[1], name: decoded[2])
        default:
            if decoded.first == ".well-known" && decoded.count == 2 && decoded[1] == "carddav" { self = .wellKnown } else { return nil }
        }
    }

    /// The path as an href: each segment percent-encoded.
    public var href: String {
        switch self {
        case .wellKnown: return "/.well-known/carddav"
        case .root: return "/"
        case .principal: return Self.principalPath
        case .home: return Self.homePath
        case .book(let b): return Self.homePath + Self.encode(b) + "/"
        case .card(let b, let n): return Self.homePath + Self.encode(b) + "/" + Self.encode(n)
        }
    }

    /// A segment with everything but unreserved characters percent-encoded.
    static func encode(_ segment: String) -> String {
        var out = ""
        for b in segment.utf8 {
            switch b {
            case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2D, 0x2E, 0x5F, 0x7E, 0x40: out.unicodeScalars.append(Unicode.Scalar(b))
            default: out += "%" + String(b, radix: 16, uppercase: true).leftPadded(2)
            }
        }
        return out
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
