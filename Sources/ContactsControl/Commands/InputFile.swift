import ContactsSupport
import Glibc

/// A file a verb reads on the client's side (`photo set`, `--note-file`): a regular file, or
/// standard input for `-`. Its bytes travel in the request, so the daemon never opens a path
/// for a client.
enum InputFile {
    static func read(_ file: String) throws -> [UInt8] {
        if file == "-" { return try PhotoCommands.readAll(0, "standard input") }
        let fd: Int32
        do {
            fd = try retryingSyscall("open", detail: file) { open(file, O_RDONLY | O_CLOEXEC) }
        } catch {
            throw CommandFailure(error.description)
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { throw CommandFailure("\(file) is not a regular file") }
        return try PhotoCommands.readAll(fd, file)
    }
}
