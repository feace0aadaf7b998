import CardDAVServer
import ContactsStore
import Foundation
import Glibc
import HTTPServer

/// The store served over CardDAV on loopback while `carddav.listen` says so: started,
/// moved and stopped as the settings change (at start and on SIGHUP).
final class CardDAVFace: @unchecked Sendable {
    private let store: ContactStore
    private let sync: SyncService?
    private let log: Logger
    private let lock = NSLock()
    private var listener: OnDemandListener?
    private var address: LoopbackAddress?

    static let maxCardBytes = 16 << 20

    init(store: ContactStore, sync: SyncService?, log: Logger) {
        self.store = store
        self.sync = sync
        self.log = log
    }

    /// Serving a socket the service manager passed: settings do not move it.
    private var passed = false

    /// Listens where `address` says, or stops when it is nil. A listener that cannot start
    /// (the port is taken) is logged and leaves the rest of the daemon running.
    func apply(_ wanted: LoopbackAddress?) {
        lock.lock()
        defer { lock.unlock() }
        if passed {
            if wanted != nil && wanted != address {
                log.notice("carddav.listen is not used: CardDAV is served on the socket the service manager passed")
            }
            return
        }
        guard wanted != address || (wanted != nil && listener == nil) else { return }
        listener?.stop()
        listener = nil
        address = wanted
        guard let wanted else { return }
        start(at: wanted) { try OnDemandListener(host: wanted.host, port: wanted.port) }
    }

    /// Serves the socket systemd passed (contactsd-carddav.socket), if it is bound to loopback.
    func serve(passedSocket fd: Int32) {
        lock.lock()
        defer { lock.unlock() }
        passed = true
        guard let bound = LoopbackAddress.bound(fd) else {
            log.error(
                "the CardDAV socket the service manager passed is not bound to loopback: it is not served (contactsd serves this machine only)"
            )
            return
        }
        address = bound
        start(at: bound) { OnDemandListener(socket: fd) }
    }

    /// Listens with the socket `listen` gives, served once the first client connects (so
    /// that libmicrohttpd and its threads cost nothing until then); the caller holds the lock.
    private func start(at wanted: LoopbackAddress, _ listen: () throws -> OnDemandListener) {
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
            listener = socket
            log.info("serving CardDAV at \(wanted.url)")
        } catch {
            log.error("cannot serve CardDAV at \(wanted): \(error)")
        }
    }

    /// The URL clients are given, while it listens.
    var url: String? { lock.withLock { listener == nil ? nil : address?.url } }

    /// Stops listening, whatever the settings or the service manager said (the daemon stops).
    func stop() {
        lock.lock()
        defer { lock.unlock() }
        listener?.stop()
        listener = nil
    }
}
