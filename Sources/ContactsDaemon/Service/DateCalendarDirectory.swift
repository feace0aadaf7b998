import ContactsCore
import ContactsStore
import ContactsSupport
import Foundation
import Glibc

/// Keeps a directory of iCalendar files current with the contacts' birthdays and dates
/// (`birthdayCalendar` in config.json): one file for each date of each contact, named
/// `CONTACTID-NAME.ics`, the layout vdirsyncer and khal read as a calendar. A file is
/// rewritten when its contact's date changes and removed when the date or the contact goes;
/// files with other names are never touched. The work is done on a queue of its own, a burst
/// of changes together 0.2 s after the first.
final class DateCalendarDirectory: @unchecked Sendable {
    let directory: String
    private let store: ContactStore
    private let log: Logger
    private let queue = TaskQueue(label: "date-calendar")
    /// Under `queue`: the files written, by contact id; the ids changed since the last pass.
    private var files: [String: Set<String>] = [:]
    private var pending: Set<String> = []
    private var everything = false
    private var scheduled = false
    var delay = 0.2

    init(directory: String, store: ContactStore, log: Logger) {
        self.directory = directory
        self.store = store
        self.log = log
    }

    /// Writes the whole calendar, putting right what changed while the daemon was not running.
    func start() {
        queue.async { self.rewriteAll() }
    }

    /// The contacts with these ids changed (nil: all of them might have, as after a restore).
    func changed(_ ids: [String]?) {
        queue.async {
            if let ids { self.pending.formUnion(ids) } else { self.everything = true }
            guard !self.scheduled else { return }
            self.scheduled = true
            self.queue.after(seconds: self.delay) { self.flush() }
        }
    }

    private func flush() {
        scheduled = false
        let ids = pending
        pending = []
        if everything {
            everything = false
            rewriteAll()
        } else if !ids.isEmpty {
            update(Array(ids))
        }
    }

    private func rewriteAll() {
        guard makeDirectory() else { return }
        do {
            let contacts = try store.datedContacts()
            var existing: [String: Set<String>] = [:]
            for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
                if let id = Self.contactID(ofFile: name) { existing[id, default: []].insert(name) }
            }
            files = existing
            var seen: Set<String> = []
            for c in contacts {
                seen.insert(c.id)
                put(c)
            }
            for id in existing.keys where !seen.contains(id) { remove(id, keeping: []) }
        } catch {
            log.warning("birthday calendar \(directory): cannot read the contacts: \(error)")
        }
    }

    private func update(_ ids: [String]) {
        guard makeDirectory() else { return }
        do {
            let contacts = try store.datedContacts(ids: ids)
            let dated = Set(contacts.map(\.id))
            for c in contacts { put(c) }
            for id in ids where !dated.contains(id) { remove(id, keeping: []) }
        } catch {
            log.warning("birthday calendar \(directory): cannot read the contacts: \(error)")
            everything = true
        }
    }

    /// Writes the contact's files that differ from what is there, and removes its others.
    private func put(_ c: Contact) {
        var names: Set<String> = []
        for e in DateCalendar.events(for: c) {
            let name = "\(c.id)-\(e.name).ics"
            names.insert(name)
            let text = DateCalendar.calendar([e.text])
            let path = directory + "/" + name
            if let old = FileManager.default.contents(atPath: path), old.elementsEqual(text.utf8) { continue }
            write(text, to: name)
        }
        remove(c.id, keeping: names)
        files[c.id] = names.isEmpty ? nil : names
    }

    private func remove(_ id: String, keeping: Set<String>) {
        for name in files[id] ?? [] where !keeping.contains(name) {
            if unlink(directory + "/" + name) != 0 && errno != ENOENT {
                log.warning("birthday calendar: cannot remove \(name): \(String(cString: strerror(errno)))")
            }
        }
        files[id] = keeping.isEmpty ? nil : keeping
    }

    /// Written beside its name and renamed over it: a reader sees the old file or the new one.
    private func write(_ text: String, to name: String) {
        let temporary = directory + "/.\(name).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            log.warning("birthday calendar: cannot write \(name): \(String(cString: strerror(errno)))")
            return
        }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        let ok = written == bytes.count && fsync(fd) == 0
        close(fd)
        guard ok, rename(temporary, directory + "/" + name) == 0 else {
            log.warning("birthday calendar: cannot write \(name): \(String(cString: strerror(errno)))")
            unlink(temporary)
            return
        }
    }

    private func makeDirectory() -> Bool {
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            return true
        } catch {
            log.warning("birthday calendar: cannot make \(directory): \(error)")
            return false
        }
    }

    /// The contact a file of the calendar is of: `CONTACTID-NAME.ics`, the id an upper-case
    /// UUID. Nil for a file of any other name, which is left alone.
    static func contactID(ofFile name: String) -> String? {
        let u = Array(name.utf8)
        guard u.count > 41, name.hasSuffix(".ics"), u[36] == UInt8(ascii: "-") else { return nil }
        for (i, b) in u[0..<36].enumerated() {
            let hyphen = [8, 13, 18, 23].contains(i)
            guard hyphen ? b == UInt8(ascii: "-") : (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) else { return nil }
        }
        return String(decoding: u[0..<36], as: UTF8.self)
    }
}
