import ContactsSupport

/// The rows mail queries read lately (a contact's id, name and addresses), kept until the
/// store's next commit: a mail client asks again as someone types (aerc at every key, mutt at
/// each completion), and the contacts a query gives are mostly those the one before gave.
/// At most `limit` rows (a few hundred KB); none at rest.
final class MailRows: Sendable {
    struct Row: Sendable {
        var id: String
        var name: String
        var emails: [(value: String, label: String?)]
    }

    static let limit = 1024

    private let kept = Locked((state: Int64(-1), rows: [Int64: Row]()))

    /// The rows kept as of commit `state` (none when they are of another).
    func rows(at state: Int64) -> [Int64: Row] {
        kept.withLock { $0.state == state ? $0.rows : [:] }
    }

    /// Keeps rows read at commit `state`: beside those of the same commit, in place of any
    /// other's; all of them dropped first when there would be more than `limit`.
    func keep(_ fresh: [Int64: Row], at state: Int64) {
        guard !fresh.isEmpty else { return }
        kept.withLock { kept in
            if kept.state != state || kept.rows.count + fresh.count > Self.limit { kept = (state, [:]) }
            kept.rows.merge(fresh) { _, new in new }
        }
    }
}
