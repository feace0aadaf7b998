import ContactsSupport
import Foundation
import TLSShim

/// A TLS server's certificate and key, as PEM text, and what the certificate says. GnuTLS
/// makes and reads them (loaded at the first use, not when the program starts).
public struct ServerCertificate: Sendable, Equatable {
    public var certificatePEM: String
    public var keyPEM: String

    public init(certificatePEM: String, keyPEM: String) {
        (self.certificatePEM, self.keyPEM) = (certificatePEM, keyPEM)
    }

    /// What a certificate says, as a person checks it.
    public struct Info: Sendable, Equatable, Codable {
        /// SHA-256 of the certificate (DER), as phones show it.
        public var fingerprint: [UInt8]
        public var notBefore: Date
        public var notAfter: Date
        /// Its subjectAltName entries: host names and addresses.
        public var names: [String]

        public init(fingerprint: [UInt8], notBefore: Date, notAfter: Date, names: [String]) {
            (self.fingerprint, self.notBefore, self.notAfter, self.names) = (fingerprint, notBefore, notAfter, names)
        }

        /// The fingerprint as DAVx⁵ and iOS show it: hexadecimal pairs joined by colons.
        public var fingerprintText: String { fingerprint.map { String(format: "%02X", $0) }.joined(separator: ":") }
    }

    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var description: String
        public init(_ why: String) { description = why }
    }

    /// A new ECDSA P-256 key and a certificate it signs for a TLS server named `names` (host
    /// names) and `addresses` (IP addresses), valid for `days` from now.
    public static func make(commonName: String, names: [String], addresses: [String], days: Int) throws(Failure) -> ServerCertificate {
        var why = [CChar](repeating: 0, count: 256)
        var certificate: UnsafeMutablePointer<CChar>?
        var key: UnsafeMutablePointer<CChar>?
        let status = withCStrings(names) { n in
            withCStrings(addresses) { a in
                contactsd_tls_make_certificate(
                    commonName, n.baseAddress, n.count, a.baseAddress, a.count, UInt32(days), &certificate, &key, &why, why.count)
            }
        }
        defer {
            if let key { wipe(key, strlen(key)) }
            free(certificate)
            free(key)
        }
        guard status == 0, let certificate, let key else { throw Failure(text(why)) }
        return ServerCertificate(certificatePEM: String(cString: certificate), keyPEM: String(cString: key))
    }

    /// SHA-256 of the certificate's DER form, read from its PEM text without GnuTLS.
    public var fingerprint: [UInt8]? {
        let lines = certificatePEM.split(whereSeparator: \.isNewline)
        guard let begin = lines.firstIndex(where: { $0.hasPrefix("-----BEGIN CERTIFICATE") }),
            let end = lines[begin...].firstIndex(where: { $0.hasPrefix("-----END CERTIFICATE") }),
            let der = Base64.decode(Array(lines[(begin + 1)..<end].joined().utf8))
        else { return nil }
        return SHA256.digest(der)
    }

    /// What the certificate says; with `checkingKey`, also that the key is the certificate's.
    public func info(checkingKey: Bool = false) throws(Failure) -> Info {
        try Self.inspect(certificatePEM, key: checkingKey ? keyPEM : nil)
    }

    /// What a PEM certificate says (and, with a key, that the key is its own).
    public static func inspect(_ certificatePEM: String, key: String? = nil) throws(Failure) -> Info {
        var why = [CChar](repeating: 0, count: 256)
        var fingerprint = [UInt8](repeating: 0, count: 32)
        var activation: Int64 = 0
        var expiration: Int64 = 0
        var names: UnsafeMutablePointer<CChar>?
        let status = certificatePEM.withCString { c in
            if let key {
                return key.withCString { k in
                    contactsd_tls_inspect(c, k, &fingerprint, &activation, &expiration, &names, &why, why.count)
                }
            }
            return contactsd_tls_inspect(c, nil, &fingerprint, &activation, &expiration, &names, &why, why.count)
        }
        defer { free(names) }
        guard status == 0 else { throw Failure(text(why)) }
        let list = names.map { String(cString: $0).split(separator: "\n").map(String.init) } ?? []
        return Info(
            fingerprint: fingerprint, notBefore: Date(timeIntervalSince1970: TimeInterval(activation)),
            notAfter: Date(timeIntervalSince1970: TimeInterval(expiration)), names: list)
    }

    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func withCStrings<T>(_ strings: [String], _ body: (UnsafeBufferPointer<UnsafePointer<CChar>?>) -> T) -> T {
        let copies = strings.map { strdup($0) }
        defer { for p in copies { free(p) } }
        return copies.map { $0.map { UnsafePointer($0) } }.withUnsafeBufferPointer(body)
    }

    /// Overwrites a key's bytes before they are freed.
    private static func wipe(_ p: UnsafeMutablePointer<CChar>, _ count: Int) {
        for i in 0..<count { p[i] = 0 }
    }
}
