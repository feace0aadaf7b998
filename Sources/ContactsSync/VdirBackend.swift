import CardDAV
import ContactsSupport
import Foundation
import Glibc
import VCard

/// A vdir as a sync backend: a directory with one `.vcf` file per contact, as vdirsyncer,
/// khard, aerc and mutt keep them. A file's name is its href and its modification time, size
/// and inode its entity tag; a change is asked for by a listing (the engine compares entity
/// tags), a write goes to a temporary file renamed over the card, only over the version
/// the engine last saw. Files that hold no vCard, or several, are left as they are and
/// reported (`problems`): they are never read into the store, and so never written back.
public final class VdirBackend: SyncBackend, @unchecked Sendable {
    public let directory: String
    /// How many operations it did, and the files it found no card in, with why.
    private let state = Locked((operations: 0, found: [String: String]()))

    public init(directory: String) {
        self.directory = directory.hasSuffix("/") && directory.count > 1 ? String(directory.dropLast()) : directory
    }

    /// The files of the last reads that could not be taken as a contact, and why.
    public var problems: [(href: String, message: String)] {
        state.withLock { $0.found.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
    }

    public var requests: Int { state.withLock { $0.operations } }

    private func count() { state.withLock { $0.operations += 1 } }

    // MARK: Reading

    /// A vdir keeps no tokens: the engine lists and compares.
    public func changes(since token: String?, cards: ((RemoteCard) -> Bool)?) throws(DAVError) -> RemoteChanges {
        throw DAVError.status(501, url: directory, message: "a vdir is listed, not asked for changes", retryAfter: nil)
    }

    public func isInvalidToken(_ error: DAVError) -> Bool { false }

    /// Its name, and a ctag made of every file's name and entity tag.
    public func properties() throws(DAVError) -> AddressBookProperties {
        let listed = try listing()
        let stamp = SHA256.hex(Array(listed.map { "\($0.href)\u{1F}\($0.etag ?? "")" }.joined(separator: "\u{1E}").utf8))
        return AddressBookProperties(
            displayName: URL(fileURLWithPath: directory).lastPathComponent, syncToken: nil, ctag: String(stamp.prefix(32)),
            supportsSyncCollection: false, versions: ["3.0", "4.0"], isAddressBook: true)
    }

    /// Every `.vcf` file (not hidden, not a temporary file) with its entity tag.
    public func listing() throws(DAVError) -> [(href: String, etag: String?)] {
        count()
        guard let dir = opendir(directory) else { throw failure("cannot read the directory") }
        defer { closedir(dir) }
        var out: [(href: String, etag: String?)] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard Self.isCard(name), let tag = etag(name) else { continue }
            out.append((name, tag))
        }
        return out.sorted { $0.href < $1.href }
    }

    /// Whether a file name is one of the vdir's cards.
    public static func isCard(_ name: String) -> Bool {
        !name.hasPrefix(".") && name.lowercased().hasSuffix(".vcf") && !name.contains("/")
    }

    /// The cards at `hrefs`; those gone, or that are not one vCard, are left out (the latter
    /// noted in `problems`).
    public func fetch(_ hrefs: [String]) throws(DAVError) -> [RemoteCard] {
        var out: [RemoteCard] = []
        for href in hrefs { if let card = try get(href) { out.append(card) } }
        return out
    }

    public func get(_ href: String) throws(DAVError) -> RemoteCard? {
        count()
        guard Self.isCard(href) else { return nil }
        let path = directory + "/" + href
        var bytes: [UInt8]
        var tag: String?
        // The entity tag of the bytes read: read again when the file changed meanwhile.
        var tries = 0
        repeat {
            tag = etag(href)
            guard tag != nil else { return nil }
            do {
                bytes = try FileIO.readRegularFile(path, limit: 16 << 20)
            } catch {
                if errno == ENOENT { return nil }
                note(href, "cannot be read: \(error)")
                return nil
            }
            tries += 1
        } while etag(href) != tag && tries < 3
        let cards = VCardParser.parse(bytes).cards.count
        guard cards == 1 else {
            note(href, cards == 0 ? "is not a vCard: left as it is" : "holds \(cards) vCards, not one: left as it is")
            return nil
        }
        state.withLock { $0.found[href] = nil }
        return RemoteCard(href: href, etag: tag, data: Data(bytes))
    }

    private func note(_ href: String, _ message: String) { state.withLock { $0.found[href] = message } }

    /// Modification time (nanoseconds), size and inode: what changes when any program writes.
    func etag(_ href: String) -> String? {
        var st = stat()
        guard lstat(directory + "/" + href, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        return "\(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec)-\(st.st_size)-\(st.st_ino)"
    }

    // MARK: Writing

    /// Writes a card by temp-and-rename: a new one only where no file is (`etag` nil), else
    /// only over the version with that entity tag.
    public func put(_ href: String, _ data: Data, etag expected: String?) throws(DAVError) -> WriteResult {
        count()
        guard Self.isCard(href) else { throw DAVError.refusedURL("'\(href)' is not a card's file name in \(directory)") }
        let path = directory + "/" + href
        if let expected {
            guard etag(href) == expected else { return .preconditionFailed }
        } else if etag(href) != nil || access(path, F_OK) == 0 {
            return .preconditionFailed
        }
        do {
            try FileIO.writeAtomically(path, [UInt8](data))
        } catch {
            throw failure("cannot write \(href): \(error)")
        }
        return .written(href: href, etag: etag(href))
    }

    /// Removes a card, only the version with that entity tag; one gone already is gone.
    public func delete(_ href: String, etag expected: String?) throws(DAVError) -> WriteResult {
        count()
        guard Self.isCard(href) else { throw DAVError.refusedURL("'\(href)' is not a card's file name in \(directory)") }
        guard let current = etag(href) else { return .written(href: href, etag: nil) }
        if let expected, current != expected { return .preconditionFailed }
        guard unlink(directory + "/" + href) == 0 || errno == ENOENT else { throw failure("cannot remove \(href)") }
        return .written(href: href, etag: nil)
    }

    /// The file name for a new card: its UID where that is a safe file name (as vdirsyncer
    /// names them), else a new UUID.
    public func hrefForNewCard(uid: String) -> String { Self.fileName(uid: uid) }

    public static func fileName(uid: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.@")
        var name = uid.lowercased().hasPrefix("urn:uuid:") ? String(uid.dropFirst(9)) : uid
        if name.isEmpty || name.count > 128 || !name.allSatisfy({ safe.contains($0) }) || name.hasPrefix(".") {
            name = UUID().uuidString.lowercased()
        }
        return name + ".vcf"
    }

    private func failure(_ message: String) -> DAVError {
        .unreachable(url: directory, message: "\(message) (\(SystemError("vdir", detail: directory)))")
    }
}
