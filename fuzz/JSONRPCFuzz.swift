// libFuzzer target: line framing, the JSON parser and the JSON-RPC engine must never crash, and
// every reply must be one line of valid JSON.
import JSONCore
import JSONRPC

let engine = RPCEngine(
    info: RPCServiceInfo(title: "fuzz", version: "1", description: "fuzz"),
    methods: [
        RPCMethod("echo", summary: "echo", params: [RPCParam("v", "v", schema: [:])], resultSchema: [:]) { call in call.params["v"] ?? .null }
    ])

@_cdecl("LLVMFuzzerTestOneInput")
public func jsonrpcFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var framer = LineFramer(maxLineBytes: 4096)
    framer.append(UnsafeRawBufferPointer(start: data, count: size))
    while case .line(let line) = framer.next() {
        guard let reply = engine.handle(Array(line)) else { continue }
        if reply.contains(0x0A) { fatalError("a reply spans lines") }
        if (try? JSONParser.parse(reply)) == nil { fatalError("a reply is not JSON") }
    }
    return 0
}
