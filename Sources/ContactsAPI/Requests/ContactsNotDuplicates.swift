import JSONCore
import JSONRPC

/// `contacts.notDuplicates`: these contacts are different people.
public struct ContactsNotDuplicates: ContactIDsRequest {
    public static let about = APIMethod(
        "contacts.notDuplicates",
        parameters: [RPCParam("ids", "Two or more contacts' ids.", schema: APISchema.stringArray, required: true)], result: "empty",
        schema: ["type": "object"], errors: [RPCError(.notFound, "No contact with that id")],
        summary: "Remembers that these contacts are different people: contacts.duplicates proposes no pair of them again.")

    public var ids: [String]

    public init(ids: [String]) { self.ids = ids }
}
