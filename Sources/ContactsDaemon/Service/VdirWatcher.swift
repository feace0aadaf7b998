import ContactsStore
import ContactsSupport
import ContactsSync
import Foundation
import Glibc

/// The directories of vdir accounts, watched: a card written, moved in or out, or removed by
/// another program (khard, an editor, vdirsyncer) starts a sync of its account a moment later
/// (a burst of events is one sync). What changed while nobody watched is found by the
/// listing of the sync every account has at start, and of every vdir account after an
/// overflow of the queue.
final class VdirWatcher: @unchecked Sendable {
    private let store: ContactStore
    private let sync: SyncService
    private let log: Logger
    /// The inotify instance, and the account each watch descriptor is of.
    private let state = Locked((inotify: Inotify?.none, watched: [Int32: String]()))
    /// Seconds from an event to the sync it starts.
    var delay = 0.2

    /// Written and closed, moved in or out, removed, touched; and created, which is all a
    /// hard link says (khard writes a new card as a temporary file linked to its name).
    static let mask =
        UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_MOVED_FROM) | UInt32(IN_DELETE) | UInt32(IN_ATTRIB) | UInt32(IN_CREATE)

    init(store: ContactStore, sync: SyncService, log: Logger) {
        self.store = store
        self.sync = sync
        self.log = log
    }

    func start() throws(SystemError) {
        let events = try Inotify()
        state.withLock { $0.inotify = events }
        events.start(name: "vdir-events") { [weak self] batch in
            self?.handle(batch)
        } failed: { [log] error in
            log.error("vdir accounts: \(error)")
        }
        refresh()
    }

    /// Watches the directory of every vdir account, and no other (after accounts changed).
    func refresh() {
        let vdirs = ((try? store.accounts()) ?? []).compactMap { a in a.vdirPath.map { (a.name, $0) } }
        state.withLock { s in
            guard let inotify = s.inotify else { return }
            for wd in s.watched.keys { inotify.unwatch(wd) }
            s.watched.removeAll()
            for (name, path) in vdirs {
                do {
                    s.watched[try inotify.watch(path, Self.mask)] = name
                } catch {
                    log.warning("vdir account '\(name)': cannot watch \(path): \(error); it syncs every interval only")
                }
            }
        }
    }

    private func handle(_ batch: [Inotify.Event]) {
        var names: Set<String> = []
        let overflow = batch.contains { $0.mask & Inotify.overflow != 0 }
        state.withLock { s in
            if overflow {
                names = Set(s.watched.values)
            } else {
                for e in batch where VdirBackend.isCard(e.name) { if let name = s.watched[e.watch] { names.insert(name) } }
            }
        }
        for name in names { sync.schedule(name, after: delay) }
    }

    func stop() {
        state.withLock { $0.inotify }?.stop()
        state.withLock { $0 = (nil, [:]) }
    }
}
