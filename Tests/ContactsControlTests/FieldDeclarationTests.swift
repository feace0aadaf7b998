import ContactsAPI
import ContactsCore
import XCTest

@testable import ContactsControl

/// The client's form, `show`, options, `--clear` and list edits all come from the fields'
/// declarations: a field declared is a field the client can set, show and clear.
final class FieldDeclarationTests: XCTestCase {
    func testEveryFieldAClientSetsIsDeclared() {
        let declared = Set(FieldDeclaration.all.map(\.key))
        // The shorthands of one value and the UID are the API's, not fields of their own.
        let editable = Set(Contact.editableFields).subtracting(["uid", "phone", "email", "address"])
        XCTAssertEqual(editable.subtracting(declared), [], "fields a client sets without a declaration")
        XCTAssertEqual(declared.subtracting(editable), [], "declared fields no client can set")
        for f in DeclaredField.all { XCTAssertEqual(FieldDeclaration.named(f.name)?.label, f.label) }
        XCTAssertEqual(Set(FieldDeclaration.shapeKeys), Set(Contact.Fields.names), "what a client may ask for is the shape")
    }

    func testEachDeclaredOptionIsAnOptionOfAddAndEdit() throws {
        let add = try XCTUnwrap(CommandTree.root.subcommands.first { $0.name == "add" })
        let edit = try XCTUnwrap(CommandTree.root.subcommands.first { $0.name == "edit" })
        for f in FieldDeclaration.all {
            guard let option = f.option else { continue }
            for command in [add, edit] {
                let spec = command.options.first { $0.name == option }
                XCTAssertEqual(spec?.repeats, f.isList, "\(command.name) --\(option)")
                XCTAssertEqual(spec?.short, f.short, "\(command.name) --\(option)")
            }
            if let removal = f.removal { XCTAssertTrue(edit.options.contains { $0.name == removal.option }, removal.option) }
        }
        XCTAssertEqual(
            CommandTree.clearable.sorted(),
            [
                "addresses", "birthday", "dates", "department", "emails", "gender", "groups", "impp", "nickname", "note", "organization",
                "phones", "phoneticName", "pronouns", "related", "title", "urls",
            ])
    }

    func testEveryListWithAnOptionHasItsEdit() {
        let lists = FieldDeclaration.all.filter { $0.isList && $0.option != nil }.map(\.key)
        XCTAssertEqual(ListEdit.all.map(\.field), lists)
        XCTAssertEqual(ListEdit.all.first { $0.field == "impp" }?.noun, "messaging address")
    }

    func testTheFormHasALineForEveryFieldAndReadsItsOwnLabels() {
        let form = ContactForm.text(for: nil)
        for l in ContactForm.lines { XCTAssertTrue(form.contains("\n\(l.label):"), "the form has no line '\(l.label):'") }
        XCTAssertEqual(Set(ContactForm.lines.map(\.field.key)), Set(FieldDeclaration.all.map(\.key)))
    }

    func testShowGivesEachDeclaredFieldItsRow() {
        let rows = ContactView.rows(
            [
                "name": "Ada", "nickname": "A", "title": "Countess", "organization": "Analytical",
                "phones": [["value": "1", "label": "home"]], "impp": [["value": "xmpp:ada@example.org"]], "groups": ["Math", "Poetry"],
                "pronouns": "she/her", "phoneticName": ["given": "ada", "middle": "", "family": "lovelace"],
            ], output: Output(environment: ["NO_COLOR": "1"])
        ).map { "\($0.0): \($0.1)" }
        XCTAssertEqual(
            Array(rows.prefix(7)),
            [
                "reading: ada lovelace", "nickname: A", "pronouns: she/her", "work: Countess, Analytical", "phone: 1 (home)",
                "im: xmpp:ada@example.org", "groups: Math, Poetry",
            ])
    }
}
