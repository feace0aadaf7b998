import ContactsSupport

/// A device's password: 28 characters from an alphabet of 32 that a person reads without
/// doubt (no 0/o, 1/l), 140 bits from the kernel's random source, shown in groups of four to
/// be typed on a phone. What a device sends is read without its dashes and spaces, in any
/// case, so that a phone's keyboard cannot make it wrong.
enum DevicePassword {
    static let alphabet = Array("abcdefghijkmnpqrstuvwxyz23456789")
    static let length = 28

    /// A new password, grouped: `abcd-efgh-…`.
    static func make() -> String {
        var random = SystemRandomNumberGenerator()
        let characters = (0..<length).map { _ in alphabet[Int(random.next(upperBound: UInt32(alphabet.count)))] }
        return stride(from: 0, to: length, by: 4).map { String(characters[$0..<min($0 + 4, length)]) }.joined(separator: "-")
    }

    /// The password as it is hashed: without dashes and spaces, lowercased.
    static func normalized(_ password: String) -> String {
        String(password.lowercased().filter { $0 != "-" && $0 != " " })
    }

    /// What the registry keeps of a password: SHA-256 of its normalized form. A random secret of
    /// 140 bits needs no slow hash (guessing it is out of reach however fast each guess is).
    static func hash(_ password: String) -> [UInt8] { SHA256.digest(Array(normalized(password).utf8)) }

    /// Whether two hashes are the same, in a time that does not depend on where they differ.
    static func same(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in a.indices { difference |= a[i] ^ b[i] }
        return difference == 0
    }
}
