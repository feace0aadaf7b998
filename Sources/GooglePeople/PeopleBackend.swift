import CardDAV
import ContactsCore
import ContactsSupport
import ContactsSync
import Foundation
import JSONCore
import VCard

/// A Google account's contacts through the People API, as the sync engine sees a book: each
/// person a card (`href` its resource name, `etag` Google's), labels as the contacts' groups
/// and `starred` as favorite. Changes come by sync token; writes go in Google's batches,
/// each update naming only the fields that changed since the card as last synced.
public final class PeopleBackend: SyncBackend, Sendable {
    public let client: PeopleClient
    private let labelsFile: String?
    let localGroups: (@Sendable () -> Set<String>)?
    /// How long the labels known are taken as current when no person changed (a label
    /// renamed on the phone, and nothing else, is seen within this).
    let labelsFreshFor: TimeInterval

    struct State {
        /// The user's labels by resource name, and when they were last read from Google.
        var labels: [String: String]?
        var labelsRead: Date?
        var labelsReadNow = false
        /// People just written, by resource name: the engine asks for them right after.
        var written: [String: RemoteCard] = [:]
    }
    let state: Locked<State>

    /// `labelsFile` keeps the labels between syncs (a no-op sync is then one request).
    /// `localGroups` names the groups the store has now: a label whose group is gone from it
    /// (renamed, deleted) is renamed or deleted on Google as the cards that leave it go up.
    public init(
        client: PeopleClient, labelsFile: String? = nil, labelsFreshFor: TimeInterval = 3600,
        localGroups: (@Sendable () -> Set<String>)? = nil
    ) {
        self.client = client
        self.localGroups = localGroups
        self.labelsFreshFor = labelsFreshFor
        self.labelsFile = labelsFile
        var s = State()
        if let labelsFile, let kept = LabelsFile.read(labelsFile) { (s.labels, s.labelsRead) = (kept.labels, kept.read) }
        state = Locked(s)
    }

    public var requests: Int { client.http.requests }
    public var writeBatch: Int { PeopleClient.writeBatch }

    // MARK: Reading

    public func changes(since token: String?, cards: ((RemoteCard) -> Bool)?) throws(DAVError) -> RemoteChanges {
        var changed: [(href: String, etag: String?)] = []
        var removed: [String] = []
        var sending = cards != nil
        var page: String?
        var next: String?
        repeat {
            let p = try client.connections(syncToken: token, pageToken: page)
            if !p.people.isEmpty || token == nil { changed += try readLabels(force: true) }
            for person in p.people {
                guard let href = person["resourceName"]?.stringValue else { continue }
                if person["metadata"]?["deleted"]?.boolValue == true {
                    removed.append(href)
                    continue
                }
                let card = render(person)
                changed.append((href, card.etag))
                if sending, let cards { sending = cards(card) }
            }
            page = p.nextPageToken
            next = p.nextSyncToken ?? next
        } while page != nil
        if token != nil && changed.isEmpty && removed.isEmpty { changed += try readLabels(force: false) }
        return RemoteChanges(changed: changed, removed: removed, token: next, truncated: false)
    }

    /// Reads the labels when asked to (once a sync), or when those known are older than
    /// `labelsFreshFor`; returns the people of labels renamed or gone since, to be read again
    /// (their cards name the label: a rename changes no person on Google's side).
    func readLabels(force: Bool) throws(DAVError) -> [(href: String, etag: String?)] {
        let (known, read, readNow) = state.withLock { ($0.labels, $0.labelsRead, $0.labelsReadNow) }
        if readNow { return [] }
        if !force, let read, known != nil, Date().timeIntervalSince(read) < labelsFreshFor { return [] }
        let groups = try client.groups()
        let labels = Dictionary(groups.filter(\.isUsers).map { ($0.resourceName, $0.name) }, uniquingKeysWith: { a, _ in a })
        var again: [(href: String, etag: String?)] = []
        for (resource, name) in known ?? [:] where labels[resource] != nil && labels[resource] != name {
            // Asked for without an etag: fetched whatever the etag stored.
            again += try client.members(of: resource).map { ($0, nil) }
        }
        let now = Date()
        state.withLock { s in (s.labels, s.labelsRead, s.labelsReadNow) = (labels, now, true) }
        if let labelsFile { LabelsFile.write(labelsFile, labels: labels, read: now) }
        return again
    }

    func currentLabels() -> [String: String] { state.withLock { $0.labels ?? [:] } }

    public func isInvalidToken(_ error: DAVError) -> Bool {
        guard case .status(let code, _, let message, _) = error else { return false }
        return (code == 400 || code == 410) && message.contains("EXPIRED_SYNC_TOKEN")
    }

    public func properties() throws(DAVError) -> AddressBookProperties {
        AddressBookProperties(
            displayName: "Google Contacts", syncToken: nil, ctag: nil, supportsSyncCollection: true, versions: ["3.0"], isAddressBook: true)
    }

    public func listing() throws(DAVError) -> [(href: String, etag: String?)] {
        var out: [(href: String, etag: String?)] = []
        var page: String?
        repeat {
            let p = try client.connections(syncToken: nil, pageToken: page, fields: ["metadata"])
            out += p.people.compactMap { person in person["resourceName"]?.stringValue.map { ($0, person["etag"]?.stringValue) } }
            page = p.nextPageToken
        } while page != nil
        return out
    }

    public func fetch(_ hrefs: [String]) throws(DAVError) -> [RemoteCard] {
        _ = try readLabels(force: state.withLock { $0.labels == nil })
        var out: [RemoteCard] = []
        for start in stride(from: 0, to: hrefs.count, by: PeopleClient.getBatch) {
            let people = try client.people(Array(hrefs[start..<min(hrefs.count, start + PeopleClient.getBatch)]))
            out += people.map(render)
        }
        return out
    }

    public func get(_ href: String) throws(DAVError) -> RemoteCard? {
        if let just = state.withLock({ $0.written.removeValue(forKey: href) }) { return just }
        guard href.hasPrefix("people/"), !href.hasPrefix(Self.newPrefix) else { return nil }
        return try client.person(href).map(render)
    }

    // MARK: Writing

    /// Where a card made here waits until Google names it.
    static let newPrefix = "people/new-"

    public func hrefForNewCard(uid: String) -> String { Self.hrefForNewCard(uid: uid) }

    public static func hrefForNewCard(uid: String) -> String {
        newPrefix + (uid.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? uid)
    }

    /// An account's book URL: the API's root with the user's address in it, which tells two
    /// Google accounts apart (and is never sent: `root(of:)` takes it out).
    public static func bookURL(root: String, user: String) -> String {
        guard var c = URLComponents(string: root) else { return root }
        c.user = user
        return c.string ?? root
    }

    public static func root(of bookURL: String) -> URL? {
        guard var c = URLComponents(string: bookURL) else { return nil }
        c.user = nil
        c.password = nil
        return c.url
    }

    public func put(_ href: String, _ data: Data, etag: String?) throws(DAVError) -> WriteResult {
        try write([CardWrite(href: href, data: data, etag: etag, base: nil)])[0].get()
    }

    public func delete(_ href: String, etag: String?) throws(DAVError) -> WriteResult {
        try write([CardWrite(href: href, data: nil, etag: etag, base: nil)])[0].get()
    }

    public func write(_ batch: [CardWrite]) -> [Result<WriteResult, DAVError>] {
        var answers = [Result<WriteResult, DAVError>?](repeating: nil, count: batch.count)
        var creates: [(index: Int, person: JSONObject)] = []
        var updates: [String: [(index: Int, name: String, person: JSONObject)]] = [:]
        var deletions: [Int] = []
        var labelIDs: [String: String]
        let gone: [String]
        // Each card parsed once, for the labels, the mask and the photo alike.
        let read = batch.map(ReadWrite.init)
        do {
            gone = try renameLabels(for: read)
            labelIDs = try labelIDsFor(read)
        } catch {
            return batch.map { _ in .failure(error) }
        }
        defer { deleteLabels(gone, after: batch, answers) }
        for (i, w) in batch.enumerated() {
            guard w.data != nil else {
                if w.href.hasPrefix(Self.newPrefix) {
                    answers[i] = .success(.written(href: w.href, etag: nil))
                } else {
                    deletions.append(i)
                }
                continue
            }
            guard let contact = read[i].contact else {
                answers[i] = .failure(.malformed("\(w.href): the card to send is not one contact"))
                continue
            }
            if w.etag == nil || w.href.hasPrefix(Self.newPrefix) {
                var person = PersonMapping.person(contact, fields: PersonMapping.writtenFields, labelIDs: labelIDs)
                person["clientData"] = .array([.object(["key": .string(PersonMapping.uidKey), "value": .string(contact.uid)])])
                creates.append((i, person))
            } else {
                let mask = PersonMapping.mask(from: read[i].base, to: contact, labelIDs: labelIDs)
                guard !mask.isEmpty else {
                    // Nothing but the photo, perhaps (sent below).
                    answers[i] = .success(.written(href: w.href, etag: w.etag))
                    continue
                }
                var person = PersonMapping.person(
                    contact, fields: Set(mask), labelIDs: labelIDs, memberships: Self.systemMemberships(contact))
                person["etag"] = .string(Self.googleEtag(w.etag) ?? "")
                updates[mask.joined(separator: ","), default: []].append((i, w.href, person))
            }
        }
        let labels = currentLabels()
        func record(_ index: Int, _ written: PeopleClient.Written) {
            switch written {
            case .person(let person):
                let card = Self.card(person, labels: labels, photo: read[index].photo)
                // A person just made has a name of Google's, which the engine reads next: it is
                // answered from here. An edit keeps its name and is never read from here.
                state.withLock { s in
                    if card.href != batch[index].href { s.written[card.href] = card } else { s.written[card.href] = nil }
                }
                answers[index] = .success(.written(href: card.href, etag: card.etag))
            case .stale: answers[index] = .success(.preconditionFailed)
            case .failed(let status, let message):
                answers[index] = .failure(.status(status, url: batch[index].href, message: message, retryAfter: nil))
            }
        }
        func failAll(_ indices: [Int], _ error: DAVError) { for i in indices { answers[i] = .failure(error) } }
        if !creates.isEmpty {
            do {
                for (k, w) in try client.create(creates.map(\.person)).enumerated() { record(creates[k].index, w) }
            } catch { failAll(creates.map(\.index), error) }
        }
        for (mask, all) in updates.sorted(by: { $0.key < $1.key }) {
            let fields = mask.split(separator: ",").map(String.init)
            var group = all
            for attempt in 0..<2 {
                do {
                    let written = try client.update(group.map { ($0.name, $0.person) }, mask: fields)
                    for (k, w) in written.enumerated() { record(group[k].index, w) }
                } catch let e where attempt == 0 && Self.isStale(e) {
                    // One person changed on Google's side fails the whole batch: those whose
                    // etag is still the one sent go again, the others are read and merged.
                    let current = (try? client.people(group.map(\.name))) ?? []
                    let etags = Dictionary(current.compactMap { p in p["resourceName"]?.stringValue.map { ($0, p["etag"]?.stringValue) } })
                    {
                        a, _ in a
                    }
                    let stale = group.filter { etags[$0.name] ?? nil != $0.person["etag"]?.stringValue }
                    for s in stale { answers[s.index] = .success(.preconditionFailed) }
                    group.removeAll { g in stale.contains { $0.index == g.index } }
                    if !group.isEmpty && !stale.isEmpty { continue }
                    failAll(group.map(\.index), e)
                } catch { failAll(group.map(\.index), error) }
                break
            }
        }
        for start in stride(from: 0, to: deletions.count, by: PeopleClient.deleteBatch) {
            let chunk = Array(deletions[start..<min(deletions.count, start + PeopleClient.deleteBatch)])
            do {
                try client.delete(chunk.map { batch[$0].href })
                for i in chunk { answers[i] = .success(.written(href: batch[i].href, etag: nil)) }
            } catch .status(404, _, _, _) where chunk.count == 1 {
                answers[chunk[0]] = .success(.written(href: batch[chunk[0]].href, etag: nil))
            } catch { failAll(chunk, error) }
        }
        for (i, w) in read.enumerated() where w.write.data != nil { sendPhoto(Self.photoChange(w), of: w.write.href, &answers[i]) }
        return answers.map { $0 ?? .failure(.malformed("no answer")) }
    }

    /// Google refused a write for an etag that is not the person's any more.
    static func isStale(_ e: DAVError) -> Bool {
        guard case .status(400, _, let message, _) = e else { return false }
        return message.contains("FAILED_PRECONDITION") && message.lowercased().contains("etag")
    }

    // MARK: Cards

    /// A person as the card the engine keeps: vCard 3.0, its UID, groups as CATEGORIES,
    /// starred as favorite, and Google's own groups beside (`X-GOOGLE-GROUP`), kept for writes.
    static func card(_ person: JSONObject, labels: [String: String], photo: [UInt8]? = nil) -> RemoteCard {
        let c = PersonMapping.contact(from: person, labels: labels)
        var properties = VCardMapping.properties(for: c)
        if let photo {
            let type = photo.starts(with: [0x89, 0x50, 0x4E, 0x47]) ? "PNG" : "JPEG"
            properties.append(
                VCardProperty(
                    name: "PHOTO", parameters: [VCardParameter("ENCODING", ["b"]), VCardParameter("TYPE", [type])],
                    value: .raw(Data(photo).base64EncodedString())))
        }
        for m in person["memberships"]?.arrayValue ?? [] {
            guard let g = PersonMapping.groupName(of: m), PersonMapping.isSystemGroup(g),
                g != PersonMapping.starred && g != PersonMapping.myContacts
            else { continue }
            properties.append(VCardProperty(name: systemGroupProperty, value: .raw(g)))
        }
        var text = ""
        VCardWriter.write(VCard(properties: properties), version: .v3, into: &text)
        return RemoteCard(href: person["resourceName"]?.stringValue ?? "", etag: etag(person, groups: c.groups), data: Data(text.utf8))
    }

    /// The etag a card is known by: Google's, and the names of its labels (a label renamed
    /// changes no person on Google's side, but changes the card).
    static func etag(_ person: JSONObject, groups: [String]) -> String? {
        guard let etag = person["etag"]?.stringValue else { return nil }
        guard !groups.isEmpty else { return etag }
        return etag + etagSeparator + String(SHA256.hex(Data(groups.sorted().joined(separator: "\n").utf8)).prefix(12))
    }

    /// Neither in Google's etags (base64) nor in a digest.
    static let etagSeparator = "~"

    /// Google's etag, out of the one a card is known by.
    static func googleEtag(_ etag: String?) -> String? {
        etag.map { String($0.split(separator: Character(etagSeparator), maxSplits: 1, omittingEmptySubsequences: false)[0]) }
    }

    static let systemGroupProperty = "X-GOOGLE-GROUP"

    /// Google's own groups a card says its person is in (besides starred and myContacts).
    static func systemMemberships(_ c: Contact) -> [JSONValue] {
        (c.vcardProperties ?? []).filter { $0.name.uppercased() == systemGroupProperty }.map { p in
            .object(["contactGroupMembership": .object(["contactGroupResourceName": .string(p.text)])])
        }
    }
}
