import ContactsSupport
import Dispatch
import Foundation
import Glibc
import TestSupport
import VipsImages
import XCTest

@testable import Thumbnails

/// The image helper, run for real: the `contactsd-imaging` built beside the tests.
final class HelperDecoderTests: XCTestCase {
    var helperPath: String {
        get throws {
            let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            let path = runner.appendingPathComponent("contactsd-imaging").path
            guard FileManager.default.isExecutableFile(atPath: path) else {
                XCTFail("contactsd-imaging is not built at \(path) ('swift build --build-tests' builds it)")
                throw CocoaError(.fileNoSuchFile)
            }
            return path
        }
    }

    func testTheHelperAnswersAsLibvipsInProcessDoes() throws {
        let helper = HelperDecoder(executable: try helperPath)
        defer { helper.shutdown() }
        let local = VipsDecoder()
        for format in ImageFormat.allCases {
            let photo = try Images.synthesize(width: 320, height: 200, format: format)
            XCTAssertEqual(try helper.inspect(photo, limits: ImageLimits()), try local.inspect(photo, limits: ImageLimits()), "\(format)")
            let t = try helper.thumbnail(photo, size: 100, crop: false, limits: ImageLimits())
            let expected = try local.thumbnail(photo, size: 100, crop: false, limits: ImageLimits())
            XCTAssertEqual([t.width, t.height], [expected.width, expected.height], "\(format)")
            XCTAssertEqual(t.width, 100)
            XCTAssertEqual(ImageFormat.sniff(t.jpeg), .jpeg)
        }
        let turned = try Images.synthesize(width: 400, height: 200, orientation: 6)
        let info = try helper.inspect(turned, limits: ImageLimits())
        XCTAssertEqual([info.orientation, info.displayWidth, info.displayHeight], [6, 200, 400])
        let square = try helper.thumbnail(turned, size: 64, crop: true, limits: ImageLimits())
        XCTAssertEqual([square.width, square.height], [64, 64])
        XCTAssertEqual(helper.idleCount, 1, "one helper served every request in turn")
    }

    /// A helper started on a thread that ends (a client's connection) goes on serving.
    func testAHelperOutlivesTheThreadThatStartedIt() throws {
        let helper = HelperDecoder(executable: try helperPath)
        defer { helper.shutdown() }
        let photo = try Images.synthesize(width: 300, height: 200)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            _ = try? helper.inspect(photo, limits: ImageLimits())
            done.signal()
        }
        thread.start()
        done.wait()
        usleep(200_000)  // the thread is gone
        XCTAssertEqual(helper.idleCount, 1)
        XCTAssertEqual(try helper.thumbnail(photo, size: 30, crop: false, limits: ImageLimits()).width, 30)
    }

    /// A descriptor the daemon left open across exec does not reach the helper.
    func testTheHelperKeepsNoneOfTheDaemonsDescriptors() throws {
        let leaked = open("/etc/hostname", O_RDONLY)  // no O_CLOEXEC, on purpose
        XCTAssertGreaterThan(leaked, 2)
        defer { close(leaked) }
        let helper = HelperDecoder(executable: try helperPath)
        defer { helper.shutdown() }
        _ = try helper.inspect(try Images.synthesize(width: 20, height: 20), limits: ImageLimits())
        let pids = childPIDs()
        XCTAssertFalse(pids.isEmpty)
        for pid in pids {
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(leaked)")) ?? "closed"
            XCTAssertNotEqual(target, "/etc/hostname", "helper \(pid) holds the daemon's descriptor \(leaked)")
        }
    }

    func testRefusalsCarryTheirReasons() throws {
        let helper = HelperDecoder(executable: try helperPath)
        defer { helper.shutdown() }
        let photo = try Images.synthesize(width: 800, height: 600)
        XCTAssertThrowsError(try helper.thumbnail(Array(photo.prefix(photo.count / 3)), size: 64, crop: false, limits: ImageLimits())) {
            e in
            guard case ImageError.unsupported(let m) = e else { return XCTFail("\(e)") }
            XCTAssertTrue(m.contains("cannot be decoded"), m)
        }
        let bomb = try PNGBomb.make(width: 15_000, height: 15_000)
        XCTAssertThrowsError(try helper.thumbnail(bomb, size: 256, crop: false, limits: ImageLimits())) { e in
            guard case ImageError.tooLarge(let m) = e else { return XCTFail("\(e)") }
            XCTAssertTrue(m.contains("15000×15000"), m)
        }
        XCTAssertThrowsError(try helper.inspect(photo, limits: ImageLimits(maxBytes: 100))) { e in
            guard case ImageError.tooLarge = e else { return XCTFail("\(e)") }
        }
        XCTAssertThrowsError(try helper.inspect(Array("<svg/>".utf8), limits: ImageLimits())) { e in
            guard case ImageError.unsupported(let m) = e else { return XCTFail("\(e)") }
            XCTAssertTrue(m.contains("not a JPEG"), m)
        }
        // After every refusal the same helper goes on.
        XCTAssertEqual(try helper.inspect(photo, limits: ImageLimits()).width, 800)
    }

    /// A decoder that dies or hangs fails that photo, not the caller, and is not used again.
    func testAHelperThatDiesOrHangsFailsOnlyItsPhoto() throws {
        let dir = NSTemporaryDirectory() + "helper-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        func script(_ name: String, _ body: String) throws -> String {
            let path = dir + "/" + name
            try ("#!/bin/sh\n" + body + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            chmod(path, 0o755)
            return path
        }
        let photo = try Images.synthesize(width: 64, height: 64)
        let dies = HelperDecoder(executable: try script("dies", "exit 3"))
        XCTAssertThrowsError(try dies.inspect(photo, limits: ImageLimits())) { e in
            guard case ImageError.unsupported(let m) = e else { return XCTFail("\(e)") }
            XCTAssertTrue(m.contains("stopped (exit status 3)"), m)
        }
        XCTAssertEqual(dies.idleCount, 0)
        let hangs = HelperDecoder(executable: try script("hangs", "exec sleep 30"), timeoutSeconds: 1)
        let start = Date()
        XCTAssertThrowsError(try hangs.thumbnail(photo, size: 32, crop: false, limits: ImageLimits())) { e in
            guard case ImageError.unsupported(let m) = e else { return XCTFail("\(e)") }
            XCTAssertTrue(m.contains("stopped (killed)"), m)
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 10)
        let missing = HelperDecoder(executable: dir + "/nothing-here")
        XCTAssertThrowsError(try missing.inspect(photo, limits: ImageLimits())) { e in
            guard case ImageError.unsupported(let m) = e else { return XCTFail("\(e)") }
            XCTAssertTrue(m.contains("cannot start the image decoder"), m)
        }
    }

    func testRequestsAtOnceEachGetAHelperAndIdleOnesStop() throws {
        let helper = HelperDecoder(executable: try helperPath, idleSeconds: 0.5)
        defer { helper.shutdown() }
        let photo = try Images.synthesize(width: 1200, height: 900)
        let sizes = [40, 80, 120, 160, 200, 240]
        let results = UnsafeMutableBufferPointer<Int>.allocate(capacity: sizes.count)
        defer { results.deallocate() }
        nonisolated(unsafe) let slots = results
        DispatchQueue.concurrentPerform(iterations: sizes.count) { i in
            slots[i] = (try? helper.thumbnail(photo, size: sizes[i], crop: false, limits: ImageLimits()))?.width ?? -1
        }
        XCTAssertEqual(Array(results), sizes)
        XCTAssertGreaterThanOrEqual(helper.idleCount, 1)
        XCTAssertGreaterThan(children(), 0)
        // Idle helpers stop on their own and are waited for: no child is left, not even a zombie.
        let deadline = Date().addingTimeInterval(5)
        while (helper.idleCount > 0 || children() > 0) && Date() < deadline { usleep(50_000) }
        XCTAssertEqual(helper.idleCount, 0)
        XCTAssertEqual(children(), 0)
        XCTAssertEqual(try helper.inspect(photo, limits: ImageLimits()).width, 1200, "a new helper starts when needed")
    }

    /// This process's children, running or zombie (from /proc).
    func children() -> Int { childPIDs().count }

    func childPIDs() -> [String] {
        let me = getpid()
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { name in
            guard Int32(name) != nil, let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && Int32(fields[1]) == me
        }
    }
}
