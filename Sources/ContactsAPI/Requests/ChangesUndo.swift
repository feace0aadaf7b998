import JSONCore
import JSONRPC

/// `changes.undo`: an operation taken back as a whole.
public struct ChangesUndo: APIRequest {
    public static let about = APIMethod(
        "changes.undo",
        parameters: [
            RPCParam("operation", "The operation's id, from changes.list.", schema: APISchema.integer(operations)),
            RPCParam("force", "Undo even over later changes.", schema: APISchema.boolean),
        ], result: "undone", schema: HistoryShape.reversal("undo"),
        errors: [RPCError(.notFound, "No such operation"), RPCError(.conflict, "A later operation changed the same contacts")],
        summary:
            "Undoes a whole operation in one transaction, itself an operation: the one given, or the latest that is neither undone nor an undo (so that undo again steps back). Refused (-32002) when the operation is undone already, or when a later one changed the same contacts (but for operations undone since), unless force."
    )
    static let operations = 1...Int(Int32.max)

    /// Nil: the latest that is neither undone nor an undo.
    public var operation: Int64?
    public var force: Bool

    public init(operation: Int64? = nil, force: Bool = false) { (self.operation, self.force) = (operation, force) }

    public init(_ p: RPCParams) throws(RPCError) {
        operation = try p.optionalInt("operation", in: Self.operations).map(Int64.init)
        force = try p.optionalBool("force") ?? false
    }

    public var params: JSONObject { .present(["operation": operation.map { .int(Int($0)) }, "force": force ? true : nil]) }
}
