import ContactsAPI
import ContactsStore
import ContactsSupport
import Foundation
import HTTPServer
import JSONCore
import JSONRPC

/// The LAN face's certificate and devices, and what `serve.status` says of it.
extension Daemon {
    func deviceMethods(store: ContactStore) -> [RPCMethod] {
        [
            RPCMethod(ServeCertificate.self) { [self] request, _ in
                let face = try lanFace()
                do {
                    switch request.change {
                    case nil:
                        guard let info = try face.certificate() else {
                            throw RPCError(.notFound, "there is no certificate yet: contactsctl serve lan enable makes one")
                        }
                        return Self.json(info)
                    case .renew:
                        let info = try face.replaceCertificate(with: nil)
                        log.notice("the LAN face has a new certificate: \(info.fingerprintText)")
                        return Self.json(info)
                    case .use(let certificate, let key):
                        let info = try face.replaceCertificate(with: ServerCertificate(certificatePEM: certificate, keyPEM: key))
                        log.notice("the LAN face uses the certificate given: \(info.fingerprintText)")
                        return Self.json(info)
                    }
                } catch let e as ServerCertificate.Failure {
                    throw RPCError(.invalidData, e.description)
                }
            },
            RPCMethod(ServeDevicesAdd.self) { [self] request, _ in
                let face = try lanFace()
                let known = ["local"] + (try store.accounts().map(\.name))
                if let unknown = request.books.first(where: { !known.contains($0) }) {
                    throw RPCError(
                        .notFound, "there is no book \(unknown) (the books: \(known.joined(separator: ", ")))", data: ["field": "books"])
                }
                let password = try Self.registry { () throws(DeviceRegistry.Failure) in
                    try face.registry.add(request.name, books: request.books, readOnly: request.readOnly, now: Timestamp.now() / 1000)
                }
                log.notice("the device \(request.name) may sync over the network now\(request.readOnly ? " (read only)" : "")")
                return try credentials(request.name, password: password, face: face)
            },
            RPCMethod(ServeDevicesList.self) { [self] _, _ in
                let face = try lanFace()
                return ["devices": .array(face.registry.devices.map(Self.json))]
            },
            RPCMethod(ServeDevicesRemove.self) { [self] request, _ in
                let face = try lanFace()
                try Self.registry { () throws(DeviceRegistry.Failure) in try face.registry.remove(request.name) }
                log.notice("the device \(request.name) is no longer let in")
                return ["removed": .string(request.name)]
            },
            RPCMethod(ServeDevicesPassword.self) { [self] request, _ in
                let face = try lanFace()
                let password = try Self.registry { () throws(DeviceRegistry.Failure) in try face.registry.renewPassword(request.name) }
                log.notice("the device \(request.name) has a new password")
                return try credentials(request.name, password: password, face: face)
            },
            RPCMethod(ServeQRCode.self) { request, _ in
                let rows = try QRCodeMaker.rows(request.text)
                return ["width": .int(rows.count), "rows": .array(rows.map { .string($0) })]
            },
        ]
    }

    /// `lan` of `serve.status`: null while the LAN face is off.
    func lanStatus() -> JSONValue {
        guard let face = lan, let settings = face.settings else { return .null }
        let info = try? face.certificate()
        return .object(
            .present([
                "listen": .string(settings.listen.description), "url": .string(LANFace.url(settings)),
                "fingerprint": info.map { .string($0.fingerprintText) }, "expires": info.map { .string(Self.date($0.notAfter)) },
                "expiresSoon": info.map { .bool(Self.expiresSoon($0)) }, "devices": .int(face.registry.devices.count),
            ]))
    }

    private func lanFace() throws -> LANFace {
        guard let lan else { throw RPCError(.unavailable, "devices cannot be served: \(lanFailure ?? "the LAN face did not start")") }
        return lan
    }

    /// What a device is set up with, shown once.
    private func credentials(_ name: String, password: String, face: LANFace) throws -> JSONValue {
        guard let device = face.registry.device(named: name) else { throw RPCError(.notFound, "there is no device named \(name)") }
        let settings = face.settings ?? currentSettings.cardDAVLAN
        let fingerprint = (try? face.certificate())?.map(\.fingerprintText)
        return [
            "name": .string(name), "user": .string(name), "password": .string(password),
            "url": settings.map { .string(LANFace.url($0)) } ?? .null, "fingerprint": fingerprint.map { .string($0) } ?? .null,
            "books": .array(device.books.map { .string($0) }), "readOnly": .bool(device.readOnly),
        ]
    }

    private static func registry<T>(_ body: () throws(DeviceRegistry.Failure) -> T) throws -> T {
        do {
            return try body()
        } catch {
            switch error {
            case .invalidName: throw RPCError(.invalidParams, "Invalid params: name: \(error)", data: ["field": "name"])
            case .exists: throw RPCError(.conflict, error.description)
            case .notFound: throw RPCError(.notFound, error.description)
            case .unreadable, .cannotWrite: throw RPCError(.unavailable, error.description)
            }
        }
    }

    static func json(_ info: ServerCertificate.Info) -> JSONValue {
        [
            "fingerprint": .string(info.fingerprintText), "names": .array(info.names.map { .string($0) }),
            "notBefore": .string(date(info.notBefore)), "expires": .string(date(info.notAfter)), "expiresSoon": .bool(expiresSoon(info)),
        ]
    }

    static func json(_ d: Device) -> JSONValue {
        .object(
            .present([
                "name": .string(d.name), "books": .array(d.books.map { .string($0) }), "readOnly": .bool(d.readOnly),
                "addedAt": .string(Timestamp.format(d.addedAt * 1000)),
                "lastSeenAt": d.lastSeenAt.map { .string(Timestamp.format($0 * 1000)) },
                "lastSeenFrom": d.lastSeenFrom.map { .string($0) }, "failedSignIns": .int(d.failedSignIns),
            ]))
    }

    /// Within 30 days of its end (or past it): `serve status` warns.
    static func expiresSoon(_ info: ServerCertificate.Info) -> Bool { info.notAfter.timeIntervalSinceNow < 30 * 86400 }

    static func date(_ d: Date) -> String { Timestamp.format(Int64(d.timeIntervalSince1970 * 1000)) }
}
