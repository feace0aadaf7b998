import ContactsAPI
import ContactsSupport
import Foundation
import Glibc
import JSONCore
import JSONRPC

/// `edit ID` and `add` with no fields: the contact as a form in `$VISUAL` or `$EDITOR`. What
/// the person saved is applied with `ifRevision`; a form that does not read, a value the
/// daemon refuses, or a contact changed meanwhile opens the editor again on the same text with
/// the problem at the top (as `crontab -e` and `git commit` do), so no edit is lost.
enum EditorSession {
    /// Rounds before giving up (an editor command that writes a bad form every time).
    static let maxRounds = 10
    /// The first characters of the lines that tell the person what went wrong.
    static let problemMark = "# ! "

    /// Edits `contact` (nil: a new one) until it is applied or given up.
    static func run(_ inv: inout Invocation, contact: JSONValue?) throws -> Int32 {
        let editor = [inv.environment["VISUAL"], inv.environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        let path = try makeFile(in: inv.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp")
        var current = contact
        var text = ContactForm.text(for: contact)
        var problem: (message: String, conflict: Bool)? = nil
        for _ in 1...maxRounds {
            let written = (problem.map { header($0.message) } ?? "") + text
            try FileIO.writeAtomically(path, Array(written.utf8), sync: false)
            let status = try runEditor(editor, path, environment: inv.environment)
            guard status == 0 else {
                throw CommandFailure("the editor (\(editor)) exited with status \(status); nothing changed, the text is kept in \(path)")
            }
            let saved = String(decoding: try FileIO.readRegularFile(path, limit: 16 << 20), as: UTF8.self)
            if saved == written && !(problem?.conflict ?? false) {
                guard problem != nil else {
                    unlink(path)
                    inv.output.line("No changes.")
                    return 0
                }
                throw CommandFailure("the form still has the problem shown at its top; nothing changed, the text is kept in \(path)")
            }
            text = withoutHeader(saved)
            do {
                guard let fields = try ContactForm.fields(text) else {
                    unlink(path)
                    throw CommandFailure("the form was emptied: nothing changed")
                }
                let done = try apply(fields, base: contact, current: current, inv: &inv)
                unlink(path)
                return done
            } catch let p as ContactForm.Problem {
                problem = (p.description, false)
            } catch let e as RPCError where e.code == .conflict && current != nil {
                let fresh = try inv.call(ContactsGet(id: current?["id"]?.stringValue ?? ""))
                problem = (
                    "The contact changed while you edited it (another program made revision \(fresh["revision"]?.intValue ?? 0)). "
                        + "Save again to apply what you changed over it (its other changes stay), or empty the file to give up.", true
                )
                current = fresh
            } catch let e as RPCError where e.code == .invalidData || e.code == .invalidParams {
                problem = (e.message, false)
            }
        }
        throw CommandFailure("gave up after \(maxRounds) rounds of the editor; the text is kept in \(path)")
    }

    /// Creates the contact, or changes `current` (at its revision) in the fields the form
    /// changed from `base`, the contact as the form showed it: what another program changed
    /// meanwhile in other fields stays.
    static func apply(_ fields: JSONObject, base: JSONValue?, current: JSONValue?, inv: inout Invocation) throws -> Int32 {
        guard let current, let base else {
            var contact: JSONObject = [:]
            for m in fields where !m.value.isNull && m.value != .array([]) { contact[m.key] = m.value }
            let created = try inv.call(ContactsCreate(contact: contact))
            ContactCommands.report(created, verb: "Added", inv: inv)
            return 0
        }
        var changes: JSONObject = [:]
        for m in fields where normalized(m.key, m.value) != normalized(m.key, base[m.key] ?? .null) { changes[m.key] = m.value }
        guard !changes.isEmpty else {
            inv.output.line("No changes.")
            return 0
        }
        let favorite = changes["favorite"]
        changes["favorite"] = nil
        var updated = current
        if !changes.isEmpty {
            updated = try inv.call(
                ContactsUpdate(id: current["id"]?.stringValue ?? "", changes: changes, ifRevision: current["revision"]?.intValue))
        }
        if let favorite {
            updated = try inv.call(
                ContactsSetFavorite(
                    id: current["id"]?.stringValue ?? "", favorite: favorite.boolValue ?? false, ifRevision: updated["revision"]?.intValue))
        }
        ContactCommands.report(updated, verb: "Updated", inv: inv)
        return 0
    }

    /// A field's value as the form and the API's Contact can both say it.
    static func normalized(_ key: String, _ v: JSONValue) -> JSONValue {
        func text(_ v: JSONValue?) -> JSONValue { (v?.stringValue).map { $0.isEmpty ? .null : .string($0) } ?? .null }
        switch key {
        case _ where ContactForm.lists.contains(where: { $0.key == key }):
            return .array(
                (v.arrayValue ?? []).map { e in
                    ["value": text(e["value"]), "label": text(e["label"])]
                })
        case "addresses":
            return .array(
                (v.arrayValue ?? []).map { a in
                    .object(JSONObject((ContactForm.addressParts.map(\.key) + ["label"]).map { JSONObject.Member($0, text(a[$0])) }))
                })
        case "structuredName", "phoneticName":
            let keys = key == "structuredName" ? ContactForm.nameParts : ContactForm.readingParts
            let parts = keys.map { JSONObject.Member($0.key, text(v[$0.key])) }
            return parts.allSatisfy { $0.value.isNull } ? .null : .object(JSONObject(parts))
        case "groups": return .array((v.arrayValue ?? []).compactMap(\.stringValue).sorted().map { .string($0) })
        case "favorite": return .bool(v.boolValue ?? false)
        default: return text(v)
        }
    }

    static func header(_ message: String) -> String {
        let words = message.split(separator: " ")
        var lines: [String] = []
        var line = ""
        for w in words {
            if !line.isEmpty && line.count + w.count > 84 {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + w
        }
        if !line.isEmpty { lines.append(line) }
        return (lines + ["(These lines go away by themselves.)"]).map { problemMark + $0 }.joined(separator: "\n") + "\n"
    }

    static func withoutHeader(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).drop { $0.hasPrefix(problemMark) }.joined(separator: "\n")
    }

    /// A new file only this user can read, named so that editors know its syntax.
    static func makeFile(in dir: String) throws -> String {
        var template = Array((dir + "/contactsctl-XXXXXX.yaml").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemps($0, 5) } ?? -1 }
        guard fd >= 0 else { throw CommandFailure("cannot make a file for the editor: \(SystemError("mkstemps", detail: dir))") }
        close(fd)
        return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Runs the editor on `path` through the shell, so that `EDITOR="code --wait"` works; the
    /// terminal stays the editor's until it exits.
    static func runEditor(_ editor: String, _ path: String, environment: [String: String]) throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", editor + " \"$1\"", "sh", path]
        p.environment = environment
        do {
            try p.run()
        } catch {
            throw CommandFailure("cannot run the editor (\(editor)): \(error)")
        }
        p.waitUntilExit()
        return p.terminationStatus
    }
}
