import ContactsAPI
import ContactsCore
import JSONCore
import PhoneNumbers

/// JSON Schemas of the API's data shapes, for `rpc.discover`.
enum Schemas {
    static func ref(_ name: String) -> JSONValue { ["$ref": .string("#/components/schemas/\(name)")] }
    static let string: JSONValue = ["type": "string"]
    static let boolean: JSONValue = ["type": "boolean"]
    static let integer: JSONValue = ["type": "integer"]
    static let nullableString: JSONValue = ["type": ["string", "null"]]
    static let stringArray: JSONValue = ["type": "array", "items": ["type": "string"]]

    /// A contact's properties with those of the declared fields after them, each field
    /// described as its declaration says.
    private static func withDeclared(input: Bool, _ properties: JSONObject) -> JSONValue {
        var all = properties
        for f in DeclaredField.all { all[f.name] = schema(of: f, input: input) }
        for f in FieldDeclaration.all {
            guard case .object(var o)? = all[f.key], o["description"] == nil else { continue }
            o["description"] = .string(f.help)
            all[f.key] = .object(o)
        }
        return .object(all)
    }

    private static func schema(of f: DeclaredField, input: Bool) -> JSONValue {
        let help = JSONValue.string(f.help)
        switch f.value {
        case .text: return ["type": ["string", "null"], "description": help]
        case .list:
            let item = input ? ["oneOf": [string, ref("LabeledValue")]] : ref("LabeledValue")
            return ["type": "array", "items": item, "description": help]
        case .phonetic: return ["oneOf": [ref("PhoneticName"), ["type": "null"]], "description": help]
        }
    }

    static let components: JSONObject = [
        "MailMessage": MailMessage.schema,
        "MailHeader": MailHeader.schema,
        "RankedAddress": MailQuery.rankedAddress,
        "LabeledValue": [
            "type": "object", "required": ["value"],
            "properties": ["value": string, "label": nullableString],
        ],
        "Phone": [
            "type": "object", "required": ["value"],
            "properties": [
                "value": string, "label": nullableString,
                "e164": [
                    "type": ["string", "null"], "description": "The number in E.164, null when it is no number libphonenumber reads",
                ],
                "type": [
                    "type": ["string", "null"],
                    "enum": .array(PhoneNumberType.allCases.map { .string($0.rawValue) } + [.null]),
                ],
            ],
        ],
        "StructuredName": [
            "type": "object",
            "properties": ["family": string, "given": string, "additional": string, "prefix": string, "suffix": string],
        ],
        "PhoneticName": [
            "type": "object",
            "properties": .object(JSONObject(PhoneticName.parts.map { JSONObject.Member($0.key, string) })),
        ],
        "Address": [
            "type": "object",
            "properties": [
                "poBox": string, "extended": string, "street": string, "locality": string, "region": string,
                "postalCode": string, "country": string, "label": nullableString,
            ],
        ],
        "Photo": [
            "oneOf": [
                [
                    "type": "object", "required": ["hash", "mimeType"],
                    "properties": [
                        "hash": string, "mimeType": string, "width": ["type": ["integer", "null"]],
                        "height": ["type": ["integer", "null"]],
                    ],
                ],
                ["type": "object", "required": ["url"], "properties": ["url": string]],
            ]
        ],
        "Contact": [
            "type": "object",
            "required": [
                "id", "uid", "revision", "name", "phones", "emails", "addresses", "urls", "favorite", "groups", "createdAt", "updatedAt",
                "account", "collected",
            ],
            "properties": withDeclared(
                input: false,
                [
                    "id": string, "uid": string, "revision": integer, "name": string,
                    "structuredName": ["oneOf": [ref("StructuredName"), ["type": "null"]]],
                    "nickname": nullableString,
                    "phones": ["type": "array", "items": ref("Phone")],
                    "emails": ["type": "array", "items": ref("LabeledValue")],
                    "addresses": ["type": "array", "items": ref("Address")],
                    "organization": nullableString, "title": nullableString,
                    "birthday": ["type": ["string", "null"], "description": "YYYY-MM-DD, or --MM-DD without a year"],
                    "note": nullableString,
                    "urls": ["type": "array", "items": ref("LabeledValue")],
                    "favorite": boolean, "groups": stringArray,
                    "photo": ["oneOf": [ref("Photo"), ["type": "null"]]],
                    "createdAt": ["type": "string", "format": "date-time"],
                    "updatedAt": ["type": "string", "format": "date-time"],
                    "account": [
                        "type": ["string", "null"],
                        "description": "The sync account it belongs to; null: this machine alone (contacts.move moves it)",
                    ],
                    "collected": [
                        "type": "boolean",
                        "description":
                            "Whether it was collected from mail (mail.add) rather than made by a person: such contacts are left out of lists, views, exports and sync unless asked for; contacts.keep or any edit makes one ordinary",
                    ],
                ]),
        ],
        "ContactInput": [
            "type": "object",
            "description":
                "A contact as a client gives it. 'phone', 'email' and 'address' are single-string shorthands. Any other key is refused (-32602, naming it).",
            "additionalProperties": false,
            "properties": withDeclared(
                input: true,
                [
                    "name": string, "uid": string, "structuredName": ref("StructuredName"), "nickname": nullableString,
                    "phones": ["type": "array", "items": ["oneOf": [string, ref("LabeledValue")]]],
                    "phone": string,
                    "emails": ["type": "array", "items": ["oneOf": [string, ref("LabeledValue")]]],
                    "email": string,
                    "addresses": ["type": "array", "items": ["oneOf": [string, ref("Address")]]],
                    "address": string,
                    "organization": nullableString, "title": nullableString, "birthday": nullableString, "note": nullableString,
                    "urls": ["type": "array", "items": ["oneOf": [string, ref("LabeledValue")]]],
                    "favorite": boolean, "groups": stringArray,
                    "account": [
                        "type": ["string", "null"],
                        "description":
                            "contacts.create only, as its 'account' parameter; refused in changes (contacts.move moves a contact)",
                    ],
                ]),
        ],
        "Group": [
            "type": "object", "required": ["id", "name", "memberCount"],
            "properties": ["id": string, "name": string, "memberCount": integer],
        ],
        "SortKey": SortKey.schema,
    ]
}
