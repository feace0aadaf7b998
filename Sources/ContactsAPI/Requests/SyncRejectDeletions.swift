import JSONCore
import JSONRPC

/// `sync.rejectDeletions`.
public struct SyncRejectDeletions: HeldDeletionsRequest {
    public static let about = held(
        "sync.rejectDeletions",
        "Syncs an account now and undoes the deletions it held back: cards the server lost go back up, contacts deleted here come back from the trash."
    )

    public var account: String

    public init(account: String) { self.account = account }
}
