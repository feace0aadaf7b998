import Foundation
import XCTest

@testable import ContactsSupport

final class SHA256Tests: XCTestCase {
    func testKnownAnswers() {
        // FIPS 180-4 examples, and the empty message.
        XCTAssertEqual(SHA256.hex([UInt8]()), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256.hex(Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(
            SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(
            SHA256.hex([UInt8](repeating: 0x61, count: 1_000_000)), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Every length around the block and padding boundaries, against coreutils' sha256sum.
    func testEveryLengthAgreesWithSha256sum() throws {
        var rng = SystemRandomNumberGenerator()
        let lengths = Array(0...200) + [511, 512, 513, 4095, 4096, 4097, 100_003]
        let dir = NSTemporaryDirectory() + "sha-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var mine: [String] = []
        for n in lengths {
            let bytes = (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) }
            FileManager.default.createFile(atPath: "\(dir)/\(n)", contents: Data(bytes))
            mine.append(SHA256.hex(bytes))
            // A slice (not an array) of the same bytes gives the same digest.
            XCTAssertEqual(SHA256.hex(([0] + bytes)[1...]), mine.last)
            // The portable rounds and the processor's instructions agree.
            let portable = bytes.withUnsafeBytes { SHA256.digest($0, withKernel: false) }
            XCTAssertEqual(portable, SHA256.digest(bytes), "length \(n)")
        }
        if !SHA256.kernelAvailable { print("SHA256Tests: this processor has no SHA instructions; only the portable rounds ran") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        p.arguments = lengths.map { "\(dir)/\($0)" }
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        let theirs = text.split(separator: "\n").map { String($0.prefix(64)) }
        XCTAssertEqual(theirs.count, lengths.count)
        for (i, n) in lengths.enumerated() where i < theirs.count { XCTAssertEqual(mine[i], theirs[i], "length \(n)") }
    }
}
