import JSONCore
import JSONRPC

/// `contacts.notDuplicates`: these contacts are different people.
public struct ContactsNotDuplicates: APIRequest {
    public static let method = "contacts.notDuplicates"
    public static let summary = "Remembers that these contacts are different people: contacts.duplicates proposes no pair of them again."
    public static let parameters = [RPCParam("ids", "Two or more contacts' ids.", schema: APISchema.stringArray, required: true)]
    public static let resultName = "empty"
    public static let resultSchema: JSONValue = ["type": "object"]
    public static let errors = [RPCError(.notFound, "No contact with that id")]

    public var ids: [String]

    public init(ids: [String]) { self.ids = ids }
    public init(_ p: RPCParams) throws(RPCError) { ids = try p.stringArray("ids") }
    public var params: JSONObject { ["ids": .array(ids.map { .string($0) })] }
}
