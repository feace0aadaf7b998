import JSONCore
import JSONRPC

/// `daemon.status`: the daemon's version, counts, paths, uptime and memory.
public struct DaemonStatus: ParameterlessRequest {
    public static let about = APIMethod(
        "daemon.status", result: "status",
        schema: [
            "type": "object", "required": ["version", "contacts", "groups", "dataDir", "socket", "uptimeSeconds"],
            "properties": [
                "version": APISchema.string, "contacts": APISchema.integer, "groups": APISchema.integer, "dataDir": APISchema.string,
                "database": APISchema.string, "socket": APISchema.string, "inbox": APISchema.nullableString,
                "inboxProcessed": APISchema.integer, "uptimeSeconds": ["type": "number"], "pid": APISchema.integer,
                "connections": APISchema.integer, "subscribers": APISchema.integer, "views": APISchema.integer,
                "viewsFollowMicroseconds": APISchema.integer, "viewsFollowCPUMicroseconds": APISchema.integer, "logLevel": APISchema.string,
                "defaultRegion": APISchema.nullableString, "defaultRegionSource": APISchema.nullableString,
                "phonesAwaitingNumbers": APISchema.integer,
                "memory": [
                    "type": "object",
                    "description":
                        "Where the daemon's memory goes, in bytes: resident (peak), anonymous and file pages; the heap's allocated and resident bytes and its bookkeeping; the search index; SQLite; and how many contacts the read cache holds.",
                ],
            ],
        ],
        summary: "Reports the daemon's version, counts, paths and uptime.")

    public init() {}
}
