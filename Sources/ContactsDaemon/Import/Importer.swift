import ContactsCSV
import ContactsCore
import ContactsStore
import ContactsSupport
import Foundation
import Glibc
import JSONCore
import Thumbnails
import VCard

/// What an import did, for the client, the drop folder's report and `inbox.processed`.
public struct ImportReport: Sendable {
    public struct Failure: Sendable {
        /// The card's position in the file (from 0) or the entry's in a JSON array.
        public var index: Int
        public var line: Int?
        public var message: String
    }

    public var created = 0
    public var updated = 0
    public var unchanged = 0
    public var groups = 0
    public var errors: [Failure] = []
    /// Lines that were skipped without losing a card (junk, comments outside cards).
    public var warnings: [VCardIssue] = []
    /// What the file's items are called in its text report: cards, or a CSV file's rows.
    public var itemName = "card"

    public var failed: Int { errors.count }

    public var json: JSONValue {
        [
            "created": .int(created), "updated": .int(updated), "unchanged": .int(unchanged), "failed": .int(failed),
            "groups": .int(groups),
            "errors": .array(
                errors.map { e in
                    ["index": .int(e.index), "line": e.line.map { .int($0) } ?? .null, "message": .string(e.message)]
                }),
            "warnings": .array(warnings.map { w in ["line": .int(w.line), "message": .string(w.message)] }),
        ]
    }

    /// The report as text for `NAME.error.txt`.
    public func text(file: String) -> String {
        var lines = ["contactsd could not import everything in \(file).", ""]
        lines.append("\(created) created, \(updated) updated, \(unchanged) unchanged, \(failed) failed.")
        if !errors.isEmpty {
            lines.append("")
            lines.append("Failed \(itemName)s:")
            for e in errors {
                lines.append("  \(itemName) \(e.index + 1)\(e.line.map { ", line \($0)" } ?? ""): \(e.message)")
            }
        }
        if !warnings.isEmpty {
            lines.append("")
            lines.append("Skipped lines:")
            for w in warnings.prefix(100) { lines.append("  line \(w.line): \(w.message)") }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Turns vCard or JSON input into contacts and stores them.
struct Importer {
    let store: ContactStore
    var log: Logger?
    /// Asked between stages and during the store's transaction: a shutdown stops an import
    /// (rolled back, so a dropped file is imported whole at the next start).
    var isCancelled: (@Sendable () -> Bool)?
    /// An import reads its file whole; what it parses from it is held a few pieces at a time.
    static let maxFileBytes = 1 << 30

    /// Imports vCard bytes (any dialect and encoding): contacts and group cards in one
    /// transaction.
    ///
    /// The file is cut between cards into pieces of about 256 KiB. Worker threads parse each
    /// piece, map its cards to contacts and work out their rows, a few pieces ahead of the
    /// one transaction that stores them in order: the cores parse while SQLite writes, and an
    /// import holds only a few pieces' cards at once, however large the file.
    func importVCard(_ bytes: [UInt8], origin: String = "import", progress: ((Int, Int) -> Void)? = nil) throws -> ImportReport {
        if isCancelled?() == true { throw StoreError.cancelled }
        let timer = ImportTimer()
        var pieces = FileBatches(VCardParser.Pieces(bytes, pieceBytes: Self.pieceBytes), progress: progress, isCancelled: isCancelled)
        defer { pieces.pipeline.cancel() }
        let result = try store.importContacts(from: &pieces, origin: origin)
        if let log {
            timer.report(to: log, cards: pieces.cards, pieces: pieces.count, waiting: pieces.waiting, lastBatch: pieces.lastBatch)
        }
        var report = pieces.report
        count(result.contacts, into: &report)
        report.groups = result.groups
        if result.contacts.count > 1000 { Parallel.free(result.contacts) }
        if pieces.cards > 1000 { Memory.releaseSoon() }
        return report
    }

    static let pieceBytes = 256 << 10

    /// The pieces of one file, parsed on worker threads a few ahead of the store, handed to it
    /// in order; what each held besides its batch goes into the report as it is handed out.
    struct FileBatches: ImportBatchSource {
        let pipeline: OrderedPipeline<CardPiece>
        let count: Int
        let expectedCount: Int
        let progress: ((Int, Int) -> Void)?
        let cancelled: (@Sendable () -> Bool)?
        private(set) var report = ImportReport()
        /// Cards handed out so far, which place each piece's cards in the file.
        private(set) var cards = 0
        /// Seconds the store waited for parsed pieces, and when it took the last.
        private(set) var waiting = 0.0
        private(set) var lastBatch = Date()

        init(_ file: VCardParser.Pieces, progress: ((Int, Int) -> Void)?, isCancelled: (@Sendable () -> Bool)?) {
            let workers = file.count == 1 ? 0 : max(1, min(4, Parallel.cores))
            let later = ImportBatch.keysPhonesLater(importing: file.estimatedCards)
            pipeline = OrderedPipeline(count: file.count, window: 2 * max(1, workers), workers: workers, name: "import") { i in
                CardPiece(file.parse(i), keyPhonesLater: later)
            }
            count = file.count
            expectedCount = file.estimatedCards
            self.progress = progress
            cancelled = isCancelled
        }

        /// The batch the store is done with is freed by the worker that parsed it, before that
        /// worker parses its next piece.
        mutating func finished(_ batch: consuming ImportBatch) { pipeline.giveBack(batch) }

        mutating func next() -> ImportBatch? {
            let asked = Date()
            guard let piece = pipeline.next() else {
                lastBatch = Date()
                return nil
            }
            waiting += Date().timeIntervalSince(asked)
            // A card ended by the next one lost nothing: not worth a warning.
            for var issue in piece.issues where issue.card == nil || issue.kind != .cardEndedByNextCard {
                issue.card = issue.card.map { $0 + cards }
                report.warnings.append(issue)
            }
            for e in piece.errors { report.errors.append(.init(index: e.index + cards, line: e.line, message: e.message)) }
            cards += piece.cards
            return piece.batch
        }

        func isCancelled() -> Bool { cancelled?() ?? false }
        func stored(_ count: Int) { progress?(count, max(expectedCount, count)) }
    }

    /// Imports a JSON array of contacts in the API's shape.
    func importJSON(_ list: [JSONValue], origin: String = "import") throws -> ImportReport {
        var report = ImportReport()
        var items: [ImportItem] = []
        for (i, v) in list.enumerated() {
            guard case .object(let o) = v else {
                report.errors.append(.init(index: i, line: nil, message: "entry \(i) is \(v.typeName), not a contact object"))
                continue
            }
            do {
                // A contact as the API shows it: what contactsd sets is passed over.
                var c = try Contact(creating: o, path: "json[\(i)]", passing: Contact.shownFields, checkingValues: false)
                if c.uid.isEmpty {
                    // No uid: name the entry by its content, so that importing it again finds it.
                    var stable = o
                    for volatile in ["id", "revision", "createdAt", "updatedAt"] { stable[volatile] = nil }
                    c.uid = "urn:contactsd:json-" + SHA256.hex(JSONWriter.serialize(.object(stable))).prefix(32)
                }
                items.append(ImportItem(contact: c, carriesGroups: o["groups"] != nil, carriesFavorite: o["favorite"] != nil))
            } catch {
                report.errors.append(.init(index: i, line: nil, message: error.description))
            }
        }
        count(try store.importContacts(items, origin: origin, isCancelled: isCancelled), into: &report)
        return report
    }

    /// Imports a Google or Outlook CSV export (any of their encodings): a row that cannot be a
    /// contact is reported with its line, the others land together.
    func importCSV(_ bytes: [UInt8], origin: String = "import") throws -> ImportReport {
        if isCancelled?() == true { throw StoreError.cancelled }
        let file = CSVImport.read(bytes)
        var report = ImportReport()
        report.itemName = "row"
        var items: [ImportItem] = []
        for row in file.rows {
            switch row.contact {
            case .success(let c): items.append(ImportItem(contact: c, carriesGroups: file.carriesGroups, carriesFavorite: false))
            case .failure(let p): report.errors.append(.init(index: row.index, line: p.line, message: p.message))
            }
        }
        // A row that adds nothing to a contact of its name is that contact (an export read back).
        let named = try store.contacts(named: Set(items.map(\.contact.name)))
        items.removeAll { item in
            guard named[item.contact.name]?.contains(where: { KnownRow.addsNothing(item.contact, to: $0) }) == true else { return false }
            report.unchanged += 1
            return true
        }
        count(try store.importContacts(items, origin: origin, isCancelled: isCancelled), into: &report)
        return report
    }

    /// Whether a file is CSV by its name.
    private func count(_ outcomes: [ImportOutcome], into report: inout ImportReport) {
        for o in outcomes {
            switch o {
            case .created: report.created += 1
            case .updated: report.updated += 1
            case .unchanged: report.unchanged += 1
            }
        }
    }
}
