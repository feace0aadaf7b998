import ContactsCore
import TestSupport
import VCard
import XCTest

@testable import Duplicates

/// The same people as a phone, Google and an Apple address book export them, and people who
/// only look alike: which are found together, with what score and why.
final class DuplicateFinderTests: XCTestCase {
    /// One person three times and look-alikes (`DuplicateCorpus.cards`).
    static let corpus = DuplicateCorpus.cards

    static func contacts() throws -> [Contact] {
        try VCardParser.parse(corpus).cards.enumerated().map { i, card in
            var c = try VCardMapping.contact(from: card)
            c.id = "C\(i)"
            return c
        }
    }

    func candidates(_ region: String? = "DE") throws -> [DuplicateCandidate] {
        try Self.contacts().map { DuplicateCandidate($0, region: $0.name.contains("Johnson") ? "US" : region) }
    }

    func testTheSamePeopleAreFoundAndLookAlikesAreNot() throws {
        let groups = DuplicateFinder.groups(try candidates())
        let byIDs = Dictionary(uniqueKeysWithValues: groups.map { ($0.ids, $0) })
        // Anna: all three, by email (in any case), phone (in any form) and name (swapped,
        // with and without a middle name).
        let anna = try XCTUnwrap(byIDs[["C0", "C1", "C2"]], "\(groups)")
        XCTAssertEqual(anna.reasons, ["email anna@example.com", "phone +491715550199", "name"])
        XCTAssertEqual(anna.score, 0.96)
        // Accents folded: one person.
        XCTAssertEqual(byIDs[["C3", "C4"]]?.reasons, ["name"])
        XCTAssertEqual(byIDs[["C3", "C4"]]?.score, 0.6)
        // A typo in a long name, with the same number in two forms.
        XCTAssertEqual(byIDs[["C9", "C10"]]?.reasons, ["phone +12125550100", "similar name"])
        XCTAssertEqual(byIDs[["C9", "C10"]]?.score, 0.7)
        // Two Maria Garcia with their own emails and phones; a family's landline.
        XCTAssertNil(byIDs[["C5", "C6"]])
        XCTAssertNil(byIDs[["C7", "C8"]])
        XCTAssertEqual(groups.count, 3)
        XCTAssertEqual(groups.map(\.score), [0.96, 0.7, 0.6], "best first")
    }

    func testALowerMinimumShowsLookAlikesWithTheirReasonsAndScores() throws {
        let groups = DuplicateFinder.groups(try candidates(), minScore: 0.3)
        let byIDs = Dictionary(uniqueKeysWithValues: groups.map { ($0.ids, $0) })
        XCTAssertEqual(byIDs[["C5", "C6"]]?.reasons, ["name"])
        XCTAssertEqual(byIDs[["C5", "C6"]]?.score, 0.34)
        XCTAssertEqual(byIDs[["C7", "C8"]]?.reasons, ["phone +49301234567"])
        XCTAssertEqual(byIDs[["C7", "C8"]]?.score, 0.38)
    }

    func testDismissedPairsAreNotJoined() throws {
        let groups = DuplicateFinder.groups(try candidates(), dismissed: [IDPair("C4", "C3")])
        XCTAssertFalse(groups.contains { $0.ids.contains("C3") })
        XCTAssertEqual(groups.count, 2)
        XCTAssertEqual(DuplicateFinder.groups(try candidates(), limit: 1).count, 1)
    }

    func testASharedMessagingAddressIsEvidence() throws {
        // One person as a phone saved them (a nickname and a Jabber address) and as a mail
        // client did (the full name and the same address as IMPP, in another case).
        var phone = Contact(name: "Ana")
        phone.id = "P"
        phone.impp = [LabeledValue(value: "xmpp:ana.lima@jabber.example")]
        var mail = Contact(name: "Ana Lima")
        mail.id = "M"
        mail.impp = [LabeledValue(value: "XMPP:Ana.Lima@jabber.example")]
        var other = Contact(name: "Ana Souza")
        other.id = "O"
        other.impp = [LabeledValue(value: "xmpp:ana.souza@jabber.example")]
        let groups = DuplicateFinder.groups([phone, mail, other].map { DuplicateCandidate($0, region: "BR") })
        XCTAssertEqual(groups.map { Set($0.ids) }, [["M", "P"]])
        XCTAssertEqual(groups.first?.reasons, ["im xmpp:ana.lima@jabber.example"])
    }

    func testAnEmailInAnotherCaseAndANumberInAnotherFormAreShared() throws {
        // No region to read numbers in: one written with its country code, one without.
        var kate = Contact(name: "Kate Bell")
        kate.id = "K"
        kate.emails = [LabeledValue(value: "kate-bell@mac.com")]
        kate.phones = [LabeledValue(value: "(555) 564-8583", label: "mobile")]
        var katherine = Contact(name: "Katherine Bell")
        katherine.id = "KB"
        katherine.emails = [LabeledValue(value: "Kate-Bell@MAC.com")]
        katherine.phones = [LabeledValue(value: "+1 555-564-8583", label: "mobile")]
        let groups = DuplicateFinder.groups([kate, katherine].map { DuplicateCandidate($0, region: nil) })
        XCTAssertEqual(groups.map { Set($0.ids) }, [["K", "KB"]], "shown by default")
        XCTAssertGreaterThan(groups.first?.score ?? 0, 0.6, "an email and a number shared; the names differ")
        XCTAssertEqual(groups.first?.reasons.filter { $0.hasPrefix("phone") }.count, 1, "\(groups)")
        // Merged, the number is there once.
        let merged = ContactMerge.merge([kate, katherine], into: 0, region: nil)
        XCTAssertEqual(merged.phones.map(\.value), ["(555) 564-8583"])
        XCTAssertEqual(merged.emails.count, 1)
        // A number that the other is not, read in its country, is another number.
        XCTAssertFalse(DuplicateCandidate.samePhone("+15555648584", "5555648583"))
        XCTAssertFalse(DuplicateCandidate.samePhone("+4915555648583", "5555648583"))
        XCTAssertTrue(DuplicateCandidate.samePhone("+4917155501990", "017155501990"))
    }

    func testAKeyTooManyShareIsNoEvidence() throws {
        // A company's switchboard and shared inbox on 60 cards: people one edit of the name
        // apart ("Staff 1 Person", "Staff 2 Person", …) are told apart by nothing else.
        let many = (0..<60).map { i in
            DuplicateCandidate(
                id: "S\(i)", name: "Staff \(i) Person", structuredName: nil, emails: ["info@acme.example"], phones: ["+4930900000"])
        }
        XCTAssertEqual(DuplicateFinder.groups(many, minScore: 0.5), [])
        // Three such cards are a small block: there the shared values are evidence.
        let few = DuplicateFinder.groups(Array(many.prefix(3)), minScore: 0.5)
        XCTAssertEqual(few.first?.ids, ["S0", "S1", "S2"])
        XCTAssertEqual(few.first?.reasons, ["email info@acme.example", "phone +4930900000", "name"])
    }

    func testACommonNameIsWeakEvidenceAndARareOneStrong() throws {
        // A book where García and María are common: thirty people called María García, some
        // known by a number alone, some by an address alone, so that nothing tells them apart
        // but nothing says they differ either; and others with the same family name.
        var book: [DuplicateCandidate] = []
        for i in 0..<30 {
            let phoneOnly = i % 2 == 0
            book.append(
                DuplicateCandidate(
                    id: "M\(i)", name: "María García", structuredName: nil, emails: phoneOnly ? [] : ["maria\(i)@example.org"],
                    phones: phoneOnly ? ["+3460000\(1000 + i)"] : []))
        }
        for i in 0..<40 {
            book.append(
                DuplicateCandidate(id: "G\(i)", name: "Given\(i) García", structuredName: nil, emails: [], phones: ["+3461000\(1000 + i)"]))
        }
        // Two Xiomara Oyelaran, one known by her number, one by her address: likely one woman.
        book.append(DuplicateCandidate(id: "X0", name: "Xiomara Oyelaran", structuredName: nil, emails: [], phones: ["+2348030000001"]))
        book.append(DuplicateCandidate(id: "X1", name: "Oyelaran Xiomara", structuredName: nil, emails: ["xo@example.ng"], phones: []))
        // A copy of one María García from her phone: the same number, written otherwise.
        book.append(DuplicateCandidate(id: "MC", name: "Maria Garcia", structuredName: nil, emails: [], phones: ["+34600001004"]))
        let groups = DuplicateFinder.groups(book)
        XCTAssertEqual(groups.map(\.ids).sorted { $0[0] < $1[0] }, [["M4", "MC"], ["X0", "X1"]], "\(groups)")
        XCTAssertEqual(groups.first { $0.ids == ["X0", "X1"] }?.score, 0.6, "a rare name has its full weight")
        // Two of the namesakes score low: their name counts by its rarer word, María, which
        // 29 others besides them have (García: 69).
        let names = NameCommonness(book)
        let (score, reasons) = DuplicateFinder.score(book[0], book[1]) { names.weight(0, key: $0, full: DuplicateFinder.Weight.name) }
        XCTAssertEqual(reasons, ["name"])
        XCTAssertEqual(score, 0.6 * 20 / 49, accuracy: 0.001)
        XCTAssertEqual(names.weight(70, key: 0, full: 0.6), 0.6, "Oyelaran: nobody else")
    }

    func testNameWordsAreLettersAndNumbersAsCharactersTellThem() {
        let names = [
            "José Núñez-Ortiz", "O'Brien, Seán", "Anna  Maria\tSchmidt", "Zoë Ångström", "Ђорђе Петровић", "Γιώργος Παπαδόπουλος",
            "王小明", "山田 太郎", "김민준", "Nguyễn Văn An", "Ahmed محمد", "R2-D2 (droid)", "Anna 😀 Lee", "Łukasz Żółć", "ß straße",
            "Mary-Jane   Watson Jr.", "", "  ", "Ǆemal Ǉubić", "ⅫMike", "Ünal·Öz", "Ali–Veli",
        ]
        for name in names {
            let expected = SearchFolding.fold(name).split { !$0.isLetter && !$0.isNumber }.map(String.init)
            XCTAssertEqual(NameKey.words(name), expected, name)
        }
    }

    func testNamesOneEditApart() {
        func close(_ a: String, _ b: String) -> Bool { DuplicateFinder.closeNames(a, b) }
        XCTAssertTrue(close("johnson katherine", "johnson katharine"))
        XCTAssertTrue(close("johnson katherine", "johnson katherinee"))
        XCTAssertTrue(close("johnson katherine", "johnson katherin"))
        XCTAssertFalse(close("johnson katherine", "johnson kathryn"))
        XCTAssertFalse(close("bo lee", "bo lea"), "too short to tell a typo")
        let a = Array("abcdefg".unicodeScalars), b = Array("abcdeg".unicodeScalars)
        XCTAssertFalse(Set(NameKey.neighbourhood(a)).isDisjoint(with: NameKey.neighbourhood(b)))
    }
}
