import XCTest

@testable import ContactsCore

/// Each declared field's reader and its key path are one field.
final class DeclaredFieldTests: XCTestCase {
    func testEachFieldReadsWhatItsKeyPathHolds() {
        var full = Contact(name: "Ana Lima")
        full.phoneticName = PhoneticName(given: "ana", family: "lima")
        full.department = "Research"
        full.dates = [LabeledValue(value: "2010-06-12", label: "anniversary")]
        full.related = [LabeledValue(value: "Rui Lima", label: "spouse")]
        full.impp = [LabeledValue(value: "xmpp:ana@example.org")]
        full.pronouns = "she/her"
        full.gender = "female"
        for c in [full, Contact(name: "Nobody")] {
            for f in DeclaredField.all {
                let byPath: DeclaredField.Reading =
                    switch f.value {
                    case .text(let p): .text(c[keyPath: p])
                    case .list(let p, _): .list(c[keyPath: p])
                    case .phonetic(let p): .phonetic(c[keyPath: p])
                    }
                XCTAssertEqual(f.read(c), byPath, f.name)
            }
        }
        XCTAssertTrue(DeclaredField.all.allSatisfy { $0.isPresent(in: full) }, "the test sets every field")
    }
}
