import ContactsAPI
import ContactsStore
import JSONCore
import JSONRPC

/// The `groups.*` methods. Where an id is expected, a group's name is accepted too.
enum GroupMethods {
    static func json(_ g: ContactGroup) -> JSONValue {
        ["id": .string(g.id), "name": .string(g.name), "memberCount": .int(g.memberCount)]
    }

    static func all(store: ContactStore) -> [RPCMethod] {
        [
            RPCMethod(GroupsList.self) { _, _ in ["groups": .array(try store.groups().map(json))] },
            RPCMethod(GroupsCreate.self) { request, _ in json(try store.createGroup(name: request.name)) },
            RPCMethod(GroupsRename.self) { request, _ in json(try store.renameGroup(request.id, to: request.name)) },
            RPCMethod(GroupsDelete.self) { request, _ in
                try store.deleteGroup(request.id)
                return ["deleted": 1]
            },
            RPCMethod(GroupsAddMembers.self) { request, _ in json(try store.addMembers(request.id, contactIDs: request.contactIDs)) },
            RPCMethod(GroupsRemoveMembers.self) { request, _ in
                json(try store.removeMembers(request.id, contactIDs: request.contactIDs))
            },
        ]
    }
}
