import JSONCore
import JSONRPC

/// What the `contacts.*` requests share.
public enum ContactShape {
    public static let contact = APISchema.ref("Contact")
    public static let input = APISchema.ref("ContactInput")
    static let notFound = RPCError(.notFound, "No contact with that id")
    static let conflict = RPCError(.conflict, "The contact changed since the given revision")
    static let invalidData = RPCError(.invalidData, "A field value cannot be accepted")
    static let revisions = 0...Int(Int32.max)
    static let idParameter = RPCParam("id", "The contact's id.", schema: APISchema.string, required: true)
    static let ifRevisionParameter = RPCParam(
        "ifRevision", "Only change it if it is still at this revision.", schema: APISchema.integer(revisions))
}
