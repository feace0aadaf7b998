import ContactsAPI
import ContactsStore
import Foundation
import HTTPServer
import JSONCore
import JSONRPC

/// The methods about the CardDAV face: where it listens, and turning it on and off (which
/// writes `carddav.listen` into the configuration file and reloads it).
extension Daemon {
    static let serveStatusSchema: JSONValue = [
        "type": "object",
        "required": ["listen", "url", "listening", "books"],
        "properties": [
            "listen": Schemas.nullableString, "url": Schemas.nullableString, "listening": Schemas.boolean,
            "books": [
                "type": "array",
                "items": ["type": "object", "required": ["name", "url"], "properties": ["name": Schemas.string, "url": Schemas.string]],
            ],
        ],
    ]

    func serveMethods(store: ContactStore) -> [RPCMethod] {
        [
            RPCMethod(
                ContactsAPI.Method.serveStatus,
                summary: "Where the store is served over CardDAV: the address set, whether it listens, and each book's URL.",
                result: "serve", resultSchema: Self.serveStatusSchema
            ) { [self] _ in try serveStatus(store) },
            RPCMethod(
                ContactsAPI.Method.serveSet,
                summary:
                    "Serves the store over CardDAV at listen (a loopback HOST:PORT, such as 127.0.0.1:5232), or stops serving it (null): writes carddav.listen into the configuration file and reloads it.",
                params: [
                    RPCParam(
                        "listen", "127.0.0.1:PORT, [::1]:PORT or localhost:PORT; null to stop.", schema: Schemas.nullableString,
                        required: true)
                ],
                result: "serve", resultSchema: Self.serveStatusSchema,
                errors: [
                    RPCError(.invalidParams, "Not a loopback address"), RPCError(.unavailable, "The configuration file cannot be written"),
                ]
            ) { [self] call in
                var listen: String?
                switch call.params.object["listen"] {
                case .string(let text)?:
                    switch LoopbackAddress.parse(text) {
                    case .success(let a): listen = a.description
                    case .failure(let e): throw RPCError(.invalidParams, "Invalid params: listen: \(e)", data: ["field": "listen"])
                    }
                case .null?: listen = nil
                default: throw RPCError.invalidParams("'listen' must be a loopback HOST:PORT or null", field: "listen")
                }
                try writeCardDAVSetting(listen)
                reload()
                return try serveStatus(store)
            },
        ]
    }

    private func serveStatus(_ store: ContactStore) throws -> JSONValue {
        let wanted = currentSettings.cardDAVListen
        let url = cardDAV?.url
        let books = try url.map { base in
            (["local"] + (try store.accounts().map(\.name))).map { name -> JSONValue in
                ["name": .string(name), "url": .string(base + "books/" + Self.pathSegment(name) + "/")]
            }
        }
        return [
            "listen": wanted.map { .string($0.description) } ?? .null, "url": url.map { .string($0) } ?? .null,
            "listening": .bool(url != nil), "books": .array(books ?? []),
        ]
    }

    static func pathSegment(_ name: String) -> String {
        name.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? name
    }

    /// `carddav.listen` set in (or, nil, taken out of) the configuration file, the rest of it
    /// as it was; written to a temporary file and renamed over it.
    private func writeCardDAVSetting(_ listen: String?) throws {
        let path = options.configPath ?? paths.configHome + "/contactsd/config.json"
        var root = JSONObject()
        if let data = FileManager.default.contents(atPath: path) {
            guard case .object(let o)? = try? JSONParser.parse(Array(data)) else {
                throw RPCError(.unavailable, "\(path) is not a JSON object; fix it before changing where CardDAV is served")
            }
            root = o
        }
        if let listen {
            root["carddav"] = ["listen": .string(listen)]
        } else {
            root["carddav"] = nil
        }
        do {
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            try (JSONWriter.string(.object(root)) + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw RPCError(.unavailable, "cannot write \(path): \(error.localizedDescription)")
        }
    }
}
