import ContactsCore
import JSONCore
import VCard
import XCTest

@testable import ContactsStore

/// The stored JSON of a contact's fields and vCard properties, written directly: it must say
/// exactly what the general JSON writer says for the same values, and read back whole.
final class StoredFormatTests: XCTestCase {
    let awkward = "Zoë \"Q\" \\ back\nslash\t\u{1}\u{7F} 张三 🎉"

    func fullContact() -> Contact {
        var c = Contact(name: awkward)
        c.structuredName = StructuredName(family: "Ångström", given: awkward, additional: "", prefix: "Dr.", suffix: "")
        c.nickname = "Z"
        c.phones = [LabeledValue(value: "+47 22 33 44 55", label: "mobile"), LabeledValue(value: "123", label: nil)]
        c.emails = [LabeledValue(value: "zoe@example.com", label: awkward)]
        var a = PostalAddress()
        a.street = "Storgata 1\nBygg 2"
        a.locality = "Oslo"
        a.country = "Norway"
        a.poBox = "PB 7"
        c.addresses = [a, PostalAddress()]
        c.organization = "Acme"
        c.title = awkward
        c.birthday = "--04-12"
        c.note = "line one\r\nline two"
        c.urls = [LabeledValue(value: "https://example.com", label: "work")]
        c.phoneticName = PhoneticName(given: "ぞえ", family: awkward)
        c.department = awkward
        c.dates = [LabeledValue(value: "2010-06-12", label: "anniversary"), LabeledValue(value: "--01-02")]
        c.related = [LabeledValue(value: awkward, label: "spouse")]
        c.impp = [LabeledValue(value: "xmpp:zoe@example.com", label: awkward)]
        c.pronouns = "she/her"
        c.gender = awkward
        for f in DeclaredField.all { precondition(f.isPresent(in: c), "fullContact lacks \(f.name)") }
        c.photo = .stored(hash: String(repeating: "ab", count: 32), mimeType: "image/jpeg", width: 640, height: nil)
        return c
    }

    func referenceBody(_ c: Contact) -> String {
        var o = JSONObject()
        if let n = c.structuredName { o["structuredName"] = n.json }
        if let v = c.nickname { o["nickname"] = .string(v) }
        if !c.phones.isEmpty { o["phones"] = .array(c.phones.map(\.json)) }
        if !c.emails.isEmpty { o["emails"] = .array(c.emails.map(\.json)) }
        if !c.addresses.isEmpty { o["addresses"] = .array(c.addresses.map(\.json)) }
        if let v = c.organization { o["organization"] = .string(v) }
        if let v = c.title { o["title"] = .string(v) }
        if let v = c.birthday { o["birthday"] = .string(v) }
        if let v = c.note { o["note"] = .string(v) }
        if !c.urls.isEmpty { o["urls"] = .array(c.urls.map(\.json)) }
        let shown = c.json
        for f in DeclaredField.all where f.isPresent(in: c) { o[f.name] = shown[f.name] }
        if let p = c.photo { o["photo"] = p.json }
        return JSONWriter.string(.object(o))
    }

    func decodedBody(_ text: String) -> Contact {
        var c = Contact(name: "x")
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { StoredBody.decode($0, into: &c) }
        return c
    }

    func testTheBodySaysWhatTheGeneralWriterSaysAndReadsBack() throws {
        var c = fullContact()
        XCTAssertEqual(StoredBody.encode(c), referenceBody(c))
        var back = decodedBody(StoredBody.encode(c))
        back.name = c.name
        XCTAssertEqual(back, c)
        c.photo = .url("https://example.com/me.jpg")
        XCTAssertEqual(StoredBody.encode(c), referenceBody(c))
        let bare = Contact(name: "Only a name")
        XCTAssertEqual(StoredBody.encode(bare), "{}")
    }

    func testTheVCardPropertiesSayWhatTheGeneralWriterSaysAndReadBack() throws {
        let card = VCardParser.parse(
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:\(awkward.replacingOccurrences(of: "\n", with: "\\n"))\r\nN:Bell;Kate;;;\r\n"
                + "item1.EMAIL;TYPE=INTERNET,pref:kate@example.com\r\nitem1.X-ABLabel:_$!<Other>!$_\r\n"
                + "X-CUSTOM;FOO=\"a;b\";BAR:v1;v2\\,x\r\nCATEGORIES:a,b\\,c\r\nEND:VCARD\r\n"
        ).cards[0]
        let props = card.properties
        let reference: JSONValue = .array(
            props.map { p in
                var o = JSONObject()
                if let g = p.group { o["g"] = .string(g) }
                o["n"] = .string(p.writtenName)
                if !p.parameters.isEmpty {
                    o["p"] = .array(
                        p.parameters.map {
                            .array([$0.writtenName.map(JSONValue.string) ?? .null, .array($0.values.map(JSONValue.string))])
                        })
                }
                switch p.value {
                case .raw(let r): o["r"] = .string(r)
                case .text(let c): o["t"] = .array(c.map { .array($0.map(JSONValue.string)) })
                }
                return .object(o)
            })
        let text = try XCTUnwrap(StoredProperties.encode(props))
        XCTAssertEqual(text, JSONWriter.string(reference))
        let back = Array(text.utf8).withUnsafeBytes { StoredProperties.decode($0) }
        // Line numbers belong to the file the card came from and are not kept.
        XCTAssertEqual(
            back,
            props.map {
                var p = $0; p.line = 0; return p
            })
        XCTAssertNil(StoredProperties.encode(nil))
        XCTAssertEqual(StoredProperties.encode([]), "[]")
    }
}
