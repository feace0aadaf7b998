/// An evolution-data-server source for a served book: the key file `evolution-source-registry`
/// reads from `$XDG_CONFIG_HOME/evolution/sources/`, which GNOME Contacts and Evolution then
/// show. CardDAV with no password (the daemon serves its own user alone), no TLS (loopback),
/// kept offline and refreshed every 5 minutes.
struct EvolutionSource {
    var book: String
    var displayName: String
    var host: String
    var port: Int
    var path: String

    /// The file's name: `contactsd-BOOK.source`, with what a file name should not hold in
    /// an account's name replaced.
    var fileName: String { Self.fileName(book: book) }

    static func fileName(book: String) -> String {
        let safe = book.unicodeScalars.map { s -> String in
            s.isASCII && (s.properties.isAlphabetic || ("0"..."9").contains(s) || s == "-" || s == "_" || s == ".") ? String(s) : "_"
        }
        return "contactsd-" + safe.joined() + ".source"
    }

    /// From a book's URL (`http://HOST:PORT/books/B/`); nil for one that is not such.
    init?(book: String, displayName: String, url: String) {
        guard url.hasPrefix("http://") else { return nil }
        let rest = url.dropFirst("http://".count)
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        let authority = rest[..<slash]
        guard let colon = authority.lastIndex(of: ":"), let port = Int(authority[authority.index(after: colon)...]) else { return nil }
        var host = String(authority[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        self.book = book
        self.displayName = displayName
        self.host = host
        self.port = port
        self.path = String(rest[slash...])
    }

    var text: String {
        // Key-file values escape backslashes and line breaks.
        func value(_ s: String) -> String {
            s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
                .replacingOccurrences(of: "\r", with: "\\r")
        }
        return """
            [Data Source]
            DisplayName=\(value(displayName))
            Enabled=true
            Parent=

            [Authentication]
            Host=\(value(host))
            Method=none
            Port=\(port)
            RememberPassword=false
            User=

            [Security]
            Method=none

            [Offline]
            StaySynchronized=true

            [WebDAV Backend]
            AvoidIfmatch=false
            DisplayName=\(value(displayName))
            ResourcePath=\(value(path))

            [Refresh]
            Enabled=true
            IntervalMinutes=5

            [Address Book]
            BackendName=carddav

            """
    }
}
