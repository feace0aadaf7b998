import JSONCore
import JSONRPC

/// The contact a change is made to: its id, and the revision the change holds to when one is
/// given (a contact that moved on since is refused with -32002 instead of overwritten).
public struct ContactTarget: Sendable, Equatable {
    public var id: String
    public var ifRevision: Int?

    public init(_ id: String, ifRevision: Int? = nil) { (self.id, self.ifRevision) = (id, ifRevision) }

    init(_ p: RPCParams) throws(RPCError) {
        id = try p.string("id")
        ifRevision = try p.optionalInt("ifRevision", in: ContactShape.revisions)
    }

    /// A request's params: the contact's id, its other members, and the revision when given.
    func params(_ members: KeyValuePairs<String, JSONValue?> = [:]) -> JSONObject {
        var o: JSONObject = ["id": .string(id)]
        for m in members { if let value = m.value { o[m.key] = value } }
        if let ifRevision { o["ifRevision"] = .int(ifRevision) }
        return o
    }
}
