import JSONCore
import JSONRPC

/// `sync.confirmDeletions`.
public struct SyncConfirmDeletions: HeldDeletionsRequest {
    public static let about = held(
        "sync.confirmDeletions",
        "Syncs an account now and carries out the deletions it held back (more than 10 and a quarter of its contacts at once).")

    public var account: String

    public init(account: String) { self.account = account }
}
