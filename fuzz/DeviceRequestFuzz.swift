// libFuzzer target: the network face's request path, as the listener calls it for a request
// from a stranger (`DeviceGate.handle`: the Authorization header, the rate limit, a device's
// view, DAV paths and hrefs, XML bodies, vCard bodies of PUTs), against books in memory. It
// must never crash or hang, answer every request with a status, and never answer a request
// that did not sign in with the device's password with anything but 401 or 429.
import CardDAVServer
import Foundation
import HTTPServer

final class OneDevice: DeviceDirectory {
    func signIn(_ name: String, _ password: String) -> DeviceAccess? {
        name == "phone" && password == "pw" ? DeviceAccess(name: "phone", books: ["local"], readOnly: false) : nil
    }
    func failedSignIn(_ name: String, from address: String, now: Int64) {}
    func seen(_ name: String, from address: String, now: Int64) {}
}

let books = MemoryBooks([
    "local": ["kate.vcf": "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:kate\r\nFN:Kate Bell\r\nN:Bell;Kate;;;\r\nEND:VCARD\r\n"], "family": [:],
])
// A limit no run reaches, so that every input goes through the sign-in and what follows.
let gate = DeviceGate(
    books: books, devices: OneDevice(), limiter: SignInLimiter(limit: Int.max), maxResourceSize: 1 << 20, clock: { 0 }, note: { _ in })
let methods = ["PROPFIND", "REPORT", "GET", "PUT", "DELETE", "PROPPATCH", "OPTIONS", "HEAD", "MKCOL", "POST"]

@_cdecl("LLVMFuzzerTestOneInput")
public func deviceRequestFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let first = bytes.first else { return 0 }
    // The first byte picks the method and whether the right credentials go first; the rest is
    // path, Authorization, Depth and body, split at NUL bytes.
    let fields = bytes.dropFirst().split(separator: 0, maxSplits: 3, omittingEmptySubsequences: false).map {
        String(decoding: $0, as: UTF8.self)
    }
    func field(_ i: Int) -> String { i < fields.count ? fields[i] : "" }
    let signedIn = first & 0x80 != 0
    var headers = ["Depth": field(2)]
    headers["Authorization"] = signedIn ? "Basic " + Data("phone:pw".utf8).base64EncodedString() : field(1)
    var request = HTTPRequest(
        method: methods[Int(first & 0x7f) % methods.count], path: "/" + field(0), headers: headers, body: Array(field(3).utf8))
    request.peerAddress = "198.18.0.2"
    let response = gate.handle(request)
    guard (100...599).contains(response.status) else { fatalError("no status: \(response.status)") }
    let password = BasicCredentials.parse(headers["Authorization"])?.password
    if !signedIn && password != "pw" && response.status != 401 && response.status != 429 {
        fatalError("answered \(response.status) without the password, to \(headers["Authorization"] ?? "")")
    }
    return 0
}
