import ContactsAPI
import ContactsCore
import ContactsStore
import ContactsSupport
import JSONCore
import JSONRPC
import Thumbnails

/// Turns store and model errors into JSON-RPC errors, in one place.
enum ErrorMapping {
    static func rpcError(_ error: any Error) -> RPCError {
        switch error {
        case let e as RPCError: return e
        case let e as ContactError: return rpcError(e)
        case let e as ImageError: return PhotoService.rpcError(e)
        case let e as SystemError: return RPCError(.unavailable, e.isDiskFull ? "the disk is full: \(e)" : e.description)
        case let e as StoreError:
            switch e {
            case .notFound(_, let id):
                // The store's words ("no group named 'Family'" for a name), capitalised.
                let words = e.description
                return RPCError(.notFound, words.prefix(1).uppercased() + words.dropFirst(), data: ["id": .string(id)])
            case .conflict(let message, let id, let revision):
                var data = JSONObject()
                if let id { data["id"] = .string(id) }
                if let revision { data["revision"] = .int(revision) }
                return RPCError(.conflict, message, data: data.isEmpty ? nil : .object(data))
            case .changedSince(let message, let ids):
                return RPCError(.conflict, message, data: ["ids": .array(ids.map(JSONValue.string))])
            case .sameUID(_, _, let id): return RPCError(.conflict, e.description, data: ["id": .string(id)])
            case .invalid(let c): return rpcError(c)
            case .unavailable(let m): return RPCError(.unavailable, m)
            case .cancelled: return RPCError(.unavailable, "Interrupted: contactsd is stopping; nothing was changed")
            case .database(let d):
                return RPCError(.internalError, "Internal error: the store failed: \(d.message)", data: ["sqliteCode": .int(Int(d.code))])
            }
        default:
            return .internalError(String(describing: error))
        }
    }

    static func rpcError(_ e: ContactError) -> RPCError {
        let data: JSONValue = ["field": .string(e.field)]
        switch e.kind {
        case .invalidParams: return RPCError(.invalidParams, "Invalid params: \(e.field) \(e.message)", data: data)
        case .invalidData: return RPCError(.invalidData, "Invalid data: \(e.field): \(e.message)", data: data)
        }
    }
}
