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
