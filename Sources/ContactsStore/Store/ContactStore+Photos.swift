import ContactsCore
import ContactsSupport
import VCard

/// A photo's bytes with what is known about them, ready to be stored by content.
public struct PhotoUpload: Sendable {
    public var bytes: [UInt8]
    public var mimeType: String
    public var width: Int?
    public var height: Int?
    public var hash: String

    /// `hash`, when the caller has it already, must be the bytes' content address.
    public init(bytes: [UInt8], mimeType: String, width: Int? = nil, height: Int? = nil, hash: String? = nil) {
        self.bytes = bytes
        self.mimeType = mimeType
        self.width = width
        self.height = height
        self.hash = hash ?? "sha256:" + SHA256.hex(bytes)
    }

    public var reference: PhotoReference { .stored(hash: hash, mimeType: mimeType, width: width, height: height) }
}

extension ContactStore {
    /// Gives a contact a photo: the bytes are stored once by content (shared with any contact
    /// that has the same ones), then the contact refers to them. The photo it had before is
    /// removed when no one else refers to it.
    public func setPhoto(id: String, _ photo: PhotoUpload, ifRevision: Int? = nil) throws -> Contact {
        try update(id: id, ifRevision: ifRevision, beforeWriting: { try photos.put(photo.hash, photo.bytes) }) {
            $0.photo = photo.reference
        }
    }

    /// Takes a contact's photo away.
    public func removePhoto(id: String, ifRevision: Int? = nil) throws -> Contact {
        try update(id: id, ifRevision: ifRevision) { $0.photo = nil }
    }

    /// A stored photo's bytes, or nil when there is no such file.
    public func photoBytes(_ hash: String) -> [UInt8]? {
        photos.read(hash)
    }

    /// The vCard properties to write for a contact, stored photos inline.
    public func cardProperties(for c: Contact) -> [VCardProperty] {
        VCardMapping.attachPhotos(VCardMapping.properties(for: c)) { photos.read($0) }
    }

    /// Moves photos kept inside stored cards (stores made before the photo files) out to the
    /// photo files, and records every contact's photo. Runs inside the migration's transaction.
    static func adoptInlinePhotos(_ db: Database, photos: PhotoStore) throws {
        let select = try db.prepare("SELECT rowid, body, vcard FROM contacts WHERE vcard IS NOT NULL AND instr(vcard, 'PHOTO') > 0")
        var moved: [(rowid: Int64, vcard: String)] = []
        while try select.step() {
            var c = Contact(name: "")
            select.withBytes(1) { StoredBody.decode($0, into: &c) }
            c.vcardProperties = select.withBytes(2) { StoredProperties.decode($0) }
            guard let photo = VCardMapping.detachPhoto(&c) else { continue }
            try photos.put(photo.hash, photo.bytes, sync: false)
            moved.append((select.int64(0), StoredProperties.encode(c.vcardProperties) ?? ""))
        }
        select.reset()
        if !moved.isEmpty { try photos.syncAll() }
        for m in moved {
            try db.prepare("UPDATE contacts SET vcard = ? WHERE rowid = ?").run([.text(m.vcard), .int(m.rowid)])
        }
        try db.execute(
            "UPDATE contacts SET photo_hash = json_extract(body, '$.photo.hash') WHERE json_extract(body, '$.photo.hash') IS NOT NULL")
    }
}
