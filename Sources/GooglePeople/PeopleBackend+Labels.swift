import CardDAV
import ContactsCore
import ContactsSync
import Foundation

/// The labels a batch of writes needs on Google: made when a card names a group Google lacks,
/// renamed when the group was renamed here, deleted when it was deleted here.
extension PeopleBackend {
    /// The labels' resource names by name, a label made on Google for each group a card
    /// names that Google does not have yet.
    func labelIDsFor(_ batch: [ReadWrite]) throws(DAVError) -> [String: String] {
        _ = try readLabels(force: state.withLock { $0.labels == nil })
        var ids = Dictionary(currentLabels().map { ($0.value, $0.key) }, uniquingKeysWith: { a, _ in a })
        let wanted = batch.reduce(into: Set<String>()) { $0.formUnion($1.groups) }
        for name in wanted.sorted() where ids[name] == nil {
            let made: PeopleClient.Group
            do {
                made = try client.createGroup(named: name)
            } catch .status(409, _, _, _) {
                // Made meanwhile elsewhere (another contactsd, the phone): that one is it.
                guard let there = try client.groups().first(where: { $0.isUsers && $0.name == name }) else { continue }
                made = there
            }
            ids[name] = made.resourceName
            state.withLock { s in s.labels?[made.resourceName] = name }
        }
        return ids
    }

    /// What the batch's cards leave and take: groups a card had when last synced and has no
    /// more, and groups it has now and had not, by name.
    static func groupMoves(_ batch: [ReadWrite]) -> (left: Set<String>, taken: Set<String>, wanted: Set<String>) {
        var left = Set<String>()
        var taken = Set<String>()
        var wanted = Set<String>()
        for w in batch {
            let (now, before) = (w.groups, w.baseGroups)
            wanted.formUnion(now)
            left.formUnion(before.subtracting(now))
            taken.formUnion(now.subtracting(before))
        }
        return (left, taken, wanted)
    }

    /// Renames on Google the labels of groups renamed here: a label the batch's cards leave,
    /// whose group the store no longer has, becomes the one new name they take that Google
    /// lacks. Returns the labels left whose groups are gone here and were not renamed: deleted
    /// here (they go once the writes have).
    func renameLabels(for batch: [ReadWrite]) throws(DAVError) -> [String] {
        guard let localGroups else { return [] }
        let (left, taken, wanted) = Self.groupMoves(batch)
        guard !left.isEmpty else { return [] }
        _ = try readLabels(force: state.withLock { $0.labels == nil })
        let here = localGroups()
        let labels = currentLabels()
        let names = Set(labels.values)
        // Left by the cards, gone from the store, wanted by none of them: renamed or deleted.
        let vanished = left.filter { !here.contains($0) && !wanted.contains($0) && names.contains($0) }.sorted()
        let fresh = taken.filter { !names.contains($0) && here.contains($0) }.sorted()
        var deleted = vanished
        if vanished.count == 1, fresh.count == 1, let old = vanished.first, let new = fresh.first,
            let resource = labels.first(where: { $0.value == old })?.key
        {
            try client.renameGroup(resource, to: new)
            state.withLock { s in s.labels?[resource] = new }
            deleted = []
        }
        return deleted
    }

    /// Deletes on Google the labels of groups deleted here, once every write of the batch that
    /// left them has gone (the contacts stay).
    func deleteLabels(_ names: [String], after batch: [CardWrite], _ answers: [Result<WriteResult, DAVError>?]) {
        guard !names.isEmpty, answers.allSatisfy({ if case .success(.written)? = $0 { true } else { false } }) else { return }
        let labels = currentLabels()
        for name in names {
            guard let resource = labels.first(where: { $0.value == name })?.key else { continue }
            if (try? client.deleteGroup(resource)) != nil { state.withLock { s in s.labels?[resource] = nil } }
        }
    }
}
