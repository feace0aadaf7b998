import ContactsAPI
import ContactsSupport
import Foundation
import Glibc
import JSONCore

/// `photo set`, `photo get` and `photo rm`.
enum PhotoCommands {
    static func set(_ inv: inout Invocation) throws -> Int32 {
        let contact = try ContactResolver.resolve(inv.arguments[0], in: inv)
        let file = inv.arguments[1]
        // The bytes travel in the request: the daemon may not see the client's files (a
        // private /tmp, another mount namespace), and this way it never opens a path for us.
        let bytes = try InputFile.read(file)
        guard !bytes.isEmpty else { throw CommandFailure("\(file == "-" ? "standard input" : file) is empty") }
        let updated = try inv.call(
            ContactsSetPhoto(
                id: contact["id"]?.stringValue ?? "", source: .data(Data(bytes).base64EncodedString()),
                ifRevision: contact["revision"]?.intValue))
        if inv.json {
            inv.output.json(updated)
        } else {
            let p = updated["photo"]
            let kind = p?["mimeType"]?.stringValue.flatMap { $0.split(separator: "/").last }.map { $0.uppercased() } ?? "image"
            let size = p?["width"]?.intValue.flatMap { w in p?["height"]?.intValue.map { "\(w)×\($0)" } }.map { ", " + $0 } ?? ""
            inv.output.line("Photo of \(inv.output.bold(updated["name"]?.stringValue ?? "")) set (\(kind)\(size))")
        }
        return 0
    }

    static func get(_ inv: inout Invocation) throws -> Int32 {
        let contact = try ContactResolver.resolve(inv.arguments[0], in: inv)
        let output = inv.value("output")
        var request = ContactsThumbnail(id: contact["id"]?.stringValue ?? "", crop: inv.flag("crop"), inline: output != nil)
        if let size = inv.value("size") {
            let sizes = ContactsThumbnail.sizes
            guard let n = Int(size), sizes.contains(n) else {
                throw UsageError(
                    message: "--size must be a number from \(sizes.lowerBound) to \(sizes.upperBound)", command: "contactsctl photo get")
            }
            request.size = n
        }
        let t = try inv.call(request)
        guard let output else {
            // Without --output: where the thumbnail is, for an image viewer or a notification.
            if inv.json { inv.output.json(t) } else { inv.output.line(t["path"]?.stringValue ?? "") }
            return 0
        }
        guard let data = t["data"]?.stringValue.flatMap({ Data(base64Encoded: $0) }) else {
            throw CommandFailure("the daemon sent no image data")
        }
        if output == "-" {
            inv.output.flush()
            do {
                try FileIO.writeAll(1, [UInt8](data), detail: "to standard output")
            } catch {
                throw CommandFailure(error.description)
            }
            return 0
        }
        try TransferCommands.writeFile(output, [UInt8](data))
        if inv.json {
            var o = t.objectValue ?? [:]
            o["data"] = nil
            o["file"] = .string(output)
            inv.output.json(.object(o))
        } else if inv.output.isTerminal {
            inv.output.line("Wrote a \(t["width"]?.intValue ?? 0)×\(t["height"]?.intValue ?? 0) JPEG to \(output)")
        }
        return 0
    }

    static func remove(_ inv: inout Invocation) throws -> Int32 {
        let contact = try ContactResolver.resolve(inv.arguments[0], in: inv)
        if (contact["photo"] ?? .null) == .null && !inv.json {
            inv.output.line("\(inv.output.bold(contact["name"]?.stringValue ?? "")) has no photo; nothing changed")
            return 0
        }
        let updated = try inv.call(ContactsRemovePhoto(id: contact["id"]?.stringValue ?? "", ifRevision: contact["revision"]?.intValue))
        ContactCommands.report(updated, verb: "Removed the photo of", inv: inv)
        return 0
    }

    static func readAll(_ fd: Int32, _ what: String) throws -> [UInt8] {
        do {
            return try FileIO.readAll(fd, detail: what)
        } catch {
            throw CommandFailure(error.description)
        }
    }
}
