import ContactsCore
import ContactsStore
import ContactsSupport
import Duplicates
import PhoneNumbers

/// A group of likely duplicates among the stored contacts: the finder's group, and whether
/// its contacts are the same once normalised (a merge would add nothing to any of them).
public struct StoredDuplicateGroup: Sendable, Equatable {
    public var group: DuplicateGroup
    /// The contacts' names, in the order of `group.ids`.
    public var names: [String]
    public var identical: Bool
}

/// Duplicates among the stored contacts and their merge: the Duplicates module's finder and
/// merge run against what the store gives them (it knows neither).
extension ContactStore {
    /// The groups of likely duplicates, best first; `minScore` nil: the finder's default.
    /// `collected`: whether contacts collected from mail are compared too.
    public func duplicates(minScore: Double? = nil, limit: Int? = nil, collected: CollectedScope = .excluded) throws
        -> [StoredDuplicateGroup]
    {
        let region = PhoneRegion.current
        let found = try comparedContacts(region: region, collected: collected) { c, numbers in
            DuplicateCandidate(
                id: c.id, name: c.name, structuredName: c.structuredName, emails: c.emails.map(\.value),
                phones: zip(c.phones, numbers).compactMap { DuplicateCandidate.phoneKey(e164: $1, text: $0.value) },
                messaging: c.impp.map(\.value))
        }
        let dismissed = Set(try notDuplicatePairs().map { IDPair($0.0, $0.1) })
        let groups = DuplicateFinder.groups(
            found.values, minScore: minScore ?? DuplicateFinder.defaultMinScore, dismissed: dismissed, limit: limit)
        // What a merge compares, read again for the grouped contacts alone.
        let contents = try wholeContacts(rowids: groups.flatMap { $0.members.map { found.rowids[$0] } }, region: region) { c, numbers in
            ContactMerge.contentKey(c, phoneKeys: zip(c.phones, numbers).map { ContactMerge.phoneKey($0.value, e164: $1) })
        }
        let result = groups.map { g in
            let keys = g.members.map { contents[found.rowids[$0]] }
            return StoredDuplicateGroup(
                group: g, names: g.members.map { found.values[$0].name }, identical: !keys.contains(nil) && Set(keys).count == 1)
        }
        // A hundred thousand candidates take a tenth of a second to free: not the caller's wait.
        Parallel.free(found)
        return result
    }

    /// Merges contacts into one (`into`, else the most complete) without losing a value
    /// (`ContactMerge`); the others go to the trash, in one operation that `undo` takes back.
    public func merge(ids: [String], into: String? = nil, dryRun: Bool = false) throws -> Contact {
        let region = PhoneRegion.current
        return try merge(ids: ids, into: into, dryRun: dryRun) { contacts, into in
            let keep = into ?? ContactMerge.mostComplete(contacts)
            return (keep, ContactMerge.merge(contacts, into: keep, region: region))
        }
    }
}
