/// Two edits of one contact made apart (here and on another device) put together against the
/// version both started from, field by field: a field only one side changed takes that
/// side's value; lists both changed (phones, emails, addresses, urls, groups) are united; a
/// single value both changed to different things takes the later edit's, and is a conflict.
/// The favorite flag is this machine's own and stays, unless both sides keep it (`withFavorite`:
/// Google's starred).
public enum ThreeWayMerge {
    public struct Result: Sendable {
        public var merged: Contact
        /// The single-valued fields both sides changed to different values.
        public var conflicts: [String]
        /// Whether a value the other side wrote lost (so that it is kept in history first).
        public var remoteLost: Bool
        /// Whether the result differs from what the other side has (and must be sent to it).
        public var differsFromRemote: Bool
    }

    /// `base` nil: the two were never synced (a card made on both sides under one UID); then
    /// they started from nothing: a value only one side has is kept, and every value both
    /// have and that differs counts as changed on both.
    public static func merge(base: Contact?, local: Contact, remote: Contact, remoteIsLater: Bool, withFavorite: Bool = false) -> Result {
        var merged = local
        var conflicts: [String] = []
        var remoteLost = false
        let base = base ?? Contact(name: "")
        for f in ContactField.all where withFavorite || f.name != "favorite" {
            if f.same(local, remote) { continue }
            let localChanged = !f.same(base, local)
            let remoteChanged = !f.same(base, remote)
            switch (localChanged, remoteChanged) {
            case (false, _): f.copy(remote, &merged)
            case (true, false): continue
            case (true, true):
                if let unite = f.unite {
                    unite(remote, &merged)
                } else if remoteIsLater {
                    f.copy(remote, &merged)
                    if f.name != "properties" { conflicts.append(f.name) }
                } else if f.name != "properties" {
                    remoteLost = true
                    conflicts.append(f.name)
                }
            }
        }
        let differs = ContactField.all.contains { (withFavorite || $0.name != "favorite") && !$0.same(merged, remote) }
        return Result(merged: merged, conflicts: conflicts, remoteLost: remoteLost, differsFromRemote: differs)
    }
}
