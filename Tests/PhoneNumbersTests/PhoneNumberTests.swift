import PhoneNumbers
import XCTest

/// Numbers of several regions in their national and international forms, as people write
/// them, read by libphonenumber; and what is not a number.
final class PhoneNumberTests: XCTestCase {
    func e164(_ text: String, _ region: String?) -> String? { PhoneNumber.parse(text, region: region)?.e164 }

    func testNationalAndInternationalFormsAreOneNumberInEachRegion() {
        let cases: [(region: String, forms: [String], e164: String)] = [
            ("DE", ["0171 5550199", "+49 171 5550199", "0049 171 5550199", "+49 (0)171 555-0199", "0171/5550199"], "+491715550199"),
            ("US", ["(415) 555-0132", "+1 415-555-0132", "415.555.0132", "1 415 555 0132", "011 1 415 555 0132"], "+14155550132"),
            ("GB", ["020 7946 0018", "+44 20 7946 0018", "0044 20 7946 0018"], "+442079460018"),
            ("FR", ["01 23 45 67 89", "+33 1 23 45 67 89", "0033 1 23 45 67 89"], "+33123456789"),
            ("CN", ["010 1234 5678", "+86 10 1234 5678"], "+861012345678"),
            ("IN", ["098765 43210", "+91 98765 43210", "9876543210"], "+919876543210"),
            ("BR", ["(11) 98765-4321", "+55 11 98765-4321"], "+5511987654321"),
            ("JP", ["03-1234-5678", "+81 3-1234-5678"], "+81312345678"),
        ]
        for c in cases {
            for form in c.forms {
                XCTAssertEqual(e164(form, c.region), c.e164, "\(form) in \(c.region)")
            }
            // Written with its country code, a number needs no region at all.
            XCTAssertEqual(e164(c.forms[1], nil), c.e164, c.forms[1])
        }
    }

    func testTypesNationalNumbersAndWhereTheCountryCameFrom() throws {
        let mobile = try XCTUnwrap(PhoneNumber.parse("0171 5550199", region: "DE"))
        XCTAssertEqual(mobile.type, .mobile)
        XCTAssertEqual(mobile.national, "1715550199")
        XCTAssertEqual(mobile.countryCode, 49)
        XCTAssertFalse(mobile.international)
        XCTAssertTrue(try XCTUnwrap(PhoneNumber.parse("+49 171 5550199", region: "US")).international)
        XCTAssertEqual(PhoneNumber.parse("0800 330 1000", region: "DE")?.type, .tollFree)
        XCTAssertEqual(PhoneNumber.parse("+44 20 7946 0018", region: nil)?.type, .fixedLine)
    }

    func testExtensionsVanityNumbersAndGarbage() {
        // An extension is not part of the E.164 number; the number stays found.
        XCTAssertEqual(e164("+1 415 555 0132 ext. 12", nil), "+14155550132")
        XCTAssertEqual(e164("030 1234567-89", "DE").map { $0.hasPrefix("+4930") }, true)
        // Letters on the keypad.
        XCTAssertEqual(e164("1-800-FLOWERS", "US"), "+18003569377")
        // Not numbers: said so, never a crash.
        for text in ["ask reception", "", "+", "12", "++49", "0", String(repeating: "9", count: 40), "☎️", "0171 5550199 \u{0}"] {
            XCTAssertNil(e164(text, "DE"), text)
        }
        // Without a region a number with no country code is none.
        XCTAssertNil(e164("0171 5550199", nil))
    }

    func testRegionsFromTheLocaleAndCheckedCodes() {
        XCTAssertTrue(PhoneRegion.isKnown("DE"))
        XCTAssertFalse(PhoneRegion.isKnown("de"))
        XCTAssertFalse(PhoneRegion.isKnown("EU"))
        XCTAssertFalse(PhoneRegion.isKnown("ZZ"))
        XCTAssertFalse(PhoneRegion.isKnown("DEU"))
        XCTAssertEqual(PhoneRegion.fromLocale(["LANG": "de_DE.UTF-8"]), "DE")
        XCTAssertEqual(PhoneRegion.fromLocale(["LANG": "en_US.UTF-8", "LC_TELEPHONE": "pt_BR.UTF-8"]), "BR")
        XCTAssertEqual(PhoneRegion.fromLocale(["LC_ALL": "ja_JP.eucJP", "LC_TELEPHONE": "pt_BR.UTF-8"]), "JP")
        XCTAssertEqual(PhoneRegion.fromLocale(["LANG": "sr_RS@latin"]), "RS")
        XCTAssertNil(PhoneRegion.fromLocale(["LANG": "C.UTF-8"]))
        XCTAssertNil(PhoneRegion.fromLocale(["LC_ALL": "POSIX", "LANG": "de_DE.UTF-8"]))
        XCTAssertNil(PhoneRegion.fromLocale([:]))
    }
}
