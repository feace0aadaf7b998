/// A photo's name by its content, `sha256:<64 lower-case hex digits>`: the same bytes always
/// get the same name, and a name is safe in a path once `hex(of:)` has checked it.
public enum ContentAddress {
    public static let prefix = "sha256:"

    /// The content address of `bytes`.
    public static func of(_ bytes: [UInt8]) -> String { prefix + SHA256.hex(bytes) }

    /// The hex digest of a content address, or nil when `address` is not one (it names files,
    /// so nothing else may get into a path).
    public static func hex(of address: String) -> String? {
        guard address.hasPrefix(prefix) else { return nil }
        let hex = address.utf8.dropFirst(prefix.utf8.count)
        guard hex.count == 64, hex.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }) else { return nil }
        return String(hex)
    }
}
