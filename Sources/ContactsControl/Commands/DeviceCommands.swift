import ContactsAPI
import ContactsSupport
import Foundation
import JSONCore

/// `contactsctl serve lan`, `serve certificate`, `serve device`: the store served with TLS to
/// the person's phone and other devices on the local network, each with its own password.
enum DeviceCommands {
    static func enableLAN(_ inv: inout Invocation) throws -> Int32 {
        let host = inv.value("address") ?? "0.0.0.0"
        let portText = inv.value("port") ?? String(5233)
        guard let port = Int(portText), (1...65535).contains(port) else {
            throw UsageError(message: "--port must be a port from 1 to 65535, not '\(portText)'", command: "contactsctl serve lan enable")
        }
        let listen = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]:\(port)" : "\(host):\(port)"
        let result = try inv.call(ServeLANSet(listen: listen, host: inv.value("host")))
        if inv.json {
            inv.output.json(result)
            return 0
        }
        guard let lan = result["lan"], !lan.isNull, let url = lan["url"]?.stringValue else {
            throw CommandFailure("the network face is set to \(listen) but does not listen: the port may be taken (see the daemon's log)")
        }
        inv.output.line("Serving CardDAV to your devices at \(url) (TLS only)")
        if let fingerprint = lan["fingerprint"]?.stringValue { inv.output.line("Certificate fingerprint (SHA-256): \(fingerprint)") }
        inv.output.line(inv.output.dim("Add a device with 'contactsctl serve device add NAME'; each has its own password."))
        return 0
    }

    static func disableLAN(_ inv: inout Invocation) throws -> Int32 {
        let result = try inv.call(ServeLANSet(listen: nil))
        if inv.json { inv.output.json(result) } else { inv.output.line("CardDAV on the network is off; devices can no longer sync.") }
        return 0
    }

    static func status(_ inv: inout Invocation) throws -> Int32 {
        guard let result = try inv.callForPeople(ServeStatus()) else { return 0 }
        let loopback = result["listening"]?.boolValue == true ? result["url"]?.stringValue ?? "?" : "off"
        inv.output.line("This machine: \(loopback)")
        guard let lan = result["lan"], !lan.isNull else {
            inv.output.line("Network:      off")
            return 0
        }
        inv.output.line("Network:      \(lan["url"]?.stringValue ?? "?") (TLS), \(lan["devices"]?.intValue ?? 0) devices")
        if let fingerprint = lan["fingerprint"]?.stringValue { inv.output.line("Fingerprint:  \(fingerprint)") }
        if let expires = lan["expires"]?.stringValue {
            inv.output.line("Expires:      \(expires)")
            if lan["expiresSoon"]?.boolValue == true {
                inv.output.error(
                    "warning: the certificate expires within 30 days: 'contactsctl serve certificate --renew' makes a new one (each device must accept it again)"
                )
            }
        }
        return 0
    }

    static func certificate(_ inv: inout Invocation) throws -> Int32 {
        var request = ServeCertificate()
        if inv.flag("renew") {
            guard inv.value("use") == nil else {
                throw UsageError(message: "--renew or --use, not both", command: "contactsctl serve certificate")
            }
            request.change = .renew
        } else if let certificatePath = inv.value("use") {
            guard let keyPath = inv.arguments.first else {
                throw UsageError(message: "--use CERT KEY takes the certificate and its key", command: "contactsctl serve certificate")
            }
            request.change = .use(certificate: try readPEM(certificatePath), key: try readPEM(keyPath))
        }
        guard let result = try inv.callForPeople(request) else { return 0 }
        inv.output.line("Fingerprint (SHA-256): \(result["fingerprint"]?.stringValue ?? "?")")
        let names = result["names"]?.arrayValue?.compactMap(\.stringValue) ?? []
        inv.output.line("Names:   \(names.joined(separator: ", "))")
        inv.output.line("Expires: \(result["expires"]?.stringValue ?? "?")")
        if request.change != nil {
            inv.output.line(inv.output.dim("Each device asks to accept the new certificate on its next sync: compare the fingerprint."))
        }
        return 0
    }

    /// A PEM file the user named, read by this program (the daemon opens no path a client gives).
    static func readPEM(_ path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else { throw CommandFailure("cannot read \(path)") }
        guard data.count <= 256 << 10, let text = String(data: data, encoding: .utf8), text.contains("-----BEGIN") else {
            throw CommandFailure("\(path) is not a PEM file")
        }
        return text
    }

    static func add(_ inv: inout Invocation) throws -> Int32 {
        let result = try inv.call(ServeDevicesAdd(name: inv.arguments[0], readOnly: inv.flag("read-only"), books: inv.values("book")))
        return try showCredentials(result, &inv, added: true)
    }

    static func password(_ inv: inout Invocation) throws -> Int32 {
        let result = try inv.call(ServeDevicesPassword(name: inv.arguments[0]))
        return try showCredentials(result, &inv, added: false)
    }

    /// The device's user name, password (this once), URL and fingerprint, and a QR code of the
    /// DAVx⁵ link (with the password only when asked: DAVx⁵'s manual warns against it).
    static func showCredentials(_ result: JSONValue, _ inv: inout Invocation, added: Bool) throws -> Int32 {
        let name = result["user"]?.stringValue ?? ""
        let password = result["password"]?.stringValue ?? ""
        let url = result["url"]?.stringValue
        let link = url.map { davx5Link($0, user: name, password: inv.flag("qr-with-password") ? password : nil) }
        // Asked of the daemon once, for the file and the terminal alike.
        var code: QRCode?
        func qrCode(_ link: String) throws -> QRCode {
            if let code { return code }
            let made = try QRCode(link, inv: inv)
            code = made
            return made
        }
        if let file = inv.value("qr") {
            guard let link else { throw CommandFailure("no QR code: the network face is off ('contactsctl serve lan enable')") }
            try TransferCommands.writeFile(file, try qrCode(link).png())
        }
        if inv.json {
            inv.output.json(result)
            return 0
        }
        inv.output.line(
            added ? "Added \(inv.output.bold(name))." : "A new password for \(inv.output.bold(name)); the old one no longer works.")
        inv.output.line("  User name:   \(name)")
        inv.output.line("  Password:    \(inv.output.bold(password))   (shown this once)")
        inv.output.line("  Address:     \(url ?? "(the network face is off: 'contactsctl serve lan enable')")")
        if let fingerprint = result["fingerprint"]?.stringValue { inv.output.line("  Fingerprint: \(fingerprint)") }
        let books = result["books"]?.arrayValue?.compactMap(\.stringValue) ?? []
        inv.output.line(
            "  Books:       \(books.isEmpty ? "all" : books.joined(separator: ", "))\(result["readOnly"]?.boolValue == true ? " (read only)" : "")"
        )
        if let link, inv.output.isTerminal {
            inv.output.line()
            inv.output.line("Scan with DAVx⁵ (\(link.replacingOccurrences(of: password, with: "…"))):")
            for line in try qrCode(link).terminalLines { inv.output.line(line) }
        }
        inv.output.line(inv.output.dim("The phone asks to trust the certificate: accept it if the fingerprint is the one above."))
        return 0
    }

    /// DAVx⁵'s link to an account: `davx5://USER[:PASSWORD]@HOST:PORT/`.
    static func davx5Link(_ url: String, user: String, password: String?) -> String {
        let rest = url.hasPrefix("https://") ? String(url.dropFirst("https://".count)) : url
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        let credentials =
            (user.addingPercentEncoding(withAllowedCharacters: allowed) ?? user)
            + (password.map { ":" + ($0.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0) } ?? "")
        return "davx5://\(credentials)@\(rest)"
    }

    static func list(_ inv: inout Invocation) throws -> Int32 {
        guard let result = try inv.callForPeople(ServeDevicesList()) else { return 0 }
        let devices = result["devices"]?.arrayValue ?? []
        guard !devices.isEmpty else {
            inv.output.line("No devices. 'contactsctl serve device add NAME' adds one.")
            return 0
        }
        var table = Table(headers: ["NAME", "BOOKS", "ACCESS", "ADDED", "LAST SEEN", "FROM", "WRONG PASSWORDS"], shrinkable: [1, 5])
        for d in devices {
            let books = d["books"]?.arrayValue?.compactMap(\.stringValue) ?? []
            table.add([
                d["name"]?.stringValue ?? "", books.isEmpty ? "all" : books.joined(separator: ","),
                d["readOnly"]?.boolValue == true ? "read only" : "read, write", String((d["addedAt"]?.stringValue ?? "").prefix(10)),
                d["lastSeenAt"]?.stringValue ?? "never", d["lastSeenFrom"]?.stringValue ?? "", String(d["failedSignIns"]?.intValue ?? 0),
            ])
        }
        for line in table.render(width: inv.output.width, header: inv.output.bold) { inv.output.line(line) }
        return 0
    }

    static func remove(_ inv: inout Invocation) throws -> Int32 {
        let result = try inv.call(ServeDevicesRemove(name: inv.arguments[0]))
        if inv.json {
            inv.output.json(result)
        } else {
            inv.output.line("Removed \(inv.arguments[0]): it is refused from its next request on.")
        }
        return 0
    }
}
