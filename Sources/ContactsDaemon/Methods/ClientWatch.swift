import ContactsSupport
import Foundation
import JSONRPC

/// Whether the client of a long request has gone (Ctrl-C on `contactsctl import`): asked as
/// often as an import asks whether it is cancelled, it asks the kernel at most every 50 ms.
final class ClientWatch: @unchecked Sendable {
    private weak var session: RPCSession?
    private let lock = NSLock()
    private var lastAsked: Int64 = 0
    private var gone = false
    private let whenGone: @Sendable () -> Void

    /// `whenGone` is called once, the first time the client is found gone.
    init(_ session: RPCSession?, whenGone: @escaping @Sendable () -> Void = {}) {
        self.session = session
        self.whenGone = whenGone
    }

    var hasGone: Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !gone, let session else { return gone }
        let now = Timestamp.monotonicMillis()
        guard now >= lastAsked + 50 else { return false }
        lastAsked = now
        gone = session.clientHasGone
        if gone { whenGone() }
        return gone
    }
}
