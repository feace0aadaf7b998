import JSONCore
import JSONRPC

/// `contacts.purge`: deleted contacts gone for good.
public struct ContactsPurge: APIRequest {
    public static let about = APIMethod(
        "contacts.purge",
        parameters: [
            RPCParam("ids", "The deleted contacts' ids.", schema: APISchema.stringArray),
            RPCParam("all", "Empty the whole trash.", schema: APISchema.boolean),
        ], result: "purged", schema: ["type": "object", "required": ["purged"], "properties": ["purged": APISchema.integer]],
        summary:
            "Removes contacts from the trash for good: their content is overwritten in the database file and its log. Give ids, or all: true for the whole trash."
    )

    /// Which deleted contacts: these, or (nil) the whole trash.
    public var ids: [String]?

    public init(ids: [String]?) { self.ids = ids }

    public init(_ p: RPCParams) throws(RPCError) {
        let all = try p.optionalBool("all") ?? false
        guard all != p.has("ids") else { throw .invalidParams("give either 'ids' or 'all': true") }
        ids = all ? nil : try p.stringArray("ids")
    }

    public var params: JSONObject { ids.map { ["ids": .array($0.map { .string($0) })] } ?? ["all": true] }
}
