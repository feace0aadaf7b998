import Foundation
import XCTest

/// A terminal program driven as a person drives it: run in a tmux server of its own (160×40),
/// keys sent, the screen read.
final class TerminalSession {
    let tmux: String
    let socket: String
    let environment: [String: String]

    /// Starts `command` (through Python, with no signal blocked: a child of the test process
    /// inherits the signals its threads block, and a tmux server started so never answers its
    /// client; its output nowhere, as the server lives on).
    init(tmux: String, socket: String, environment: [String: String], command: String) throws {
        (self.tmux, self.socket, self.environment) = (tmux, socket, environment)
        let script = """
            import signal, subprocess, sys
            signal.pthread_sigmask(signal.SIG_SETMASK, [])
            sys.exit(subprocess.call(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=20))
            """
        let r = try runProgram(
            "/usr/bin/python3", ["-c", script, tmux, "-S", socket, "new-session", "-d", "-x", "160", "-y", "40", command],
            environment: environment)
        guard r.status == 0 else { throw XCTSkip("tmux cannot start a session here: \(r.stderr)") }
    }

    private func run(_ args: [String]) throws -> String { try runProgram(tmux, ["-S", socket] + args, environment: environment).stdout }

    /// Types keys (tmux's names: `Enter`, `C-t`, or text).
    func send(_ keys: String...) throws { _ = try run(["send-keys"] + keys) }

    /// The screen once it shows `text` (or after ten seconds, as it is then).
    func screen(until text: String) throws -> String {
        let deadline = Date().addingTimeInterval(10)
        var shown = ""
        while Date() < deadline {
            shown = try run(["capture-pane", "-p"])
            if shown.contains(text) { break }
            usleep(100_000)
        }
        return shown
    }

    func stop() { _ = try? run(["kill-server"]) }
}
