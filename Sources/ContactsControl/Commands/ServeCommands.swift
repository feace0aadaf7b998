import ContactsAPI
import ContactsSupport
import Glibc
import JSONCore

/// `contactsctl serve`: the store over CardDAV, for Thunderbird, GNOME Contacts, Evolution,
/// khard (through vdirsyncer) and DAVx⁵.
enum ServeCommands {
    static let defaultPort = 5232

    static func enable(_ inv: inout Invocation) throws -> Int32 {
        let host = inv.value("address") ?? "127.0.0.1"
        let portText = inv.value("port") ?? String(defaultPort)
        guard let port = Int(portText), (1...65535).contains(port) else {
            throw UsageError(message: "--port must be a port from 1 to 65535, not '\(portText)'", command: "contactsctl serve enable")
        }
        let listen = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]:\(port)" : "\(host):\(port)"
        let result = try inv.call(ServeSet(listen: listen))
        return try report(result, &inv)
    }

    static func disable(_ inv: inout Invocation) throws -> Int32 {
        let result = try inv.call(ServeSet(listen: nil))
        if inv.json {
            inv.output.json(result)
        } else {
            inv.output.line("CardDAV is off.")
        }
        return 0
    }

    static func url(_ inv: inout Invocation) throws -> Int32 {
        guard let result = try inv.callForPeople(ServeStatus()) else { return 0 }
        let books = result["books"]?.arrayValue ?? []
        guard result["listening"]?.boolValue == true, let base = result["url"]?.stringValue else {
            let wanted = result["listen"]?.stringValue.map { " (\($0) is set but could not be listened on: see the daemon's log)" } ?? ""
            throw CommandFailure("CardDAV is off\(wanted). 'contactsctl serve enable' starts it.")
        }
        if let name = inv.arguments.first {
            guard let book = books.first(where: { $0["name"]?.stringValue == name }), let url = book["url"]?.stringValue else {
                let known = books.compactMap { $0["name"]?.stringValue }.joined(separator: ", ")
                throw CommandFailure("no book '\(name)' (there are: \(known))")
            }
            inv.output.line(url)
            return 0
        }
        inv.output.line(base)
        for b in books { inv.output.line(inv.output.dim("  \(b["name"]?.stringValue ?? ""): \(b["url"]?.stringValue ?? "")")) }
        return 0
    }

    /// Writes (or with `--remove` removes) the evolution-data-server source of a book, so
    /// that GNOME Contacts and Evolution show it without a step of set-up.
    static func setupEvolution(_ inv: inout Invocation) throws -> Int32 {
        let name = inv.arguments.first ?? "local"
        let config =
            inv.environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? ((inv.environment["HOME"] ?? "") + "/.config")
        let directory = config + "/evolution/sources"
        if inv.flag("remove") {
            let path = directory + "/" + EvolutionSource.fileName(book: name)
            guard unlink(path) == 0 || errno == ENOENT else {
                throw CommandFailure("cannot remove \(path): \(String(cString: strerror(errno)))")
            }
            if inv.json { inv.output.json(["removed": .string(path)]) } else { inv.output.line("Removed \(path)") }
            return 0
        }
        let status = try inv.call(ServeStatus())
        guard status["listening"]?.boolValue == true else {
            throw CommandFailure("CardDAV is off: 'contactsctl serve enable' starts it, then run this again.")
        }
        let books = status["books"]?.arrayValue ?? []
        guard let book = books.first(where: { $0["name"]?.stringValue == name }), let url = book["url"]?.stringValue else {
            let known = books.compactMap { $0["name"]?.stringValue }.joined(separator: ", ")
            throw CommandFailure("no book '\(name)' (there are: \(known))")
        }
        let displayName = name == "local" ? "contactsd" : "contactsd (\(name))"
        guard let source = EvolutionSource(book: name, displayName: displayName, url: url) else {
            throw CommandFailure("the book's address \(url) is not one Evolution can be given")
        }
        let path = directory + "/" + source.fileName
        do {
            try FileIO.makeDirectories(directory)
        } catch {
            throw CommandFailure(error.description)
        }
        try TransferCommands.writeFile(path, Array(source.text.utf8))
        if inv.json {
            inv.output.json(["path": .string(path), "url": .string(url)])
        } else {
            inv.output.line("Wrote \(path)")
            inv.output.line(inv.output.dim("GNOME Contacts and Evolution show '\(displayName)' now, with no password to give."))
        }
        return 0
    }

    static func report(_ result: JSONValue, _ inv: inout Invocation) throws -> Int32 {
        if inv.json {
            inv.output.json(result)
            return 0
        }
        guard result["listening"]?.boolValue == true, let url = result["url"]?.stringValue else {
            throw CommandFailure(
                "CardDAV is set to \(result["listen"]?.stringValue ?? "?") but does not listen: the port may be taken (see the daemon's log)"
            )
        }
        inv.output.line("Serving CardDAV at \(url)")
        inv.output.line(
            inv.output.dim("Give Thunderbird (New Address Book, CardDAV) this address; only your user can connect, with no password."))
        return 0
    }
}
