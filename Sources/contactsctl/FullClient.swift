import Glibc

/// The full client, `contactsctl-full`: beside this program (a build) or in
/// `../libexec/contactsd` from it (an installation), run in its place with the same arguments.
enum FullClient {
    static let name = "contactsctl-full"

    static func exec(_ arguments: [String]) -> Never {
        let dir = ownDirectory()
        let candidates = [dir + "/" + name, dir + "/../libexec/contactsd/" + name]
        let argv = arguments.map { strdup($0) } + [nil]
        for path in candidates where access(path, X_OK) == 0 {
            execv(path, argv)
        }
        let message =
            "contactsctl: \(name), which runs every command but query-email, is not installed "
            + "(looked for \(candidates.joined(separator: " and ")))\n"
        _ = StandardOutput.write(message, fd: 2)
        exit(127)
    }

    /// The directory of this program's file, links resolved.
    private static func ownDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return "." }
        let path = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        return String(path[..<slash])
    }
}
