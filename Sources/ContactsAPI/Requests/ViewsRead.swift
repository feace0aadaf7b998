import JSONCore
import JSONRPC

/// `views.read`: a view's window as it is now.
public struct ViewsRead: APIRequest {
    public static let method = "views.read"
    public static let summary = "The view's window as it is now (after a view.reset): later view.changed follow from its state."
    public static let parameters = [ViewsClose.viewParameter]
    public static let resultName = ViewsOpen.resultName
    public static let resultSchema = ViewsOpen.resultSchema
    public static let errors = [ViewsClose.unknownView]

    public var view: Int

    public init(view: Int) { self.view = view }

    public init(_ p: RPCParams) throws(RPCError) { view = try p.int("view", in: ViewsClose.views) }

    public var params: JSONObject { ["view": .int(view)] }
}
