import ContactsAPI
import JSONCore

/// The `group` verbs.
enum GroupCommands {
    static func list(_ inv: inout Invocation) throws -> Int32 {
        guard let result = try inv.callForPeople(GroupsList()) else { return 0 }
        let groups = result["groups"]?.arrayValue ?? []
        if groups.isEmpty {
            if inv.output.isTerminal { inv.output.line(inv.output.dim("No groups.")) }
            return 0
        }
        var table = Table(headers: ["GROUP", "MEMBERS"], shrinkable: [0])
        for g in groups { table.add([g["name"]?.stringValue ?? "", g["memberCount"]?.description ?? "0"]) }
        for line in table.render(width: inv.output.width, header: inv.output.bold) { inv.output.line(line) }
        return 0
    }

    static func add(_ inv: inout Invocation) throws -> Int32 {
        let g = try inv.call(GroupsCreate(name: inv.arguments[0]))
        done(g, "Created group", inv)
        return 0
    }

    static func remove(_ inv: inout Invocation) throws -> Int32 {
        let r = try inv.call(GroupsDelete(id: inv.arguments[0]))
        if inv.json { inv.output.json(r) } else { inv.output.line("Deleted group \(inv.output.bold(inv.arguments[0]))") }
        return 0
    }

    static func rename(_ inv: inout Invocation) throws -> Int32 {
        let g = try inv.call(GroupsRename(id: inv.arguments[0], name: inv.arguments[1]))
        done(g, "Renamed group to", inv)
        return 0
    }

    static func members(_ inv: inout Invocation) throws -> Int32 {
        inv.options["group"] = [inv.arguments[0]]
        return try ContactCommands.runQuery(&inv, text: nil)
    }

    static func assign(_ inv: inout Invocation, add: Bool) throws -> Int32 {
        let c = try ContactResolver.resolve(inv.arguments[0], in: inv)
        // Said as it is when there is nothing to do (the group named as the contact lists it).
        let wanted = inv.arguments[1].lowercased()
        if !inv.json, !ContactResolver.looksLikeID(wanted), let member = c["groups"]?.arrayValue?.compactMap(\.stringValue) {
            let isIn = member.contains { $0.lowercased() == wanted }
            if isIn == add {
                let name = inv.output.bold(c["name"]?.stringValue ?? "")
                inv.output.line(
                    "\(name) is \(add ? "in" : "not in") \(inv.output.bold(inv.arguments[1]))\(add ? " already" : ""); nothing changed")
                return 0
            }
        }
        let (group, ids) = (inv.arguments[1], [c["id"]?.stringValue ?? ""])
        let g =
            add ? try inv.call(GroupsAddMembers(id: group, contactIDs: ids)) : try inv.call(GroupsRemoveMembers(id: group, contactIDs: ids))
        if inv.json {
            inv.output.json(g)
        } else {
            let name = inv.output.bold(c["name"]?.stringValue ?? "")
            let group = inv.output.bold(g["name"]?.stringValue ?? "")
            inv.output.line(add ? "Added \(name) to \(group)" : "Removed \(name) from \(group)")
        }
        return 0
    }

    static func done(_ g: JSONValue, _ verb: String, _ inv: Invocation) {
        if inv.json { inv.output.json(g) } else { inv.output.line("\(verb) \(inv.output.bold(g["name"]?.stringValue ?? ""))") }
    }
}
