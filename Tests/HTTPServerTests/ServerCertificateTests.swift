import Foundation
import XCTest

@testable import HTTPServer

/// A certificate GnuTLS makes for the LAN face, read back by GnuTLS and by openssl.
final class ServerCertificateTests: XCTestCase {
    func testAMadeCertificateIsECDSAP256ForAServerWithItsNamesFor825Days() throws {
        let made = try ServerCertificate.make(
            commonName: "desk", names: ["desk", "desk.local"], addresses: ["198.18.0.1", "fd00::1"], days: 825)
        XCTAssertTrue(made.keyPEM.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let info = try made.info(checkingKey: true)
        XCTAssertEqual(info.names, ["desk", "desk.local", "198.18.0.1", "fd00::1"])
        XCTAssertEqual(info.notAfter.timeIntervalSince(info.notBefore), 825 * 86400 + 60, accuracy: 2)
        XCTAssertEqual(info.fingerprint, made.fingerprint, "the fingerprint read from the PEM text is GnuTLS's")
        XCTAssertEqual(info.fingerprintText.count, 32 * 3 - 1)

        let file = NSTemporaryDirectory() + "cert-" + UUID().uuidString.prefix(8) + ".pem"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try made.certificatePEM.write(toFile: file, atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        p.arguments = ["x509", "-in", file, "-noout", "-text", "-fingerprint", "-sha256"]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertTrue(text.contains("prime256v1"), text)
        XCTAssertTrue(text.contains("TLS Web Server Authentication"), text)
        XCTAssertTrue(text.contains("CA:FALSE"), text)
        XCTAssertTrue(text.contains("IP Address:198.18.0.1"), text)
        XCTAssertTrue(text.contains(info.fingerprintText), "openssl shows the same fingerprint")
    }

    func testAKeyThatIsNotTheCertificatesIsRefused() throws {
        let a = try ServerCertificate.make(commonName: "a", names: ["a"], addresses: [], days: 1)
        let b = try ServerCertificate.make(commonName: "b", names: ["b"], addresses: [], days: 1)
        XCTAssertNotEqual(a.fingerprint, b.fingerprint)
        XCTAssertThrowsError(try ServerCertificate(certificatePEM: a.certificatePEM, keyPEM: b.keyPEM).info(checkingKey: true))
        XCTAssertThrowsError(try ServerCertificate.inspect("-----BEGIN CERTIFICATE-----\nnot one\n-----END CERTIFICATE-----\n"))
        XCTAssertThrowsError(try ServerCertificate.make(commonName: "c", names: [], addresses: ["not.an.address"], days: 1)) { e in
            XCTAssertTrue("\(e)".contains("not an IP address"), "\(e)")
        }
    }

    func testAListenAddressIsAnyIPAddressAndAPort() {
        XCTAssertEqual(try ListenAddress.parse("198.18.0.1:5233").get(), ListenAddress(host: "198.18.0.1", port: 5233))
        XCTAssertEqual(try ListenAddress.parse("[fd00::1]:5233").get().description, "[fd00::1]:5233")
        XCTAssertTrue(try ListenAddress.parse("0.0.0.0:5233").get().isWildcard)
        for bad in ["phone.local:5233", "198.18.0.1", "198.18.0.1:0", "198.18.0.1:70000", "[fd00::1]"] {
            XCTAssertThrowsError(try ListenAddress.parse(bad).get(), bad)
        }
    }
}
