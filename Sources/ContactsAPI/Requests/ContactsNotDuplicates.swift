import JSONCore
import JSONRPC

/// `contacts.notDuplicates`: these contacts are different people.
public struct ContactsNotDuplicates: APIRequest {
    public static let about = APIMethod(
        "contacts.notDuplicates", "Remembers that these contacts are different people: contacts.duplicates proposes no pair of them again.",
        parameters: [RPCParam("ids", "Two or more contacts' ids.", schema: APISchema.stringArray, required: true)], result: "empty",
        schema: ["type": "object"], errors: [RPCError(.notFound, "No contact with that id")])

    public var ids: [String]

    public init(ids: [String]) { self.ids = ids }
    public init(_ p: RPCParams) throws(RPCError) { ids = try p.stringArray("ids") }
    public var params: JSONObject { ["ids": .array(ids.map { .string($0) })] }
}
