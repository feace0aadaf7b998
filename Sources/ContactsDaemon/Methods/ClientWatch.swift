import ContactsSupport
import Foundation
import JSONRPC

/// Whether the client of a long request has gone (Ctrl-C on `contactsctl import`): asked as
/// often as an import asks whether it is cancelled, it asks the kernel at most every 50 ms.
final class ClientWatch: @unchecked Sendable {
    private weak var session: RPCSession?
    /// When the kernel was last asked, and whether the client had gone.
    private let state = Locked((lastAsked: Int64(0), gone: false))
    private let whenGone: @Sendable () -> Void

    /// `whenGone` is called once, the first time the client is found gone.
    init(_ session: RPCSession?, whenGone: @escaping @Sendable () -> Void = {}) {
        self.session = session
        self.whenGone = whenGone
    }

    var hasGone: Bool {
        state.withLock { state in
            guard !state.gone, let session else { return state.gone }
            let now = Timestamp.monotonicMillis()
            guard now >= state.lastAsked + 50 else { return false }
            state.lastAsked = now
            state.gone = session.clientHasGone
            if state.gone { whenGone() }
            return state.gone
        }
    }
}
