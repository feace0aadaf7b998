import Foundation
import XCTest

/// A test case with a directory of its own for each test, made before it and removed after.
open class ScratchDirectoryTestCase: XCTestCase {
    /// The directory of the test under way.
    public var dir = ""

    /// What the directory's name begins with.
    open var scratchPrefix: String { "test" }

    override open func setUpWithError() throws {
        try super.setUpWithError()
        dir = NSTemporaryDirectory() + scratchPrefix + "-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override open func tearDown() {
        try? FileManager.default.removeItem(atPath: dir)
        super.tearDown()
    }
}
