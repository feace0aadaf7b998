import ContactsSupport
import VCard

/// How the cards people have spell the declared fields (`DeclaredField`): every dialect read,
/// and a field edited since written back in the dialect its card used, or as vCard 4.0 has
/// it (with Apple's labelled items where 4.0 has no property) on a card that used none.
extension VCardMapping {
    /// Properties holding an anniversary, each producer's own.
    static let anniversaryProperties: Set<String> = [
        "ANNIVERSARY", "X-ANNIVERSARY", "X-EVOLUTION-ANNIVERSARY", "X-KADDRESSBOOK-X-ANNIVERSARY", "X-MS-ANNIVERSARY",
    ]
    /// Properties holding one related person, and the relation each says.
    static let relationProperties: [String: String] = [
        "X-SPOUSE": "spouse", "X-EVOLUTION-SPOUSE": "spouse", "X-KADDRESSBOOK-X-SPOUSESNAME": "spouse", "X-MS-SPOUSE": "spouse",
        "X-MANAGER": "manager", "X-EVOLUTION-MANAGER": "manager", "X-KADDRESSBOOK-X-MANAGERSNAME": "manager",
        "X-MS-MANAGER": "manager", "X-ASSISTANT": "assistant", "X-EVOLUTION-ASSISTANT": "assistant",
        "X-KADDRESSBOOK-X-ASSISTANTSNAME": "assistant", "X-MS-ASSISTANT": "assistant",
    ]
    /// The properties of instant-messaging services before IMPP, and each one's URI scheme.
    static let messagingProperties: [String: String] = [
        "X-JABBER": "xmpp", "X-GOOGLE-TALK": "xmpp", "X-GTALK": "xmpp", "X-SKYPE": "skype", "X-SKYPE-USERNAME": "skype",
        "X-AIM": "aim", "X-ICQ": "icq", "X-MSN": "msnim", "X-YAHOO": "ymsgr", "X-GADUGADU": "gg", "X-GROUPWISE": "groupwise",
        "X-QQ": "mqq", "X-SIP": "sip", "X-MATRIX": "matrix",
    ]
    /// Android's `X-ANDROID-CUSTOM` kinds that are fields.
    static let androidEvent = "vnd.android.cursor.item/contact_event"
    static let androidRelation = "vnd.android.cursor.item/relation"
    static let androidNickname = "vnd.android.cursor.item/nickname"
    /// Android's relation types, by number.
    static let androidRelations = [
        1: "assistant", 2: "brother", 3: "child", 4: "domestic partner", 5: "father", 6: "friend", 7: "manager", 8: "mother",
        9: "parent", 10: "partner", 11: "referred by", 12: "relative", 13: "sister", 14: "spouse",
    ]
    /// vCard 4.0's RELATED types (RFC 6350 6.6.6).
    static let relatedTypes: Set<String> = [
        "contact", "acquaintance", "friend", "met", "co-worker", "colleague", "co-resident", "neighbor", "child", "parent",
        "sibling", "spouse", "kin", "muse", "crush", "date", "sweetheart", "me", "agent", "emergency",
    ]
    /// Apple's system labels for dates and relations.
    static let appleLabels: Set<String> = [
        "anniversary", "other", "spouse", "child", "mother", "father", "parent", "brother", "sister", "friend", "assistant",
        "manager", "partner",
    ]
    /// The declared fields of one line of text that one property holds, the same in every
    /// dialect: read from it, written back to it. A field of that kind is one line here.
    static let textProperties: [(property: String, field: WritableKeyPath<Contact, String?> & Sendable)] = [
        ("PRONOUNS", \.pronouns)
    ]
    /// vCard 4.0's GENDER sex letters.
    static let genderLetters = ["M": "male", "F": "female", "O": "other", "N": "none", "U": "unknown"]

    // MARK: Reading

    /// What a property that spells a declared field holds.
    private enum Spelling {
        case appleDate, anniversary, related, relation(String), impp, socialProfile, messaging(scheme: String)
        case phonetic, text(WritableKeyPath<Contact, String?> & Sendable), gender, xGender, android
    }

    /// Each property that spells a declared field, by its name: one look-up a property.
    private static let spellings: [String: Spelling] = {
        var out: [String: Spelling] = [
            "X-ABDATE": .appleDate, "RELATED": .related, "X-ABRELATEDNAMES": .related, "IMPP": .impp,
            "X-SOCIALPROFILE": .socialProfile, "SOCIALPROFILE": .socialProfile, "X-PHONETIC-FIRST-NAME": .phonetic,
            "X-PHONETIC-MIDDLE-NAME": .phonetic, "X-PHONETIC-LAST-NAME": .phonetic, "GENDER": .gender,
            "X-GENDER": .xGender, "X-ANDROID-CUSTOM": .android,
        ]
        for name in anniversaryProperties { out[name] = .anniversary }
        for (name, relation) in relationProperties { out[name] = .relation(relation) }
        for (name, scheme) in messagingProperties { out[name] = .messaging(scheme: scheme) }
        for t in textProperties { out[t.property] = .text(t.field) }
        return out
    }()

    /// Reads `p` into the declared field it spells, in any dialect; `groupLabel` is its
    /// `itemN.X-ABLabel`. Other properties are passed over.
    static func readDeclared(_ p: VCardProperty, groupLabel: String?, into c: inout Contact) {
        guard let spelling = spellings[p.name] else { return }
        func label(_ kind: ValueKind) -> String? { groupLabel ?? typeLabel(p.parameterValues("TYPE"), kind: kind) }
        switch spelling {
        case .appleDate:
            if let d = date(p) { c.dates.append(LabeledValue(value: d, label: label(.date))) }
        case .anniversary:
            if let d = date(p) { c.dates.append(LabeledValue(value: d, label: groupLabel ?? "anniversary")) }
        case .related:
            let v = clean(p.text)
            if !v.isEmpty { c.related.append(LabeledValue(value: v, label: label(.related))) }
        case .relation(let relation):
            let v = clean(p.text)
            if !v.isEmpty { c.related.append(LabeledValue(value: v, label: groupLabel ?? relation)) }
        case .impp:
            let v = clean(p.text)
            if !v.isEmpty { c.impp.append(LabeledValue(value: v, label: label(.impp))) }
        case .socialProfile:
            let v = clean(p.text)
            let service = p.parameter("SERVICE-TYPE")
            if !v.isEmpty { c.impp.append(LabeledValue(value: v, label: groupLabel ?? service ?? label(.impp))) }
        case .messaging(let scheme):
            var v = clean(p.text)
            if !v.isEmpty {
                if !v.lowercased().hasPrefix(scheme + ":") { v = scheme + ":" + v }
                c.impp.append(LabeledValue(value: v, label: label(.impp)))
            }
        case .phonetic:
            let v = clean(p.text)
            guard !v.isEmpty else { return }
            var n = c.phoneticName ?? PhoneticName()
            switch p.name {
            case "X-PHONETIC-FIRST-NAME": if n.given.isEmpty { n.given = v }
            case "X-PHONETIC-MIDDLE-NAME": if n.middle.isEmpty { n.middle = v }
            default: if n.family.isEmpty { n.family = v }
            }
            c.phoneticName = n
        case .text(let field) where c[keyPath: field] == nil: c[keyPath: field] = nonEmpty(clean(p.text))
        case .gender where c.gender == nil:
            let identity = clean(p.value.component(1))
            let sex = clean(p.value.component(0)).uppercased()
            c.gender = nonEmpty(identity) ?? genderLetters[sex] ?? nonEmpty(sex.lowercased())
        case .xGender where c.gender == nil: c.gender = nonEmpty(clean(p.text).lowercased())
        case .android: readAndroid(p, into: &c)
        case .text, .gender, .xGender: break
        }
    }

    /// Android's `X-ANDROID-CUSTOM:MIMETYPE;data1;data2;data3…`: dates, relations and nicknames.
    private static func readAndroid(_ p: VCardProperty, into c: inout Contact) {
        let v = p.value
        let data1 = clean(v.component(1)), type = Int(clean(v.component(2))) ?? 0, custom = nonEmpty(clean(v.component(3)))
        guard !data1.isEmpty else { return }
        switch clean(v.component(0)).lowercased() {
        case androidEvent:
            guard let d = try? Birthday.normalize(data1, field: "X-ANDROID-CUSTOM") else { return }
            switch type {
            // Android writes the birthday as BDAY too: its event stays on the card.
            case 3: break
            case 1: c.dates.append(LabeledValue(value: d, label: "anniversary"))
            case 2: c.dates.append(LabeledValue(value: d, label: "other"))
            default: c.dates.append(LabeledValue(value: d, label: custom))
            }
        case androidRelation: c.related.append(LabeledValue(value: data1, label: androidRelations[type] ?? custom))
        case androidNickname where c.nickname == nil: c.nickname = data1
        default: break
        }
    }

    /// A date property's value as `YYYY-MM-DD` or `--MM-DD`; nil for what is no date.
    static func date(_ p: VCardProperty) -> String? { birthday(p) }

    /// The reading N's `SORT-AS` gives (vCard 4.0: family, given), where the card has no
    /// phonetic name of its own.
    static func sortAsReading(_ props: UnsafeBufferPointer<VCardProperty>) -> PhoneticName? {
        guard let n = props.first(where: { $0.name == "N" }) else { return nil }
        // RFC 6350 quotes the list: SORT-AS="family,given" is one value holding both.
        let values = n.parameters.first { $0.name == "SORT-AS" }?.values ?? []
        let parts: [String] = values.flatMap { $0.split(separator: ",").map(String.init) }
        guard !parts.isEmpty else { return nil }
        let reading = PhoneticName(given: parts.count > 1 ? clean(parts[1]) : "", family: clean(parts[0]))
        return reading.isEmpty ? nil : reading
    }

    // MARK: Writing

    /// The way a card spells a kind of field: found from the properties it arrived with.
    enum Dialect {
        case vcard4, apple, android, evolution, kde, plain, outlook
    }

    /// The dialect of the first property of `props` that `which` recognises; nil when none.
    private static func dialect(_ props: [VCardProperty], _ which: (VCardProperty) -> Dialect?) -> Dialect? {
        for p in props { if let d = which(p) { return d } }
        return nil
    }

    /// A card's default for fields it has no dialect for: vCard 4.0's properties, but Apple's
    /// labelled items on a 3.0 card that has them.
    private static func fallbackDialect(_ props: [VCardProperty]) -> Dialect {
        let version = props.first { $0.name == "VERSION" }?.text
        if version != "4.0", props.contains(where: { $0.name == "X-ABLABEL" }) { return .apple }
        return .vcard4
    }

    static func isAndroid(_ p: VCardProperty, _ kind: String) -> Bool {
        p.name == "X-ANDROID-CUSTOM" && clean(p.value.component(0)).lowercased() == kind
    }

    /// Apple's label for a word: a system label where it has one.
    static func appleLabel(_ label: String) -> String {
        guard appleLabels.contains(label.lowercased()) else { return label }
        return "_$!<" + label.prefix(1).uppercased() + label.dropFirst().lowercased() + ">!$_"
    }

    /// A value in an `itemN` group with its `X-ABLabel`, or alone without a label.
    private static func item(_ name: String, _ value: VCardValue, label: String?, nextItem: inout Int) -> [VCardProperty] {
        guard let label, !label.isEmpty else { return [VCardProperty(name: name, value: value)] }
        let group = "item\(nextItem)"
        nextItem += 1
        return [
            VCardProperty(group: group, name: name, value: value), VCardProperty(group: group, name: "X-ABLabel", text: appleLabel(label)),
        ]
    }

    private static func android(_ kind: String, _ data: [String]) -> VCardProperty {
        VCardProperty(
            name: "X-ANDROID-CUSTOM", value: .text(([kind] + data + Array(repeating: "", count: max(0, 14 - data.count))).map { [$0] }))
    }

    /// Writes the declared fields `c` changed since `derived` (what its properties say) into
    /// `replace`, which takes out the properties a test picks and puts new ones in their place.
    static func writeDeclared(
        _ c: Contact, derived: Contact, original props: [VCardProperty], nextItem: inout Int,
        replace: (_ taken: (VCardProperty) -> Bool, _ new: [VCardProperty]) -> Void
    ) {
        if derived.dates != c.dates { replace(isDate, dateProperties(c.dates, original: props, nextItem: &nextItem)) }
        if derived.related != c.related { replace(isRelation, relatedProperties(c.related, original: props, nextItem: &nextItem)) }
        if derived.impp != c.impp { replace(isMessaging, messagingProperties(c.impp, original: props, nextItem: &nextItem)) }
        if derived.phoneticName != c.phoneticName {
            let n = c.phoneticName ?? PhoneticName()
            var new: [VCardProperty] = []
            for (name, v) in [("X-PHONETIC-FIRST-NAME", n.given), ("X-PHONETIC-MIDDLE-NAME", n.middle), ("X-PHONETIC-LAST-NAME", n.family)]
            where !v.isEmpty {
                new.append(VCardProperty(name: name, text: v))
            }
            replace({ $0.name.hasPrefix("X-PHONETIC-") && $0.name.hasSuffix("-NAME") && $0.name != "X-PHONETIC-ORGANIZATION-NAME" }, new)
            // N's SORT-AS would say the old reading again.
            if derived.structuredName == c.structuredName, var n = props.first(where: { $0.name == "N" }),
                n.parameters.contains(where: { $0.name == "SORT-AS" })
            {
                n.parameters.removeAll { $0.name == "SORT-AS" }
                replace({ $0.name == "N" }, [n])
            }
        }
        for t in textProperties where derived[keyPath: t.field] != c[keyPath: t.field] {
            replace({ $0.name == t.property }, c[keyPath: t.field].map { [VCardProperty(name: t.property, text: $0)] } ?? [])
        }
        if derived.gender != c.gender {
            let x = props.contains { $0.name == "X-GENDER" }
            var new: [VCardProperty] = []
            if let g = c.gender {
                if x {
                    new = [VCardProperty(name: "X-GENDER", text: g)]
                } else if let letter = genderLetters.first(where: { $0.value == g.lowercased() })?.key {
                    new = [VCardProperty(name: "GENDER", value: .text([[letter]]))]
                } else {
                    new = [VCardProperty(name: "GENDER", value: .text([[""], [g]]))]
                }
            }
            replace({ $0.name == "GENDER" || $0.name == "X-GENDER" }, new)
        }
    }

    /// Whether `p` holds a declared field's value (which the field writes back, so that a
    /// merge copies the field and not the property).
    public static func holdsDeclaredField(_ p: VCardProperty) -> Bool {
        switch p.name {
        case "GENDER", "X-GENDER", "X-PHONETIC-FIRST-NAME", "X-PHONETIC-MIDDLE-NAME", "X-PHONETIC-LAST-NAME": true
        default:
            isDate(p) || isRelation(p) || isMessaging(p) || isAndroid(p, androidNickname)
                || textProperties.contains { $0.property == p.name }
        }
    }

    static func isDate(_ p: VCardProperty) -> Bool {
        p.name == "X-ABDATE" || anniversaryProperties.contains(p.name) || isAndroid(p, androidEvent) && p.value.component(2) != "3"
    }

    static func isRelation(_ p: VCardProperty) -> Bool {
        p.name == "RELATED" || p.name == "X-ABRELATEDNAMES" || relationProperties[p.name] != nil || isAndroid(p, androidRelation)
    }

    static func isMessaging(_ p: VCardProperty) -> Bool {
        p.name == "IMPP" || p.name == "X-SOCIALPROFILE" || p.name == "SOCIALPROFILE" || messagingProperties[p.name] != nil
    }

    private static func dateProperties(_ dates: [LabeledValue], original props: [VCardProperty], nextItem: inout Int) -> [VCardProperty] {
        let d =
            dialect(props) { p in
                switch p.name {
                case "ANNIVERSARY": .vcard4
                case "X-ABDATE": .apple
                case "X-EVOLUTION-ANNIVERSARY": .evolution
                case "X-KADDRESSBOOK-X-ANNIVERSARY": .kde
                case "X-ANNIVERSARY": .plain
                case "X-MS-ANNIVERSARY": .outlook
                case _ where isAndroid(p, androidEvent): .android
                default: nil
                }
            } ?? fallbackDialect(props)
        var out: [VCardProperty] = []
        var anniversaryWritten = false
        for v in dates {
            let anniversary = v.label?.lowercased() == "anniversary"
            if d == .android {
                let type = anniversary ? "1" : v.label?.lowercased() == "other" ? "2" : "0"
                out.append(android(androidEvent, [v.value, type, type == "0" ? v.label ?? "" : ""]))
                continue
            }
            if anniversary && !anniversaryWritten && d != .apple {
                anniversaryWritten = true
                let name =
                    switch d {
                    case .evolution: "X-EVOLUTION-ANNIVERSARY"
                    case .kde: "X-KADDRESSBOOK-X-ANNIVERSARY"
                    case .plain: "X-ANNIVERSARY"
                    case .outlook: "X-MS-ANNIVERSARY"
                    default: "ANNIVERSARY"
                    }
                out.append(VCardProperty(name: name, value: .raw(v.value)))
                continue
            }
            out += item("X-ABDATE", .raw(v.value), label: v.label, nextItem: &nextItem)
        }
        return out
    }

    private static func relatedProperties(_ list: [LabeledValue], original props: [VCardProperty], nextItem: inout Int) -> [VCardProperty] {
        let d =
            dialect(props) { p in
                switch p.name {
                case "RELATED": .vcard4
                case "X-ABRELATEDNAMES": .apple
                case "X-EVOLUTION-SPOUSE", "X-EVOLUTION-MANAGER", "X-EVOLUTION-ASSISTANT": .evolution
                case _ where p.name.hasPrefix("X-KADDRESSBOOK-X-") && relationProperties[p.name] != nil: .kde
                case _ where p.name.hasPrefix("X-MS-") && relationProperties[p.name] != nil: .outlook
                case _ where relationProperties[p.name] != nil: .plain
                case _ where isAndroid(p, androidRelation): .android
                default: nil
                }
            } ?? fallbackDialect(props)
        var out: [VCardProperty] = []
        var written: Set<String> = []
        for v in list {
            let label = v.label?.lowercased() ?? ""
            switch d {
            case .android:
                let type = androidRelations.first { $0.value == label }?.key
                out.append(android(androidRelation, [v.value, type.map(String.init) ?? "0", type == nil ? v.label ?? "" : ""]))
                continue
            case .evolution, .kde, .plain, .outlook:
                let prefix = d == .evolution ? "X-EVOLUTION-" : d == .kde ? "X-KADDRESSBOOK-X-" : d == .outlook ? "X-MS-" : "X-"
                let suffix =
                    d == .kde
                    ? ["spouse": "SPOUSESNAME", "manager": "MANAGERSNAME", "assistant": "ASSISTANTSNAME"][label] : label.uppercased()
                if let suffix, relationProperties[prefix + suffix] != nil, written.insert(label).inserted {
                    out.append(VCardProperty(name: prefix + suffix, text: v.value))
                    continue
                }
            case .vcard4:
                let uri = v.value.contains(":") && !v.value.contains(" ")
                let params = uri ? [] : [VCardParameter("VALUE", ["text"])]
                if label.isEmpty || relatedTypes.contains(label) {
                    let typed = label.isEmpty ? params : [VCardParameter("TYPE", [label])] + params
                    out.append(VCardProperty(name: "RELATED", parameters: typed, value: uri ? .raw(v.value) : .text([[v.value]])))
                    continue
                }
                let group = "item\(nextItem)"
                nextItem += 1
                out.append(
                    VCardProperty(group: group, name: "RELATED", parameters: params, value: uri ? .raw(v.value) : .text([[v.value]])))
                out.append(VCardProperty(group: group, name: "X-ABLabel", text: appleLabel(v.label ?? "")))
                continue
            case .apple: break
            }
            out += item("X-ABRELATEDNAMES", .text([[v.value]]), label: v.label, nextItem: &nextItem)
        }
        return out
    }

    private static func messagingProperties(_ list: [LabeledValue], original props: [VCardProperty], nextItem: inout Int)
        -> [VCardProperty]
    {
        // Each value goes back to the property its card wrote it with (X-JABBER for xmpp:),
        // a web profile to the social-profile property the card used; the rest are IMPP.
        let legacy = Dictionary(
            props.compactMap { p in messagingProperties[p.name].map { ($0, p.name) } }, uniquingKeysWith: { first, _ in first })
        let social = props.first { $0.name == "X-SOCIALPROFILE" || $0.name == "SOCIALPROFILE" }?.name ?? "X-SOCIALPROFILE"
        var out: [VCardProperty] = []
        for v in list {
            let scheme = v.value.split(separator: ":", maxSplits: 1).first.map { $0.lowercased() } ?? ""
            if let name = legacy[scheme] {
                let handle = String(v.value.dropFirst(scheme.count + 1))
                out += labeledProperty(name, value: .text([[handle]]), label: v.label, kind: .impp, nextItem: &nextItem)
            } else if scheme == "http" || scheme == "https" || scheme == "x-apple" {
                // RFC 9554 names the service in a parameter; Apple's property labels it as an item.
                if social == "SOCIALPROFILE" {
                    let params = v.label.map { [VCardParameter("SERVICE-TYPE", [$0])] } ?? []
                    out.append(VCardProperty(name: social, parameters: params, value: .raw(v.value)))
                } else {
                    out += labeledProperty(social, value: .raw(v.value), label: v.label, kind: .impp, nextItem: &nextItem)
                }
            } else {
                out += labeledProperty("IMPP", value: .raw(v.value), label: v.label, kind: .impp, nextItem: &nextItem)
            }
        }
        return out
    }
}

extension VCardMapping {
    /// Fills the declared fields `c` has no value in from the properties it keeps: for a
    /// contact stored before the field was declared, whose card already said it.
    /// Returns whether any field was filled.
    public static func adoptDeclared(into c: inout Contact) -> Bool {
        guard let props = c.vcardProperties, !props.isEmpty else { return false }
        var derived = Contact(name: "")
        fill(&derived, from: props)
        var adopted = false
        for f in DeclaredField.all where !f.isPresent(in: c) && f.isPresent(in: derived) {
            f.change.copy(derived, &c)
            adopted = true
        }
        return adopted
    }

    /// Gives `c` the declared fields its card says, and only those: a contact as it was
    /// before the fields were declared held them in its card alone (an earlier revision
    /// recorded then).
    public static func declaredFromCard(into c: inout Contact) {
        var derived = Contact(name: "")
        if let props = c.vcardProperties, !props.isEmpty { fill(&derived, from: props) }
        for f in DeclaredField.all { f.change.copy(derived, &c) }
    }
}
