import ContactsSupport
import Foundation
import HTTPServer

/// The LAN face's certificate and key, as files of the data directory (`lan/certificate.pem`,
/// and `lan/key.pem`, mode 0600): made once, on the first `serve lan enable`, and kept across
/// restarts and address changes (a phone that trusted it is not asked again), until renewed
/// or replaced by the user's own.
struct LANIdentity {
    let directory: String
    var certificatePath: String { directory + "/certificate.pem" }
    var keyPath: String { directory + "/key.pem" }
    /// What the certificate says, written when it is made or taken, so that a restart reads it
    /// without loading GnuTLS (which waits for the first device to connect).
    var infoPath: String { directory + "/certificate.json" }

    /// 825 days: the longest a certificate iOS keeps trusting may be valid.
    static let days = 825

    /// The certificate and key on disk, or nil when there are none yet.
    func load() throws(ServerCertificate.Failure) -> ServerCertificate? {
        let fm = FileManager.default
        guard let c = fm.contents(atPath: certificatePath), let k = fm.contents(atPath: keyPath) else { return nil }
        return ServerCertificate(certificatePEM: String(decoding: c, as: UTF8.self), keyPEM: String(decoding: k, as: UTF8.self))
    }

    /// What the certificate on disk says: from `certificate.json` when it is the same
    /// certificate's, else read by GnuTLS (and written down for next time).
    func info(of certificate: ServerCertificate) throws(ServerCertificate.Failure) -> ServerCertificate.Info {
        if let data = FileManager.default.contents(atPath: infoPath),
            let kept = try? JSONDecoder().decode(ServerCertificate.Info.self, from: data), kept.fingerprint == certificate.fingerprint
        {
            return kept
        }
        let info = try certificate.info()
        saveInfo(info)
        return info
    }

    private func saveInfo(_ info: ServerCertificate.Info) {
        if let data = try? JSONEncoder().encode(info) { try? FileIO.writeAtomically(infoPath, Array(data)) }
    }

    /// The certificate on disk, made first when there is none.
    func loadOrMake(names: [String], addresses: [String]) throws(ServerCertificate.Failure) -> ServerCertificate {
        if let kept = try load() { return kept }
        return try make(names: names, addresses: addresses)
    }

    /// A new key and certificate, replacing those on disk.
    func make(names: [String], addresses: [String]) throws(ServerCertificate.Failure) -> ServerCertificate {
        let made = try ServerCertificate.make(commonName: names.first ?? "contactsd", names: names, addresses: addresses, days: Self.days)
        try save(made)
        return made
    }

    /// Takes the user's own certificate and key (PEM), once GnuTLS has read them as a pair.
    func use(_ certificate: ServerCertificate) throws(ServerCertificate.Failure) -> ServerCertificate.Info {
        let info = try certificate.info(checkingKey: true)
        try save(certificate)
        return info
    }

    private func save(_ c: ServerCertificate) throws(ServerCertificate.Failure) {
        do {
            try FileIO.makeDirectories(directory)
            // The key first: a certificate without its key on disk is never left behind.
            try FileIO.writeAtomically(keyPath, Array(c.keyPEM.utf8))
            try FileIO.writeAtomically(certificatePath, Array(c.certificatePEM.utf8))
            saveInfo(try c.info())
        } catch let e as ServerCertificate.Failure {
            throw e
        } catch {
            throw ServerCertificate.Failure("cannot write the certificate into \(directory): \(error)")
        }
    }
}
