/// The names CardDAV clients gave the cards they created (`served_names`): a card is served
/// under its client's name when it has one, else as `ID.vcf`.
extension ContactStore {
    /// Every contact's served name that is not `ID.vcf`, by contact id.
    public func servedNames() throws -> [String: String] {
        try read { db in
            var out: [String: String] = [:]
            let s = try db.prepare("SELECT contact_id, name FROM served_names")
            while try s.step() { out[s.text(0)] = s.text(1) }
            s.reset()
            return out
        }
    }

    /// The name a client gave this contact's card, if one did.
    public func servedName(of id: String) throws -> String? {
        try read { db in
            let s = try db.prepare("SELECT name FROM served_names WHERE contact_id = ?")
            try s.bind([.text(id)])
            defer { s.reset() }
            return try s.step() ? s.text(0) : nil
        }
    }

    /// The contacts served under this name (one per book at most, in practice one).
    public func contacts(servedAs name: String) throws -> [String] {
        try read { db in
            var out: [String] = []
            let s = try db.prepare("SELECT contact_id FROM served_names WHERE name = ?")
            try s.bind([.text(name)])
            while try s.step() { out.append(s.text(0)) }
            s.reset()
            return out
        }
    }

    /// Keeps the name a client created a card under.
    public func setServedName(_ name: String, for id: String) throws {
        try write(origin: "carddav") { db, _ in
            try db.prepare("INSERT OR REPLACE INTO served_names (contact_id, name) VALUES (?, ?)").run([.text(id), .text(name)])
        }
    }
}

extension ContactStore {
    /// The id of the contact with this uid, if one has it.
    public func contactID(uid: String) throws -> String? {
        try read { db in try Self.fetch(db, uid: uid)?.id }
    }
}

/// The names a CardDAV client gave the books (PROPPATCH `displayname`), kept in `settings`.
extension ContactStore {
    static func displayNameSetting(_ book: String) -> String { "served.displayname:" + book }

    /// The name a client gave this book, if one did.
    public func servedDisplayName(of book: String) throws -> String? {
        try read { db in try db.scalarText("SELECT value FROM settings WHERE key = ?", [.text(Self.displayNameSetting(book))]) }
    }

    /// Names a book as clients show it; nil gives it back its own name.
    public func setServedDisplayName(_ name: String?, of book: String) throws {
        try write(origin: "carddav") { db, _ in
            if let name {
                try db.prepare("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)").run([
                    .text(Self.displayNameSetting(book)), .text(name),
                ])
            } else {
                try db.prepare("DELETE FROM settings WHERE key = ?").run([.text(Self.displayNameSetting(book))])
            }
        }
    }
}
