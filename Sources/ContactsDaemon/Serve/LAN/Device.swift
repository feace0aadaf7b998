import ContactsAPI
import JSONCore

/// A device allowed in by the LAN face: its name (the user name it signs in with), the hash
/// of its password, the books it sees (all when none are named), whether it may only read,
/// and what was seen of it.
struct Device: Sendable, Equatable {
    var name: String
    var passwordHash: [UInt8]
    var books: [String]
    var readOnly: Bool
    /// Seconds since 1970.
    var addedAt: Int64
    var lastSeenAt: Int64?
    var lastSeenFrom: String?
    var failedSignIns = 0

    /// 1 to 64 letters, digits, dots, dashes and underscores (it is a user name in HTTP Basic,
    /// which cannot hold a colon, and a word in the history's origin).
    static func validName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64
            && name.unicodeScalars.allSatisfy { s in
                ("a"..."z").contains(s) || ("A"..."Z").contains(s) || ("0"..."9").contains(s) || "._-".unicodeScalars.contains(s)
            }
    }

    /// As the registry's file keeps it.
    var stored: JSONValue {
        .object(
            .present([
                "name": .string(name), "passwordSHA256": .string(passwordHash.map { String($0, radix: 16).leftPadded(2) }.joined()),
                "books": .array(books.map { .string($0) }), "readOnly": .bool(readOnly), "addedAt": .int(Int(addedAt)),
                "lastSeenAt": lastSeenAt.map { .int(Int($0)) }, "lastSeenFrom": lastSeenFrom.map { .string($0) },
                "failedSignIns": .int(failedSignIns),
            ]))
    }

    init(name: String, passwordHash: [UInt8], books: [String], readOnly: Bool, addedAt: Int64) {
        (self.name, self.passwordHash, self.books, self.readOnly, self.addedAt) = (name, passwordHash, books, readOnly, addedAt)
    }

    /// A device as the file keeps it, or nil when the entry is not one.
    init?(stored v: JSONValue) {
        guard let name = v["name"]?.stringValue, Self.validName(name), let hex = v["passwordSHA256"]?.stringValue, hex.count == 64,
            let added = v["addedAt"]?.intValue
        else { return nil }
        var hash: [UInt8] = []
        var i = hex.startIndex
        while i < hex.endIndex {
            let next = hex.index(i, offsetBy: 2)
            guard let byte = UInt8(hex[i..<next], radix: 16) else { return nil }
            hash.append(byte)
            i = next
        }
        self.init(
            name: name, passwordHash: hash, books: v["books"]?.arrayValue?.compactMap(\.stringValue) ?? [],
            readOnly: v["readOnly"]?.boolValue ?? false, addedAt: Int64(added))
        lastSeenAt = v["lastSeenAt"]?.intValue.map(Int64.init)
        lastSeenFrom = v["lastSeenFrom"]?.stringValue
        failedSignIns = v["failedSignIns"]?.intValue ?? 0
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
