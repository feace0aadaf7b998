import JSONCore
import JSONRPC

/// `serve.devices.add`: a device allowed in, with a password made for it.
public struct ServeDevicesAdd: APIRequest {
    public static let about = APIMethod(
        "serve.devices.add",
        parameters: [
            RPCParam(
                "name", "The device's name, also its user name: letters, digits, '.', '-', '_'.", schema: APISchema.string, required: true),
            RPCParam("readOnly", "It may read, not change.", schema: APISchema.boolean),
            RPCParam("books", "The books it sees (local, or accounts' names); default all.", schema: APISchema.stringArray),
        ], result: "device", schema: ServeShape.credentials,
        errors: [
            RPCError(.invalidParams, "Not a device name"), RPCError(.conflict, "A device of that name exists"),
            RPCError(.notFound, "No such book"),
        ],
        summary:
            "Adds a device the LAN face lets in, with a password made for it (at least 128 bits, from the kernel's random source), returned this once: only its hash is kept."
    )

    public var name: String
    public var readOnly: Bool
    public var books: [String]

    public init(name: String, readOnly: Bool = false, books: [String] = []) {
        (self.name, self.readOnly, self.books) = (name, readOnly, books)
    }

    public init(_ p: RPCParams) throws(RPCError) {
        name = try p.string("name")
        readOnly = try p.optionalBool("readOnly") ?? false
        books = p.has("books") ? try p.stringArray("books") : []
    }

    public var params: JSONObject {
        .present([
            "name": .string(name), "readOnly": readOnly ? true : nil, "books": books.isEmpty ? nil : .array(books.map { .string($0) }),
        ])
    }
}
