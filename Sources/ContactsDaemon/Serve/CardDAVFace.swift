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
    private var listener: HTTPListener?
    private var address: LoopbackAddress?

    static let maxCardBytes = 16 << 20

    init(store: ContactStore, sync: SyncService?, log: Logger) {
        self.store = store
        self.sync = sync
        self.log = log
    }

    /// Listens where `address` says, or stops when it is nil. A listener that cannot start
    /// (the port is taken) is logged and leaves the rest of the daemon running.
    func apply(_ wanted: LoopbackAddress?) {
        lock.lock()
        defer { lock.unlock() }
        guard wanted != address || (wanted != nil && listener == nil) else { return }
        listener?.stop()
        listener = nil
        address = wanted
        guard let wanted else { return }
        let service = DAVService(books: StoreBooks(store: store, sync: sync), maxResourceSize: Self.maxCardBytes)
        var limits = HTTPListener.Limits()
        limits.bodyBytes = Self.maxCardBytes
        do {
            listener = try HTTPListener(
                host: wanted.host, port: wanted.port, limits: limits, owner: getuid(),
                refused: { [log] uid in
                    log.warning(
                        "CardDAV: refused a connection from \(uid.map { "uid \($0)" } ?? "a socket of unknown owner"): only uid \(getuid()) is served"
                    )
                }, handler: service.handle)
            log.info("serving CardDAV at \(wanted.url)")
        } catch {
            log.error("cannot serve CardDAV at \(wanted): \(error)")
        }
    }

    /// The URL clients are given, while it listens.
    var url: String? { lock.withLock { listener == nil ? nil : address?.url } }

    func stop() { apply(nil) }
}
