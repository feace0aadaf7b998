import ContactsCore

extension ContactStore {
    /// Gives the contacts stored before a field was declared the values their cards hold for
    /// it (an Apple card's `X-ABDATE`, a vCard 4.0 `RELATED`, the department in `ORG`): their
    /// body, search text and sort key are written again. Without it, the card would be
    /// written back with the field empty, as though the user had cleared it.
    static func adoptDeclaredFields(_ db: Database) throws {
        try rewriteRows(db, where: "vcard IS NOT NULL") { c in VCardMapping.adoptDeclared(into: &c) }
    }
}
