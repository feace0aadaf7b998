import ContactsCore
import ContactsSupport
import Glibc
import VCard

extension ContactStore {
    /// Gives a contact a photo: the bytes are stored once by content (shared with any contact
    /// that has the same ones), then the contact refers to them. The photo it had before is
    /// removed when no one else refers to it.
    public func setPhoto(id: String, _ photo: PhotoData, ifRevision: Int? = nil) throws -> Contact {
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

// The life of photo files: removed once no contact refers to them, kept while a backup
// copies them, swept after an interrupted write.
extension ContactStore {
    /// Removes the files of photos no contact refers to any more. The caller holds the write
    /// lock, so no write can be adding a reference meanwhile.
    func releasePhotos(_ hashes: Set<String>) {
        guard !hashes.isEmpty else { return }
        if photoPins > 0 {
            releasedWhilePinned.formUnion(hashes)
            return
        }
        for hash in hashes {
            // A contact in the trash keeps its photo too, and so does a state the history keeps.
            guard
                (try? writer.scalarInt(
                    """
                    SELECT (SELECT count(*) FROM contacts WHERE photo_hash = ?1) + (SELECT count(*) FROM trash WHERE photo_hash = ?1)
                        + (SELECT count(*) FROM history WHERE photo_hash = ?1)
                    """,
                    [.text(hash)])) == 0
            else { continue }
            if photos.contains(hash) {
                photos.remove(hash)
                photoRemovalHandler?(hash)
            }
        }
    }

    /// Keeps every photo file in place while `body` runs (a backup copying them).
    func withPhotosPinned<T>(_ body: () throws -> T) rethrows -> T {
        writeLock.lock()
        photoPins += 1
        writeLock.unlock()
        defer {
            writeLock.lock()
            photoPins -= 1
            if photoPins == 0 {
                let released = releasedWhilePinned
                releasedWhilePinned = []
                releasePhotos(released)
            }
            writeLock.unlock()
        }
        return try body()
    }

    /// Removes photo files no contact refers to, and temporary files an interrupted write left
    /// behind. The daemon runs this once after start. Returns how many files went.
    @discardableResult
    public func removeUnreferencedPhotos() throws -> Int {
        writeLock.lock()
        defer { writeLock.unlock() }
        if isClosed { throw StoreError.unavailable("the store is closed") }
        return try sweepPhotos()
    }

    /// The sweep itself; the caller holds the write lock.
    func sweepPhotos() throws -> Int {
        guard photoPins == 0 else { return 0 }
        let (hashes, leftovers) = photos.inventory()
        for path in leftovers { unlink(path) }
        guard !hashes.isEmpty else { return leftovers.count }
        var referenced: Set<String> = []
        do {
            let s = try writer.prepare(
                """
                SELECT photo_hash FROM contacts WHERE photo_hash IS NOT NULL UNION SELECT photo_hash FROM trash WHERE photo_hash IS NOT NULL
                UNION SELECT photo_hash FROM history WHERE photo_hash IS NOT NULL
                """)
            defer { s.reset() }
            while try s.step() { referenced.insert(s.text(0)) }
        } catch {
            throw StoreError.database(error)
        }
        var removed = leftovers.count
        for hash in hashes where !referenced.contains(hash) {
            photos.remove(hash)
            photoRemovalHandler?(hash)
            removed += 1
        }
        return removed
    }
}
