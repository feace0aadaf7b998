import ContactsSupport
import Foundation

/// The LAN face announced on the local network by DNS-SD (`_carddavs._tcp`, RFC 6764, with
/// `path=/` where discovery starts), through Avahi's `avahi-publish`, as long as it listens:
/// only when Avahi is there and answers; nothing depends on it (devices are given the URL).
final class ServiceAnnouncement: @unchecked Sendable {
    private let log: Logger
    private let publisher = Locked<Process?>(nil)

    static let tool = ["/usr/bin/avahi-publish", "/bin/avahi-publish"].first { FileManager.default.isExecutableFile(atPath: $0) }

    init(log: Logger) { self.log = log }

    /// Announces `name` at `port`, replacing an earlier announcement; without Avahi, says so at
    /// debug level and does nothing.
    func announce(name: String, port: UInt16) {
        withdraw()
        guard let tool = Self.tool else {
            log.debug("the LAN face is not announced by DNS-SD: avahi-publish is not installed")
            return
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = ["-s", name, "_carddavs._tcp", String(port), "path=/"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        p.terminationHandler = { [log, publisher] process in
            // Withdrawn (it is no longer the publisher), or Avahi is not running or went away.
            guard publisher.withLock({ $0 === process }) else { return }
            log.info(
                "the LAN face is not announced by DNS-SD: avahi-publish stopped (status \(process.terminationStatus); is avahi-daemon running?)"
            )
        }
        do {
            try p.run()
            publisher.withLock { $0 = p }
            log.info("announcing '\(name)' on the local network (_carddavs._tcp, port \(port))")
        } catch {
            log.info("the LAN face is not announced by DNS-SD: \(error)")
        }
    }

    /// Takes the announcement back (Avahi says goodbye on the network).
    func withdraw() {
        guard
            let p = publisher.withLock({ current -> Process? in
                defer { current = nil }; return current
            })
        else { return }
        if p.isRunning {
            p.terminate()
            p.waitUntilExit()
        }
    }
}
