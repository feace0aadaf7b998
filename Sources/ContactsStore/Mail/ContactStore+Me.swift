import ContactsCore

/// The user's own card (as Apple's "My Card"): its addresses are the user's, never collected,
/// and a message from one of them is the user's own.
extension ContactStore {
    static let meSetting = "meContact"

    /// The contact marked as the user, if there is one (and it was not deleted since).
    public func meContact() throws -> Contact? {
        let id = try read { db in try db.scalarText("SELECT value FROM settings WHERE key = ?", [.text(Self.meSetting)]) }
        guard let id else { return nil }
        do {
            return try contact(id: id)
        } catch StoreError.notFound {
            return nil
        }
    }

    /// Marks a contact as the user (nil: none is).
    public func setMeContact(id: String?) throws {
        if let id { _ = try contact(id: id) }
        try write(origin: "rpc") { db, _ in
            if let id {
                try db.prepare("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)").run([.text(Self.meSetting), .text(id)])
            } else {
                try db.prepare("DELETE FROM settings WHERE key = ?").run([.text(Self.meSetting)])
            }
        }
    }
}
