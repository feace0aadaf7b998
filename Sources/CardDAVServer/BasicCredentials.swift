import Foundation

/// HTTP Basic credentials (RFC 7617): `Basic base64(name:password)`, the password being all
/// after the first colon.
public enum BasicCredentials {
    public static func parse(_ header: String?) -> (name: String, password: String)? {
        guard let header, header.count <= 1024 else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "basic",
            let data = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
            let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return nil }
        return (String(text[..<colon]), String(text[text.index(after: colon)...]))
    }
}
