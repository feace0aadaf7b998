import JSONCore
import JSONRPC

/// `views.read`: a view's window as it is now.
public struct ViewsRead: APIRequest {
    public static let about = APIMethod(
        "views.read", parameters: [ViewsClose.viewParameter], result: ViewsOpen.resultName, schema: ViewsOpen.resultSchema,
        errors: [ViewsClose.unknownView],
        summary: "The view's window as it is now (after a view.reset): later view.changed follow from its state.")

    public var view: Int

    public init(view: Int) { self.view = view }

    public init(_ p: RPCParams) throws(RPCError) { view = try p.int("view", in: ViewsClose.views) }

    public var params: JSONObject { ["view": .int(view)] }
}
