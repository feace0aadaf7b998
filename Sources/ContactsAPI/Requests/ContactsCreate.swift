import JSONCore
import JSONRPC

/// `contacts.create`: a new contact, in an account or on this machine alone.
public struct ContactsCreate: APIRequest {
    public static let about = APIMethod(
        "contacts.create",
        parameters: [
            RPCParam("contact", "The new contact.", schema: ContactShape.input, required: true),
            RPCParam("account", "The sync account it goes to; null for this machine alone.", schema: APISchema.nullableString),
        ], result: "contact", schema: ContactShape.contact,
        errors: [ContactShape.invalidData, RPCError(.conflict, "A contact with that uid exists"), RPCError(.notFound, "No such account")],
        summary:
            "Creates a contact. Groups it names are created as needed. It goes to the sync account named (null: this machine alone), else to defaultAccount of config.json when that account exists."
    )

    /// The contact in the API's shape (the daemon reads it as `Contact(creating:)` does).
    public var contact: JSONObject
    /// Where it goes; nil: where the configuration says.
    public var account: ContactFilter.Account?

    public init(contact: JSONObject, account: ContactFilter.Account? = nil) { (self.contact, self.account) = (contact, account) }

    public init(_ p: RPCParams) throws(RPCError) {
        contact = try p.objectValue("contact")
        account = try Self.account(p.object["account"], field: "account")
    }

    /// An account as a request names it: a name, or null for this machine alone.
    public static func account(_ v: JSONValue?, field: String) throws(RPCError) -> ContactFilter.Account? {
        guard let v else { return nil }
        if v.isNull { return .local }
        guard let name = v.stringValue else {
            throw .invalidParams("'\(field)' must be an account's name or null, not \(v.typeName)", field: field)
        }
        return .named(name)
    }

    public var params: JSONObject {
        var o: JSONObject = ["contact": .object(contact)]
        switch account {
        case .local: o["account"] = .null
        case .named(let name): o["account"] = .string(name)
        case nil: break
        }
        return o
    }
}
