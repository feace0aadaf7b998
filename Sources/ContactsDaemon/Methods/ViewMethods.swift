import ContactsAPI
import ContactsCore
import ContactsStore
import JSONCore
import JSONRPC

/// Live views: a query kept open whose changes come to the connection (`LiveViews`).
enum ViewMethods {
    static func all(views: LiveViews) -> [RPCMethod] {
        [
            RPCMethod(ViewsOpen.self) { request, call in
                var q = ContactMethods.query(request.query, sort: request.sort)
                q.limit = request.window?.limit
                q.offset = request.window?.offset ?? 0
                var since: ChangeCursor?
                if let text = request.since {
                    guard let cursor = ChangeCursor(text) else {
                        throw RPCError.invalidParams("'since' is not a state this daemon gives: \(text)", field: "since")
                    }
                    since = cursor
                }
                return try views.open(
                    q, fields: try ContactMethods.projection(request.fields), since: since, excludeOrigin: request.excludeOrigin,
                    session: call.session)
            },
            RPCMethod(ViewsRead.self) { request, call in try views.read(request.view, session: call.session) },
            RPCMethod(ViewsClose.self) { request, call in
                try views.close(request.view, session: call.session)
                return ["closed": true]
            },
        ]
    }
}
