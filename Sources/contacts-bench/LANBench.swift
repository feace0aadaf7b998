import CardDAV
import ContactsSupport
import Foundation
import JSONCore
import JSONRPC

/// The LAN face of a real contactsd, over TLS on 127.0.0.1 as devices reach it on the network:
/// a no-op sync-collection on a kept-alive connection beside the same on the loopback face,
/// vdirsyncer's first sync pinning the certificate beside Radicale serving TLS with the same
/// kind of certificate, 20 devices syncing at once, and memory at rest with it on and off.
enum LANBench {
    /// A device of the daemon's: its name, password and the certificate to trust.
    struct Device {
        var name: String
        var password: String
        var fingerprint: String
    }

    static func addDevice(_ name: String, _ daemon: DaemonRun) throws -> Device {
        let r = try RPCClient(path: daemon.socket).call("serve.devices.add", ["name": .string(name)])
        return Device(name: name, password: r["password"]?.stringValue ?? "", fingerprint: r["fingerprint"]?.stringValue ?? "")
    }

    static func certificate(_ daemon: DaemonRun) -> String { daemon.home + "/data/lan/certificate.pem" }

    /// At the book's first size: one kept-alive no-op over TLS (against `loopbackNoOpMs`), and
    /// vdirsyncer's first sync from each server over TLS.
    static func measure(
        _ daemon: DaemonRun, port: Int, cards: String, count: Int, loopbackNoOpMs: Double, scratch dir: String, into out: inout Report
    ) throws {
        guard let book = URL(string: "https://127.0.0.1:\(port)/books/local/") else { return }
        let device = try addDevice("bench", daemon)
        let http = HTTPClient(credentials: .basic(user: device.name, password: device.password), for: book, caFile: certificate(daemon))
        let tls = try ServeBench.noOpSync(http, book)
        out.row(
            "LAN: sync-collection with nothing changed over kept-alive TLS / on loopback, \(count) cards (p50 of 20)",
            String(format: "%.2f / %.2f ms (+%.2f ms)", tls, loopbackNoOpMs, tls - loopbackNoOpMs))
        out.figures["lanNoOpSyncMs"] = tls
        out.figures["lanOverLoopbackMs"] = tls - loopbackNoOpMs
        guard Vdirsyncer.isInstalled else { return }
        let account = Vdirsyncer.Account(username: device.name, password: device.password, fingerprint: device.fingerprint)
        var mine: Double?
        var peer: Double?
        if RadicaleRun.isInstalled {
            let radicale = try RadicaleRun(storage: dir + "/lan-radicale", tls: dir + "/lan-radicale-tls")
            defer { radicale.stop() }
            let url = try radicale.book("contacts", cards: cards)
            let pinned = Vdirsyncer.Account(username: "bench", password: "x", fingerprint: radicale.fingerprint)
            // Taken in turns, so that a noisy moment of the machine falls on both alike.
            var ours: [Double] = []
            var theirs: [Double] = []
            for _ in 0..<3 {
                if let t = try Vdirsyncer.firstSync(of: book, scratch: dir, account: account) { ours.append(t) }
                if let t = try Vdirsyncer.firstSync(of: url, scratch: dir, account: pinned) { theirs.append(t) }
            }
            (mine, peer) = (ours.min(), theirs.min())
        } else {
            mine = try (0..<3).compactMap { _ in try Vdirsyncer.firstSync(of: book, scratch: dir, account: account) }.min()
        }
        func seconds(_ v: Double?) -> String { v.map { String(format: "%.2f s", $0) } ?? "n/a" }
        let ratio = (mine != nil && peer != nil) ? String(format: " (%.1fx)", (peer ?? 0) / max(mine ?? 1, 0.001)) : ""
        out.row(
            "LAN: vdirsyncer's first sync of \(count) cards over TLS: from contactsd / from Radicale (best of 3, in turns)",
            "\(seconds(mine)) / \(seconds(peer))\(ratio)")
        if let mine { out.figures["lanVdirsyncerFromContactsdSeconds"] = mine }
        if let peer { out.figures["lanVdirsyncerFromRadicaleSeconds"] = peer }
    }

    /// 20 devices, each on a kept-alive TLS connection of its own, doing no-op syncs at once.
    static func devicesAtOnce(_ daemon: DaemonRun, port: Int, count: Int, into out: inout Report) throws {
        guard let book = URL(string: "https://127.0.0.1:\(port)/books/local/") else { return }
        let devices = try (0..<20).map { try addDevice("device\($0)", daemon) }
        let times = Locked<[Double]>([])
        let failures = Locked<[String]>([])
        let ca = certificate(daemon)
        DispatchQueue.concurrentPerform(iterations: devices.count) { i in
            let http = HTTPClient(credentials: .basic(user: devices[i].name, password: devices[i].password), for: book, caFile: ca)
            do {
                let mine = try ServeBench.noOpSyncTimes(http, book, requests: 30)
                times.withLock { $0 += mine }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        if let failure = failures.withLock({ $0.first }) {
            throw NSError(domain: "bench", code: 8, userInfo: [NSLocalizedDescriptionKey: "a device's sync failed: \(failure)"])
        }
        let sorted = times.withLock { $0 }.sorted()
        guard !sorted.isEmpty else { return }
        let p50 = sorted[sorted.count / 2]
        let p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
        out.row(
            "LAN: 20 devices' no-op sync-collection at once over kept-alive TLS, \(count) cards (\(sorted.count) requests)",
            String(format: "p50 %.2f ms, p99 %.2f ms", p50, p99))
        out.figures["lanDevicesNoOpP50Ms"] = p50
        out.figures["lanDevicesNoOpP99Ms"] = p99
    }

    /// The daemon's resident memory at rest after a restart with the LAN face off, then on
    /// (its certificate made already, no device connected).
    static func memoryAtRest(home: String, loopbackPort: Int, lanPort: Int, into out: inout Report) throws {
        func atRest(_ config: String) throws -> Double {
            let daemon = try DaemonRun(home: home, config: config)
            defer { daemon.stop() }
            _ = try RPCClient(path: daemon.socket).call("contacts.query", ["limit": 10])
            usleep(3_000_000)
            return ServiceBench.rssMiB(daemon.process.processIdentifier)
        }
        let loopback = #""listen": "127.0.0.1:\#(loopbackPort)""#
        let off = try atRest(#"{"carddav": {\#(loopback)}}"#)
        let on = try atRest(#"{"carddav": {\#(loopback), "lan": {"listen": "127.0.0.1:\#(lanPort)"}}}"#)
        out.row(
            "LAN: daemon RSS at rest, LAN face off / on with no device connected",
            String(format: "%.1f / %.1f MiB (+%.1f)", off, on, on - off))
        out.figures["lanRSSOffMiB"] = off
        out.figures["lanRSSOnMiB"] = on
    }
}
