import ContactsAPI
import ContactsStore
import Foundation
import Glibc
import JSONCore
import JSONRPC

/// The methods about the daemon itself: its status, and change notifications.
extension Daemon {
    func daemonMethods(store: ContactStore) -> [RPCMethod] {
        [
            RPCMethod(DaemonStatus.self) { [self] _, _ in
                let counts = try store.counts()
                let current = currentSettings
                return [
                    "version": .string(ContactsAPI.version), "contacts": .int(counts.contacts), "groups": .int(counts.groups),
                    "dataDir": .string(dataDirectory), "database": .string(databasePath), "socket": .string(socketPath),
                    "inbox": .string(inboxPath), "inboxProcessed": .int(inbox?.progress.count ?? 0),
                    "uptimeSeconds": .double((Date().timeIntervalSince(startedAt) * 1000).rounded() / 1000),
                    "pid": .int(Int(getpid())), "connections": .int(server?.connectionCount ?? 0),
                    "subscribers": .int(bus.subscriberCount), "views": .int(store.liveQueryCount),
                    "viewsFollowMicroseconds": .int(store.liveQueryMicroseconds),
                    "viewsFollowCPUMicroseconds": .int(store.liveQueryCPUMicroseconds),
                    "logLevel": .string(log.level.word),
                    "defaultRegion": current.defaultRegion.map { .string($0) } ?? .null,
                    "defaultRegionSource": current.regionSource.map { .string($0) } ?? .null,
                    "phonesAwaitingNumbers": .int(try store.phonesWaitingForKeys()),
                    "memory": Self.memoryReport(store),
                ]
            },
            RPCMethod(EventsSubscribe.self) { [bus] _, call in
                guard let session = call.session else { throw RPCError.invalidRequest("events need a connection") }
                bus.subscribe(session)
                return ["subscribed": true]
            },
        ]
    }

    /// `daemon.status`'s `memory`: where the resident bytes go.
    static func memoryReport(_ store: ContactStore) -> JSONValue {
        let process = Memory.process()
        let held = store.memory()
        var report: JSONObject = [
            "resident": .int(process.resident), "peak": .int(process.peak), "anonymous": .int(process.anonymous),
            "files": .int(process.files), "searchIndex": .int(held.searchIndexBytes), "sqlite": .int(held.sqliteBytes),
            "cachedContacts": .int(held.cachedContacts),
        ]
        if let heap = Memory.heap() {
            report["heapAllocated"] = .int(heap.allocated)
            report["heapResident"] = .int(heap.resident)
            report["heapMetadata"] = .int(heap.metadata)
        }
        return .object(report)
    }
}
