import JSONCore
import XCTest

final class JSONParserTests: XCTestCase {
    func testParse_readsEveryKindOfValue() throws {
        let v = try JSONParser.parse(#"{"a":[1,-2.5e3,true,false,null,"x\n\u00e9\ud83d\ude00"],"b":{}}"#)
        XCTAssertEqual(v["a"], [1, .number("-2.5e3"), true, false, .null, .string("x\né😀")])
        XCTAssertEqual(v["b"], .object(JSONObject()))
    }

    func testParse_keepsNumbersExactlyAsWritten() throws {
        let v = try JSONParser.parse("[12345678901234567890, 1.0, 1e2]")
        XCTAssertEqual(v.arrayValue?[0], .number("12345678901234567890"))
        XCTAssertEqual(JSONWriter.string(v), "[12345678901234567890,1.0,1e2]")
        XCTAssertEqual(v.arrayValue?[1].intValue, 1)
        XCTAssertEqual(v.arrayValue?[2].intValue, 100)
        XCTAssertNil(JSONValue.number("1.5").intValue)
        XCTAssertNil(JSONValue.number("1e300").intValue)
    }

    func testParse_refusesMalformedTextWithTheOffset() {
        let cases: [(String, Int)] = [
            ("", 0), ("{", 1), (#"{"a" 1}"#, 5), ("[1,]", 3), ("01", 1), ("1.", 0), ("-", 0), ("tru", 0),
            (#""abc"#, 0), ("[1] x", 4), (#"{"a":1,}"#, 7), ("\"\u{01}\"", 1), (#""\x""#, 1), (#""\ud800""#, 1),
        ]
        for (text, offset) in cases {
            XCTAssertThrowsError(try JSONParser.parse(text), "\(text)") { e in
                XCTAssertEqual((e as? JSONParseError)?.offset, offset, "offset for \(text): \(e)")
            }
        }
    }

    func testParse_refusesInvalidUTF8() {
        let bytes: [UInt8] = [0x22, 0x61, 0xFF, 0x22]
        XCTAssertThrowsError(try JSONParser.parse(bytes)) { e in
            XCTAssertTrue("\(e)".contains("UTF-8"))
        }
    }

    func testParse_refusesDeepNestingWithoutCrashing() {
        let deep = String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000)
        XCTAssertThrowsError(try JSONParser.parse(deep)) { e in
            XCTAssertTrue("\(e)".contains("nested deeper"))
        }
        let ok = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        XCTAssertNoThrow(try JSONParser.parse(ok))
    }

    func testParse_lastDuplicateKeyWins() throws {
        let v = try JSONParser.parse(#"{"a":1,"a":2}"#)
        XCTAssertEqual(v["a"], 2)
    }

    func testWriter_escapesControlCharactersAndNeverWritesARawNewline() throws {
        let original: JSONValue = ["k\"ey": .string("line1\nline2\r\t\u{0}\u{1F}\\ \u{2028} ü 张")]
        let text = JSONWriter.string(original)
        XCTAssertFalse(text.contains("\n"))
        XCTAssertTrue(text.contains(#"\u0000"#))
        XCTAssertEqual(try JSONParser.parse(text), original)
    }

    func testWriter_roundTripsNestedValues() throws {
        let v: JSONValue = ["a": [1, 2, ["b": .null]], "c": "d", "e": false]
        XCTAssertEqual(try JSONParser.parse(JSONWriter.string(v)), v)
        XCTAssertEqual(JSONWriter.string(v), #"{"a":[1,2,{"b":null}],"c":"d","e":false}"#)
    }

    func testMembers_readsTheKeysAskedForAndStepsOverTheRest() throws {
        let text = #"{"note":"a \"quoted\" } ] text","emails":[{"value":"a@b.c"}],"skip":{"x":[1,{"y":"]}"}]},"n":-1.5e3,"phones":[]}"#
        let found = try Array(text.utf8).withUnsafeBytes { try JSONParser.members($0, ["phones", "emails", "absent", "n"]) }
        XCTAssertEqual(found[0], .array([]))
        XCTAssertEqual(found[1], .array([["value": "a@b.c"]]))
        XCTAssertNil(found[2])
        XCTAssertEqual(found[3], .number("-1.5e3"))
        XCTAssertEqual(try Array("{}".utf8).withUnsafeBytes { try JSONParser.members($0, ["a"]) }, [nil])
        for bad in ["[]", #"{"a":"#, #"{"a":{"b":1}"#, #"{"a" 1}"#, #"{"skip":"open}"#, #"{"a":tru}"#] {
            XCTAssertThrowsError(try Array(bad.utf8).withUnsafeBytes { try JSONParser.members($0, ["a"]) }, bad)
        }
    }
}
