import ContactsAPI
import ContactsSupport
import Foundation
import Glibc
import MailFiles

/// The mail folders of `mail.watch` (maildirs, such as the one a mail client keeps its sent
/// mail in): each message that lands in a `new/` or `cur/` of theirs is read and counted, as
/// `mail harvest` would (those already counted count once). What arrived while the daemon was
/// not running is for `contactsctl mail harvest`.
final class MailWatcher: @unchecked Sendable {
    private let mail: MailService
    private let log: Logger
    /// The inotify instance, and the folder (and whether it is a Sent one) each watch is of.
    private let state = Locked((inotify: Inotify?.none, watched: [Int32: String](), folders: [String]()))

    /// Written and closed, or moved in (a delivery agent, a client's rename to `cur/`).
    static let mask = UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO)

    init(mail: MailService, log: Logger) {
        self.mail = mail
        self.log = log
    }

    /// Watches `folders` (and no other) from now on.
    func watch(_ folders: [String]) {
        state.withLock { s in
            if s.inotify == nil && !folders.isEmpty {
                do {
                    let events = try Inotify()
                    events.start(name: "mail-events") { [weak self] batch in
                        self?.handle(batch)
                    } failed: { [log] e in
                        log.error("mail.watch: \(e)")
                    }
                    s.inotify = events
                } catch {
                    log.warning("mail.watch: cannot watch mail folders: \(error)")
                    return
                }
            }
            guard let inotify = s.inotify else { return }
            for wd in s.watched.keys { inotify.unwatch(wd) }
            s.watched.removeAll()
            s.folders = folders
            for folder in folders {
                var found = 0
                for dir in MailSource.maildirs(under: folder) {
                    for sub in ["new", "cur"] {
                        if let wd = try? inotify.watch(dir + "/" + sub, Self.mask) {
                            s.watched[wd] = dir + "/" + sub
                            found += 1
                        }
                    }
                }
                if found == 0 { log.warning("mail.watch: \(folder) holds no maildir (no new/ or cur/); nothing is watched there") }
            }
        }
    }

    func stop() {
        let inotify = state.withLock { s in
            defer { s.inotify = nil }
            return s.inotify
        }
        inotify?.stop()
    }

    private func handle(_ batch: [Inotify.Event]) {
        let paths: [String] = state.withLock { s in
            batch.compactMap { e in
                guard let dir = s.watched[e.watch], !e.name.isEmpty, !e.name.hasPrefix(".") else { return nil }
                return dir + "/" + e.name
            }
        }
        var headers: [MailHeader] = []
        let now = Timestamp.now()
        for path in paths {
            do {
                headers.append(MailHeader(try MailSource.header(ofFileAt: path), arrived: now, place: path))
            } catch {
                // A message renamed away meanwhile (new/ to cur/) arrives again under its new name.
                log.debug("mail.watch: \(error)")
            }
        }
        // Read as a harvest's headers are.
        let (messages, unreadable) = MailService.read(headers)
        for u in unreadable { log.debug("mail.watch: \(u)") }
        guard !messages.isEmpty else { return }
        do {
            let (r, _) = try mail.record(messages, all: false, sent: false, origin: "mail")
            if r.messages > 0 { log.info("mail.watch: \(r.messages) messages counted, \(r.collected.count) addresses collected") }
        } catch {
            log.warning("mail.watch: \(messages.count) messages not counted: \(error)")
        }
    }
}
