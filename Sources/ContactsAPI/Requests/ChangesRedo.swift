import JSONCore
import JSONRPC

/// `changes.redo`: what the latest undo took back, done again.
public struct ChangesRedo: APIRequest {
    public static let about = APIMethod(
        "changes.redo", parameters: [RPCParam("force", "Redo even over later changes.", schema: APISchema.boolean)], result: "redone",
        schema: HistoryShape.reversal("redo"),
        errors: [RPCError(.conflict, "Nothing to redo, or a later operation changed the same contacts")],
        summary:
            "Does again what the latest undo that is not undone took back, by undoing that undo (an operation of its own); redo again goes further forward. Refused (-32002) when there is nothing to redo, or when a later operation changed the same contacts, unless force."
    )

    public var force: Bool

    public init(force: Bool = false) { self.force = force }
    public init(_ p: RPCParams) throws(RPCError) { force = try p.optionalBool("force") ?? false }
    public var params: JSONObject { force ? ["force": true] : [:] }
}
