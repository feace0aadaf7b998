import ContactsAPI
import ContactsStore
import Foundation
import HTTPServer
import JSONCore
import JSONRPC

/// The methods about the CardDAV face: where it listens, and turning it on and off (which
/// writes `carddav.listen` into the configuration file and reloads it).
extension Daemon {
    func serveMethods(store: ContactStore) -> [RPCMethod] {
        [
            RPCMethod(ServeStatus.self) { [self] _, _ in try serveStatus(store) },
            RPCMethod(ServeSet.self) { [self] request, _ in
                var listen: JSONValue = .null
                if let text = request.listen {
                    switch LoopbackAddress.parse(text) {
                    case .success(let a): listen = .string(a.description)
                    case .failure(let e): throw RPCError(.invalidParams, "Invalid params: listen: \(e)", data: ["field": "listen"])
                    }
                }
                try writeCardDAVSetting("listen", listen)
                reload()
                return try serveStatus(store)
            },
            RPCMethod(ServeLANSet.self) { [self] request, _ in
                var lan: JSONValue = .null
                if let text = request.listen {
                    switch ListenAddress.parse(text) {
                    case .success(let a):
                        lan = .object(.present(["listen": .string(a.description), "host": request.host.map { .string($0) }]))
                    case .failure(let e): throw RPCError(.invalidParams, "Invalid params: listen: \(e)", data: ["field": "listen"])
                    }
                }
                try writeCardDAVSetting("lan", lan)
                reload()
                return try serveStatus(store)
            },
        ] + deviceMethods(store: store)
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
            "listening": .bool(url != nil), "books": .array(books ?? []), "lan": lanStatus(),
        ]
    }

    static func pathSegment(_ name: String) -> String {
        name.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? name
    }

    /// `carddav.KEY` set in (or, null, taken out of) the configuration file, the rest of it as
    /// it was; written to a temporary file and renamed over it.
    func writeCardDAVSetting(_ key: String, _ value: JSONValue) throws {
        let path = options.configPath ?? paths.configHome + "/contactsd/config.json"
        var root = JSONObject()
        if let data = FileManager.default.contents(atPath: path) {
            guard case .object(let o)? = try? JSONParser.parse(Array(data)) else {
                throw RPCError(.unavailable, "\(path) is not a JSON object; fix it before changing where CardDAV is served")
            }
            root = o
        }
        var carddav = root["carddav"]?.objectValue ?? [:]
        carddav[key] = value.isNull ? nil : value
        root["carddav"] = carddav.isEmpty ? nil : .object(carddav)
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
