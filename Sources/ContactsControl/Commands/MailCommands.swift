import ContactsAPI
import ContactsSupport
import Glibc
import JSONCore
import JSONRPC
import MailFiles

/// The addresses of mail: one message piped in (`mail add`), whole mailboxes (`mail harvest`),
/// those collected (`collected`) and made ordinary (`keep`).
enum MailCommands {
    /// `mail add`: the message on standard input, its sender collected or counted; `--to` adds
    /// the sender to a contact, `--keep` makes it a full contact.
    static func add(_ inv: inout Invocation) throws -> Int32 {
        let bytes = try readStandardInput()
        // The daemon reads the header (GMime, which this client does not load).
        let message: MailMessage
        do {
            message = try MailMessage(json: inv.call(MailRead(header: bytes))["message"] ?? .null)
        } catch let e as RPCError where e.code == .invalidData || e.code == .invalidParams {
            throw CommandFailure("\(e.message); nothing was changed")
        }
        guard let sender = message.from.first else { throw CommandFailure("the message has no sender; nothing was changed") }
        if let target = inv.value("to") {
            let contact = try ContactResolver.resolve(target, in: inv)
            try addAddress(sender, to: contact, inv: inv)
        }
        let recorded = try inv.call(MailAdd(messages: [message], all: inv.flag("all"), sent: inv.flag("sent")))
        if inv.flag("keep"), let found = try contact(with: sender.address, inv: inv), found["collected"]?.boolValue == true {
            _ = try inv.call(ContactsKeep(id: found["contact"]?.stringValue ?? ""))
        }
        if inv.json {
            inv.output.json(recorded)
            return 0
        }
        let o = inv.output
        func who(_ a: MailMessage.Address) -> String { a.name.isEmpty ? a.address : "\(a.name) <\(a.address)>" }
        // Whose addresses counted: the recipients of the user's own message, else the sender.
        let people = (recorded["fromUser"]?.intValue ?? 0) > 0 ? message.to + message.cc + message.bcc : [sender]
        let named = people.prefix(3).map(who).joined(separator: ", ") + (people.count > 3 ? ", ..." : "")
        if recorded["repeated"]?.intValue ?? 0 > 0 {
            o.line("This message was added before: nothing counted again.")
        } else if inv.value("to") != nil {
            o.line("Added \(o.bold(who(sender))) to \(inv.value("to") ?? "").")
        } else if inv.flag("keep") {
            o.line("Kept \(o.bold(who(sender))) as a contact.")
        } else {
            let collected = recorded["collected"]?.arrayValue?.count ?? 0
            let counted = recorded["addresses"]?.intValue ?? 0
            let verb = (recorded["fromUser"]?.intValue ?? 0) > 0 ? "written to" : "heard from"
            o.line("\(counted) \(counted == 1 ? "address" : "addresses") \(verb) (\(named)); \(collected) collected.")
        }
        return 0
    }

    /// Puts `address` on `contact` (unless it has it), and sends a collected contact of that
    /// address to the trash: the address has its person now.
    static func addAddress(_ address: MailMessage.Address, to contact: JSONValue, inv: Invocation) throws {
        let id = contact["id"]?.stringValue ?? ""
        let emails = contact["emails"]?.arrayValue ?? []
        let key = address.address.lowercased()
        let collected = try self.contact(with: address.address, inv: inv)
        if !emails.contains(where: { $0["value"]?.stringValue?.lowercased() == key }) {
            _ = try inv.call(
                ContactsUpdate(
                    id: id, changes: ["emails": .array(emails + [["value": .string(address.address)]])],
                    ifRevision: contact["revision"]?.intValue))
        }
        if let collected, collected["collected"]?.boolValue == true, let other = collected["contact"]?.stringValue, other != id {
            _ = try inv.call(ContactsDelete(ids: [other]))
        }
    }

    /// The ranked address `address` is, if a contact (collected or not) has it.
    static func contact(with address: String, inv: Invocation) throws -> JSONValue? {
        let found = try inv.call(MailQuery(text: address, limit: 20))
        return found["addresses"]?.arrayValue?.first { $0["address"]?.stringValue?.lowercased() == address.lowercased() }
    }

    /// Standard input, whole (a mail client pipes the whole message and expects it read), and
    /// of it the header.
    static func readStandardInput() throws -> [UInt8] {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            // The header is all that is read of it; the rest is taken and let go.
            if out.count < MailSource.headerLimit { out.append(contentsOf: chunk[..<n]) }
        }
        return Array(out.prefix(MailSource.headerLength(out)))
    }

    /// A batch of headers is sent when it holds this many bytes (a call's line stays far
    /// below the daemon's limit, however large the headers).
    static let batchBytes = 8 << 20

    /// Set by Ctrl-C during a harvest: it stops after the batch being counted.
    nonisolated(unsafe) static var interrupted: sig_atomic_t = 0

    /// `mail harvest PATH...`: every message's addresses, a batch at a time (each batch is
    /// committed: an interrupted harvest keeps what it counted, and one run again counts each
    /// message once).
    static func harvest(_ inv: inout Invocation) throws -> Int32 {
        let files: [MailSource.File]
        do {
            files = try MailSource.files(under: inv.arguments)
        } catch {
            throw CommandFailure("\(error)")
        }
        let total = files.reduce(0) { $0 + ($1.isMbox ? 0 : 1) }
        let bar = ProgressBar(label: "harvest", enabled: isatty(2) != 0 && !inv.json)
        signal(SIGINT) { _ in
            if MailCommands.interrupted != 0 { _exit(130) }
            MailCommands.interrupted = 1
        }
        defer { signal(SIGINT, SIG_DFL) }
        var summary = (messages: 0, repeated: 0, addresses: 0, collected: 0, unreadable: 0)
        var firstUnreadable: [String] = []
        // Headers as their bytes, read by the daemon (GMime, in parallel), a batch a call.
        var batch: [MailHeader] = []
        var batchBytes = 0
        var read = 0
        func send() throws {
            guard !batch.isEmpty else { return }
            let r = try inv.call(MailAdd(headers: batch, all: inv.flag("all"), sent: inv.flag("sent")))
            summary.messages += r["messages"]?.intValue ?? 0
            summary.repeated += r["repeated"]?.intValue ?? 0
            summary.addresses += r["addresses"]?.intValue ?? 0
            summary.collected += r["collected"]?.arrayValue?.count ?? 0
            summary.unreadable += r["unreadable"]?.intValue ?? 0
            for e in r["unreadableExamples"]?.arrayValue ?? [] where firstUnreadable.count < 5 {
                firstUnreadable.append(e.stringValue ?? "")
            }
            batch.removeAll(keepingCapacity: true)
            batchBytes = 0
        }
        fileLoop: for file in files {
            do {
                try MailSource.headers(of: file) { header, place in
                    read += 1
                    batch.append(MailHeader(Array(header), arrived: file.modified, place: place))
                    batchBytes += header.count
                    if batch.count == MailAdd.batchLimit || batchBytes >= Self.batchBytes {
                        try send()
                        bar.update(done: read, total: max(total, read))
                    }
                }
            } catch let e as MailSource.Unreadable {
                summary.unreadable += 1
                if firstUnreadable.count < 5 { firstUnreadable.append("\(e)") }
            }
            if interrupted != 0 { break fileLoop }
        }
        if interrupted == 0 { try send() }
        bar.finish()
        let stopped = interrupted != 0
        if inv.json {
            inv.output.json([
                "messages": .int(summary.messages), "repeated": .int(summary.repeated), "addresses": .int(summary.addresses),
                "collected": .int(summary.collected), "unreadable": .int(summary.unreadable),
                "unreadableExamples": .array(firstUnreadable.map { .string($0) }), "interrupted": .bool(stopped),
            ])
        } else {
            let o = inv.output
            if stopped {
                o.line("Stopped: what was counted so far is kept; run it again to go on (no message counts twice).")
            }
            o.line(
                "\(summary.messages) messages counted (\(summary.repeated) counted before), \(summary.addresses) addresses seen, \(summary.collected) collected."
            )
            if summary.unreadable > 0 {
                o.line(o.dim("\(summary.unreadable) could not be read, among them:"))
                for u in firstUnreadable { o.line(o.dim("  " + u)) }
            }
        }
        return stopped ? 130 : 0
    }

    /// `collected [TEXT]`: the collected addresses, most written to first.
    static func collected(_ inv: inout Invocation) throws -> Int32 {
        try ContactCommands.runQuery(&inv, text: inv.arguments.first, collected: .only, none: "No addresses collected.")
    }

    /// `me [CONTACT] [--clear]`: the contact that is the user, asked or set.
    static func me(_ inv: inout Invocation) throws -> Int32 {
        var change = ContactsMe.Change.none
        if inv.flag("clear") {
            change = .clear
        } else if let reference = inv.arguments.first {
            change = .set(try ContactResolver.resolve(reference, in: inv)["id"]?.stringValue ?? "")
        }
        let result = try inv.call(ContactsMe(change))
        if inv.json {
            inv.output.json(result)
        } else if let me = result["me"], !me.isNull {
            ContactCommands.report(me, verb: "You are", inv: inv)
        } else {
            inv.output.line("No contact is marked as you.")
        }
        return 0
    }

    /// `keep CONTACT...`.
    static func keep(_ inv: inout Invocation) throws -> Int32 {
        for reference in inv.arguments {
            let c = try ContactResolver.resolve(reference, in: inv, collected: .only)
            let kept = try inv.call(ContactsKeep(id: c["id"]?.stringValue ?? ""))
            ContactCommands.report(kept, verb: "Kept", inv: inv)
        }
        return 0
    }
}
