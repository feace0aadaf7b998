import JSONCore
import JSONRPC

/// `views.close`: nothing more is sent for the view.
public struct ViewsClose: APIRequest {
    public static let about = APIMethod(
        "views.close", parameters: [viewParameter], result: "closed",
        schema: ["type": "object", "required": ["closed"], "properties": ["closed": APISchema.boolean]], errors: [unknownView],
        summary: "Closes a view: nothing more is sent for it.")

    /// The views a connection numbers.
    static let views = 0...Int(Int32.max)
    static let viewParameter = RPCParam("view", "A view this connection opened.", schema: APISchema.integer(views), required: true)
    static let unknownView = RPCError(.notFound, "No open view of that number on this connection")

    public var view: Int

    public init(view: Int) { self.view = view }

    public init(_ p: RPCParams) throws(RPCError) { view = try p.int("view", in: Self.views) }

    public var params: JSONObject { ["view": .int(view)] }
}
