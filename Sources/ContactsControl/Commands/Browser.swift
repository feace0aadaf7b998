import Foundation

/// Opens a page in the user's browser: `$BROWSER` (its first command, as the convention
/// lists several with `:`), else `xdg-open`; without either, nothing (the address is printed).
enum Browser {
    static func open(_ url: String) {
        let environment = ProcessInfo.processInfo.environment
        let command = environment["BROWSER"].flatMap { $0.split(separator: ":").first.map(String.init) } ?? "xdg-open"
        guard let program = find(command, path: environment["PATH"] ?? "/usr/bin:/bin") else { return }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: program)
        p.arguments = [url]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        // Not waited for: a browser may stay open for as long as it likes.
        try? p.run()
    }

    static func find(_ command: String, path: String) -> String? {
        if command.contains("/") { return FileManager.default.isExecutableFile(atPath: command) ? command : nil }
        return path.split(separator: ":").map { "\($0)/\(command)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
