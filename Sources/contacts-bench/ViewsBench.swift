import ContactsCore
import ContactsSupport
import Foundation
import Glibc
import JSONCore
import JSONRPC

/// Live views on a real contactsd holding the corpus: 100 views open (searches, windows of
/// the list at several places, favorites, the latest changed), a one-contact edit at a time
/// with and without them (how much slower, and how long after the edit's answer the last of
/// its notifications arrives), the whole corpus imported with 10 views open and without (how
/// much slower, how many notifications each view got per commit), and what an open view costs
/// the daemon's heap.
enum ViewsBench {
    /// Notifications as they arrive on connections that only read, with their arrival times.
    final class Listener: @unchecked Sendable {
        struct Heard {
            var view: Int
            var to: String
            var at: Double
            var method: String
        }

        /// What was heard, and the connections read.
        private let state = Locked((heard: [Heard](), descriptors: [Int32]()))
        private var threads: [Thread] = []

        /// Starts reading `client` (whose views are open) on a thread of its own.
        func listen(_ client: RPCClient) {
            /// The client is read by that thread alone from now on.
            final class Handed: @unchecked Sendable {
                let client: RPCClient
                init(_ client: RPCClient) { self.client = client }
            }
            let handed = Handed(client)
            let t = Thread { [self] in
                while let m = try? handed.client.readMessage() {
                    let p = m["params"] ?? .null
                    let h = Heard(
                        view: p["view"]?.intValue ?? -1, to: p["to"]?.stringValue ?? p["state"]?.stringValue ?? "", at: now(),
                        method: m["method"]?.stringValue ?? "")
                    state.withLock { $0.heard.append(h) }
                }
            }
            t.start()
            threads.append(t)
            state.withLock { $0.descriptors.append(client.descriptor) }
        }

        /// Closes the connections it reads (their views close with them).
        func stop() {
            state.withLock { for fd in $0.descriptors { Glibc.shutdown(fd, Int32(SHUT_RDWR)) } }
        }

        func take() -> [Heard] {
            state.withLock { s in
                defer { s.heard.removeAll() }
                return s.heard
            }
        }
    }

    static func measure(_ contacts: [Contact], scratch dir: String) throws -> Report {
        var out = Report()
        let file = dir + "/views-corpus.vcf"
        try vCard3(contacts).write(toFile: file, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }

        // The import with 10 views open, and with none (a fresh daemon each).
        // Each twice, in turns, the best of each: the first import of a run warms the machine.
        var bare = try importSeconds(file, count: contacts.count, views: 0, scratch: dir + "/views-bare")
        var watched = try importSeconds(file, count: contacts.count, views: 10, scratch: dir + "/views-watched")
        let bare2 = try importSeconds(file, count: contacts.count, views: 0, scratch: dir + "/views-bare")
        let watched2 = try importSeconds(file, count: contacts.count, views: 10, scratch: dir + "/views-watched")
        if bare2.seconds < bare.seconds { bare = bare2 }
        if watched2.seconds < watched.seconds {
            let most = max(watched.mostPerViewPerCommit, watched2.mostPerViewPerCommit)
            watched = watched2
            watched.mostPerViewPerCommit = most
        }
        out.row(
            "views: import of \(contacts.count) (contacts.import), none open / 10 open",
            String(format: "%.2f s / %.2f s (%+.1f%%)", bare.seconds, watched.seconds, (watched.seconds / bare.seconds - 1) * 100))
        out.row(
            "views: notifications per view per commit during that import (most)",
            "\(watched.mostPerViewPerCommit) (\(watched.notifications) in all, \(watched.commits) commits)")
        out.figures["viewsImportBareSeconds"] = bare.seconds
        out.figures["viewsImportWatchedSeconds"] = watched.seconds
        out.figures["viewsNotificationsPerViewPerCommit"] = Double(watched.mostPerViewPerCommit)

        // Edits on the full store.
        let daemon = try DaemonRun(home: dir + "/views")
        defer { daemon.stop() }
        let c = try RPCClient(path: daemon.socket)
        _ = try c.call("contacts.import", ["path": .string(file)])
        let ids = (try c.call("contacts.query", ["fields": ["id"]]))["contacts"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
        var rng = SystemRandomNumberGenerator()
        // BENCH_VIEWS_EDITS=N: more edits, for a profiler to watch (the daemon's pid is printed).
        let edits = Int(ProcessInfo.processInfo.environment["BENCH_VIEWS_EDITS"] ?? "") ?? 120
        func edit(_ k: Int) throws -> Double {
            let id = ids[Int.random(in: 0..<ids.count, using: &rng)]
            let started = now()
            if k % 2 == 0 {
                _ = try c.call("contacts.setFavorite", ["id": .string(id), "favorite": .bool(k % 4 == 0)])
            } else {
                _ = try c.call("contacts.update", ["id": .string(id), "changes": ["name": .string(Self.names[k % Self.names.count])]])
            }
            return (now() - started) * 1000
        }
        for k in 0..<10 { _ = try edit(k) }  // warm
        // Edits a twentieth of a second apart, in turns without views and with 100 open (on 10
        // connections that only read): the same machine, the same pace, twice each.
        var alone: [Double] = [], withViews: [Double] = [], latencies: [Double] = [], heardPerEdit: [Int] = []
        var followMicros = 0, followCPUMicros = 0
        for round in 0..<2 {
            for k in 0..<(edits / 2) {
                alone.append(try edit(k))
                usleep(60_000)
            }
            let listener = Listener()
            for k in 0..<10 {
                let client = try RPCClient(path: daemon.socket)
                for v in 0..<10 { _ = try client.call("views.open", Self.view(k * 10 + v)) }
                listener.listen(client)
            }
            usleep(300_000)
            _ = listener.take()
            if edits > 120 && round == 0 {
                FileHandle.standardError.write(
                    Data("editing with 100 views open: contactsd pid \(daemon.process.processIdentifier)\n".utf8))
            }
            let statusBefore = try c.call("daemon.status")
            let followedBefore = statusBefore["viewsFollowMicroseconds"]?.intValue ?? 0
            let followedCPUBefore = statusBefore["viewsFollowCPUMicroseconds"]?.intValue ?? 0
            for k in 0..<(edits / 2) {
                withViews.append(try edit(k))
                let answered = now()
                usleep(60_000)
                let heard = listener.take()
                heardPerEdit.append(heard.count)
                if let last = heard.map(\.at).max() { latencies.append(max(0, last - answered) * 1000) }
            }
            let statusAfter = try c.call("daemon.status")
            followMicros += (statusAfter["viewsFollowMicroseconds"]?.intValue ?? 0) - followedBefore
            followCPUMicros += (statusAfter["viewsFollowCPUMicroseconds"]?.intValue ?? 0) - followedCPUBefore
            listener.stop()
            usleep(300_000)
        }
        alone.sort()
        withViews.sort()
        latencies.sort()
        let (p50a, p50v) = (percentile(alone, 0.5), percentile(withViews, 0.5))
        out.row(
            "views: one-contact edit p50, no view / 100 open",
            String(format: "%.2f ms / %.2f ms (%+.1f%%)", p50a, p50v, (p50v / p50a - 1) * 100))
        out.row(
            "views: last notification after the edit's answer, p50 / p99 / max",
            String(
                format: "%.2f / %.2f / %.2f ms (%.0f views told per edit)", percentile(latencies, 0.5), percentile(latencies, 0.99),
                latencies.last ?? 0, Double(heardPerEdit.reduce(0, +)) / Double(max(1, heardPerEdit.count))))
        let followMs = Double(followMicros) / 1000 / Double(max(1, withViews.count))
        let followCPUMs = Double(followCPUMicros) / 1000 / Double(max(1, withViews.count))
        out.row(
            "views: of an edit, the time the commit spent bringing the 100 views up to date (mean)",
            String(format: "%.3f ms, %.3f ms of CPU (%.1f%% of the edit alone)", followMs, followCPUMs, followMs / p50a * 100))
        out.figures["viewsFollowCPUMsPerEdit"] = followCPUMs
        out.figures["viewsFollowMsPerEdit"] = followMs
        out.figures["viewsEditAloneMs"] = p50a
        out.figures["viewsEditWithViewsMs"] = p50v
        out.figures["viewsNotificationP99Ms"] = percentile(latencies, 0.99)

        // What a view costs: 1000 more windows of 20, on one connection, in the daemon's heap.
        usleep(300_000)
        let heapBefore = try heap(c)
        let opener = try RPCClient(path: daemon.socket)
        for k in 0..<1000 {
            _ = try opener.call(
                "views.open", ["query": ["text": .string(Self.texts[k % Self.texts.count])], "window": ["offset": .int(k), "limit": 20]])
        }
        let heapAfter = try heap(opener)
        // And 1000 whose windows are empty: what a view costs before its window.
        let empty = try RPCClient(path: daemon.socket)
        for k in 0..<1000 { _ = try empty.call("views.open", ["query": ["text": .string("qqxqqx\(k)")], "window": ["limit": 20]]) }
        let heapEmpty = try heap(empty)
        let perView = Double(heapAfter - heapBefore) / 1000
        let fixed = Double(heapEmpty - heapAfter) / 1000
        out.row(
            "views: heap per open view: its own / each window member (1000 of each)",
            String(format: "%.0f bytes / %.0f bytes (%.0f for a window of 20)", fixed, (perView - fixed) / 20, perView))
        out.figures["viewsHeapBytesPerView"] = fixed
        out.figures["viewsHeapBytesPerMember"] = (perView - fixed) / 20
        return out
    }

    /// The store's state now (a view's answer tells it).
    static func state(_ c: RPCClient) throws -> Int {
        let answer = try c.call("views.open", ["query": ["text": "qqxqqxqq"]])
        _ = try c.call("views.close", ["view": answer["view"] ?? .null])
        return Int(answer["state"]?.stringValue ?? "") ?? 0
    }

    static func heap(_ c: RPCClient) throws -> Int {
        (try c.call("daemon.status"))["memory"]?["heapAllocated"]?.intValue ?? 0
    }

    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
    }

    static let names = ["Aaron Abbott", "Maria Garcia", "Zoë Zimmermann", "Li Wei", "Olga Petrova", "Kate Bell", "Hans Müller"]
    static let texts = ["smith", "garcia", "an", "maria", "li", "müller", "@work", "555", "kow", "jo", "山田", "ch"]

    /// The k-th of 100 views: searches (whole), windows of the list at several places, the
    /// favorites, and the latest changed.
    static func view(_ k: Int) -> JSONObject {
        switch k % 5 {
        case 0:
            return [
                "query": ["text": .string(texts[k % texts.count] + (k >= 50 ? "e" : ""))],
                "fields": ["name", "emails", "phones", "favorite"],
            ]
        case 1: return ["window": ["offset": .int(k * 500), "limit": 50]]
        case 2: return ["query": ["text": .string(texts[(k / 5) % texts.count])], "window": ["offset": 0, "limit": 40]]
        case 3: return ["query": ["favoritesOnly": true], "window": ["offset": .int(k), "limit": 100]]
        default: return ["sort": [["field": "updatedAt", "order": "desc"]], "window": ["limit": 20]]
        }
    }

    /// The corpus imported into a fresh daemon with `views` views open on a reading connection.
    static func importSeconds(_ file: String, count: Int, views: Int, scratch: String) throws -> (
        seconds: Double, notifications: Int, commits: Int, mostPerViewPerCommit: Int
    ) {
        let daemon = try DaemonRun(home: scratch)
        defer {
            daemon.stop()
            try? FileManager.default.removeItem(atPath: scratch)
        }
        let listener = Listener()
        if views > 0 {
            let client = try RPCClient(path: daemon.socket)
            for v in 0..<views { _ = try client.call("views.open", Self.view(v * 10 + v % 5)) }
            listener.listen(client)
        }
        let c = try RPCClient(path: daemon.socket)
        let before = try state(c)
        let started = now()
        let report = try c.call("contacts.import", ["path": .string(file)])
        let seconds = now() - started
        guard report["created"]?.intValue == count else {
            throw NSError(domain: "bench", code: 4, userInfo: [NSLocalizedDescriptionKey: "views import created \(report)"])
        }
        usleep(500_000)
        let heard = listener.take()
        let after = try state(c)
        var perViewCommit: [String: Int] = [:]
        for h in heard { perViewCommit["\(h.view) \(h.to)", default: 0] += 1 }
        let commits = max(1, after - before)
        return (seconds, heard.count, commits, perViewCommit.values.max() ?? 0)
    }
}
