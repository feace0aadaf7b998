import Foundation
import XCTest

/// The material beside the repository in `../shared` (the vCard corpus, the conformance
/// script): tests that need it skip with a message when it is absent, as in a clone on its
/// own, and fail instead when `CONTACTSD_REQUIRE_SHARED=1` says it must be there (CI).
public enum SharedMaterial {
    /// `../shared` as seen from the repository this file is in.
    public static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("shared")
    }

    /// The folder `relative` inside `../shared`, or a skip (a failure where it is required).
    public static func folder(_ relative: String) throws -> URL {
        let url = root.appendingPathComponent(relative)
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue { return url }
        try missing(url.path)
    }

    /// The file `relative` inside `../shared`, or a skip (a failure where it is required).
    public static func file(_ relative: String) throws -> URL {
        let url = root.appendingPathComponent(relative)
        if FileManager.default.isReadableFile(atPath: url.path) { return url }
        try missing(url.path)
    }

    private static func missing(_ path: String) throws -> Never {
        if ProcessInfo.processInfo.environment["CONTACTSD_REQUIRE_SHARED"] == "1" {
            struct Missing: Error, CustomStringConvertible { var description: String }
            throw Missing(description: "\(path) is required (CONTACTSD_REQUIRE_SHARED=1) but not present")
        }
        throw XCTSkip("\(path) is not present (the repository is on its own); skipped")
    }
}
