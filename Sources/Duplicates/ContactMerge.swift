import ContactsCore
import PhoneNumbers
import VCard

/// Several contacts of one person made one, without losing a value: the contact merged into
/// keeps its id, uid and name; every phone, email, address and url of every contact is there
/// once (by its normalised form: a phone by its number, an email in any case), and so is every
/// date, related person and messaging address, with its label;
/// groups are united and the favorite kept; a single value (nickname, organization, title,
/// birthday, department, pronouns, gender, the reading of the name) is the first one set, and each other differing value, and each other name, is
/// written into the note under a heading; notes that differ are joined; the largest photo
/// stays; and the vCard properties contactsd has no field for come along from every card.
public enum ContactMerge {
    /// The heading in the note above the values that had no field left to go in.
    public static let noteHeading = "Also on the merged contacts:"

    /// `contacts` merged into `contacts[into]`; phones compared as numbers read in `region`.
    public static func merge(_ contacts: [Contact], into: Int, region: String?) -> Contact {
        precondition(contacts.indices.contains(into))
        let others = contacts.enumerated().filter { $0.offset != into }.map(\.element)
        var merged = contacts[into]
        // A number written without its country code is the same as one written with it, when
        // it is that one read in its country: both have the international one's key.
        var keys: [String: String] = [:]
        for v in contacts.flatMap(\.phones) where keys[v.value] == nil {
            keys[v.value] = Self.phoneKey(v.value, e164: PhoneNumber.parse(v.value, region: region, withType: false)?.e164)
        }
        let international = Set(keys.values.filter { $0.hasPrefix("+") })
        for (text, key) in keys where !key.hasPrefix("+") {
            if let same = international.first(where: { DuplicateCandidate.samePhone($0, key) }) { keys[text] = same }
        }
        merged.phones = unite(contacts, into: into, \.phones) { keys[$0.value] ?? $0.value }
        merged.emails = unite(contacts, into: into, \.emails) { $0.value.lowercased() }
        merged.urls = unite(contacts, into: into, \.urls) { $0.value }
        for f in DeclaredField.all {
            guard case .list(let path, let kind) = f.value else { continue }
            merged[keyPath: path] = unite(contacts, into: into, path) { kind.key($0.value) }
        }
        var addressKeys = Set(merged.addresses.map(addressKey))
        for c in others {
            for a in c.addresses where addressKeys.insert(addressKey(a)).inserted { merged.addresses.append(a) }
        }
        for c in others { ContactField.byName["groups"]?.unite?(c, &merged) }
        merged.favorite = contacts.contains { $0.favorite }

        var extra: [String] = []
        func single(_ label: String, _ path: WritableKeyPath<Contact, String?>) {
            for c in others {
                guard let v = c[keyPath: path], !v.isEmpty else { continue }
                if let kept = merged[keyPath: path], !kept.isEmpty {
                    let line = "\(label): \(v)"
                    if SearchFolding.fold(kept) != SearchFolding.fold(v) && !extra.contains(line) { extra.append(line) }
                } else {
                    merged[keyPath: path] = v
                }
            }
        }
        for c in others where c.name.trimmingWhitespace() != merged.name.trimmingWhitespace() {
            let line = "Name: \(c.name)"
            if !extra.contains(line) { extra.append(line) }
        }
        if merged.structuredName == nil { merged.structuredName = others.lazy.compactMap(\.structuredName).first }
        single("Nickname", \.nickname)
        single("Organization", \.organization)
        single("Title", \.title)
        single("Birthday", \.birthday)
        if merged.phoneticName == nil { merged.phoneticName = others.lazy.compactMap(\.phoneticName).first }
        for f in DeclaredField.all {
            if case .text(let path) = f.value { single(f.label.prefix(1).uppercased() + f.label.dropFirst(), path) }
        }

        var notes: [String] = []
        for c in [contacts[into]] + others {
            guard let n = c.note?.trimmingWhitespace(), !n.isEmpty, !notes.contains(n) else { continue }
            notes.append(n)
        }
        if !extra.isEmpty { notes.append(([noteHeading] + extra).joined(separator: "\n")) }
        merged.note = notes.isEmpty ? nil : notes.joined(separator: "\n\n")

        merged.photo = largestPhoto(contacts, into: into)
        merged.vcardProperties = properties(contacts, into: into)
        return merged
    }

    /// What a merge compares of a contact, hashed: contacts with one key merge into any of
    /// them without a value added (groups and the favorite, which a merge unites, aside).
    /// `phoneKeys`: each phone as `merge` compares it (its number in the merge's region).
    public static func contentKey(_ c: Contact, phoneKeys: [String]) -> Int {
        var h = Hasher()
        h.combine(c.name.trimmingWhitespace())
        h.combine(Set(phoneKeys))
        h.combine(Set(c.emails.map { $0.value.lowercased() }))
        h.combine(Set(c.urls.map(\.value)))
        h.combine(Set(c.addresses.map(addressKey)))
        for v in [c.nickname, c.organization, c.title, c.birthday] { h.combine(SearchFolding.fold(v ?? "")) }
        for f in DeclaredField.all {
            switch f.value {
            case .text(let path): h.combine(SearchFolding.fold(c[keyPath: path] ?? ""))
            case .list(let path, let kind): h.combine(Set(c[keyPath: path].map { kind.key($0.value) }))
            case .phonetic(let path): h.combine(c[keyPath: path].map { [$0.given, $0.middle, $0.family] } ?? [])
            }
        }
        h.combine(c.note?.trimmingWhitespace() ?? "")
        switch c.photo {
        case .stored(let hash, _, _, _)?: h.combine(hash)
        case .url(let url)?: h.combine(url)
        case nil: h.combine(0)
        }
        return h.finalize()
    }

    /// A phone as `merge` compares it: its number read in `region`, else its digits, else its text.
    public static func phoneKey(_ text: String, e164: String?) -> String {
        DuplicateCandidate.phoneKey(e164: e164, text: text) ?? text
    }

    /// Which contact a merge keeps by default: the one with the most values (phones, emails,
    /// addresses, urls, each set field), the first of equals.
    public static func mostComplete(_ contacts: [Contact]) -> Int {
        func count(_ c: Contact) -> Int {
            let singles: [String?] = [c.nickname, c.organization, c.title, c.birthday, c.note]
            let declared = DeclaredField.all.reduce(0) { n, f in
                if case .list(let path, _) = f.value { return n + c[keyPath: path].count }
                return n + (f.isPresent(in: c) ? 1 : 0)
            }
            return c.phones.count + c.emails.count + c.addresses.count + c.urls.count + singles.count { $0?.isEmpty == false }
                + (c.photo == nil ? 0 : 1) + (c.structuredName == nil ? 0 : 1) + declared
        }
        var best = 0
        for (i, c) in contacts.enumerated() where count(c) > count(contacts[best]) { best = i }
        return best
    }

    static func unite(
        _ contacts: [Contact], into: Int, _ path: KeyPath<Contact, [LabeledValue]>, key: (LabeledValue) -> String
    ) -> [LabeledValue] {
        var out = contacts[into][keyPath: path]
        var seen: [String: Int] = [:]
        for (i, v) in out.enumerated() where seen[key(v)] == nil { seen[key(v)] = i }
        for (k, c) in contacts.enumerated() where k != into {
            for v in c[keyPath: path] {
                if let i = seen[key(v)] {
                    // The same value: the label it had where it had one.
                    if out[i].label == nil { out[i].label = v.label }
                } else {
                    seen[key(v)] = out.count
                    out.append(v)
                }
            }
        }
        return out
    }

    static func addressKey(_ a: PostalAddress) -> String {
        [a.poBox, a.extended, a.street, a.locality, a.region, a.postalCode, a.country].map { SearchFolding.fold($0) }.joined(
            separator: "|")
    }

    /// The photo with the most pixels (of those whose size is known), else the kept
    /// contact's, else the first there is.
    static func largestPhoto(_ contacts: [Contact], into: Int) -> PhotoReference? {
        var best = contacts[into].photo
        func pixels(_ p: PhotoReference?) -> Int {
            if case .stored(_, _, let w?, let h?)? = p { return w * h }
            return p == nil ? -1 : 0
        }
        for c in contacts where pixels(c.photo) > pixels(best) { best = c.photo }
        return best
    }

    /// Property names contactsd keeps as fields (or for the card alone): the merged contact's
    /// own fields write them; from the other cards they are not copied.
    static let fieldProperties: Set<String> = [
        "FN", "N", "NICKNAME", "TEL", "EMAIL", "URL", "ADR", "ORG", "TITLE", "BDAY", "NOTE", "CATEGORIES", "UID", "PHOTO",
        "X-CONTACTSD-FAVORITE", "VERSION", "PRODID", "REV", "KIND",
    ]

    static func isField(_ p: VCardProperty) -> Bool { fieldProperties.contains(p.name) || VCardMapping.holdsDeclaredField(p) }

    /// The kept contact's properties, then each other card's that are not fields, once each;
    /// a property of a group (`item3.X-SOCIALPROFILE` with its `item3.X-ABLabel`) comes with
    /// its group, renamed so as not to meet one of the kept card's.
    static func properties(_ contacts: [Contact], into: Int) -> [VCardProperty]? {
        var out = contacts[into].vcardProperties
        func stripped(_ p: VCardProperty) -> VCardProperty {
            var p = p
            p.line = 0
            p.group = nil
            return p
        }
        // Cards hold tens of properties: a list does.
        var present = (out ?? []).filter { $0.name != "X-ABLABEL" }.map(stripped)
        var nextItem =
            ((out ?? []).compactMap { p in p.group.flatMap { g in g.lowercased().hasPrefix("item") ? Int(g.dropFirst(4)) : nil } }.max()
                ?? 0) + 1
        for (k, c) in contacts.enumerated() where k != into {
            guard let props = c.vcardProperties else { continue }
            let others = props.filter { !isField($0) }
            // The groups of properties that are fields: their labels belong to those fields.
            let fieldGroups = Set(props.filter(isField).compactMap { $0.group?.lowercased() })
            // A group's properties come or stay together: they come when one of them is new.
            var newGroups: Set<String> = []
            for p in others where p.name != "X-ABLABEL" {
                if let g = p.group?.lowercased(), !fieldGroups.contains(g), !present.contains(stripped(p)) { newGroups.insert(g) }
            }
            var renamed: [String: String] = [:]
            for p in others {
                var q = p
                if let g = p.group?.lowercased() {
                    guard newGroups.contains(g) else { continue }
                    if renamed[g] == nil {
                        renamed[g] = "item\(nextItem)"
                        nextItem += 1
                    }
                    q.group = renamed[g]
                } else if present.contains(stripped(p)) {
                    continue
                }
                if p.name != "X-ABLABEL" { present.append(stripped(p)) }
                out = (out ?? []) + [q]
            }
        }
        return out
    }
}
