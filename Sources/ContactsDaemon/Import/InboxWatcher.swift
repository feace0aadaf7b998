import ContactsAPI
import ContactsCore
import ContactsStore
import ContactsSupport
import Foundation
import Glibc
import JSONCore

/// The drop folder: every `.vcf`/`.vcard`/`.csv` file closed after writing or moved into it is
/// imported, then moved to `imported/`, or to `failed/` beside `NAME.error.txt`.
///
/// A file moves only after its import committed, so a crash at any moment leaves it in the
/// inbox to be imported again at the next start, which idempotent import makes harmless.
/// Hidden files, partial downloads, symlinks and anything not a regular file are left alone.
final class InboxWatcher: @unchecked Sendable {
    let inbox: String
    let importer: Importer
    let bus: EventBus
    let log: Logger
    private var inotify: Inotify?
    private let lock = NSCondition()
    private var queue: [String] = []
    private var stopping = false
    private var workerDone = false
    private var lastProcessedName: String?
    private var processed = 0

    /// How many files were processed, and the last one's name.
    var progress: (count: Int, last: String?) {
        lock.lock()
        defer { lock.unlock() }
        return (processed, lastProcessedName)
    }
    /// Called after each file, with a short line for the service manager's status.
    var onProcessed: (@Sendable (String) -> Void)?

    init(inbox: String, importer: Importer, bus: EventBus, log: Logger) {
        self.inbox = inbox
        self.importer = importer
        self.bus = bus
        self.log = log
    }

    static let partialSuffixes = [".part", ".crdownload", ".tmp", ".partial", ".download"]

    /// Whether a directory entry is one to import, judged by its name only.
    static func wants(_ name: String) -> Bool {
        let lower = name.lowercased()
        if name.hasPrefix(".") || partialSuffixes.contains(where: lower.hasSuffix) { return false }
        return lower.hasSuffix(".vcf") || lower.hasSuffix(".vcard") || lower.hasSuffix(".csv")
    }

    private var isStopping: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopping
    }

    func start() throws(SystemError) {
        for dir in [inbox, inbox + "/imported", inbox + "/failed"] { try FileIO.makeDirectories(dir) }
        let events = try Inotify()
        _ = try events.watch(inbox, UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO))
        lock.withLock { inotify = events }
        events.start(name: "inbox-events") { [self] batch in
            if batch.contains(where: { $0.mask & Inotify.overflow != 0 }) {
                log.warning("inotify queue overflowed; rescanning \(inbox)")
                rescan()
            }
            for e in batch where Self.wants(e.name) { enqueue(e.name) }
        } failed: { [log] error in
            log.error("inbox: \(error)")
        }
        let worker = Thread { [self] in work() }
        worker.name = "inbox-import"
        worker.start()
        rescan()
    }

    /// Queues every eligible file already in the inbox (at start, and after an overflow).
    func rescan() {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: inbox)) ?? []).filter(Self.wants).sorted()
        for n in names { enqueue(n) }
    }

    private func enqueue(_ name: String) {
        lock.lock()
        if !queue.contains(name) { queue.append(name) }
        lock.signal()
        lock.unlock()
    }

    private func work() {
        while true {
            lock.lock()
            while queue.isEmpty && !stopping { lock.wait() }
            if stopping {
                workerDone = true
                lock.broadcast()
                lock.unlock()
                return
            }
            let name = queue.removeFirst()
            lock.unlock()
            process(name)
        }
    }

    /// Stops watching; an import in progress finishes (or rolls back) first.
    func stop() {
        lock.lock()
        stopping = true
        lock.broadcast()
        lock.unlock()
        lock.withLock { inotify }?.stop()
        lock.lock()
        while !workerDone {
            if !lock.wait(until: Date().addingTimeInterval(30)) { break }
        }
        inotify = nil
        lock.unlock()
    }

    func process(_ name: String) {
        let path = inbox + "/" + name
        var st = stat()
        guard lstat(path, &st) == 0 else { return }  // gone already
        guard (st.st_mode & S_IFMT) == S_IFREG else {
            log.info("inbox: left \(name) alone: not a regular file")
            return
        }
        var report: ImportReport
        do {
            let bytes = try FileIO.readRegularFile(path, limit: Importer.maxFileBytes)
            let format = ImportFormat(of: bytes, name: name)
            switch format {
            case .csv: report = try importer.importCSV(bytes, origin: "import:" + name)
            case .vcard: report = try importer.importVCard(bytes, origin: "import:" + name)
            case .json:
                guard case .array(let list)? = try? JSONParser.parse(bytes) else {
                    report = ImportReport()
                    report.errors.append(.init(index: 0, line: nil, message: "not a JSON array of contacts"))
                    break
                }
                report = try importer.importJSON(list, origin: "import:" + name)
            case .empty, .unknown:
                report = ImportReport()
                report.errors.append(.init(index: 0, line: format == .empty ? nil : 1, message: format.nothingToImport ?? ""))
            }
        } catch let e as FileIO.ReadError {
            report = ImportReport()
            report.errors.append(.init(index: 0, line: nil, message: e.description))
        } catch StoreError.cancelled {
            log.info("inbox: the import of \(name) was interrupted by the shutdown; it stays in the inbox for the next start")
            return
        } catch {
            // The store could not take it (disk full, shutting down): the file stays for later.
            log.error("inbox: \(name) not imported, left in place: \(error)")
            return
        }
        let failed = !report.errors.isEmpty
        let destination = moveAside(name, to: failed ? "failed" : "imported")
        if failed, let destination {
            writeReport(report.text(file: name), to: destination + ".error.txt")
        }
        lock.lock()
        processed += 1
        lastProcessedName = name
        lock.unlock()
        log.info(
            "inbox: \(name): \(report.created) created, \(report.updated) updated, \(report.unchanged) unchanged, \(report.failed) failed")
        bus.publish(
            method: ContactsAPI.Notification.inboxProcessed,
            params: ["file": .string(name), "movedTo": destination.map { .string($0) } ?? .null, "report": report.json])
        onProcessed?("last import \(name): \(report.created + report.updated + report.unchanged) contacts, \(report.failed) failed")
    }

    /// Renames the file into `imported/` or `failed/`, never over another file.
    private func moveAside(_ name: String, to sub: String) -> String? {
        let dir = inbox + "/" + sub
        var target = dir + "/" + name
        let (stem, ext) = split(name)
        var n = 2
        while access(target, F_OK) == 0 {
            target = dir + "/" + stem + " (\(n))" + ext
            n += 1
        }
        guard rename(inbox + "/" + name, target) == 0 else {
            log.error("inbox: \(SystemError("rename", detail: "\(name) into \(sub)/"))")
            return nil
        }
        return target
    }

    private func split(_ name: String) -> (String, String) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, "") }
        return (String(name[..<dot]), String(name[dot...]))
    }

    /// Writes the report beside the failed file, whole or not at all.
    private func writeReport(_ text: String, to path: String) {
        do {
            try FileIO.writeAtomically(path, Array(text.utf8))
        } catch {
            log.error("inbox: \(error)")
        }
    }
}
