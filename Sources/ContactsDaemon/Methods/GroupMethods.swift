import ContactsAPI
import ContactsStore
import JSONCore
import JSONRPC

/// The `groups.*` methods. Where an id is expected, a group's name is accepted too.
enum GroupMethods {
    static let group = Schemas.ref("Group")
    static let notFound = RPCError(.notFound, "No group (or contact) with that id")
    static let duplicate = RPCError(.conflict, "A group with that name exists (names are unique regardless of case)")

    static func json(_ g: ContactGroup) -> JSONValue {
        ["id": .string(g.id), "name": .string(g.name), "memberCount": .int(g.memberCount)]
    }

    static func all(store: ContactStore) -> [RPCMethod] {
        let idParam = RPCParam("id", "The group's id (or its name).", schema: Schemas.string, required: true)
        let membersParam = RPCParam("contactIds", "Contact ids.", schema: Schemas.stringArray, required: true)
        return [
            RPCMethod(
                ContactsAPI.Method.groupsList, summary: "Lists every group with its member count, in name order.",
                result: "groups",
                resultSchema: ["type": "object", "required": ["groups"], "properties": ["groups": ["type": "array", "items": group]]]
            ) { _ in
                ["groups": .array(try store.groups().map(json))]
            },
            RPCMethod(
                ContactsAPI.Method.groupsCreate, summary: "Creates an empty group.",
                params: [RPCParam("name", "The group's name.", schema: Schemas.string, required: true)],
                result: "group", resultSchema: group, errors: [duplicate]
            ) { call in
                json(try store.createGroup(name: try call.params.string("name")))
            },
            RPCMethod(
                ContactsAPI.Method.groupsRename, summary: "Renames a group.",
                params: [idParam, RPCParam("name", "The new name.", schema: Schemas.string, required: true)],
                result: "group", resultSchema: group, errors: [notFound, duplicate]
            ) { call in
                json(try store.renameGroup(try call.params.string("id"), to: try call.params.string("name")))
            },
            RPCMethod(
                ContactsAPI.Method.groupsDelete, summary: "Deletes a group. Its members are kept.",
                params: [idParam], result: "deleted",
                resultSchema: ["type": "object", "required": ["deleted"], "properties": ["deleted": Schemas.integer]],
                errors: [notFound]
            ) { call in
                try store.deleteGroup(try call.params.string("id"))
                return ["deleted": 1]
            },
            RPCMethod(
                ContactsAPI.Method.groupsAddMembers, summary: "Adds contacts to a group.",
                params: [idParam, membersParam], result: "group", resultSchema: group, errors: [notFound]
            ) { call in
                json(try store.addMembers(try call.params.string("id"), contactIDs: try call.params.stringArray("contactIds")))
            },
            RPCMethod(
                ContactsAPI.Method.groupsRemoveMembers, summary: "Removes contacts from a group.",
                params: [idParam, membersParam], result: "group", resultSchema: group, errors: [notFound]
            ) { call in
                json(try store.removeMembers(try call.params.string("id"), contactIDs: try call.params.stringArray("contactIds")))
            },
        ]
    }
}
