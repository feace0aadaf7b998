import JSONCore
import JSONRPC
import XCTest

/// The examples of section 7 of the JSON-RPC 2.0 specification, and the error rules.
final class RPCEngineTests: XCTestCase {
    let engine = RPCEngine(
        info: RPCServiceInfo(title: "test", version: "1", description: "test service"),
        methods: [
            RPCMethod(
                "subtract", summary: "a - b",
                params: [
                    RPCParam("minuend", "a", schema: ["type": "integer"], required: true),
                    RPCParam("subtrahend", "b", schema: ["type": "integer"], required: true),
                ],
                resultSchema: ["type": "integer"]
            ) { call in
                guard let a = call.params["minuend"]?.intValue, let b = call.params["subtrahend"]?.intValue else {
                    throw RPCError.invalidParams("two integers needed")
                }
                return .int(a - b)
            },
            RPCMethod(
                "sum", summary: "sum", params: (1...3).map { RPCParam("n\($0)", "n", schema: ["type": "integer"]) },
                resultSchema: ["type": "integer"]
            ) { call in
                .int(call.params.object.compactMap { $0.value.intValue }.reduce(0, +))
            },
            RPCMethod(
                "notify_hello", summary: "hello", params: [RPCParam("n", "n", schema: ["type": "integer"])], resultSchema: ["type": "null"]
            ) { _ in .null },
            RPCMethod("get_data", summary: "data", resultSchema: ["type": "array"]) { _ in ["hello", 5] },
            RPCMethod(
                "update", summary: "update", params: (1...5).map { RPCParam("n\($0)", "n", schema: ["type": "integer"]) },
                resultSchema: ["type": "null"]
            ) { _ in .null },
            RPCMethod("boom", summary: "fails", resultSchema: ["type": "null"]) { _ in
                struct Unexpected: Error {}
                throw Unexpected()
            },
        ])

    func reply(_ text: String) throws -> JSONValue? {
        guard let bytes = engine.handle(Array(text.utf8)) else { return nil }
        XCTAssertFalse(bytes.contains(0x0A), "a reply is one line")
        return try JSONParser.parse(bytes)
    }

    func testPositionalParameters() throws {
        XCTAssertEqual(
            try reply(#"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#), ["jsonrpc": "2.0", "result": 19, "id": 1])
        XCTAssertEqual(
            try reply(#"{"jsonrpc": "2.0", "method": "subtract", "params": [23, 42], "id": 2}"#),
            ["jsonrpc": "2.0", "result": -19, "id": 2])
    }

    func testARequiredParameterThatIsMissingIsRefusedBeforeTheHandlerRuns() throws {
        let r = try reply(#"{"jsonrpc": "2.0", "method": "subtract", "params": {"minuend": 42}, "id": 4}"#)
        XCTAssertEqual(r?["error"]?["code"], -32602)
        XCTAssertEqual(r?["error"]?["message"], "Invalid params: 'subtrahend' is required", "not the handler's own message")
        XCTAssertEqual(
            try reply(#"{"jsonrpc": "2.0", "method": "subtract", "params": [42], "id": 5}"#)?["error"]?["message"],
            "Invalid params: 'subtrahend' is required")
    }

    func testNamedParameters() throws {
        XCTAssertEqual(
            try reply(#"{"jsonrpc": "2.0", "method": "subtract", "params": {"subtrahend": 23, "minuend": 42}, "id": 3}"#),
            ["jsonrpc": "2.0", "result": 19, "id": 3])
    }

    func testNotificationsGetNoReply() throws {
        XCTAssertNil(try reply(#"{"jsonrpc": "2.0", "method": "update", "params": [1,2,3,4,5]}"#))
        XCTAssertNil(try reply(#"{"jsonrpc": "2.0", "method": "foobar"}"#))
        XCTAssertNil(try reply(#"{"jsonrpc": "2.0", "method": "boom"}"#))
    }

    func testUnknownMethod() throws {
        let r = try reply(#"{"jsonrpc": "2.0", "method": "foobar", "id": "1"}"#)
        XCTAssertEqual(r?["error"]?["code"], -32601)
        XCTAssertEqual(r?["id"], "1")
    }

    func testInvalidJSON() throws {
        let r = try reply(#"{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]"#)
        XCTAssertEqual(r?["error"]?["code"], -32700)
        XCTAssertEqual(r?["id"], .null)
    }

    func testInvalidRequestObject() throws {
        let r = try reply(#"{"jsonrpc": "2.0", "method": 1, "params": "bar"}"#)
        XCTAssertEqual(r?["error"]?["code"], -32600)
        XCTAssertEqual(r?["id"], .null)
    }

    func testBatchWithInvalidJSON() throws {
        let r = try reply(#"[{"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},{"jsonrpc": "2.0", "method"]"#)
        XCTAssertEqual(r?["error"]?["code"], -32700)
    }

    func testEmptyArray() throws {
        XCTAssertEqual(try reply("[]")?["error"]?["code"], -32600)
    }

    func testInvalidBatches() throws {
        XCTAssertEqual(try reply("[1]")?.arrayValue?.map { $0["error"]?["code"] }, [-32600])
        XCTAssertEqual(try reply("[1,2,3]")?.arrayValue?.map { $0["error"]?["code"] }, [-32600, -32600, -32600])
    }

    func testMixedBatch() throws {
        let r = try reply(
            """
            [{"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},
             {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]},
             {"jsonrpc": "2.0", "method": "subtract", "params": [42,23], "id": "2"},
             {"foo": "boo"},
             {"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"},
             {"jsonrpc": "2.0", "method": "get_data", "id": "9"}]
            """)
        let replies = try XCTUnwrap(r?.arrayValue)
        XCTAssertEqual(replies.count, 5)
        XCTAssertEqual(replies[0], ["jsonrpc": "2.0", "result": 7, "id": "1"])
        XCTAssertEqual(replies[1], ["jsonrpc": "2.0", "result": 19, "id": "2"])
        XCTAssertEqual(replies[2]["error"]?["code"], -32600)
        XCTAssertEqual(replies[2]["id"], .null)
        XCTAssertEqual(replies[3]["error"]?["code"], -32601)
        XCTAssertEqual(replies[4], ["jsonrpc": "2.0", "result": ["hello", 5], "id": "9"])
    }

    func testBatchOfNotificationsGetsNothing() throws {
        XCTAssertNil(
            try reply(
                #"[{"jsonrpc": "2.0", "method": "notify_sum", "params": [1,2,4]},{"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}]"#
            ))
    }

    func testWrongVersionAndBadIdAreInvalidRequests() throws {
        XCTAssertEqual(try reply(#"{"jsonrpc":"1.0","method":"get_data","id":7}"#)?["id"], 7)
        XCTAssertEqual(try reply(#"{"jsonrpc":"1.0","method":"get_data","id":7}"#)?["error"]?["code"], -32600)
        XCTAssertEqual(try reply(#"{"jsonrpc":"2.0","method":"get_data","id":{}}"#)?["error"]?["code"], -32600)
        XCTAssertEqual(try reply(#"{"jsonrpc":"2.0","method":"get_data","params":"x","id":1}"#)?["error"]?["code"], -32600)
    }

    func testTooManyPositionalParameters() throws {
        XCTAssertEqual(try reply(#"{"jsonrpc":"2.0","method":"subtract","params":[1,2,3],"id":1}"#)?["error"]?["code"], -32602)
    }

    func testAnUnexpectedErrorIsAnInternalError() throws {
        XCTAssertEqual(try reply(#"{"jsonrpc":"2.0","method":"boom","id":1}"#)?["error"]?["code"], -32603)
    }

    func testDiscover_describesEveryMethod() throws {
        let doc = try XCTUnwrap(try reply(#"{"jsonrpc":"2.0","method":"rpc.discover","id":1}"#)?["result"])
        XCTAssertEqual(doc["openrpc"]?.stringValue?.hasPrefix("1."), true)
        let names = doc["methods"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
        XCTAssertEqual(names, ["subtract", "sum", "notify_hello", "get_data", "update", "boom", "rpc.discover"])
        XCTAssertEqual(doc["methods"]?.arrayValue?[0]["params"]?.arrayValue?.count, 2)
    }
}
