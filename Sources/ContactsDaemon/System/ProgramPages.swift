import Foundation
import Glibc

/// The pages of the program and its libraries that were only ever read (code, read-only data,
/// the tables the dynamic linker read at start) stay mapped, and so resident, for as long as
/// the process lives, though a daemon at rest runs none of them: some 8 MiB of a 100k store's
/// daemon after searches and an export. At rest they are unmapped (`MADV_DONTNEED`); the
/// kernel keeps them in its page cache, from where the next request maps back the few it runs
/// (docs/decisions.md has what that cost the first queries after a rest).
///
/// Only mappings of files that are private, never writable and hold no page of their own
/// (`Anonymous: 0` in smaps) are let go: for those, what is dropped is exactly what the file
/// holds. A mapping that was ever written (the data the dynamic linker relocated, then made
/// read-only) has anonymous pages and is left alone.
enum ProgramPages {
    /// Unmaps the clean file pages of read-only mappings; returns how many bytes were resident.
    @discardableResult
    static func release() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/smaps", encoding: .utf8) else { return 0 }
        var released = 0
        var candidate: (start: UInt, end: UInt)?
        var resident = 0
        var anonymous = 0
        func finish() {
            defer { candidate = nil }
            guard let c = candidate, anonymous == 0, resident > 0,
                let address = UnsafeMutableRawPointer(bitPattern: c.start)
            else { return }
            if madvise(address, Int(c.end - c.start), MADV_DONTNEED) == 0 { released += resident }
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if let first = line.first, first.isHexDigit, let mapping = Mapping(line) {
                finish()
                candidate = mapping.isCleanFile ? (mapping.start, mapping.end) : nil
                resident = 0
                anonymous = 0
            } else if candidate != nil {
                if line.hasPrefix("Rss:") {
                    resident = kibibytes(line)
                } else if line.hasPrefix("Anonymous:") {
                    anonymous = kibibytes(line)
                }
            }
        }
        finish()
        return released << 10
    }

    /// A mapping's header line: `START-END PERMS OFFSET DEV INODE PATH`.
    struct Mapping {
        var start: UInt
        var end: UInt
        var permissions: Substring
        var inode: Substring
        var path: Substring

        init?(_ line: Substring) {
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count >= 5 else { return nil }
            let range = fields[0].split(separator: "-")
            guard range.count == 2, let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16), end > start else {
                return nil
            }
            self.start = start
            self.end = end
            permissions = fields[1]
            inode = fields[4]
            path = fields.count > 5 ? fields[5].drop { $0 == " " } : ""
        }

        /// Readable, never writable, private, and backed by a file on disk (not the vDSO, a
        /// stack or the heap).
        var isCleanFile: Bool {
            permissions.count == 4 && permissions.hasPrefix("r") && !permissions.contains("w") && permissions.hasSuffix("p")
                && inode != "0" && path.hasPrefix("/")
        }
    }

    /// `Rss:    1234 kB` → 1234.
    private static func kibibytes(_ line: Substring) -> Int {
        Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }
}
