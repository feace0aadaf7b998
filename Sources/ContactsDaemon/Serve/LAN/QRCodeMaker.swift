import ContactsAPI
import Glibc
import JSONRPC
import QRShim

/// QR codes of devices' links, made by libqrencode (loaded at the first one): the daemon
/// makes them so that contactsctl loads no library of its own.
enum QRCodeMaker {
    /// The code's modules, row by row, as `serve.qrcode` gives them.
    static func rows(_ text: String) throws(RPCError) -> [String] {
        var why = [CChar](repeating: 0, count: 256)
        var data: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0
        guard contactsd_qr_encode(text, &data, &width, &why, why.count) == 0, let data else {
            let reason = String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw RPCError(.unavailable, "no QR code: \(reason)")
        }
        defer { free(data) }
        let n = Int(width)
        let modules = UnsafeBufferPointer(start: data, count: n * n)
        return (0..<n).map { y in
            String(decoding: modules[(y * n)..<(y * n + n)].map { $0 & 1 != 0 ? UInt8(ascii: "1") : UInt8(ascii: "0") }, as: UTF8.self)
        }
    }
}
