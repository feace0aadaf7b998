import Glibc
import JSONCore

/// One JSON-RPC request over the daemon's Unix socket and its result, for a program that asks
/// one thing and ends. Nil when anything is not as expected (no daemon, an error, a reply
/// that does not parse): the caller then leaves it to the full client, which says why.
public enum OneRequest {
    public static func result(socket path: String, method: String, params: JSONValue) -> JSONValue? {
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: addr.sun_path)
        guard path.utf8.count < capacity else { return nil }
        withUnsafeMutableBytes(of: &addr.sun_path) { dest in
            for (i, b) in path.utf8.enumerated() { dest[i] = b }
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let connected = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { return nil }
        var request = JSONWriter.serialize(["jsonrpc": "2.0", "id": 1, "method": .string(method), "params": params])
        request.append(0x0A)
        guard sendAll(fd, request), let line = receiveLine(fd), let reply = try? JSONParser.parse(line) else { return nil }
        return reply["error"] == nil ? reply["result"] : nil
    }

    private static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }

    /// The first line the daemon sends, without its newline.
    private static func receiveLine(_ fd: Int32) -> [UInt8]? {
        var line: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            if let end = chunk[0..<n].firstIndex(of: 0x0A) {
                line.append(contentsOf: chunk[0..<end])
                return line
            }
            line.append(contentsOf: chunk[0..<n])
        }
    }
}
