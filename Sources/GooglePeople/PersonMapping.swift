import ContactsCore
import ContactsSupport
import JSONCore

/// A Google person (People API JSON) as a contact, and a contact as the fields of a person,
/// field by field as GOOGLE.md lists them. What contactsd has no field for is not read and
/// never written: an update names only the fields that changed (`mask`), so Google keeps the
/// rest as it has them.
public enum PersonMapping {
    /// The fields asked for when reading people.
    public static let readFields = [
        "names", "nicknames", "phoneNumbers", "emailAddresses", "addresses", "organizations", "birthdays", "events", "relations",
        "imClients", "sipAddresses", "urls", "biographies", "genders", "memberships", "clientData", "metadata", "photos",
    ]

    /// The person fields contactsd writes.
    public static let writtenFields: Set<String> = [
        "names", "nicknames", "phoneNumbers", "emailAddresses", "addresses", "organizations", "birthdays", "events", "relations",
        "imClients", "sipAddresses", "urls", "biographies", "genders", "memberships",
    ]

    /// Key of the `clientData` entry that keeps a contact's UID with the person.
    static let uidKey = "contactsd.uid"
    static let starred = "contactGroups/starred"
    static let myContacts = "contactGroups/myContacts"

    // MARK: Person to contact

    /// The contact a person is; `labels` names the user's contact groups by resource name.
    public static func contact(from person: JSONObject, labels: [String: String]) -> Contact {
        var c = Contact(name: "")
        c.uid = uid(of: person)
        if let n = first(person, "names") {
            c.name = n["displayName"]?.stringValue ?? n["unstructuredName"]?.stringValue ?? ""
            let s = StructuredName(
                family: text(n, "familyName"), given: text(n, "givenName"), additional: text(n, "middleName"),
                prefix: text(n, "honorificPrefix"), suffix: text(n, "honorificSuffix"))
            if !s.isEmpty { c.structuredName = s }
            let p = PhoneticName(
                given: text(n, "phoneticGivenName"), middle: text(n, "phoneticMiddleName"), family: text(n, "phoneticFamilyName"))
            if !(p.given.isEmpty && p.middle.isEmpty && p.family.isEmpty) { c.phoneticName = p }
        }
        c.nickname = nonEmpty(first(person, "nicknames").map { text($0, "value") })
        c.phones = labeled(person, "phoneNumbers")
        c.emails = labeled(person, "emailAddresses")
        c.urls = labeled(person, "urls")
        c.addresses = list(person, "addresses").compactMap { a in
            var p = PostalAddress(
                street: text(a, "streetAddress"), locality: text(a, "city"), region: text(a, "region"), postalCode: text(a, "postalCode"),
                country: text(a, "country"), label: label(a))
            p.extended = text(a, "extendedAddress")
            p.poBox = text(a, "poBox")
            return p.isEmpty ? nil : p
        }
        if let o = first(person, "organizations") {
            c.organization = nonEmpty(text(o, "name"))
            c.title = nonEmpty(text(o, "title"))
            c.department = nonEmpty(text(o, "department"))
        }
        c.birthday = first(person, "birthdays").flatMap(date)
        c.dates = list(person, "events").compactMap { e in date(e).map { LabeledValue(value: $0, label: label(e)) } }
        c.related = pairs(person, "relations", value: "person", label: "type")
        // Messaging: Google's IM clients, and its SIP addresses as `sip:` URIs (as vCard's IMPP has them).
        c.impp =
            pairs(person, "imClients", value: "username", label: "protocol")
            + labeled(person, "sipAddresses").map { LabeledValue(value: Self.sipURI($0.value), label: $0.label) }
        c.note = nonEmpty(first(person, "biographies").map { text($0, "value") })
        c.gender = nonEmpty(first(person, "genders").map { text($0, "value") })
        for m in list(person, "memberships") {
            guard let group = m["contactGroupMembership"]?.objectValue?["contactGroupResourceName"]?.stringValue else { continue }
            if group == starred {
                c.favorite = true
            } else if let name = labels[group], !c.groups.contains(name) {
                c.groups.append(name)
            }
        }
        if c.name.isEmpty { c.name = fallbackName(c) }
        return c
    }

    /// The UID a person's contact has: the one a contactsd kept in its `clientData`, else one
    /// made of its resource name (stable for as long as the person exists).
    static func uid(of person: JSONObject) -> String {
        for d in list(person, "clientData") where text(d, "key") == uidKey {
            if let v = nonEmpty(text(d, "value")) { return v }
        }
        let resource = person["resourceName"]?.stringValue ?? ""
        return "google-" + (resource.split(separator: "/").last.map(String.init) ?? resource)
    }

    static func fallbackName(_ c: Contact) -> String {
        if let s = c.structuredName {
            return [s.prefix, s.given, s.additional, s.family, s.suffix].filter { !$0.isEmpty }.joined(separator: " ")
        }
        return c.organization ?? c.emails.first?.value ?? c.phones.first?.value ?? ""
    }

    // MARK: Contact to person

    /// The fields of `c` as a person has them, only those named in `fields` (person field
    /// names); `labelIDs` gives the resource name of each group by its name, and
    /// `memberships` those the person has now (kept where contactsd does not decide them).
    public static func person(_ c: Contact, fields: Set<String>, labelIDs: [String: String], memberships: [JSONValue] = []) -> JSONObject {
        var p = JSONObject()
        if fields.contains("names") {
            var n = JSONObject()
            let s = c.structuredName ?? StructuredName()
            put(&n, "givenName", s.given)
            put(&n, "familyName", s.family)
            put(&n, "middleName", s.additional)
            put(&n, "honorificPrefix", s.prefix)
            put(&n, "honorificSuffix", s.suffix)
            if s.isEmpty { put(&n, "unstructuredName", c.name) }
            if let ph = c.phoneticName {
                put(&n, "phoneticGivenName", ph.given)
                put(&n, "phoneticMiddleName", ph.middle)
                put(&n, "phoneticFamilyName", ph.family)
            }
            p["names"] = n.isEmpty ? .array([]) : .array([.object(n)])
        }
        if fields.contains("nicknames") { p["nicknames"] = .array(c.nickname.map { [.object(["value": .string($0)])] } ?? []) }
        if fields.contains("phoneNumbers") { p["phoneNumbers"] = labeledValues(c.phones) }
        if fields.contains("emailAddresses") { p["emailAddresses"] = labeledValues(c.emails) }
        if fields.contains("urls") { p["urls"] = labeledValues(c.urls) }
        if fields.contains("addresses") {
            p["addresses"] = .array(
                c.addresses.map { a in
                    var o = JSONObject()
                    put(&o, "streetAddress", a.street)
                    put(&o, "extendedAddress", a.extended)
                    put(&o, "poBox", a.poBox)
                    put(&o, "city", a.locality)
                    put(&o, "region", a.region)
                    put(&o, "postalCode", a.postalCode)
                    put(&o, "country", a.country)
                    if let t = a.label.flatMap(googleType) { o["type"] = .string(t) }
                    return .object(o)
                })
        }
        if fields.contains("organizations") {
            var o = JSONObject()
            put(&o, "name", c.organization ?? "")
            put(&o, "title", c.title ?? "")
            put(&o, "department", c.department ?? "")
            p["organizations"] = .array(o.isEmpty ? [] : [.object(o)])
        }
        if fields.contains("birthdays") { p["birthdays"] = .array(c.birthday.flatMap(dateObject).map { [.object(["date": $0])] } ?? []) }
        if fields.contains("events") {
            p["events"] = .array(
                c.dates.compactMap { d in
                    dateObject(d.value).map { o in
                        var e: JSONObject = ["date": o]
                        if let t = d.label.flatMap(googleType) { e["type"] = .string(t) }
                        return .object(e)
                    }
                })
        }
        if fields.contains("relations") { p["relations"] = pairs(c.related, value: "person", label: "type") }
        if fields.contains("imClients") { p["imClients"] = pairs(c.impp.filter { !isSIP($0.value) }, value: "username", label: "protocol") }
        if fields.contains("sipAddresses") {
            p["sipAddresses"] = labeledValues(
                c.impp.filter { isSIP($0.value) }.map { LabeledValue(value: String($0.value.dropFirst(4)), label: $0.label) })
        }
        if fields.contains("biographies") {
            p["biographies"] = .array(c.note.map { [.object(["value": .string($0), "contentType": "TEXT_PLAIN"])] } ?? [])
        }
        if fields.contains("genders") { p["genders"] = .array(c.gender.map { [.object(["value": .string($0)])] } ?? []) }
        if fields.contains("memberships") { p["memberships"] = .array(self.memberships(c, labelIDs: labelIDs, current: memberships)) }
        return p
    }

    /// The person's memberships for `c`: its groups and starred as contactsd has them, and
    /// every other system group (myContacts, …) as Google has it.
    static func memberships(_ c: Contact, labelIDs: [String: String], current: [JSONValue]) -> [JSONValue] {
        var out: [JSONValue] = current.filter { m in
            guard let g = groupName(of: m) else { return true }
            return isSystemGroup(g) && g != starred
        }
        func membership(_ g: String) -> JSONValue { .object(["contactGroupMembership": .object(["contactGroupResourceName": .string(g)])]) }
        if c.favorite { out.append(membership(starred)) }
        for name in c.groups { if let id = labelIDs[name] { out.append(membership(id)) } }
        if !out.contains(where: { groupName(of: $0) == myContacts }) { out.insert(membership(myContacts), at: 0) }
        return out
    }

    static func groupName(of membership: JSONValue) -> String? {
        membership["contactGroupMembership"]?["contactGroupResourceName"]?.stringValue
    }

    /// Google's own groups (`contactGroups/myContacts`, `…/starred`, `…/friends`, …) are named
    /// by a word; the user's by an id of hex digits.
    static func isSystemGroup(_ resource: String) -> Bool {
        ["myContacts", "starred", "friends", "family", "coworkers", "chatBuddies", "all", "blocked"].contains {
            resource == "contactGroups/" + $0
        }
    }

    /// The person fields that differ between `old` and `new` as written (every field contactsd
    /// writes when there is no `old`), sorted, as an `updatePersonFields` mask names them.
    public static func mask(from old: Contact?, to new: Contact, labelIDs: [String: String]) -> [String] {
        guard let old else { return writtenFields.sorted() }
        let before = person(old, fields: writtenFields, labelIDs: labelIDs)
        let after = person(new, fields: writtenFields, labelIDs: labelIDs)
        return writtenFields.filter { before[$0] != after[$0] }.sorted()
    }

    // MARK: Labels and dates

    /// Google's type of a phone, email, address, URL or event (`homeFax`) as a label here
    /// (`home fax`), and back. A type Google does not know is a custom one both ways.
    static func label(_ o: JSONObject) -> String? {
        guard let t = nonEmpty(text(o, "type")) else { return nil }
        guard knownTypes.contains(t) else { return t }
        var out = ""
        for ch in t {
            if ch.isUppercase {
                out += " " + ch.lowercased()
            } else {
                out.append(ch)
            }
        }
        return out
    }

    static let knownTypes: Set<String> = [
        "home", "work", "other", "mobile", "homeFax", "workFax", "otherFax", "pager", "workMobile", "workPager", "main", "googleVoice",
        "blog", "homePage", "profile", "appInstallPage", "ftp", "reservations", "anniversary",
    ]

    static func googleType(_ label: String) -> String? {
        let words = label.split(separator: " ").map(String.init)
        guard !words.isEmpty else { return nil }
        let camel = words[0].lowercased() + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }.joined()
        if knownTypes.contains(camel) { return camel }
        if words == ["fax"] { return "otherFax" }
        if words == ["cell"] { return "mobile" }
        return label
    }

    /// `YYYY-MM-DD` or `--MM-DD` from a Google date (a year of 0 or none: no year).
    static func date(_ o: JSONObject) -> String? {
        guard let d = o["date"]?.objectValue, let month = d["month"]?.intValue, let day = d["day"]?.intValue, month > 0, day > 0 else {
            return nil
        }
        let md = String(format: "%02d-%02d", month, day)
        if let year = d["year"]?.intValue, year > 0 { return String(format: "%04d-", year) + md }
        return "--" + md
    }

    static func dateObject(_ s: String) -> JSONValue? {
        let parts = s.split(separator: "-", omittingEmptySubsequences: true).compactMap { Int($0) }
        if s.hasPrefix("--"), parts.count == 2 { return .object(["month": .int(parts[0]), "day": .int(parts[1])]) }
        guard parts.count == 3 else { return nil }
        return .object(["year": .int(parts[0]), "month": .int(parts[1]), "day": .int(parts[2])])
    }

    // MARK: JSON

    static func list(_ o: JSONObject, _ key: String) -> [JSONObject] { o[key]?.arrayValue?.compactMap(\.objectValue) ?? [] }

    /// A person's field's primary value (`metadata.primary`), else its first.
    static func first(_ o: JSONObject, _ key: String) -> JSONObject? {
        let all = list(o, key)
        return all.first { $0["metadata"]?["primary"]?.boolValue == true } ?? all.first
    }

    static func text(_ o: JSONObject, _ key: String) -> String { o[key]?.stringValue ?? "" }

    static func nonEmpty(_ s: String?) -> String? { s.flatMap { $0.isEmpty ? nil : $0 } }

    static func labeled(_ o: JSONObject, _ key: String) -> [LabeledValue] {
        list(o, key).compactMap { v in nonEmpty(text(v, "value")).map { LabeledValue(value: $0, label: label(v)) } }
    }

    static func labeledValues(_ values: [LabeledValue]) -> JSONValue {
        .array(
            values.map { v in
                var o: JSONObject = ["value": .string(v.value)]
                if let t = v.label.flatMap(googleType) { o["type"] = .string(t) }
                return .object(o)
            })
    }

    static func pairs(_ o: JSONObject, _ key: String, value: String, label: String) -> [LabeledValue] {
        list(o, key).compactMap { v in nonEmpty(text(v, value)).map { LabeledValue(value: $0, label: nonEmpty(text(v, label))) } }
    }

    /// Values with a free label, as Google keeps relations (`person`, `type`) and messaging
    /// (`username`, `protocol`).
    static func pairs(_ values: [LabeledValue], value: String, label: String) -> JSONValue {
        .array(
            values.map { v in
                var o: JSONObject = [value: .string(v.value)]
                if let l = v.label, !l.isEmpty { o[label] = .string(l) }
                return .object(o)
            })
    }

    static func isSIP(_ value: String) -> Bool { value.lowercased().hasPrefix("sip:") }

    static func sipURI(_ address: String) -> String { isSIP(address) ? address : "sip:" + address }

    static func put(_ o: inout JSONObject, _ key: String, _ value: String) { if !value.isEmpty { o[key] = .string(value) } }
}
