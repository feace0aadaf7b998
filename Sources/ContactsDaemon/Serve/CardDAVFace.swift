import CardDAVServer
import ContactsStore
import ContactsSupport
import Foundation
import Glibc
import HTTPServer

/// The store served over CardDAV on loopback while `carddav.listen` says so: started,
/// moved and stopped as the settings change (at start and on SIGHUP).
final class CardDAVFace: @unchecked Sendable {
    private let store: ContactStore
    private let sync: SyncService?
    private let log: Logger
    /// What listens, where, and whether the service manager passed the socket (then settings
    /// do not move it).
    private struct State {
        var listener: OnDemandListener?
        var address: LoopbackAddress?
        var passed = false
    }
    private let state = Locked(State())

    static let maxCardBytes = 16 << 20

    init(store: ContactStore, sync: SyncService?, log: Logger) {
        self.store = store
        self.sync = sync
        self.log = log
    }

    /// Listens where `address` says, or stops when it is nil. A listener that cannot start
    /// (the port is taken) is logged and leaves the rest of the daemon running.
    func apply(_ wanted: LoopbackAddress?) {
        state.withLock { s in
            if s.passed {
                if wanted != nil && wanted != s.address {
                    log.notice("carddav.listen is not used: CardDAV is served on the socket the service manager passed")
                }
                return
            }
            guard wanted != s.address || (wanted != nil && s.listener == nil) else { return }
            s.listener?.stop()
            s.listener = nil
            s.address = wanted
            guard let wanted else { return }
            s.listener = start(at: wanted) { try OnDemandListener(host: wanted.host, port: wanted.port) }
        }
    }

    /// Serves the socket systemd passed (contactsd-carddav.socket), if it is bound to loopback.
    func serve(passedSocket fd: Int32) {
        state.withLock { s in
            s.passed = true
            guard let bound = LoopbackAddress.bound(fd) else {
                log.error(
                    "the CardDAV socket the service manager passed is not bound to loopback: it is not served (contactsd serves this machine only)"
                )
                return
            }
            s.address = bound
            s.listener = start(at: bound) { OnDemandListener(socket: fd) }
        }
    }

    /// Listens with the socket `listen` gives, served once the first client connects (so
    /// that libmicrohttpd and its threads cost nothing until then); nil when it cannot. The
    /// caller holds the state's lock.
    private func start(at wanted: LoopbackAddress, _ listen: () throws -> OnDemandListener) -> OnDemandListener? {
        let service = DAVService(books: StoreBooks(store: store, sync: sync), maxResourceSize: Self.maxCardBytes)
        var limits = HTTPListener.Limits()
        limits.bodyBytes = Self.maxCardBytes
        let refused: @Sendable (UInt32?) -> Void = { [log] uid in
            log.warning(
                "CardDAV: refused a connection from \(uid.map { "uid \($0)" } ?? "a socket of unknown owner"): only uid \(getuid()) is served"
            )
        }
        do {
            let socket = try listen()
            socket.start(
                { [limits] fd in try HTTPListener(socket: fd, limits: limits, owner: getuid(), refused: refused, handler: service.handle) },
                failed: { [log] error in log.error("cannot serve CardDAV at \(wanted): \(error)") })
            log.info("serving CardDAV at \(wanted.url)")
            return socket
        } catch {
            log.error("cannot serve CardDAV at \(wanted): \(error)")
            return nil
        }
    }

    /// The URL clients are given, while it listens.
    var url: String? { state.withLock { $0.listener == nil ? nil : $0.address?.url } }

    /// Stops listening, whatever the settings or the service manager said (the daemon stops).
    func stop() {
        state.withLock { s in
            s.listener?.stop()
            s.listener = nil
        }
    }
}
