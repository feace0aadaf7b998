import ContactsSupport
import VCard

/// A photo's bytes with what is known about them: what a card carried inline (base64 in any
/// 2.1/3.0 spelling, or a data URI), or what a client sent, ready to be stored by content.
public struct PhotoData: Sendable, Equatable {
    public var bytes: [UInt8]
    public var mimeType: String
    public var width: Int?
    public var height: Int?
    /// The content address: `sha256:` and the hex digest, worked out once.
    public var hash: String

    /// `hash`, when the caller has it already, must be the bytes' content address.
    public init(bytes: [UInt8], mimeType: String, width: Int? = nil, height: Int? = nil, hash: String? = nil) {
        self.bytes = bytes
        self.mimeType = mimeType
        self.width = width
        self.height = height
        self.hash = hash ?? ContentAddress.of(bytes)
    }

    /// What a contact keeps of it: the content address, type and size.
    public var reference: PhotoReference { .stored(hash: hash, mimeType: mimeType, width: width, height: height) }

    /// The photo a card's PHOTO property carries inline, or nil when it carries none.
    public static func decode(_ p: VCardProperty) -> PhotoData? {
        guard case .raw(let r) = p.value, !r.isEmpty else { return nil }
        var payload = Substring(r)
        var mime: String?
        if r.hasPrefix("data:") {
            // data:image/jpeg;base64,... (some producers escape the comma)
            guard let comma = r.firstIndex(of: ",") else { return nil }
            var head = r[r.index(r.startIndex, offsetBy: 5)..<comma]
            if head.hasSuffix("\\") { head = head.dropLast() }
            guard head.lowercased().hasSuffix(";base64") else { return nil }
            mime = String(head.dropLast(7))
            payload = r[r.index(after: comma)...]
        } else {
            let encoded = p.parameterValues("ENCODING") + p.parameterValues("TYPE")
            let declared = encoded.contains("B") || encoded.contains("BASE64")
            if !declared {
                // Undeclared: only a long run of the base64 alphabet (whitespace aside) counts.
                var letters = 0
                for b in r.utf8 {
                    switch b {
                    case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="): letters += 1
                    case 0x20, 0x09, 0x0A, 0x0D: continue
                    default: return nil
                    }
                }
                guard letters > 32 else { return nil }
            }
            mime = p.parameterValues("TYPE").lazy.compactMap(ImageFormat.mimeType(vCardType:)).first ?? p.parameter("MEDIATYPE")
        }
        guard let bytes = Base64.decode(payload.utf8, lenient: true), !bytes.isEmpty else { return nil }
        let declared = mime.flatMap { $0.isEmpty || $0 == "application/octet-stream" ? nil : $0.lowercased() }
        return PhotoData(bytes: bytes, mimeType: declared ?? ImageFormat.mimeType(sniffing: bytes))
    }
}
